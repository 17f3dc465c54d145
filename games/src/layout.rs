//! The shape of a game's tensors, as the network sees it: input planes on a grid, the policy
//! laid out per cell, and the value classes. The games crate fills it in ([`crate::Encode`]);
//! the model crate builds networks from it and stores it in checkpoints (with the `serde`
//! feature), so there is one description of the shape and no copy to keep in step.

use thiserror::Error;

use crate::encoding::Encoding;

/// What the network needs to know about a game's tensors.
///
/// Input: `planes` feature planes over a `height × width` grid, row-major `[B, planes, H, W]`.
/// Output: one logit per action, laid out as `cell * policy_channels + channel` for the
/// `cells.len()` board cells, then one last "end-move" action; and `value_classes` outcome
/// logits.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Layout {
    /// The encoding the input planes follow. Checkpoints written before encodings had names
    /// carry none, and were all [`Encoding::Basic`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub encoding: Encoding,
    /// Input planes.
    pub planes: usize,
    /// Grid rows and columns.
    pub height: usize,
    pub width: usize,
    /// Policy logits per cell: directions × {step, leap}.
    pub policy_channels: usize,
    /// For each cell (in cell-index order, mover's frame), its flat grid index `row * width + col`.
    /// Action `(cell × directions + dir) × 2 + leap` is policy channel `dir × 2 + leap` at grid
    /// index `cells[cell]`; the last action (end-move) comes from a pooled head. Boards that are
    /// not rectangular leave some grid positions out.
    pub cells: Vec<u16>,
    /// Value classes: one "this seat wins" per seat, mover first in turn order, then draw.
    pub value_classes: usize,
}

/// Why a [`Layout`] cannot be used (read from a checkpoint, or written by hand in a test).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LayoutError {
    #[error("planes, height and width must be non-zero (got {planes}×{height}×{width})")]
    EmptyInput { planes: usize, height: usize, width: usize },
    #[error("policy_channels must be non-zero")]
    NoPolicyChannels,
    #[error("value_classes must be at least 2, got {0}")]
    TooFewValueClasses(usize),
    #[error("the cell map is empty")]
    NoCells,
    #[error("cell {cell} maps to grid index {pos}, outside {grid}")]
    OffGrid { cell: usize, pos: usize, grid: usize },
    #[error("cell {cell} maps to grid index {pos}, already used")]
    SharedGridIndex { cell: usize, pos: usize },
}

impl Layout {
    /// Number of policy indices (`cells × policy_channels + 1`; the last is end-move).
    pub fn num_actions(&self) -> usize {
        self.cells.len() * self.policy_channels + 1
    }

    /// Index of the end-move action (the last one).
    pub fn end_move_action(&self) -> usize {
        self.cells.len() * self.policy_channels
    }

    /// Floats in one encoded state (`planes × height × width`).
    pub fn input_len(&self) -> usize {
        self.planes * self.height * self.width
    }

    /// Checks the layout is usable: everything non-zero, cells on the grid and distinct.
    pub fn validate(&self) -> Result<(), LayoutError> {
        let (planes, height, width) = (self.planes, self.height, self.width);
        if planes == 0 || height == 0 || width == 0 {
            return Err(LayoutError::EmptyInput { planes, height, width });
        }
        if self.policy_channels == 0 {
            return Err(LayoutError::NoPolicyChannels);
        }
        if self.value_classes < 2 {
            return Err(LayoutError::TooFewValueClasses(self.value_classes));
        }
        if self.cells.is_empty() {
            return Err(LayoutError::NoCells);
        }
        let grid = height * width;
        let mut seen = vec![false; grid];
        for (cell, &pos) in self.cells.iter().enumerate() {
            let pos = usize::from(pos);
            if pos >= grid {
                return Err(LayoutError::OffGrid { cell, pos, grid });
            }
            if std::mem::replace(&mut seen[pos], true) {
                return Err(LayoutError::SharedGridIndex { cell, pos });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Camelot, Encode, TriCamelot};

    #[test]
    fn the_games_layouts_are_valid() {
        for e in Encoding::ALL {
            Camelot::layout(e).validate().unwrap();
            TriCamelot::layout(e).validate().unwrap();
            assert_eq!(Camelot::layout(e).num_actions(), 2561);
            assert_eq!(Camelot::layout(e).encoding, e);
            let tri = TriCamelot::layout(e);
            assert_eq!(tri.end_move_action() + 1, tri.num_actions());
        }
        let planes = |l: &Layout| l.planes;
        assert_eq!(planes(Camelot::layout(Encoding::Basic)), 13);
        assert_eq!(planes(Camelot::layout(Encoding::Tactical)), 23);
        assert_eq!(planes(TriCamelot::layout(Encoding::Basic)), 13);
        assert_eq!(planes(TriCamelot::layout(Encoding::Tactical)), 28);
    }

    #[test]
    fn validation_catches_bad_cell_maps() {
        let mut l = Camelot::layout(Encoding::Basic).clone();
        let first = l.cells[0];
        l.cells[1] = first;
        assert_eq!(l.validate(), Err(LayoutError::SharedGridIndex { cell: 1, pos: first.into() }));
        l.cells[1] = 16 * 12;
        assert!(matches!(l.validate(), Err(LayoutError::OffGrid { cell: 1, .. })));
        l.value_classes = 1;
        assert_eq!(
            l.validate().unwrap_err().to_string(),
            "value_classes must be at least 2, got 1"
        );
    }
}
