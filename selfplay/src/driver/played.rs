//! [`PlayedGame`]: what the driver hands over of a finished game, its record rows as they are
//! stored, and what the session counters need beyond them.

use games::{Game, GameOver, Outcome, Player, Termination, Values};

use super::config::SelfPlayConfig;
use records::{GameRecord, PositionRow};
use search::evaluator::draw_values;

/// How a game ended: the score share per seat, the termination, and the outcome (None for a
/// draw, adjudicated or not).
pub(crate) type Ending = (Values, Termination, Option<Outcome>);

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
    /// In a game with a sparring partner, its seat and its name: the record's `model` names
    /// the session's model at the other seats and it at its own.
    pub sparring: Option<(Player, String)>,
}

impl PlayedGame {
    /// The log of game `game_id` (seeded `seed`) about to start from `start`: no moves and no
    /// rows yet, the session's names empty (`model` as given: empty for the session's own).
    pub(crate) fn start(game_id: u64, seed: u64, start: &impl Game, model: String) -> Self {
        let game = GameRecord {
            run: String::new(),
            generation: 0,
            game_id,
            variant: String::new(),
            seed,
            start_position: start.to_string(),
            moves: Vec::new(),
            result: Vec::new(),
            termination: Termination::MoveLimit,
            plies: 0,
            model,
        };
        PlayedGame {
            game,
            positions: Vec::new(),
            actions: 0,
            outcome: None,
            would_have_resigned: None,
            sparring: None,
        }
    }

    /// How the game in `state`, with this log's moves played, ends under `config`: by the rules,
    /// or at the move cap, adjudicated by `config.move_limit`; None while it goes on.
    pub(crate) fn ending<G: Game>(&self, state: &G, config: &SelfPlayConfig) -> Option<Ending> {
        if let Some(GameOver { outcome, termination }) = state.outcome() {
            let values = state.returns().unwrap_or_else(|| draw_values(G::NUM_PLAYERS));
            return Some((values, termination, Some(outcome)));
        }
        if self.game.moves.len() as u32 >= config.max_moves {
            let outcome = config.move_limit.adjudicate(state);
            let values =
                outcome.map_or_else(|| draw_values(G::NUM_PLAYERS), |o| o.values(G::NUM_PLAYERS));
            return Some((values, Termination::MoveLimit, outcome));
        }
        None
    }

    /// The finished game of `players` seats: its result goes into the game and every row.
    pub(crate) fn finish(mut self, (values, termination, outcome): Ending, players: usize) -> Self {
        let result = values.0[..players].to_vec();
        for row in &mut self.positions {
            row.result.clone_from(&result);
        }
        self.game.result = result;
        self.game.termination = termination;
        self.game.plies = self.game.moves.len() as u32;
        self.outcome = outcome;
        self
    }

    /// Whether a resignation would have been wrong: the would-be resigner did not lose.
    pub fn false_resignation(&self) -> Option<bool> {
        self.would_have_resigned.map(|(p, _)| self.game.result[p.index()] > 0.0)
    }
}
