//! Many self-play workers and one learner sharing a run through its location — a folder on a
//! local or shared filesystem, or an S3-compatible bucket ([`location::Location`]) — as KataGo's and
//! minigo's loops share theirs: the run's files are the protocol, and no server runs.
//!
//! ```text
//! <location>/
//!   config.toml, run-info.toml       written by the learner when it starts the run
//!   models/latest.toml               the newest published model: generation, tensors hash, finished
//!   models/gen-NNNN/                 checkpoints (uploaded before the pointer moves to them)
//!   games/gen-NNNN/w-ID/             worker ID's shards of games played by model gen-NNNN:
//!                                    games-NNNNNN.parquet + positions-NNNNNN.parquet
//!   games/gen-NNNN/rejected/w-ID/    shards the learner refused (another run, variant, model),
//!                                    each with its notice to the worker (`<games file>.why`)
//!   generations.csv, metrics.csv     the learner's rows
//!   learner.lease                    the learner's lease: holder and heartbeat
//! ```
//!
//! - A **worker** ([`worker::run_worker`]) reads the config and the pointer and plays
//!   self-play sessions with the newest model (the fewest whole shards of
//!   `run.games_per_shard` games that fill its batches; seeds from its id and the game ids),
//!   uploading each shard under its own folder as soon as it is written (positions first, the
//!   games file last, each with a create-only write: a shard is visible once whole). Between
//!   sessions it picks up a new model, and with [`worker::Surplus::Wait`] it waits for one once
//!   the generation has its games; it stops when the pointer says the run is finished. A stop
//!   (Ctrl-C, SIGTERM) ends the session; a partial shard is never uploaded.
//! - The **learner** is the generation loop ([`crate::run::run_generations`]) with
//!   [`crate::run::GamesSource::Workers`]: instead of playing generation G's games itself, it
//!   publishes model G ([`hub::WorkerHub::publish`]) and waits until workers have uploaded
//!   `run.games_per_generation` games played by it ([`hub::WorkerHub::wait_for_games`]),
//!   then trains, publishes G+1 and runs the ladder. Games of an older model that arrive late
//!   stay in their own generation's folder and are trained on while that generation is in the
//!   replay window ([`crate::TrainConfig::window_at`]: the staleness accepted); older ones are
//!   never read. One learner at a time holds the lease ([`lease::LearnerLease`]).
//! - `run` on one machine is the same loop with [`crate::run::GamesSource::InProcess`].

pub mod hub;
pub mod lease;
pub mod pointer;
pub mod shard_key;
pub mod worker;

pub use hub::{WantedGames, WorkerHub};
pub use lease::LearnerLease;
pub use pointer::LatestModel;
pub use shard_key::WorkerShard;
pub use worker::{Surplus, WorkerEvent, WorkerJob, run_worker};
