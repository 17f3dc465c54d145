//! [`PlayedGame`]: what the driver hands over of a finished game, its record rows as they are
//! stored, and what the session counters need beyond them.

use games::{Outcome, Player};

use crate::record::{GameRecord, PositionRow};

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The `games` row, complete but for the session's names, which the driver does not know:
    /// `run`, `variant` and `model` are empty (`model` names the player of a
    /// [teacher's](crate::Teacher) game) and `generation` is 0 until
    /// [`ShardWriter`](crate::ShardWriter) sets them. `result` is adjudicated for `move-limit`
    /// and `resign`.
    pub game: GameRecord,
    /// One row per searched decision (forced legs are not recorded), in order.
    pub positions: Vec<PositionRow>,
    /// Actions (legs) played, forced ones included.
    pub actions: u32,
    /// The outcome (None for a draw, adjudicated or not).
    pub outcome: Option<Outcome>,
    /// In a play-through game, the player who would have resigned (and when, in moves).
    pub would_have_resigned: Option<(Player, u32)>,
}

impl PlayedGame {
    /// Whether a resignation would have been wrong: the would-be resigner did not lose.
    pub fn false_resignation(&self) -> Option<bool> {
        self.would_have_resigned.map(|(p, _)| self.game.result[p.index()] > 0.0)
    }
}
