//! The search of camelot-zero: MCTS with per-seat values ([`mcts`]), the [`Evaluator`] trait the
//! search gets priors and values from, evaluators that need no network, the evaluation cache
//! ([`cache`]) and the lockstep batching of many searches' leaves into one evaluation
//! ([`lockstep`]). It depends on the rules (`games`) only, and on `model` for the network
//! evaluator ([`net`], feature `net`); the players and teachers built on it live elsewhere
//! (`classical`, `selfplay`).
//!
//! ```
//! use games::Game;
//! use games::toy::TicTacToe;
//! use rand::SeedableRng;
//! use search::{MctsConfig, RootNoise, Search, UniformEvaluator, choose_action};
//!
//! // X to move wins at c3 (cell 2).
//! let position = TicTacToe::parse("XX./OO./...").unwrap();
//! let config = MctsConfig { simulations: 100, root_noise: RootNoise::None, ..MctsConfig::default() };
//! let mut search = Search::new(position, config).unwrap();
//! let mut rng = rand::rngs::StdRng::seed_from_u64(0);
//! let summary = search.run(&mut UniformEvaluator, &mut rng).unwrap();
//! assert_eq!(choose_action(&summary, 0.0, &mut rng), Some(2));
//! assert!(summary.root_values.0[0] > 0.9); // per seat: X (seat 0) is winning
//! ```

pub mod bounds;
pub mod cache;
pub mod draw_score;
pub mod evaluator;
pub mod lockstep;
pub mod mcts;
#[cfg(feature = "net")]
pub mod net;
pub mod testing;

pub use cache::CachedEvaluator;
pub use draw_score::DrawScore;
pub use evaluator::{
    BoxedEvaluator, CacheStats, Evaluation, Evaluator, RolloutEvaluator, UniformEvaluator,
    draw_values,
};
pub use lockstep::EvaluationError;
pub use mcts::{
    ForcedLegs, Fpu, Leaf, MctsConfig, PlaySearch, QTransform, RootNoise, Search, SearchError,
    SearchKind, SearchSummary, Selection, TacticsFilter, TemperatureSchedule, WinCheck,
    choose_action,
};
