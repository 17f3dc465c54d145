//! Where the pieces stand: a mailbox of cells with per-player piece counts.

use crate::game::{MAX_PLAYERS, Player};
use crate::geometry::{Cell, MAX_CELLS};

/// The two kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    Knight,
    Man,
}

impl PieceKind {
    /// `K` or `M`, as in position strings.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Knight => 'K',
            PieceKind::Man => 'M',
        }
    }
}

/// A piece of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub owner: Player,
    pub kind: PieceKind,
}

impl Piece {
    /// Dense code in `1..=2 * MAX_PLAYERS` (0 is an empty cell), used by the board and hashing.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + 2 * self.owner.0 + matches!(self.kind, PieceKind::Knight) as u8
    }

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let kind = if (code - 1) & 1 == 1 { PieceKind::Knight } else { PieceKind::Man };
        Some(Piece { owner: Player((code - 1) / 2), kind })
    }
}

/// An empty cell.
pub(crate) const EMPTY: u8 = 0;

/// The contents of every cell (of either board) and how many pieces each player has.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; MAX_CELLS],
    counts: [u8; MAX_PLAYERS],
}

impl Default for Board {
    fn default() -> Self {
        Board { cells: [EMPTY; MAX_CELLS], counts: [0; MAX_PLAYERS] }
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.pieces(MAX_CELLS)).finish()
    }
}

impl Board {
    /// The piece on a cell.
    #[inline]
    pub fn get(&self, c: Cell) -> Option<Piece> {
        Piece::from_code(self.cells[c as usize])
    }

    /// The raw code of a cell (0 = empty).
    #[inline]
    pub(crate) fn code(&self, c: Cell) -> u8 {
        self.cells[c as usize]
    }

    /// Whether a cell is empty.
    #[inline]
    pub fn is_empty(&self, c: Cell) -> bool {
        self.cells[c as usize] == EMPTY
    }

    /// The owner of the piece on a cell.
    #[inline]
    pub fn owner(&self, c: Cell) -> Option<Player> {
        let code = self.cells[c as usize];
        (code != EMPTY).then(|| Player((code - 1) / 2))
    }

    /// Puts a piece on an empty cell.
    #[inline]
    pub fn put(&mut self, c: Cell, p: Piece) {
        debug_assert!(self.is_empty(c));
        self.cells[c as usize] = p.code();
        self.counts[p.owner.index()] += 1;
    }

    /// Removes and returns the piece on a cell.
    #[inline]
    pub fn take(&mut self, c: Cell) -> Option<Piece> {
        let p = self.get(c)?;
        self.cells[c as usize] = EMPTY;
        self.counts[p.owner.index()] -= 1;
        Some(p)
    }

    /// How many pieces a player has.
    #[inline]
    pub fn count(&self, p: Player) -> usize {
        self.counts[p.index()] as usize
    }

    /// Every piece on the first `num_cells` cells, in cell order.
    pub fn pieces(&self, num_cells: usize) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.cells[..num_cells]
            .iter()
            .enumerate()
            .filter_map(|(c, &code)| Piece::from_code(code).map(|p| (c as Cell, p)))
    }

    /// Removes every piece of a player (Tri-Camelot elimination).
    pub fn remove_all(&mut self, p: Player) {
        for code in self.cells.iter_mut() {
            if *code != EMPTY && (*code - 1) / 2 == p.0 {
                *code = EMPTY;
            }
        }
        self.counts[p.index()] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for owner in 0..MAX_PLAYERS as u8 {
            for kind in [PieceKind::Knight, PieceKind::Man] {
                let p = Piece { owner: Player(owner), kind };
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
    }
}
