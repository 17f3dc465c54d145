//! What the network looks like: the game-facing [`NetShape`] and the size [`NetConfig`].
//!
//! The shape comes from the games crate (as data, so this crate does not depend on it); the
//! config adds the tower and head sizes, picked by a named [`Preset`] or written by hand.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};

/// The input and output geometry a game asks of the network.
///
/// Input: `planes` feature planes over a `height × width` grid, row-major `[B, planes, H, W]`.
/// Output: one logit per action, laid out as `cell * policy_channels + channel` for the
/// `cells.len()` board cells, then one last "end-move" action; and `value_classes` outcome
/// logits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    /// Number of input feature planes.
    pub planes: usize,
    /// Grid height (rows).
    pub height: usize,
    /// Grid width (columns).
    pub width: usize,
    /// Policy outputs per board cell (e.g. direction × step/leap).
    pub policy_channels: usize,
    /// For each board cell in cell-index order, its flat grid index `row * width + col`.
    /// Boards that are not rectangular leave some grid positions out.
    pub cells: Vec<u16>,
    /// Number of outcome classes the value head predicts.
    pub value_classes: usize,
}

impl NetShape {
    /// Number of policy outputs: `cells.len() * policy_channels + 1` (the last is end-move).
    pub fn num_actions(&self) -> usize {
        self.cells.len() * self.policy_channels + 1
    }

    /// Index of the end-move action (the last one).
    pub fn end_move_action(&self) -> usize {
        self.cells.len() * self.policy_channels
    }

    /// Number of `f32`s in one encoded position: `planes * height * width`.
    pub fn input_len(&self) -> usize {
        self.planes * self.height * self.width
    }

    /// Checks the shape is usable: everything non-zero, cells on the grid and distinct.
    pub fn validate(&self) -> Result<()> {
        let bad = |msg: String| Err(ModelError::InvalidShape(msg));
        if self.planes == 0 || self.height == 0 || self.width == 0 {
            return bad(format!(
                "planes, height and width must be non-zero (got {}×{}×{})",
                self.planes, self.height, self.width
            ));
        }
        if self.policy_channels == 0 {
            return bad("policy_channels must be non-zero".into());
        }
        if self.value_classes < 2 {
            return bad(format!("value_classes must be at least 2, got {}", self.value_classes));
        }
        if self.cells.is_empty() {
            return bad("the cell map is empty".into());
        }
        let grid = self.height * self.width;
        let mut seen = vec![false; grid];
        for (cell, &pos) in self.cells.iter().enumerate() {
            let pos = usize::from(pos);
            if pos >= grid {
                return bad(format!("cell {cell} maps to grid index {pos}, outside {grid}"));
            }
            if std::mem::replace(&mut seen[pos], true) {
                return bad(format!("cell {cell} maps to grid index {pos}, already used"));
            }
        }
        Ok(())
    }
}

/// A named network size: `b{blocks}c{channels}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// 4 blocks × 32 channels: tests and smoke runs.
    B4C32,
    /// 6 blocks × 64 channels: the CPU default.
    B6C64,
    /// 10 blocks × 128 channels: GPU.
    B10C128,
    /// 20 blocks × 256 channels: GPU.
    B20C256,
}

impl Preset {
    /// All presets, smallest first.
    pub const ALL: [Preset; 4] = [Preset::B4C32, Preset::B6C64, Preset::B10C128, Preset::B20C256];

    /// The preset's name, as parsed by [`FromStr`].
    pub fn name(self) -> &'static str {
        match self {
            Preset::B4C32 => "b4c32",
            Preset::B6C64 => "b6c64",
            Preset::B10C128 => "b10c128",
            Preset::B20C256 => "b20c256",
        }
    }

    /// The full config for this preset on `shape`.
    pub fn config(self, shape: NetShape) -> NetConfig {
        // (blocks, channels, policy head, value head channels, value hidden)
        let (blocks, channels, policy_head, value_head, value_hidden) = match self {
            Preset::B4C32 => (4, 32, 16, 2, 32),
            Preset::B6C64 => (6, 64, 32, 2, 64),
            Preset::B10C128 => (10, 128, 32, 4, 128),
            Preset::B20C256 => (20, 256, 64, 4, 256),
        };
        NetConfig {
            shape,
            blocks,
            channels,
            policy_head_channels: policy_head,
            value_head_channels: value_head,
            value_hidden,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = ModelError;

    /// Parses `"b6c64"` etc. (case-insensitive); anything else is [`ModelError::UnknownPreset`].
    fn from_str(s: &str) -> Result<Self> {
        let wanted = s.trim().to_ascii_lowercase();
        Preset::ALL.into_iter().find(|p| p.name() == wanted).ok_or_else(|| {
            ModelError::UnknownPreset {
                name: s.to_string(),
                known: Preset::ALL.map(Preset::name).join(", "),
            }
        })
    }
}

/// The full description of a network: shape plus sizes. Saved as JSON in checkpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetConfig {
    /// The game-facing geometry.
    pub shape: NetShape,
    /// Number of residual blocks in the tower.
    pub blocks: usize,
    /// Channels of the tower's convolutions.
    pub channels: usize,
    /// Channels of the policy head's hidden 1×1 convolution.
    pub policy_head_channels: usize,
    /// Channels of the value head's 1×1 convolution (flattened over the cells).
    pub value_head_channels: usize,
    /// Width of the value head's hidden linear layer.
    pub value_hidden: usize,
}

impl NetConfig {
    /// The config of a named preset (`"b4c32"`, `"b6c64"`, `"b10c128"`, `"b20c256"`).
    pub fn preset(name: &str, shape: NetShape) -> Result<Self> {
        Ok(name.parse::<Preset>()?.config(shape))
    }

    /// Checks the shape and that every size is non-zero.
    pub fn validate(&self) -> Result<()> {
        self.shape.validate()?;
        let sizes = [
            ("channels", self.channels),
            ("policy_head_channels", self.policy_head_channels),
            ("value_head_channels", self.value_head_channels),
            ("value_hidden", self.value_hidden),
        ];
        // Zero blocks is allowed: input conv straight into the heads.
        match sizes.iter().find(|(_, v)| *v == 0) {
            Some((name, _)) => Err(ModelError::InvalidConfig(format!("{name} must be non-zero"))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::camelot_shape;

    #[test]
    fn presets_parse_and_unknown_names_fail() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>().unwrap(), p);
        }
        assert_eq!(" B6C64 ".parse::<Preset>().unwrap(), Preset::B6C64);
        let err = "b7c99".parse::<Preset>().unwrap_err();
        assert!(matches!(err, ModelError::UnknownPreset { .. }));
        assert!(err.to_string().contains("b6c64"), "{err}");
    }

    #[test]
    fn config_round_trips_through_json() {
        let cfg = NetConfig::preset("b4c32", camelot_shape(18)).unwrap();
        let json = serde_json::to_string(&cfg).unwrap();
        assert_eq!(serde_json::from_str::<NetConfig>(&json).unwrap(), cfg);
    }

    #[test]
    fn shape_validation_catches_bad_cell_maps() {
        let mut shape = camelot_shape(18);
        assert_eq!(shape.num_actions(), 2561);
        shape.validate().unwrap();
        shape.cells[1] = shape.cells[0];
        assert!(matches!(shape.validate(), Err(ModelError::InvalidShape(_))));
        shape.cells[1] = 16 * 12;
        assert!(matches!(shape.validate(), Err(ModelError::InvalidShape(_))));
    }
}
