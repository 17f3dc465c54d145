//! `run`: the generation loop of [`train::run`] with progress bars; Ctrl-C stops it at the next
//! safe point (see [`crate::interrupt`]) and the same command continues it.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use games::{State, Variant};
use train::run::{GamesSource, ProgramInfo};
use train::{RunConfig, RunJob, TrainGame, run_generations};

use crate::input::load_config;
use crate::interrupt;
use crate::progress::RunView;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Run configuration (TOML).
    #[arg(long)]
    pub config: PathBuf,
    /// Run directory (default: data/<config file name without .toml>).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    #[command(flatten)]
    pub length: RunLength,
    /// Start the run even in a non-empty directory that is not a run directory (one without
    /// config.toml); without it such a directory is refused.
    #[arg(long)]
    pub any_dir: bool,
}

/// How long a run goes (`run`'s and `learner`'s `--generations` and `--time`).
#[derive(Args, Debug)]
pub struct RunLength {
    /// Generations in the whole run (default: the config's run.generations). Re-running a
    /// finished run only reports it; a larger number extends it.
    #[arg(long)]
    pub generations: Option<u32>,
    /// Train for at most this long (60m, 1h30m, 90s): no generation starts that would end past
    /// it (judged by the previous generation), and the run ends cleanly between generations
    /// (default: the config's run.time_budget; none: only the generations count ends it). The
    /// budget counts from this command's start; the same command continues the run. A learner
    /// whose budget is spent tells its workers the run is finished.
    #[arg(long, value_name = "DURATION")]
    pub time: Option<train::TimeBudget>,
}

impl RunLength {
    /// The generations and the time budget asked for, the config's where a flag is not given.
    pub fn of(&self, config: &RunConfig) -> (u32, Option<train::TimeBudget>) {
        (self.generations.unwrap_or(config.run.generations), self.time.or(config.run.time_budget))
    }
}

/// This program, as a run directory records it.
pub const PROGRAM: ProgramInfo<'static> = ProgramInfo {
    version: env!("CARGO_PKG_VERSION"),
    git_revision: env!("CAMELOT_ZERO_GIT_REVISION"),
};

pub fn run(args: RunArgs) -> Result<()> {
    let config = load_config(&args.config)?;
    let run_dir = args.run_dir.clone().unwrap_or_else(|| {
        let stem =
            args.config.file_stem().map_or("run".into(), |s| s.to_string_lossy().into_owned());
        Path::new("data").join(stem)
    });
    let (generations, time_budget) = args.length.of(&config);
    let job = RunJob {
        run_dir: &run_dir,
        config: &config,
        generations,
        program: PROGRAM,
        stop: Some(interrupt::stop_flag()),
        any_dir: args.any_dir,
        games: GamesSource::InProcess,
        time_budget,
    };
    games::with_variant!(config.game.variant, V => run_variant::<V>(job))
}

fn run_variant<V: Variant>(job: RunJob<'_>) -> Result<()>
where
    State<V>: TrainGame,
{
    let mut view = RunView::new::<V>(job.run_dir.display().to_string());
    let result = run_generations::<V>(job, |e| view.show(e));
    view.close();
    outln!("{}", result?)?;
    Ok(())
}
