//! A complete move: the path of cells its piece lands on, and which legs are jumps.

use smallvec::SmallVec;

use crate::geometry::{Cell, Geometry};

/// The four shapes a move can have (a castle move is a plain move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// One step to an empty neighbour.
    Plain,
    /// One or more leaps over friendly pieces.
    Canter,
    /// One or more leaps over enemy pieces, each capturing.
    Jump,
    /// A Knight's canters followed by jumps.
    Charge,
}

/// A complete legal move. `path[0]` is the start cell, each later cell is where a leg lands.
/// For a Charge, the first `canter_legs` legs are canters and the rest are jumps.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    path: SmallVec<[Cell; 16]>,
    kind: MoveKind,
    canter_legs: u8,
}

impl Move {
    /// Builds a move; `canter_legs` counts the leading canter legs (only used by Charges).
    pub(crate) fn new(path: &[Cell], kind: MoveKind, canter_legs: usize) -> Move {
        debug_assert!(path.len() >= 2);
        Move { path: SmallVec::from_slice(path), kind, canter_legs: canter_legs as u8 }
    }

    /// The cells landed on, start first.
    pub fn path(&self) -> &[Cell] {
        &self.path
    }

    /// The start cell.
    pub fn from(&self) -> Cell {
        self.path[0]
    }

    /// The cell the piece ends on.
    pub fn to(&self) -> Cell {
        *self.path.last().expect("a move has at least two cells")
    }

    /// The shape of the move.
    pub fn kind(&self) -> MoveKind {
        self.kind
    }

    /// Number of legs.
    pub fn num_legs(&self) -> usize {
        self.path.len() - 1
    }

    /// Whether leg `i` (from `path[i]` to `path[i+1]`) is a jump.
    pub fn is_jump_leg(&self, i: usize) -> bool {
        match self.kind {
            MoveKind::Jump => true,
            MoveKind::Charge => i >= self.canter_legs as usize,
            MoveKind::Plain | MoveKind::Canter => false,
        }
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        matches!(self.kind, MoveKind::Jump | MoveKind::Charge)
    }

    /// The cells of the captured pieces, in capture order.
    pub fn captures<'a>(&'a self, g: &'a Geometry) -> impl Iterator<Item = Cell> + 'a {
        (0..self.num_legs())
            .filter(|&i| self.is_jump_leg(i))
            .map(move |i| g.midpoint(self.path[i], self.path[i + 1]).expect("a jump leg is a leap"))
    }

    /// Official notation, e.g. `F5-F9-H11xF13xD11`.
    pub fn notation(&self, g: &Geometry) -> String {
        let mut s = String::with_capacity(4 * self.path.len());
        s.push_str(g.name(self.path[0]));
        for i in 0..self.num_legs() {
            s.push(if self.is_jump_leg(i) { 'x' } else { '-' });
            s.push_str(g.name(self.path[i + 1]));
        }
        s
    }
}
