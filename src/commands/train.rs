//! `train`: only the training stage, on an existing run directory: the newest model
//! `models/gen-G` is trained on the replay window into `models/gen-(G+1)`.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;
use games::{State, Variant};
use train::run::train_stage;
use train::trainer::losses_text;
use train::{CsvLog, RunConfig, StepMetrics, TrainGame, newest_checkpoint};

use crate::input::load_config;
use crate::interrupt;
use crate::progress::RunView;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Run configuration (TOML): the [game], [net] and [train] sections are used.
    #[arg(long)]
    pub config: PathBuf,
    /// The run directory (with models/ and games/).
    #[arg(long)]
    pub run_dir: PathBuf,
}

pub fn run(args: TrainArgs) -> Result<()> {
    let config = load_config(&args.config)?;
    games::with_variant!(config.game.variant, V => train_variant::<V>(&args, &config))
}

fn train_variant<V: Variant>(args: &TrainArgs, config: &RunConfig) -> Result<()>
where
    State<V>: TrainGame,
{
    let models = args.run_dir.join("models");
    let Some((g, dir)) =
        newest_checkpoint(&models).with_context(|| format!("reading {}", models.display()))?
    else {
        bail!("{} holds no model: start the run with `camelot-zero run` first", models.display());
    };
    let _lock =
        storage::DirLock::acquire(&args.run_dir, train::run::LOCK_FILE, "camelot-zero train")?;
    let mut steps = CsvLog::open_resuming(
        &args.run_dir.join(train::STEP_METRICS_FILE),
        StepMetrics::CSV_HEADER,
        g,
    )?;
    let clock = train::run::RunClock::resume(&models, g)?;
    let mut view = RunView::new::<V>(args.run_dir.display().to_string());
    let s = train_stage::<V>(
        &args.run_dir,
        config,
        g,
        &mut steps,
        &clock,
        Some(interrupt::stop_flag()),
        &mut |e| view.show(e),
    );
    view.close();
    let s = s?;
    outln!(
        "trained {} into {}: {} steps of {}, {}, {:.0} samples/s, {:.0} s, window {} positions of generations {:?}",
        dir.display(),
        s.checkpoint.display(),
        s.steps,
        s.batch_size,
        losses_text(&s.losses()),
        s.samples_per_sec,
        s.seconds,
        s.window_positions,
        s.window_generations
    )?;
    Ok(())
}
