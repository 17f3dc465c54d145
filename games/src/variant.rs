//! What differs between Camelot and Tri-Camelot, behind one trait, so that move generation,
//! notation, perft and the leg interface are written once.

use std::fmt::Debug;
use std::hash::Hash;

use crate::game::{GameOver, MAX_PLAYERS, Player};
use crate::geometry::{Cell, Geometry};
use crate::position::Position;

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
        Tables { geometry, landing, goal, frame_cell, frame_dir, unframe_cell, unframe_dir }
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

/// A set of rules: Camelot or Tri-Camelot.
pub trait Variant:
    Copy + Clone + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// `camelot` or `tricamelot`, the first word of a position string.
    const NAME: &'static str;
    const NUM_PLAYERS: usize;
    /// Cells and directions of the board (checked against the geometry by the tests).
    const NUM_CELLS: usize;
    const NUM_DIRS: usize;
    /// Seat letters in turn order, as in position strings.
    const PLAYER_LETTERS: &'static [char];
    /// Player names in turn order.
    const PLAYER_NAMES: &'static [&'static str];
    /// The start position string.
    const START: &'static str;
    /// Knights and Men each player starts with (and can never exceed).
    const KNIGHTS: usize;
    const MEN: usize;
    /// Whether castle moves exist (Camelot) and the position string carries `cm=`.
    const CASTLE_MOVES: bool;

    /// Rows and columns of the grid the board is laid on for the network.
    const GRID: (usize, usize);

    fn tables() -> &'static Tables;

    /// The (row, column) of the cell at (file, rank) on that grid.
    fn grid_pos(file: i8, rank: i8) -> (usize, usize);

    /// Passes the turn after `mover` completed a move (None: a position was just parsed, and
    /// the side to move stays) and records the end of the game if it is over. Camelot leaves the
    /// "no legal move" rule to [`Variant::no_move`], which needs move generation; Tri-Camelot
    /// must eliminate players without moves here, so it may generate moves.
    fn settle(pos: &mut Position<Self>, mover: Option<Player>);

    /// The result when the player to move has no legal move (only reached for Camelot).
    fn no_move(pos: &Position<Self>) -> GameOver;

    /// The seat after `p` in turn order (eliminated players included).
    fn next_seat(p: Player) -> Player {
        Player((p.0 + 1) % Self::NUM_PLAYERS as u8)
    }
}
