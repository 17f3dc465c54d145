//! The generation loop as a library: a run directory goes from a random network through
//! generations of self-play, training and the ladder, and resumes after any interruption.
//! Front ends (the command line, and anything after it) call [`run_generations`] with a stop
//! flag and an event callback; the loop draws nothing and prints nothing.
//!
//! * [`generation_loop`]: [`run_generations`] and the stages it is made of ([`train_stage`]).
//! * [`selfplay_stage`]: [`play_games`], self-play of a set of game ids into shards.
//! * [`run_clock`]: [`RunClock`], the wall time a run has used over all its invocations.
//! * [`run_dir`]: the run directory's configuration snapshot, `run-info.toml`, the rows of
//!   `generations.csv` and the closing report.
//! * [`probe`]: [`ProbeSet`], the value probe of every new model (`generations.csv`).
//! * [`event`]: [`RunEvent`], what the loop reports while it runs.
//! * [`error`]: [`RunError`], every way a run can stop.

pub mod error;
pub mod event;
pub mod generation_loop;
pub mod probe;
pub mod run_clock;
pub mod run_dir;
pub mod selfplay_stage;

pub use crate::model_file::ModelFile;
pub use error::{RunError, Stage};
pub use event::RunEvent;
pub use generation_loop::{GamesSource, RunJob, run_generations, train_stage};
pub use probe::{ProbeResult, ProbeSet};
pub use run_clock::RunClock;
pub use run_dir::{CONFIG_FILE, GenerationRow, LOCK_FILE, ProgramInfo, RUN_INFO_FILE};
pub use selfplay_stage::play_games;
