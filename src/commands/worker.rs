//! `worker`: plays self-play shards with the newest model of a run and uploads them to the
//! run's location until the run is finished ([`train::distributed::worker`]).
//!
//! ```sh
//! camelot-zero worker --run /shared/runs/camelot --worker-id node7
//! camelot-zero worker --run s3://bucket/runs/camelot
//! ```

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use location::Location;
use train::distributed::worker::check_worker_id;
use train::distributed::{Surplus, WorkerEvent, WorkerJob, run_worker};

use crate::input::{BadInput, names};
use crate::interrupt;
use crate::progress::{self, notice};

#[derive(Args, Debug)]
pub struct WorkerArgs {
    /// The run's location: a folder (local or shared) or s3://bucket/prefix.
    #[arg(long)]
    pub run: String,
    /// This worker's id: its shards go to games/gen-NNNN/w-ID/ and its games are seeded by it
    /// (default: <host>-<pid>). Two workers must not share an id.
    #[arg(long)]
    pub worker_id: Option<String>,
    /// Local folder for downloaded models and shards being written (default:
    /// data/cache/worker-<id>).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Stop after uploading this many shards (default: when the run is finished).
    #[arg(long)]
    pub shards: Option<u64>,
    /// Once the generation has its games: `play` on with the newest model (the games are
    /// trained on in later generations; for workers on machines of their own) or `wait` for
    /// the next model (for workers sharing the learner's machine).
    #[arg(long, value_parser = names(Surplus::ALL, Surplus::as_str), default_value_t)]
    pub surplus: Surplus,
}

pub fn run(args: WorkerArgs) -> Result<()> {
    let location = Location::parse(&args.run).map_err(BadInput)?;
    let id = args.worker_id.clone().unwrap_or_else(default_id);
    check_worker_id(&id).map_err(BadInput)?;
    let cache =
        args.cache.clone().unwrap_or_else(|| Path::new("data/cache").join(format!("worker-{id}")));
    let job = WorkerJob {
        location: &location,
        worker_id: &id,
        cache: &cache,
        stop: Some(interrupt::stop_flag()),
        max_shards: args.shards,
        surplus: args.surplus,
        program: super::run::PROGRAM,
    };
    notice(&format!("worker {id} on {location}"));
    let mut bar: Option<indicatif::ProgressBar> = None;
    let mut waiting = None;
    let summary = run_worker(job, |e| match e {
        WorkerEvent::Waiting(what) => {
            if waiting != Some(what) {
                notice(&format!("waiting for {what}"));
                waiting = Some(what);
            }
        }
        WorkerEvent::OtherProgram { learner, worker } => notice(&format!(
            "note: the run's learner is camelot-zero {learner} (run-info.toml), this worker \
             {worker}: its games are taken while they fit the run; run the learner's build if \
             the two play by other rules"
        )),
        WorkerEvent::Model { generation } => {
            notice(&format!("playing with model gen-{generation:04}"))
        }
        WorkerEvent::SelfPlay(s) => {
            let b = bar.get_or_insert_with(|| progress::bar(0, "games"));
            b.set_position(s.games);
            b.set_message(progress::selfplay_message(s, 3));
        }
        WorkerEvent::Uploaded { generation, shard, games } => {
            notice(&format!("uploaded shard {shard} of generation {generation} ({games} games)"));
        }
        WorkerEvent::Finished => notice("the run is finished"),
    });
    if let Some(b) = bar.take() {
        progress::clear(&b);
    }
    let summary = summary?;
    outln!(
        "worker {id}: {} shards, {} games uploaded{}",
        summary.shards,
        summary.games,
        if summary.finished { "; the run is finished" } else { "" }
    )?;
    Ok(())
}

/// `<host>-<pid>`, in the characters a worker id allows.
fn default_id() -> String {
    let host: String = storage::host_name()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' })
        .collect();
    format!("{host}-{}", std::process::id())
}
