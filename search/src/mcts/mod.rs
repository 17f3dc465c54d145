//! Monte Carlo tree search for AlphaZero-style self-play, for any number of players.
//!
//! Names follow the papers (minigo's habit): `n` visits, `w` value sums, `q = w / n`, `prior`,
//! `c_puct`. **Values are per seat everywhere** (max^n, as OpenSpiel's MCTS): a node keeps the
//! sum of each seat's score share, and selection at a node maximises the Q of the player to
//! move at that node. No value is ever negated, so three players and several actions in a row
//! by the same player (the legs of a Camelot move) need no special case.
//!
//! - [`tree`] holds the node arena;
//! - [`select`] is PUCT with first-play urgency;
//! - [`gumbel`] is Gumbel root search with sequential halving;
//! - [`moves_left`] is the moves-left utility both selections can add to Q;
//! - [`search`] has [`Search`], split into `gather` and `apply` for batching, and `error` the
//!   [`SearchError`] it refuses with;
//! - [`policy`] adds root noise and chooses the action to play;
//! - [`config`] has [`MctsConfig`], [`play_search`] the [`PlaySearch`] of a playing model,
//!   [`tactical`] the options that order captures first, prove wins and losses and choose
//!   the move by a lower confidence bound, [`tactics_filter`] the setting of its classical
//!   guard and the [`RootFilter`] a guard implements, and [`summary`] the [`SearchSummary`];
//! - [`analysis`] turns a finished search into an [`Analysis`] for a reader.

pub mod analysis;
pub mod config;
mod error;
pub mod gumbel;
pub mod moves_left;
pub mod play_search;
pub mod policy;
mod sample;
pub mod search;
pub mod select;
pub mod summary;
pub mod tactical;
pub mod tactics_filter;
pub mod tree;

#[cfg(test)]
mod forced_tests;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod tactical_tests;

pub use analysis::{ActionLine, Analysis, FirstSearch, complete_move, complete_move_analysed};
pub use config::{
    ConfigError, ForcedLegs, Fpu, MAX_SIMULATIONS, MctsConfig, QTransform, RootNoise, Selection,
    TemperatureSchedule, WinCheck,
};
pub use error::SearchError;
pub use moves_left::MovesLeft;
pub use play_search::PlaySearch;
pub use policy::{add_root_noise, choose_action, choose_by_visits};
pub use search::{Leaf, Search};
pub use summary::{SearchKind, SearchSummary};
pub use tactical::{Captures, Certainty, MoveChoice};
pub use tactics_filter::{RootFilter, TacticsFilter};
pub use tree::{Node, NodeId, NodeKind, Tree};
