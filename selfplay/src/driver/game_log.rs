//! What the driver keeps of a finished game: the moves, the result, and one [`Decision`] per
//! searched decision (the training rows).

use games::{Player, Termination, Values};

/// One searched decision (forced legs are not recorded).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Index of the action within the game (0 = the first action).
    pub ply: u32,
    /// Complete moves played before it.
    pub move_number: u32,
    /// The state as its `Display` prints it (a position string, maybe with ` move=...`).
    pub position: String,
    /// The seat to move.
    pub mover: u8,
    /// Policy target: action indices (mover's frame) and their probabilities (sums to 1).
    pub policy_actions: Vec<u16>,
    pub policy_target: Vec<f32>,
    /// Searched values of the root, per seat.
    pub root_values: Values,
    /// The evaluator's values of the root, per seat.
    pub net_values: Values,
    /// Whether this decision got the full search (and is a policy target).
    pub full_search: bool,
}

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    pub game_id: u64,
    /// Seed of this game's random choices (derived from the run seed and the game id).
    pub seed: u64,
    pub start_position: String,
    /// Complete moves in official notation.
    pub moves: Vec<String>,
    /// Final score shares per seat (adjudicated for `move-limit` and `resign`).
    pub result: Values,
    pub termination: Termination,
    /// Actions (legs) played, forced ones included.
    pub actions: u32,
    pub decisions: Vec<Decision>,
    /// In a play-through game, the player who would have resigned (and when, in moves).
    pub would_have_resigned: Option<(Player, u32)>,
}

impl FinishedGame {
    /// Whether a resignation would have been wrong: the would-be resigner did not lose.
    pub fn false_resignation(&self) -> Option<bool> {
        self.would_have_resigned.map(|(p, _)| self.result.0[p.index()] > 0.0)
    }
}
