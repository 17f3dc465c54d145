//! Self-play search for camelot-zero: MCTS with per-seat values ([`mcts`]), the [`Evaluator`]
//! trait the search gets priors and values from, and evaluators that need no network.
//!
//! ```
//! use games::Game;
//! use games::toy::TicTacToe;
//! use rand::SeedableRng;
//! use selfplay::{MctsConfig, RootNoise, Search, UniformEvaluator, choose_action};
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

pub mod arena;
pub mod bounds;
pub mod cache;
pub mod draw_score;
pub mod driver;
pub mod engine;
pub mod evaluator;
pub mod figures;
pub mod leaf_heuristic;
mod lockstep;
pub mod mcts;
#[cfg(feature = "net")]
pub mod net;
pub mod record;
pub mod shards;
pub mod stats;
pub mod teacher;
pub mod testing;

pub use cache::{CacheStats, CachedEvaluator};
pub use draw_score::DrawScore;
pub use driver::{
    DriverError, MAX_GAMES, MoveLimit, PlayedGame, PlayoutCap, Resign, SelfPlayConfig,
    SelfPlayConfigError, SelfPlayStats, Session, Start,
};
pub use evaluator::{Evaluation, Evaluator, RolloutEvaluator, UniformEvaluator, draw_values};
pub use figures::SessionFigures;
pub use leaf_heuristic::{HeuristicMix, Judge, LeafHeuristic};
pub use lockstep::EvaluationError;
pub use mcts::{
    ForcedLegs, Fpu, Leaf, MctsConfig, PlaySearch, QTransform, RootNoise, Search, SearchError,
    SearchKind, SearchSummary, Selection, TemperatureSchedule, WinCheck, choose_action,
};
pub use record::{
    GameRecord, PositionRow, RecordError, SCHEMA_VERSION, Shard, ShardListing, ShardPaths,
    WORKER_DIR_PREFIX, list_generation_shards, list_shards, model_players, read_games,
    read_positions, read_shard, scan_shards, seated_players, write_shard,
};
pub use shards::ShardWriter;
pub use teacher::{TacticsFilter, Teacher, TeacherTargets};
