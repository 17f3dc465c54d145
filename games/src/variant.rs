//! The per-variant tables of the rules ([`Tables`]): the board's geometry, what landing on each
//! cell means to each player ([`Landing`]), the goal cells and the seats' frames. The trait
//! that gives them, [`Variant`](crate::Variant), is beside the position it is generic over.

use std::sync::OnceLock;

use crate::game::MAX_PLAYERS;
use crate::geometry::{Cell, Geometry};
use crate::layout::Layout;

/// What it means for a piece of a given player to land on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// An ordinary cell.
    Normal,
    /// The player's own castle: only a jump (or a Charge's jump part) may land here.
    OwnCastle,
    /// Camelot: the opponent's castle (the move ends here, the piece never leaves);
    /// Tri-Camelot: the target castle (the move ends here and wins).
    Goal,
    /// Tri-Camelot: the castle of the opponent to the right; never entered.
    Forbidden,
}

/// Precomputed per-variant tables.
#[derive(Debug)]
pub struct Tables {
    pub geometry: Geometry,
    /// `landing[player][cell]`.
    pub landing: [Vec<Landing>; MAX_PLAYERS],
    /// The goal cells of each player (Camelot: both squares of the opponent's castle).
    pub goal: [Vec<Cell>; MAX_PLAYERS],
    /// `frame_cell[seat][cell]`: the cell as seen by `seat` when it is to move (its own side at
    /// the bottom). `frame_cell[0]` is the identity.
    pub frame_cell: Vec<Vec<Cell>>,
    /// `frame_dir[seat][dir]`: the same rotation applied to directions.
    pub frame_dir: Vec<Vec<u8>>,
    /// Inverses of `frame_cell` and `frame_dir`.
    pub unframe_cell: Vec<Vec<Cell>>,
    pub unframe_dir: Vec<Vec<u8>>,
    /// The network's tensor layouts of the variant, one per [`crate::Encoding`], built by
    /// [`crate::Encode::layout`] the first time it is asked.
    pub(crate) layouts: OnceLock<[Layout; 2]>,
}

impl Tables {
    pub(crate) fn new(
        geometry: Geometry,
        landing: [Vec<Landing>; MAX_PLAYERS],
        frame_cell: Vec<Vec<Cell>>,
        frame_dir: Vec<Vec<u8>>,
    ) -> Tables {
        let goal = std::array::from_fn(|p| {
            (0..geometry.num_cells() as Cell)
                .filter(|&c| landing[p].get(c as usize) == Some(&Landing::Goal))
                .collect()
        });
        let unframe_cell = frame_cell.iter().map(|m| inverse(m)).collect();
        let unframe_dir = frame_dir.iter().map(|m| inverse(m)).collect();
        Tables {
            geometry,
            landing,
            goal,
            frame_cell,
            frame_dir,
            unframe_cell,
            unframe_dir,
            layouts: OnceLock::new(),
        }
    }
}

/// The inverse of a permutation of `0..n`.
pub(crate) fn inverse(perm: &[u8]) -> Vec<u8> {
    let mut inv = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inv[p as usize] = i as u8;
    }
    inv
}
