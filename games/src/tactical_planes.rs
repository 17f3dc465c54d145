//! Tactical features computed by the rules, for the network's input (the tactical encoding,
//! [`crate::Encoding::Tactical`]): what each seat could capture if it were to move on the
//! current board. A small convolutional network cannot follow a jump chain or a Knight's canter
//! across the board, least of all an *optional* Charge; the move generator can, so it hands the
//! network the answer (as KataGo hands its network ladder features).
//!
//! For each seat, one run of the legal move generator on the current board with that seat to
//! move (its castle-move count and the rule options as in the position) gives:
//! - the pieces its jump moves capture (a Man's or Knight's chain of jumps);
//! - the pieces its Charges capture (a Knight's canters, then jumps);
//! - the cells its Charges are launched from (where the canter part ends);
//! - the material its best capturing move wins (Men 1, Knights [`KNIGHT_IN_MEN`]);
//! - whether capturing is compulsory for it (every legal move captures).
//!
//! During a move in progress the board is the one with the legs played so far; the features
//! are still those of a fresh turn on that board.

use crate::board::{Board, PieceKind};
use crate::game::Player;
use crate::geometry::{Cell, Geometry, MAX_CELLS};
use crate::movegen::{MoveSink, generate};
use crate::mv::MoveKind;
use crate::options::RuleOptions;
use crate::position::Variant;

/// A Knight's worth in Men when captures are weighed ([`Game::capture_gains`]), as the
/// classical players' material count weighs it (140 against 100).
pub const KNIGHT_IN_MEN: f32 = 1.4;

/// Material at which the best-capture feature saturates (the plane holds `gain / cap`, at most 1).
pub const CAPTURE_GAIN_CAP: f32 = 4.0;

/// What one seat could capture if it were to move on a board.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatTactics {
    /// Indexed by cell: a piece there is captured by one of the seat's jump moves.
    pub jump_captures: [bool; MAX_CELLS],
    /// Indexed by cell: a piece there is captured by one of the seat's Charges.
    pub charge_captures: [bool; MAX_CELLS],
    /// Indexed by cell: one of the seat's Charges ends its canter part (and starts jumping) here.
    pub charge_launches: [bool; MAX_CELLS],
    /// The material the seat's best capturing move wins (0 when it has none).
    pub best_gain: f32,
    /// Whether the seat has a capturing move and no other (capturing is compulsory for it).
    pub compulsory: bool,
}

impl SeatTactics {
    /// The tactics of `seat` on `board`, as if it were to move there.
    pub fn of<V: Variant>(
        board: &Board,
        seat: Player,
        castle_moves: [u8; 2],
        options: RuleOptions,
    ) -> Self {
        let mut sink = TacticsSink {
            geo: &V::tables().geometry,
            board,
            tactics: SeatTactics::none(),
            captures: false,
            quiet: false,
        };
        generate::<V, _>(board, seat, castle_moves, options, &mut sink);
        let mut tactics = sink.tactics;
        tactics.compulsory = sink.captures && !sink.quiet;
        tactics
    }

    /// No capture anywhere (what a seat without pieces has).
    pub fn none() -> Self {
        SeatTactics {
            jump_captures: [false; MAX_CELLS],
            charge_captures: [false; MAX_CELLS],
            charge_launches: [false; MAX_CELLS],
            best_gain: 0.0,
            compulsory: false,
        }
    }

    /// The best-capture feature: `best_gain / CAPTURE_GAIN_CAP`, at most 1.
    pub fn gain_feature(&self) -> f32 {
        (self.best_gain / CAPTURE_GAIN_CAP).min(1.0)
    }
}

/// The worth in Men of the pieces a move's jump legs `first_jump..` capture on `board` (the
/// board before the move): Men 1, Knights [`KNIGHT_IN_MEN`].
pub(crate) fn capture_worth(
    geo: &Geometry,
    board: &Board,
    path: &[Cell],
    first_jump: usize,
) -> f32 {
    (first_jump..path.len() - 1)
        .map(|i| {
            let mid = geo.midpoint(path[i], path[i + 1]).expect("a jump leg is a leap");
            match board.get(mid).map(|p| p.kind) {
                Some(PieceKind::Knight) => KNIGHT_IN_MEN,
                Some(PieceKind::Man) => 1.0,
                None => 0.0,
            }
        })
        .sum()
}

/// Collects [`SeatTactics`] from the generated moves without storing them.
struct TacticsSink<'a> {
    geo: &'a Geometry,
    board: &'a Board,
    tactics: SeatTactics,
    captures: bool,
    quiet: bool,
}

impl MoveSink for TacticsSink<'_> {
    fn push(&mut self, path: &[Cell], kind: MoveKind, canter_legs: usize) {
        let first_jump = match kind {
            MoveKind::Jump => 0,
            MoveKind::Charge => canter_legs,
            MoveKind::Plain | MoveKind::Canter => {
                self.quiet = true;
                return;
            }
        };
        self.captures = true;
        let t = &mut self.tactics;
        let captured =
            if kind == MoveKind::Jump { &mut t.jump_captures } else { &mut t.charge_captures };
        for i in first_jump..path.len() - 1 {
            let mid = self.geo.midpoint(path[i], path[i + 1]).expect("a jump leg is a leap");
            captured[mid as usize] = true;
        }
        if kind == MoveKind::Charge {
            t.charge_launches[path[canter_legs] as usize] = true;
        }
        t.best_gain = t.best_gain.max(capture_worth(self.geo, self.board, path, first_jump));
    }
}
