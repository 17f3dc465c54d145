//! The classical players and judges of camelot-zero, which need no network: they are the
//! anchors of the absolute Elo scale, the teacher's search, the guard of a model's searches and
//! the heuristic mixed into its leaves.
//!
//! - [`heuristic`]: [`Heuristic`], the static evaluation (material, progress, castle occupancy);
//! - [`alphabeta`]: [`AlphaBeta`], iterative-deepening alpha-beta with quiescence;
//! - [`greedy`]: the one-ply greedy player;
//! - [`rollout`]: the `mcts` player's random playouts, cut off and scored by the heuristic;
//! - [`tactics`]: [`TacticsGuard`], the judge of a [`search::TacticsFilter`], and
//!   [`GuardedSearch`], every search of a playing model;
//! - [`leaf_heuristic`]: [`LeafHeuristic`], the heuristic's values mixed into a network's.
//!
//! ```
//! use classical::{AlphaBeta, AlphaBetaLimits};
//! use games::{CamelotPosition, CamelotRules};
//!
//! // Black jumps the White Man on F8 (a capture is compulsory).
//! let pos: CamelotPosition = "camelot B W:KA4,MF8 B:KA13,MF9 cm=0,0".parse().unwrap();
//! let mut searcher = AlphaBeta::<CamelotRules>::new(AlphaBetaLimits { depth: 1, time: None });
//! let found = searcher.search(&pos).expect("Black has moves");
//! assert_eq!(pos.notation(&found.best), "F9xF7");
//! ```

pub mod alphabeta;
pub mod greedy;
pub mod heuristic;
pub mod leaf_heuristic;
pub mod rollout;
pub mod tactics;

pub use alphabeta::{AlphaBeta, AlphaBetaLimits};
pub use greedy::greedy_move;
pub use heuristic::Heuristic;
pub use leaf_heuristic::{HeuristicMix, Judge, LeafHeuristic};
pub use rollout::MoveRollouts;
pub use tactics::{GuardedSearch, Guards, TacticsGuard};
