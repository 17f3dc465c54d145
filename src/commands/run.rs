//! `run`: the generation loop. Generation 0 plays with a random network; each generation is
//! self-play with the newest model -> training on the replay window -> checkpoint
//! `models/gen-NNNN` -> next. Every stage reads and writes only files in the run directory, and
//! every file is renamed into place when complete, so a run killed at any moment continues from
//! the last finished step when the same command is started again:
//!
//! - `models/gen-NNNN/` holds the network, optimizer state and counters after generation NNNN-1;
//!   the newest complete one tells where the run is;
//! - self-play shards already in `games/gen-NNNN/` are kept, and only the missing game ids are
//!   played (each game is determined by its seed, so the shards are the same as if the run had
//!   not been interrupted);
//! - an interrupted training restarts from the generation's model and optimizer state, with the
//!   same batches (seeded by run seed and generation);
//! - `metrics.csv` and `generations.csv` drop rows of generations that are redone;
//! - with a `[ladder]`, each new model plays a short arena after its training
//!   ([`super::ladder`]); a ladder cut short is played again, and with gating self-play uses
//!   the newest promoted model.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use games::{ENCODING_VERSION, Encode, State, Variant};
use selfplay::net::random_net;
use selfplay::{ShardWriter, recorded_game_ids};
use train::trainer::{GenerationJob, StartFrom, TrainError, train_generation};
use train::{
    CsvLog, GenerationSummary, ReplayWindow, RunConfig, StepMetrics, TrainGame, VariantName,
    generation_dir_name, newest_checkpoint,
};

use super::ladder::{LadderResult, run_ladder, self_play_model};
use super::run_dir::{self, GenerationRow};
use super::selfplay::{load_config, play_games};
use crate::evaluators::{EvaluatorFactory, Source};
use crate::{interrupt, progress};

#[derive(Args, Debug)]
pub struct RunArgs {
    /// Run configuration (TOML).
    #[arg(long)]
    pub config: PathBuf,
    /// Run directory (default: data/<config file name without .toml>).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Generations in the whole run (default: the config's run.generations). Re-running a
    /// finished run only reports it; a larger number extends it.
    #[arg(long)]
    pub generations: Option<u32>,
}

pub fn run(args: RunArgs) -> Result<()> {
    let config = load_config(&args.config)?;
    let run_dir = args.run_dir.clone().unwrap_or_else(|| {
        let stem =
            args.config.file_stem().map_or("run".into(), |s| s.to_string_lossy().into_owned());
        Path::new("data").join(stem)
    });
    let generations = args.generations.unwrap_or(config.run.generations);
    run_dir::prepare(&run_dir, &config)?;
    match config.game.variant {
        VariantName::Camelot => run_variant::<games::CamelotRules>(&run_dir, &config, generations),
        VariantName::Tricamelot => {
            run_variant::<games::TriCamelotRules>(&run_dir, &config, generations)
        }
    }
}

/// The seed of generation `g`'s self-play games.
fn selfplay_seed(seed: u64, g: u32) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(g) << 32) ^ 0x5E1F
}

fn run_variant<V: Variant>(run_dir: &Path, config: &RunConfig, generations: u32) -> Result<()>
where
    State<V>: Encode + TrainGame,
{
    let models = run_dir.join("models");
    let newest = match newest_checkpoint(&models)
        .with_context(|| format!("reading {}", models.display()))?
    {
        Some((g, _)) => g,
        None => {
            initial_model::<V>(&models, config)?;
            0
        }
    };
    if newest >= generations {
        println!("{}", run_dir::report(run_dir, newest)?);
        return Ok(());
    }
    eprintln!("{}: generation {newest} of {generations}", run_dir.display());
    let mut steps_log = CsvLog::open_resuming(
        &run_dir.join(train::STEP_METRICS_FILE),
        StepMetrics::CSV_HEADER,
        newest,
    )?;
    let mut gen_log = CsvLog::open_resuming(
        &run_dir.join(train::GENERATION_METRICS_FILE),
        &GenerationRow::header(),
        newest,
    )?;
    if config.ladder.measures(newest, generations)
        && LadderResult::read(&models.join(generation_dir_name(newest)))?.is_none()
    {
        // The run stopped between a model's training and its ladder.
        let result = run_ladder::<V>(run_dir, config, newest)?;
        println!("{}", result.line());
    }
    let overall = progress::bar(u64::from(generations), "run");
    overall.set_position(u64::from(newest));
    let run_name = run_dir.file_name().map_or("run".into(), |n| n.to_string_lossy().into_owned());
    for g in newest..generations {
        overall.set_message(format!("generation {g}"));
        // Self-play with the newest (promoted, with gating) model.
        let (player, model_dir) = self_play_model(&models, g)?;
        let t = Instant::now();
        let games_dir = run_dir.join("games").join(generation_dir_name(g));
        let factory = EvaluatorFactory::new::<State<V>>(
            &Source::Checkpoint(model_dir),
            config.net.device,
            config.selfplay.eval_cache,
        )?;
        let recorded = recorded_game_ids(&games_dir)?;
        let ids: Vec<u64> = (0..u64::from(config.run.games_per_generation))
            .filter(|id| !recorded.contains(id))
            .collect();
        let mut writer = ShardWriter::new(
            &games_dir,
            &run_name,
            g,
            V::NAME,
            &generation_dir_name(player),
            V::NUM_PLAYERS,
            config.run.games_per_shard as usize,
        )?;
        let stats = play_games::<V>(
            config,
            &factory,
            ids,
            selfplay_seed(config.run.seed, g),
            &mut writer,
            "selfplay",
        )?;
        let selfplay_secs = t.elapsed().as_secs_f64();
        if interrupt::stop_flag().load(std::sync::atomic::Ordering::SeqCst) {
            overall.abandon();
            bail!(interrupted(run_dir, "self-play", g));
        }

        // Training on the replay window.
        let t = Instant::now();
        let summary = train_stage::<V>(run_dir, config, g, &mut steps_log)
            .inspect_err(|_| overall.abandon())?;
        let train_secs = t.elapsed().as_secs_f64();

        // The ladder of the new model.
        let ladder = if config.ladder.measures(g + 1, generations) {
            Some(run_ladder::<V>(run_dir, config, g + 1).inspect_err(|_| overall.abandon())?)
        } else {
            None
        };
        let row = GenerationRow::new::<V>(&games_dir, &stats, selfplay_secs, train_secs, &summary)?;
        gen_log.append(&row.csv_row(&summary, ladder.as_ref()))?;
        overall.suspend(|| {
            println!("{}", row.line(g, V::NUM_PLAYERS, &summary));
            if let Some(l) = &ladder {
                println!("{}", l.line());
            }
        });
        overall.inc(1);
    }
    overall.finish_and_clear();
    println!("{}", run_dir::report(run_dir, generations)?);
    Ok(())
}

/// Trains generation `g`: from `models/gen-g` on the replay window to `models/gen-(g+1)`, with a
/// progress bar and a `metrics.csv` row per step.
pub fn train_stage<V: Variant>(
    run_dir: &Path,
    config: &RunConfig,
    g: u32,
    steps_log: &mut CsvLog,
) -> Result<GenerationSummary>
where
    State<V>: Encode + TrainGame,
{
    let models = run_dir.join("models");
    let window = ReplayWindow::<State<V>>::load(
        run_dir,
        config.train.window_generations,
        config.game.rule_options(),
        config.train.value_target,
    )?;
    let bar = progress::bar(u64::from(config.train.steps_per_generation), "train");
    let mut log_error = None;
    let result = train_generation(
        GenerationJob {
            start: StartFrom::Checkpoint(models.join(generation_dir_name(g))),
            out_dir: models.join(generation_dir_name(g + 1)),
            generation: g,
            seed: config.run.seed,
            device: config.net.device,
            stop: Some(interrupt::stop_flag()),
        },
        &window,
        &config.train,
        |m| {
            bar.set_position(u64::from(m.step));
            bar.set_message(format!(
                "loss {:.3} (policy {:.3}, value {:.3}), {:.0} samples/s",
                m.loss_total, m.loss_policy, m.loss_value, m.samples_per_sec
            ));
            if log_error.is_none() {
                log_error = steps_log.append(&m.csv_row()).err();
            }
        },
    );
    bar.finish_and_clear();
    let summary = match result {
        Ok(s) => s,
        Err(TrainError::Interrupted { .. }) => bail!(interrupted(run_dir, "training", g)),
        Err(e) => return Err(e.into()),
    };
    if let Some(e) = log_error {
        return Err(e.into());
    }
    Ok(summary)
}

fn interrupted(run_dir: &Path, stage: &str, g: u32) -> String {
    format!(
        "interrupted during {stage} of generation {g}; everything finished is saved in {} — run the same command again to continue",
        run_dir.display()
    )
}

/// Generation 0's model: a random network of the configured preset, seeded by the run seed.
fn initial_model<V: Variant>(models: &Path, config: &RunConfig) -> Result<()>
where
    State<V>: Encode,
{
    let net = random_net::<State<V>>(&config.net.preset, config.net.device, config.run.seed)?;
    let dir = models.join(generation_dir_name(0));
    let tmp = models.join(format!(".{}.tmp", generation_dir_name(0)));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).with_context(|| format!("removing {}", tmp.display()))?;
    }
    model::checkpoint::save(&tmp, &net, V::NAME, ENCODING_VERSION)?;
    std::fs::rename(&tmp, &dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(())
}
