//! The error of the generation loop and its stages: each names the file, folder or stage.

use crate::model_file::ModelFileError;
use std::path::{Path, PathBuf};

use model::ModelError;
use records::RecordError;
use selfplay::DriverError;
use selfplay::arena::ArenaError;

use crate::{DatasetError, MetricsError, TrainError};

/// Everything that can stop a run, a self-play session, a training stage or a ladder.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A file or folder could not be read or written (`action` says what was being done).
    #[error("{action} {}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The run directory holds a configuration other than the one given.
    #[error(
        "{} was started with another configuration (sections differ: {}); continue it with that \
         configuration, or choose another --run-dir",
        run_dir.display(),
        sections.join(", ")
    )]
    ConfigChanged { run_dir: PathBuf, sections: Vec<&'static str> },
    /// A non-empty directory that is not a run directory was given as one.
    #[error(
        "{} is not empty and is not a run directory (it has no config.toml); choose an empty or \
         new directory, or pass --any-dir to start the run there anyway",
        dir.display()
    )]
    NotARunDir { dir: PathBuf },
    /// A file of the run directory that does not hold what its name says.
    #[error("{} is not {what}", path.display())]
    BadFile {
        path: PathBuf,
        what: &'static str,
        /// Boxed: the TOML error is large and runs are rare to fail.
        #[source]
        source: Box<toml::de::Error>,
    },
    /// The configuration could not be written as TOML (a bug: every config serialises).
    #[error("writing the configuration: {0}")]
    Serialize(#[from] toml::ser::Error),
    /// A models folder without any model at or before the generation asked for.
    #[error("{} holds no model at or before generation {generation}", models.display())]
    NoModel { models: PathBuf, generation: u32 },
    /// The `[ladder]` baseline is not a player.
    #[error("[ladder] baseline: {0}")]
    Baseline(String),
    /// A checkpoint could not be loaded or used as the evaluator of game `G`.
    #[error("loading checkpoint {}", dir.display())]
    Checkpoint {
        dir: PathBuf,
        #[source]
        source: ModelError,
    },
    /// A checkpoint whose network does not fit game `G` (another shape or encoding).
    #[error("checkpoint {}", dir.display())]
    CheckpointShape {
        dir: PathBuf,
        #[source]
        source: ModelError,
    },
    /// A stop signal arrived; everything finished is saved.
    #[error(
        "interrupted during {stage} of generation {generation}; everything finished is saved in {} — run the same command again to continue",
        run_dir.display()
    )]
    Interrupted { stage: Stage, generation: u32, run_dir: PathBuf },
    /// Writing ladder games.
    #[error("writing ladder games to {}", dir.display())]
    LadderGames {
        dir: PathBuf,
        #[source]
        source: RecordError,
    },
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Driver(#[from] DriverError),
    #[error(transparent)]
    Arena(#[from] ArenaError),
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    #[error(transparent)]
    Train(#[from] TrainError),
    #[error(transparent)]
    Metrics(#[from] MetricsError),
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
    /// A run's location (a folder or a bucket) could not be read or written.
    #[error(transparent)]
    Store(#[from] location::StoreError),
    /// An object of a run's location that does not hold what its name says.
    #[error("{location}/{key}: {message}")]
    BadObject { location: String, key: String, message: String },
    /// Another learner holds the run's lease.
    #[error(
        "{location} has a learner already: {holder}; stop it first (a lease without a heartbeat \
         for 60 s is taken over)"
    )]
    LeaseHeld { location: String, holder: String },
    /// The run's value probe set (`<run>/probe/`) does not replay.
    #[error("the value probe set {}: {message}", path.display())]
    Probe { path: PathBuf, message: String },
    /// A worker cannot go on (its id, a shard name taken, the run's config).
    #[error("worker: {0}")]
    Worker(String),
}

impl RunError {
    /// Whether the error comes from what the caller gave or the run directory holds (another
    /// configuration, a foreign directory, a corrupt checkpoint or shard, a directory in use:
    /// bad input, exit status 2 on the command line) rather than a failure of the machine (a
    /// full disk, a permission) or of the program.
    pub fn is_bad_input(&self) -> bool {
        match self {
            RunError::ConfigChanged { .. }
            | RunError::NotARunDir { .. }
            | RunError::BadObject { .. }
            | RunError::LeaseHeld { .. }
            | RunError::Worker(_)
            | RunError::Probe { .. }
            | RunError::BadFile { .. }
            | RunError::NoModel { .. }
            | RunError::Baseline(_) => true,
            RunError::Checkpoint { source, .. } | RunError::CheckpointShape { source, .. } => {
                source.is_bad_input()
            }
            RunError::Model(e) => e.is_bad_input(),
            RunError::Record(e) | RunError::LadderGames { source: e, .. } => e.is_bad_input(),
            RunError::Dataset(e) => e.is_bad_input(),
            RunError::Train(e) => e.is_bad_input(),
            RunError::Metrics(e) => e.is_bad_input(),
            RunError::Storage(e) => e.is_bad_input(),
            RunError::Arena(selfplay::arena::ArenaError::Record(e)) => e.is_bad_input(),
            RunError::Io { .. }
            | RunError::Store(_)
            | RunError::Serialize(_)
            | RunError::Interrupted { .. }
            | RunError::Driver(_)
            | RunError::Arena(_) => false,
        }
    }
}

/// The stages of a generation, as named in progress and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    SelfPlay,
    Training,
    Ladder,
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::SelfPlay => "self-play",
            Stage::Training => "training",
            Stage::Ladder => "ladder",
        })
    }
}

/// A model file's error as the run reports it: a read as [`RunError::Io`], a file that does not
/// parse as [`RunError::BadFile`].
impl From<ModelFileError> for RunError {
    fn from(e: ModelFileError) -> Self {
        match e {
            ModelFileError::Io { path, source } => RunError::Io { action: "reading", path, source },
            ModelFileError::Parse { path, what, source } => {
                RunError::BadFile { path, what, source }
            }
            ModelFileError::Serialize { source, .. } => RunError::Serialize(source),
            ModelFileError::Write(e) => RunError::Model(e),
        }
    }
}

/// Maps an I/O error on `path` while doing `action` (e.g. "reading", "creating").
pub(crate) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> RunError {
    let path = path.to_path_buf();
    move |source| RunError::Io { action, path, source }
}
