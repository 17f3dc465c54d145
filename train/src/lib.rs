//! The training side of camelot-zero: the run configuration, the replay window over the
//! self-play records, one generation's training loop with its checkpoints, and metrics files.
//!
//! * [`config`]: the run's TOML file ([`RunConfig`], [`TrainConfig`]).
//! * [`dataset`]: [`ReplayWindow`] over `<run>/games/gen-NNNN/` and the encoded [`Batch`].
//! * [`window_growth`]: how many generations the window holds as a run goes on.
//! * [`targets`]: one record → planes, policy target, legal mask and value target.
//! * [`trainer`]: [`train_generation`] (checkpoint in, checkpoint with optimizer state out).
//! * [`metrics`]: append-only `metrics.csv` / `generations.csv` ([`CsvLog`]).
//! * [`generations`]: the `gen-NNNN` folder names.
//! * [`value_target`]: the value head's target (the outcome, or discounted by distance to the end).
//! * [`moves_left`]: the moves-left head's target (the moves to the game's end).
//! * [`ladder`]: the ladder after each generation (its `[ladder]` section, its play, gating).
//! * [`export`]: a checkpoint as ONNX or safetensors with its JSON sidecar.
//! * [`evaluators`]: where positions get evaluated (a checkpoint, a random net, no net).
//! * [`run`]: the generation loop ([`run_generations`]) and its stages, resumable, with a stop
//!   flag and progress events.

pub mod config;
pub mod dataset;
pub mod distributed;
mod error_chain;
pub mod evaluators;
pub mod export;
pub mod generations;
pub mod growth;
pub mod ladder;
pub mod legacy_config;
pub mod metrics;
pub mod model_file;
pub mod moves_left;
mod range_check;
pub mod run;
pub mod run_data;
pub mod sampling;
pub mod schedule;
// The sample encoding lives with the records (no burn), so the Python package can use it.
pub use records::sample as targets;
#[cfg(test)]
mod targets_tests;
pub mod testing;
#[cfg(test)]
mod testutil;
pub mod time_budget;
pub mod train_error;
pub mod trainer;
pub mod value_target;
pub mod weight_average;
pub mod window_growth;

pub use config::{ConfigError, GameConfig, NetSection, RunConfig, RunSection, TrainConfig};
pub use dataset::{Batch, DatasetError, ReplayWindow};
pub use error_chain::error_chain;
pub use evaluators::{EvaluatorFactory, Source};
pub use generations::{
    generation_dir_name, generation_games_dir, list_generation_dirs, newest_checkpoint,
};
pub use growth::Growth;
pub use ladder::{Gating, LadderConfig, LadderResult};
pub use metrics::{CsvLog, GENERATION_METRICS_FILE, MetricsError, STEP_METRICS_FILE};
pub use moves_left::MovesLeftTarget;
pub use run::{RunError, RunEvent, RunJob, run_generations};
pub use sampling::Sampling;
pub use schedule::LrSchedule;
pub use targets::{Record, SampleError, TrainGame};
pub use time_budget::{BadTimeBudget, TimeBudget};
pub use trainer::{
    Counters, GenerationJob, GenerationSummary, StartFrom, StepMetrics, TrainError, fresh_net,
    train_generation,
};
pub use value_target::ValueTarget;
pub use weight_average::WeightAverage;
pub use window_growth::WindowGrowth;
