//! [`TrainError`]: everything that can stop a generation's training.

use std::path::PathBuf;

use model::ModelError;

use crate::dataset::DatasetError;
use crate::model_file::ModelFileError;

/// Everything that can stop a generation's training; each names the file, folder or step.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error("checkpoint {}: {source}", dir.display())]
    Checkpoint { dir: PathBuf, source: ModelError },
    #[error("checkpoint {} holds a network for another game or encoding ({found} planes, {found_actions} actions; expected {expected} planes, {expected_actions} actions)", dir.display())]
    WrongShape {
        dir: PathBuf,
        found: usize,
        found_actions: usize,
        expected: usize,
        expected_actions: usize,
    },
    #[error("network: {0}")]
    Net(ModelError),
    #[error("generation {generation}, step {step}: {source}")]
    Step { generation: u32, step: u32, source: ModelError },
    #[error("generation {generation}, step {step}: training diverged (loss {loss})")]
    Diverged { generation: u32, step: u32, loss: f32 },
    #[error("generation {generation}: interrupted at step {step}; no checkpoint written")]
    Interrupted { generation: u32, step: u32 },
    #[error("checkpoint folder {} already exists; refusing to overwrite it", path.display())]
    CheckpointExists { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {message}", path.display())]
    Counters { path: PathBuf, message: String },
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
}

/// A checkpoint's counters or summary that could not be read or written.
impl From<ModelFileError> for TrainError {
    fn from(e: ModelFileError) -> Self {
        match e {
            ModelFileError::Io { path, source } => TrainError::Io { path, source },
            ModelFileError::Parse { path, source, .. } => {
                TrainError::Counters { path, message: source.to_string() }
            }
            ModelFileError::Serialize { path, source } => {
                TrainError::Counters { path, message: source.to_string() }
            }
            ModelFileError::Write(e) => TrainError::Net(e),
        }
    }
}

impl TrainError {
    /// Whether the error comes from what the run directory or the settings hold (a corrupt or
    /// mismatched checkpoint, an unusable window: bad input) rather than a failed read, write
    /// or computation.
    pub fn is_bad_input(&self) -> bool {
        match self {
            TrainError::Dataset(e) => e.is_bad_input(),
            TrainError::Checkpoint { source, .. } => source.is_bad_input(),
            TrainError::Storage(e) => e.is_bad_input(),
            TrainError::WrongShape { .. }
            | TrainError::CheckpointExists { .. }
            | TrainError::Counters { .. } => true,
            TrainError::Net(_)
            | TrainError::Step { .. }
            | TrainError::Diverged { .. }
            | TrainError::Interrupted { .. }
            | TrainError::Io { .. } => false,
        }
    }
}
