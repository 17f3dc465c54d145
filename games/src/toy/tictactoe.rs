//! Tic-tac-toe: the smallest 2-player game with forced wins and forced blocks.
//!
//! Cells are numbered 0..9 row by row from the top left; an action is the cell to mark, and its
//! policy index is the cell number. X (seat 0) moves first.

use std::fmt;

use crate::game::{Game, GameOver, Outcome, Player, Termination};

use super::ToyError;
use crate::seed::splitmix64;

/// The eight lines of three cells.
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A tic-tac-toe position. Each cell holds `None` or the seat that marked it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    cells: [Option<Player>; 9],
    over: Option<GameOver>,
}

impl TicTacToe {
    /// Parses a board such as `"XX./OO./..."` (slashes and spaces are ignored). The player to
    /// move follows from the counts: X when they are equal, O when X has one more.
    pub fn parse(s: &str) -> Result<Self, ToyError> {
        let marks: Vec<char> = s.chars().filter(|c| !matches!(c, '/' | ' ')).collect();
        if marks.len() != 9 {
            return Err(ToyError::BadBoard(s.to_string()));
        }
        let mut t = TicTacToe::default();
        for (cell, &c) in t.cells.iter_mut().zip(&marks) {
            *cell = match c {
                'X' | 'x' => Some(Player(0)),
                'O' | 'o' => Some(Player(1)),
                '.' => None,
                _ => return Err(ToyError::BadBoard(s.to_string())),
            };
        }
        let x = t.count(Player(0));
        let o = t.count(Player(1));
        if x != o && x != o + 1 {
            return Err(ToyError::BadCounts { x, o });
        }
        t.over = t.judge();
        Ok(t)
    }

    /// The mark on `cell` (0..9), if any.
    pub fn cell(&self, cell: usize) -> Option<Player> {
        self.cells.get(cell).copied().flatten()
    }

    fn count(&self, p: Player) -> usize {
        self.cells.iter().filter(|&&c| c == Some(p)).count()
    }

    /// The result of the board as it stands: a completed line wins, a full board is a draw.
    fn judge(&self) -> Option<GameOver> {
        for line in LINES {
            if let Some(p) = self.cells[line[0]]
                && line.iter().all(|&c| self.cells[c] == Some(p))
            {
                return Some(GameOver {
                    outcome: Outcome::Win(p),
                    termination: Termination::Castle,
                });
            }
        }
        if self.cells.iter().all(Option::is_some) {
            return Some(GameOver { outcome: Outcome::Draw, termination: Termination::Draw });
        }
        None
    }
}

impl Game for TicTacToe {
    /// The cell to mark, 0..9.
    type Action = u8;

    const NAME: &'static str = "tictactoe";
    const NUM_PLAYERS: usize = 2;
    const NUM_ACTIONS: usize = 9;

    fn initial() -> Self {
        TicTacToe::default()
    }

    fn to_move(&self) -> Player {
        // X moves whenever the counts are equal.
        if self.count(Player(0)) == self.count(Player(1)) { Player(0) } else { Player(1) }
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.over.is_none() {
            out.extend((0..9u8).filter(|&c| self.cells[c as usize].is_none()));
        }
    }

    fn play(&mut self, action: u8) {
        debug_assert!(self.is_legal(action), "illegal action {action} in {self}");
        let mover = self.to_move();
        if let Some(cell) = self.cells.get_mut(action as usize) {
            *cell = Some(mover);
        }
        self.over = self.judge();
    }

    fn outcome(&self) -> Option<GameOver> {
        self.over
    }

    fn action_index(&self, action: u8) -> usize {
        action as usize
    }

    fn action_from_index(&self, index: usize) -> Option<u8> {
        (index < 9).then_some(index as u8)
    }

    fn hash(&self) -> u64 {
        // Base-3 packing is exact (3^9 < 2^15); the mover and result follow from the board.
        let packed = self.cells.iter().fold(0u64, |h, c| h * 3 + c.map_or(0, |p| 1 + p.0 as u64));
        splitmix64(packed)
    }

    fn action_to_string(&self, action: u8) -> String {
        format!("{}{}", ['a', 'b', 'c'][action as usize % 3], 3 - action as usize / 3)
    }
}

impl fmt::Display for TicTacToe {
    /// The board in the form [`TicTacToe::parse`] reads, e.g. `XX./OO./...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 && i % 3 == 0 {
                f.write_str("/")?;
            }
            f.write_str(match c {
                Some(Player(0)) => "X",
                Some(_) => "O",
                None => ".",
            })?;
        }
        Ok(())
    }
}

impl fmt::Debug for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TicTacToe({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Values;

    #[test]
    fn random_games_keep_the_contract() {
        super::super::check::random_games::<TicTacToe>(300, 10);
    }

    #[test]
    fn a_line_wins_for_its_owner() {
        let mut t = TicTacToe::parse("XX./OO./...").unwrap();
        assert_eq!(t.to_move(), Player(0));
        t.play(2);
        assert_eq!(t.outcome().unwrap().outcome, Outcome::Win(Player(0)));
        assert_eq!(t.returns(), Some(Values([1.0, 0.0, 0.0])));
        let mut legal = vec![1];
        t.legal_actions(&mut legal);
        assert!(legal.is_empty());
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let t = TicTacToe::parse("XOX/XOO/OXX").unwrap();
        assert_eq!(t.outcome().unwrap().outcome, Outcome::Draw);
        assert_eq!(t.returns(), Some(Values([0.5, 0.5, 0.0])));
    }

    #[test]
    fn o_moves_after_x() {
        let mut t = TicTacToe::initial();
        t.play(4);
        assert_eq!(t.to_move(), Player(1));
        let mut legal = Vec::new();
        t.legal_actions(&mut legal);
        assert_eq!(legal, vec![0, 1, 2, 3, 5, 6, 7, 8]);
    }

    #[test]
    fn display_round_trips_and_bad_input_is_an_error() {
        let t = TicTacToe::parse("X.O/.X./..O").unwrap();
        assert_eq!(t.to_string(), "X.O/.X./..O");
        assert_eq!(TicTacToe::parse(&t.to_string()), Ok(t));
        assert!(matches!(TicTacToe::parse("XXX/.../..."), Err(ToyError::BadCounts { x: 3, o: 0 })));
        assert!(matches!(TicTacToe::parse("XO"), Err(ToyError::BadBoard(_))));
        assert!(matches!(TicTacToe::parse("XQ./.../..."), Err(ToyError::BadBoard(_))));
    }

    #[test]
    fn hash_tells_positions_apart() {
        let a = TicTacToe::parse("X../.../...").unwrap();
        let b = TicTacToe::parse(".X./.../...").unwrap();
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.hash(), TicTacToe::parse("X../.../...").unwrap().hash());
    }
}
