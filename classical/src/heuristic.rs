//! [`Heuristic`]: the static evaluation of the classical players (`alphabeta`, and the `mcts`
//! player's playouts cut off after `cutoff` moves).
//!
//! Each seat gets a score in hundredths of a Man ([`MAN`] = 100):
//! - **material**: every piece it has, a Knight worth [`KNIGHT`];
//! - **progress**: each piece earns up to [`PROGRESS`] more the closer it stands to the seat's
//!   goal castle (quadratic in [`GoalDistances::closeness`], so the last steps count most), plus
//!   [`NEXT_TO_GOAL`] when one step from an empty goal cell (an entry threatened for the next move);
//! - **castle occupancy** (Camelot): [`IN_CASTLE`] per piece standing in the opponent's castle,
//!   half of the win that both squares give.
//!
//! The opponent's threats of capture are not guessed statically: the alpha-beta search plays out
//! capture chains and castle entries in its quiescence search, and a cut-off playout stops after
//! a move that has already made them.
//!
//! A position is judged for one seat as its own score minus the mean of the other seats'
//! ([`Heuristic::score_for`], the paranoid view of a multi-player search), or as score shares for
//! every seat at once ([`Heuristic::values`], a softmax of the scores; [`Heuristic::board_values`]
//! for a board with a move in progress, as self-play's `leaf_heuristic` mixes them in).

use games::{
    Board, GoalDistances, MAX_PLAYERS, Outcome, PieceKind, Player, Position, Values, Variant,
};

/// The score of a won game (less the plies to it, in the alpha-beta search); losses score its
/// negation.
pub const WIN: i32 = 1_000_000;
/// Scores at or beyond ±`FORCED` are forced results (a win or a loss within 1,000 plies), not
/// evaluations: the static score stays far below it.
pub const FORCED: i32 = WIN - 1000;
/// A Man, the unit of the scores.
pub const MAN: i32 = 100;
/// A Knight: it canters and charges, so it is worth more than a Man.
pub const KNIGHT: i32 = 140;
/// Most a piece earns for standing next to its goal.
pub const PROGRESS: i32 = 60;
/// A piece one step from an empty goal cell.
pub const NEXT_TO_GOAL: i32 = 30;
/// A piece inside the opponent's castle (Camelot).
pub const IN_CASTLE: i32 = 250;
/// The score difference that makes a share of `e ≈ 2.7` to 1 in [`Heuristic::values`]: a Man
/// and a half.
pub const SOFTMAX_SCALE: f32 = 150.0;

/// The evaluation of variant `V`'s positions (its goal distances computed once).
#[derive(Clone, Debug)]
pub struct Heuristic {
    distances: GoalDistances,
}

impl Heuristic {
    /// The heuristic of variant `V`.
    pub fn new<V: Variant>() -> Self {
        Heuristic { distances: GoalDistances::new::<V>() }
    }

    /// Each seat's score (entries beyond `V::NUM_PLAYERS` are 0; a seat without pieces scores 0).
    pub fn seat_scores<V: Variant>(&self, pos: &Position<V>) -> [i32; MAX_PLAYERS] {
        self.board_scores::<V>(pos.board())
    }

    /// Each seat's score on a board of variant `V` (as [`Heuristic::seat_scores`]).
    fn board_scores<V: Variant>(&self, board: &Board) -> [i32; MAX_PLAYERS] {
        let tables = V::tables();
        let mut scores = [0; MAX_PLAYERS];
        for (cell, piece) in board.pieces(tables.geometry.num_cells()) {
            let seat = piece.owner.index();
            let mut s = match piece.kind {
                PieceKind::Man => MAN,
                PieceKind::Knight => KNIGHT,
            };
            let steps = self.distances.steps(seat, cell);
            if steps == 0 {
                // Only Camelot keeps a piece on a goal cell (a Tri-Camelot entry ends the game).
                s += IN_CASTLE;
            } else {
                let c = self.distances.closeness(seat, cell);
                s += (PROGRESS as f32 * c * c).round() as i32;
                if steps == 1 && tables.goal[seat].iter().any(|&g| board.is_empty(g)) {
                    s += NEXT_TO_GOAL;
                }
            }
            scores[seat] += s;
        }
        scores
    }

    /// The position judged for `seat`: its score minus the mean score of the other seats.
    pub fn score_for<V: Variant>(&self, pos: &Position<V>, seat: Player) -> i32 {
        let scores = self.seat_scores(pos);
        let others: i32 =
            (0..V::NUM_PLAYERS).filter(|&s| s != seat.index()).map(|s| scores[s]).sum();
        scores[seat.index()] - others / (V::NUM_PLAYERS as i32 - 1)
    }

    /// Score shares for every seat: a softmax of the seat scores over [`SOFTMAX_SCALE`], seats
    /// without pieces getting none. They sum to 1, as a finished game's do.
    pub fn values<V: Variant>(&self, pos: &Position<V>) -> Values {
        self.board_values::<V>(pos.board())
    }

    /// The score shares of [`Heuristic::values`] on a board of variant `V`: also a board with the
    /// legs of a move in progress applied (captured pieces gone, the moving piece where it
    /// landed).
    pub fn board_values<V: Variant>(&self, board: &Board) -> Values {
        shares::<V>(board, self.board_scores::<V>(board))
    }

    /// The score shares of [`Heuristic::board_values`] when `seat`'s score against the others
    /// is `judged` (as [`Heuristic::score_for`] counts it, e.g. a quiescence search's result)
    /// instead of the board's static one: the seat's own score is moved by the difference. For
    /// two seats that is exactly the logistic share of `judged`.
    pub fn judged_values<V: Variant>(&self, board: &Board, seat: Player, judged: i32) -> Values {
        let mut scores = self.board_scores::<V>(board);
        let n = V::NUM_PLAYERS as i32;
        let others: i32 =
            (0..V::NUM_PLAYERS).filter(|&s| s != seat.index()).map(|s| scores[s]).sum();
        scores[seat.index()] = judged + others / (n - 1);
        shares::<V>(board, scores)
    }

    /// The score shares of a search's result `score` for `seat` (an [`AlphaBeta`] score): a
    /// forced win is the seat's whole share, a forced loss leaves it none (the others share),
    /// and anything else is [`Heuristic::judged_values`].
    ///
    /// [`AlphaBeta`]: super::alphabeta::AlphaBeta
    pub fn searched_values<V: Variant>(&self, board: &Board, seat: Player, score: i32) -> Values {
        let n = V::NUM_PLAYERS;
        if score >= FORCED {
            return Outcome::Win(seat).values(n);
        }
        if score <= -FORCED {
            let mut v = [1.0 / (n - 1) as f32; MAX_PLAYERS];
            v[seat.index()] = 0.0;
            v[n..].fill(0.0);
            return Values(v);
        }
        self.judged_values::<V>(board, seat, score)
    }
}

/// A softmax of the seat scores over [`SOFTMAX_SCALE`], seats without pieces on `board` getting
/// none (all equal when none has pieces).
fn shares<V: Variant>(board: &Board, scores: [i32; MAX_PLAYERS]) -> Values {
    let alive = |s: usize| board.count(Player(s as u8)) > 0;
    let top = (0..V::NUM_PLAYERS).filter(|&s| alive(s)).map(|s| scores[s]).max().unwrap_or(0);
    let mut v = [0.0; MAX_PLAYERS];
    for (s, x) in v.iter_mut().enumerate().take(V::NUM_PLAYERS) {
        if alive(s) {
            *x = ((scores[s] - top) as f32 / SOFTMAX_SCALE).exp();
        }
    }
    let total: f32 = v.iter().sum();
    if total > 0.0 {
        v.iter_mut().for_each(|x| *x /= total);
    } else {
        v[..V::NUM_PLAYERS].fill(1.0 / V::NUM_PLAYERS as f32);
    }
    Values(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{CamelotPosition, CamelotRules, TriCamelotPosition, TriCamelotRules};

    #[test]
    fn the_start_is_even_and_material_and_progress_count() {
        let h = Heuristic::new::<CamelotRules>();
        let start = CamelotPosition::start();
        let s = h.seat_scores(&start);
        assert_eq!(s[0], s[1], "the start is symmetric");
        assert_eq!(h.score_for(&start, Player(0)), 0);
        let v = h.values(&start);
        assert!((v.0[0] - 0.5).abs() < 1e-6 && (v.0[1] - 0.5).abs() < 1e-6);
        // A Man more is worth about a Man; the same Man nearer the goal is worth more.
        let up: CamelotPosition = "camelot W W:KA4,MF8,ME6 B:KL13,MF11 cm=0,0".parse().unwrap();
        let further: CamelotPosition =
            "camelot W W:KA4,MF12,ME6 B:KL13,MF11 cm=0,0".parse().unwrap();
        let d = h.score_for(&up, Player(0));
        assert!((MAN..MAN + 2 * PROGRESS).contains(&d), "{d}");
        assert!(h.score_for(&further, Player(0)) > d);
        assert_eq!(h.score_for(&up, Player(1)), -d);
        // A piece in the opponent's castle is worth a good deal more.
        let castle: CamelotPosition =
            "camelot W W:KA4,MF16,ME6 B:KL13,MF11 cm=0,0".parse().unwrap();
        assert!(h.score_for(&castle, Player(0)) >= d - PROGRESS + IN_CASTLE);
        let v = h.values(&up);
        assert!(v.0[0] > 0.6 && (v.0[0] + v.0[1] - 1.0).abs() < 1e-6, "{v:?}");
    }

    #[test]
    fn a_judged_score_moves_the_seats_share() {
        let h = Heuristic::new::<CamelotRules>();
        let up: CamelotPosition = "camelot W W:KA4,MF8,ME6 B:KL13,MF11 cm=0,0".parse().unwrap();
        let board = up.board();
        // Judged as the static score, the shares are the board's.
        let stand = h.score_for(&up, Player(1));
        let same = h.judged_values::<CamelotRules>(board, Player(1), stand);
        let plain = h.values(&up);
        assert!((same.0[1] - plain.0[1]).abs() < 1e-5, "{same:?} {plain:?}");
        // Two seats: the share is the logistic of the judged score.
        for judged in [-300, 0, 150] {
            let v = h.judged_values::<CamelotRules>(board, Player(1), judged);
            let logistic = 1.0 / (1.0 + (-(judged as f32) / SOFTMAX_SCALE).exp());
            assert!((v.0[1] - logistic).abs() < 1e-3, "{judged}: {v:?}");
            assert!((v.0[0] + v.0[1] - 1.0).abs() < 1e-6);
        }
    }

    #[test]
    fn tri_camelot_scores_every_seat_and_the_eliminated_get_nothing() {
        let h = Heuristic::new::<TriCamelotRules>();
        let start = TriCamelotPosition::start();
        let s = h.seat_scores(&start);
        assert!(s[0] == s[1] && s[1] == s[2], "{s:?}");
        let v = h.values(&start);
        assert!(v.0.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-6));
        let two: TriCamelotPosition =
            "tricamelot B B:KE4,KF5,KG4,MD5 R: G:KI14,KI16,KJ13,MH13".parse().unwrap();
        let v = h.values(&two);
        assert_eq!(v.0[1], 0.0);
        assert!((v.0[0] + v.0[2] - 1.0).abs() < 1e-6);
    }
}
