//! The training side of camelot-zero: the run configuration, the replay window over the
//! self-play records, one generation's training loop with its checkpoints, and metrics files.
//!
//! * [`config`]: the run's TOML file ([`RunConfig`], [`TrainConfig`]).
//! * [`dataset`]: [`ReplayWindow`] over `<run>/games/gen-NNNN/` and the encoded [`Batch`].
//! * [`targets`]: one record → planes, policy target, legal mask and value target.
//! * [`trainer`]: [`train_generation`] (checkpoint in, checkpoint with optimizer state out).
//! * [`metrics`]: append-only `metrics.csv` / `generations.csv` ([`CsvLog`]).
//! * [`generations`]: the `gen-NNNN` folder names.
//! * [`value_target`]: the value head's target (the outcome, or discounted by distance to the end).
//! * [`ladder`]: the `[ladder]` section (arena after each generation, gating).

pub mod config;
pub mod dataset;
pub mod generations;
pub mod ladder;
pub mod metrics;
pub mod schedule;
pub mod targets;
#[cfg(test)]
mod testutil;
pub mod trainer;
pub mod value_target;

pub use config::{
    ConfigError, GameConfig, NetSection, RunConfig, RunSection, TrainConfig, VariantName,
};
pub use dataset::{Batch, DatasetError, ReplayWindow};
pub use generations::{generation_dir_name, list_generation_dirs, newest_checkpoint};
pub use ladder::{Gating, LadderConfig};
pub use metrics::{CsvLog, GENERATION_METRICS_FILE, MetricsError, STEP_METRICS_FILE};
pub use schedule::LrSchedule;
pub use targets::{Record, SampleError, TrainGame};
pub use trainer::{
    Counters, GenerationJob, GenerationSummary, StartFrom, StepMetrics, TrainError, fresh_net,
    train_generation,
};
pub use value_target::ValueTarget;
