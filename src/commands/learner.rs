//! `learner`: the generation loop of a run whose self-play games come from workers
//! ([`train::distributed`]): it publishes each model, waits for the workers' shards, trains,
//! runs the ladder and writes the rows, as `run` does. One learner per run (a lease).
//!
//! ```sh
//! camelot-zero learner --run /shared/runs/camelot --config configs/camelot-cpu.toml
//! camelot-zero learner --run s3://bucket/runs/camelot --config configs/camelot-cpu.toml
//! ```

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use games::{State, Variant};
use location::Location;
use train::distributed::{LearnerLease, WorkerHub};
use train::run::GamesSource;
use train::{RunConfig, RunJob, TrainGame, run_generations};

use super::run::{PROGRAM, RunLength};
use crate::input::{BadInput, load_config};
use crate::interrupt;
use crate::progress::RunView;

#[derive(Args, Debug)]
pub struct LearnerArgs {
    /// The run's location: a folder (local or shared: NFS, Lustre) or s3://bucket/prefix.
    #[arg(long)]
    pub run: String,
    /// Run configuration (TOML); needed to start a run, checked against the run's own after.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Local folder the learner works in for an S3 location (default:
    /// data/cache/<bucket>/<prefix>).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    #[command(flatten)]
    pub length: RunLength,
}

pub fn run(args: LearnerArgs) -> Result<()> {
    let location = Location::parse(&args.run).map_err(BadInput)?;
    let run_dir = match (&location, &args.cache) {
        (Location::Local(dir), _) => dir.clone(),
        (Location::S3 { .. }, Some(cache)) => cache.clone(),
        (Location::S3 { bucket, prefix }, None) => {
            Path::new("data/cache").join(bucket).join(prefix)
        }
    };
    let lease = LearnerLease::acquire(&location)?;
    // The run's own config (a learner resumed on another machine gets it from the location).
    let hub = WorkerHub::new(&location, &run_dir)?;
    hub.download_state()?;
    let saved = run_dir.join(train::run::CONFIG_FILE);
    let config = match (&args.config, saved.exists()) {
        (Some(path), _) => load_config(path)?,
        (None, true) => load_config(&saved)?,
        (None, false) => {
            return Err(BadInput(format!(
                "{location} holds no run yet: start it with --config CONFIG"
            ))
            .into());
        }
    };
    let limits = args.length.of(&config);
    games::with_variant!(config.game.variant, V => {
        learn::<V>(&location, &hub, &run_dir, &config, limits)
    })?;
    drop(lease);
    Ok(())
}

fn learn<V: Variant>(
    location: &Location,
    hub: &WorkerHub,
    run_dir: &Path,
    config: &RunConfig,
    (generations, time_budget): (u32, Option<train::TimeBudget>),
) -> Result<()>
where
    State<V>: TrainGame,
{
    let job = RunJob {
        run_dir,
        config,
        generations,
        program: PROGRAM,
        stop: Some(interrupt::stop_flag()),
        any_dir: false,
        games: GamesSource::Workers(hub),
        time_budget,
    };
    let mut view = RunView::new::<V>(location.to_string());
    let result = run_generations::<V>(job, |e| view.show(e));
    view.close();
    let report = result?;
    outln!("{report}")?;
    outln!("learner waited {:.0} s for workers' games", hub.waited().as_secs_f64())?;
    Ok(())
}
