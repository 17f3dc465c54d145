//! The arena: matches between players of Camelot or Tri-Camelot, with results per player and
//! seat, scores, Elo differences with 95% confidence intervals, and every game as a `games`
//! record.
//!
//! - [`spec`]: [`PlayerSpec`], a player as written on the command line (`random`, `greedy`,
//!   `mcts:sims=N[,cutoff=K]`, `alphabeta:depth=N`, `<checkpoint dir>:sims=N`);
//! - [`player`]: [`ArenaPlayer`], a loaded player (the classical ones from the `classical`
//!   crate: greedy, alpha-beta, the `mcts` player's playouts);
//! - [`clock`]: [`TimeControl`], a player's clock (`tc=B+I`);
//! - [`seats`]: seat rotation (all `n!` orders of the players) and opening seeds;
//! - [`play`]: [`play_match`], games in lockstep with batched network evaluations;
//! - [`report`]: [`MatchReport`], tallies and the results table;
//! - [`elo`]: Elo from a score and its confidence interval;
//! - [`anchors`]: the absolute Elo scale (the anchors' round robin, rating a player against them);
//! - [`rating`]: maximum-likelihood Elo of many players from all their games (anchors held fixed);
//! - [`game`]: [`ArenaGame`] and its parquet record.
//!
//! ```
//! use games::CamelotRules;
//! use selfplay::arena::{ArenaPlayer, MatchConfig, MatchReport, PlayerSpec, play_match};
//!
//! let specs: Vec<PlayerSpec> = ["greedy", "random"].iter().map(|s| s.parse().unwrap()).collect();
//! let mut players: Vec<ArenaPlayer<CamelotRules>> = specs
//!     .iter()
//!     .map(|s| ArenaPlayer::from_spec(s, &mut |_, _| Err("no networks here".into())).unwrap())
//!     .collect();
//! let config = MatchConfig { games: 4, seed: 3, ..MatchConfig::default() };
//! let (games, _stats) = play_match(&mut players, &config, |_| {}).unwrap();
//! let names: Vec<String> = specs.iter().map(|s| s.short_name()).collect();
//! let report = MatchReport::new(&names, &["White", "Black"], &games);
//! assert_eq!(report.players[0].overall.games(), 4);
//! println!("{}", report.table());
//! ```

pub mod anchors;
pub mod clock;
pub mod elo;
pub mod game;
pub mod play;
pub mod player;
pub mod rating;
pub mod report;
pub mod seats;
mod slot;
pub mod spec;

#[cfg(test)]
mod tests;

use std::path::PathBuf;

use thiserror::Error;

use records::RecordError;
use search::lockstep::EvaluationError;
use search::mcts::SearchError;

pub use clock::{PlayerWork, TimeControl};
pub use elo::{Elo, EloInterval, elo_interval};
pub use game::{ARENA_RUN, ArenaGame, write_games};
pub use games::GoalDistances;
pub use play::{DEFAULT_OPENING_MOVES, MatchConfig, MatchStats, play_match};
pub use player::{ArenaPlayer, Kind, Leaves};
pub use rating::{RatedGame, RatingError, Ratings, fit};
pub use report::{GameResult, MatchReport, PairLine, PlayerLine, Tally, head_to_head, seat_result};
pub use seats::{arrangements, seating};
pub use spec::{DEFAULT_DEPTH, DEFAULT_SIMS, LeafValues, PlayerSpec, SpecError};

/// Why a match could not be set up or played.
#[derive(Debug, Error)]
pub enum ArenaError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("{variant} needs {expected} players, got {got}")]
    PlayerCount { variant: &'static str, expected: usize, got: usize },
    #[error("a match needs at least one game")]
    NoGames,
    #[error("checkpoint {} does not exist (or is not a directory)", .0.display())]
    MissingCheckpoint(PathBuf),
    /// The loader's message names the checkpoint (else it is named here).
    #[error("{}", if message.contains(&dir.display().to_string()) { message.clone() } else { format!("loading checkpoint {}: {message}", dir.display()) })]
    Load { dir: PathBuf, message: String },
    #[error(transparent)]
    Engine(#[from] engine::EngineError),
    /// A network player's evaluator (index = player) broke its contract, or a player without a
    /// network was asked to evaluate (a bug in the match loop).
    #[error(transparent)]
    Evaluation(#[from] EvaluationError),
    #[error("search: {0}")]
    Search(#[from] SearchError),
    #[error(transparent)]
    Record(#[from] RecordError),
}
