//! The generation loop. Generation 0 plays with a random network; each generation is self-play
//! with the newest model -> training on the replay window -> checkpoint `models/gen-NNNN` ->
//! the ladder (with a `[ladder]`) -> next. Every stage reads and writes only files in the run
//! directory, and every file is renamed into place when complete, so a run stopped at any
//! moment continues from the last finished step when it is started again:
//!
//! - `models/gen-NNNN/` holds the network, optimizer state and counters after generation NNNN-1;
//!   the newest complete one tells where the run is;
//! - self-play shards already in `games/gen-NNNN/` are kept, and only the missing game ids are
//!   played (each game is determined by its seed, so the shards are the same as if the run had
//!   not been interrupted);
//! - an interrupted training restarts from the generation's model and optimizer state, with the
//!   same batches (seeded by run seed and generation);
//! - `metrics.csv` and `generations.csv` drop rows of generations that are redone;
//! - a ladder cut short is played again, and with gating self-play uses the newest promoted
//!   model.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use games::{Encode, State, Variant};
use model::Net;
use selfplay::{SessionFigures, ShardWriter};

use super::error::{RunError, Stage, io};
use super::event::RunEvent;
use super::probe::{ProbeResult, ProbeSet};
use super::run_clock::RunClock;
use super::run_dir::{self, GenerationRow, ProgramInfo};
use super::selfplay_stage::play_games;
use crate::distributed::{WantedGames, WorkerHub};
use crate::evaluators::{EvaluatorFactory, Source};
use crate::growth::Growth;
use crate::ladder::{LadderResult, run_ladder, self_play_model};
use crate::model_file::ModelFile;
use crate::trainer::{GenerationJob, StartFrom, TrainError, train_generation};
use crate::{
    CsvLog, GenerationSummary, ReplayWindow, RunConfig, StepMetrics, TrainGame,
    generation_dir_name, generation_games_dir, newest_checkpoint,
};

/// Where a generation's self-play games come from.
#[derive(Clone, Copy)]
pub enum GamesSource<'a> {
    /// Played here, in this process (the `run` command).
    InProcess,
    /// Played by workers (other processes, other machines) and collected through the run's
    /// location (the `learner` command; see [`crate::distributed`]).
    Workers(&'a WorkerHub),
}

impl std::fmt::Debug for GamesSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GamesSource::InProcess => "InProcess",
            GamesSource::Workers(_) => "Workers",
        })
    }
}

/// A run to start or continue.
#[derive(Clone, Copy, Debug)]
pub struct RunJob<'a> {
    /// The run directory (created if missing). An existing directory must be a run directory
    /// (hold `config.toml`) or be empty, unless `any_dir` is set.
    pub run_dir: &'a Path,
    pub config: &'a RunConfig,
    /// Generations in the whole run; a finished run is only reported, a larger number extends
    /// it.
    pub generations: u32,
    /// Recorded in `run-info.toml`.
    pub program: ProgramInfo<'a>,
    /// Once set, the running stage stops at its next safe point (games in flight finish and
    /// their shard is written; training stops before its next step, writing nothing) and the
    /// run returns [`RunError::Interrupted`].
    pub stop: Option<&'a AtomicBool>,
    /// Start a run in a non-empty directory that is not a run directory.
    pub any_dir: bool,
    /// Who plays the self-play games.
    pub games: GamesSource<'a>,
    /// Start no generation that would end past this much time from the start of the call
    /// (judged by the previous generation's time; the first always starts): the run then ends
    /// between generations and reports ([`RunEvent::BudgetSpent`]).
    pub time_budget: Option<crate::TimeBudget>,
}

/// Runs (or continues) the generations of `job` for variant `V`, reporting progress to
/// `on_event`; returns the report of the finished run ([`run_dir::report`]). The run directory
/// is locked for the call ([`run_dir::prepare`]): a second run on it is refused.
pub fn run_generations<V: Variant>(
    job: RunJob<'_>,
    mut on_event: impl FnMut(RunEvent<'_>),
) -> Result<String, RunError>
where
    State<V>: TrainGame,
{
    let RunJob { run_dir, config, generations, program, stop, any_dir, games, time_budget } = job;
    let started = Instant::now();
    let prepared = run_dir::prepare(run_dir, config, program, any_dir)?;
    let models = run_dir.join("models");
    let newest = match newest_checkpoint(&models).map_err(io("reading", &models))? {
        Some((g, _)) => g,
        None => {
            initial_model::<V>(&models, config)?;
            0
        }
    };
    // The games of generation `newest` that an earlier invocation played before it stopped
    // are kept, and so is the time they took.
    let kept = match games {
        GamesSource::InProcess => SessionFigures::read(&generation_games_dir(run_dir, newest))?,
        GamesSource::Workers(_) => None,
    };
    let clock = RunClock::resume(&models, newest)?.with_kept_selfplay(kept.as_ref());
    let mut steps_log = CsvLog::open_resuming(
        &run_dir.join(crate::STEP_METRICS_FILE),
        StepMetrics::CSV_HEADER,
        newest,
    )?;
    let header = GenerationRow::header();
    let mut gen_log = CsvLog::open_resuming(
        &run_dir.join(crate::GENERATION_METRICS_FILE),
        &header.iter().map(String::as_str).collect::<Vec<_>>(),
        newest,
    )?;
    if config.ladder.measures(newest, generations.max(newest))
        && LadderResult::read(&models.join(generation_dir_name(newest)))?.is_none()
    {
        // The run stopped between a model's training and its ladder.
        let result = ladder_stage::<V>(run_dir, config, newest, &mut on_event)?;
        on_event(RunEvent::LadderReplayed(&result));
    }
    let probe_set = ProbeSet::<V>::load(run_dir)?;
    restore_rows(run_dir, config, probe_set.as_ref(), newest, &mut gen_log, &mut on_event)?;
    if let GamesSource::Workers(hub) = games {
        // Workers read the run's config and name from the location before anything else.
        hub.upload(crate::run::CONFIG_FILE)?;
        hub.upload(crate::run::RUN_INFO_FILE)?;
    }
    if newest >= generations {
        if let GamesSource::Workers(hub) = games {
            let (player, _) = self_play_model(&models, newest)?;
            hub.publish(newest, player, true)?;
        }
        on_event(RunEvent::AlreadyDone { generation: newest });
        return Ok(run_dir::report(run_dir, newest));
    }
    on_event(RunEvent::Started { generation: newest, generations });
    let run_name = &prepared.name;
    let mut last_generation = None;
    // The longest ladder and probe of a model so far: the budget keeps room for one more, so
    // that the last model of a run stopped by its budget is measured too.
    let mut measure_cost = Duration::ZERO;
    let mut finished_at = generations;
    for g in newest..generations {
        let mut last_in_budget = false;
        if let (Some(budget), Some(last)) = (time_budget, last_generation) {
            let used = started.elapsed();
            if used + last + measure_cost > budget.0 {
                on_event(RunEvent::BudgetSpent { generation: g, used, budget });
                finished_at = g;
                break;
            }
            // This generation fits, one more after it would not: its model is the run's last.
            last_in_budget = used + 2 * last + measure_cost > budget.0;
        }
        let generation_started = Instant::now();
        on_event(RunEvent::GenerationStarted { generation: g });
        // Self-play with the newest (promoted, with gating) model.
        let (player, model_dir) = self_play_model(&models, g)?;
        match games {
            GamesSource::InProcess => {
                self_play_stage::<V>(
                    run_dir,
                    config,
                    g,
                    player,
                    model_dir,
                    run_name,
                    stop,
                    &mut on_event,
                )?;
            }
            GamesSource::Workers(hub) => {
                hub.publish(g, player, false)?;
                let wanted = WantedGames {
                    run: run_name,
                    variant: V::NAME,
                    generation: g,
                    model: generation_dir_name(player),
                    teacher: config.selfplay.teacher.name(),
                    games: u64::from(config.run.games_per_generation),
                    window_first: (g + 1).saturating_sub(config.train.window_at(g)),
                };
                hub.wait_for_games(&wanted, stop, &mut on_event)?;
            }
        }

        // Training on the replay window.
        let summary =
            train_stage::<V>(run_dir, config, g, &mut steps_log, &clock, stop, &mut on_event)?;

        // The ladder and the probe of the new model (always of a run's last).
        let measuring = Instant::now();
        let last = if last_in_budget { g + 1 } else { generations };
        let measured = config.ladder.measures(g + 1, last);
        let ladder = if measured {
            Some(ladder_stage::<V>(run_dir, config, g + 1, &mut on_event)?)
        } else {
            None
        };
        let probe = match config.ladder.probes(measured) {
            true => {
                probe_stage(probe_set.as_ref(), config, &models.join(generation_dir_name(g + 1)))?
            }
            false => None,
        };
        measure_cost = measure_cost.max(measuring.elapsed());
        let row = GenerationRow::new(run_dir, g, &summary)?;
        gen_log.append(&row.csv_row(&summary, ladder.as_ref(), probe.as_ref()))?;
        if let GamesSource::Workers(hub) = games {
            hub.upload_generation(g + 1)?;
        }
        on_event(RunEvent::GenerationDone {
            generation: g,
            num_players: V::NUM_PLAYERS,
            row: &row,
            summary: &summary,
            ladder: ladder.as_ref(),
            probe: probe.as_ref(),
        });
        last_generation = Some(generation_started.elapsed());
    }
    if let GamesSource::Workers(hub) = games {
        // The workers stop: the run has all its generations (or its time is spent).
        let (player, _) = self_play_model(&models, finished_at)?;
        hub.publish(finished_at, player, true)?;
    }
    Ok(run_dir::report(run_dir, finished_at))
}

/// Plays the missing games of generation `g` here with model `player` (in `model_dir`), into
/// `games/gen-g/`.
#[allow(clippy::too_many_arguments)]
fn self_play_stage<V: Variant>(
    run_dir: &Path,
    config: &RunConfig,
    g: u32,
    player: u32,
    model_dir: std::path::PathBuf,
    run_name: &str,
    stop: Option<&AtomicBool>,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Result<(), RunError> {
    let games_dir = generation_games_dir(run_dir, g);
    let factory = EvaluatorFactory::new::<State<V>>(
        &Source::Checkpoint(model_dir),
        config.net.device,
        config.selfplay.eval_cache,
    )?
    .with_precision(config.net.precision)?;
    let mut writer = ShardWriter::new(
        &games_dir,
        run_name,
        g,
        V::NAME,
        &generation_dir_name(player),
        config.run.games_per_shard as usize,
    )?;
    let ids = writer.missing_ids(u64::from(config.run.games_per_generation));
    on_event(RunEvent::StageStarted { stage: Stage::SelfPlay, len: ids.len() as u64 });
    let stats = play_games::<V>(
        config,
        &factory,
        ids,
        selfplay_seed(config.run.seed, g),
        &mut writer,
        stop,
        |s| on_event(RunEvent::SelfPlay(s)),
        |_| Ok(()),
    );
    on_event(RunEvent::StageEnded { stage: Stage::SelfPlay });
    stats?;
    if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
        return Err(interrupted(run_dir, Stage::SelfPlay, g));
    }
    Ok(())
}

/// Writes the `generations.csv` rows of the generations before `newest` that come after the
/// file's last row: a process killed after a model's training and before its row was written
/// (during the ladder, say) lost it, and everything the row shows is in the run directory's
/// files (see [`GenerationRow`]); a model probed by nobody (killed before its probe was saved)
/// is probed now (if the probe's cadence asks for it). A generation whose model has no saved summary (a checkpoint from before
/// summaries were saved) stays without a row.
fn restore_rows<V: Variant>(
    run_dir: &Path,
    config: &RunConfig,
    probe_set: Option<&ProbeSet<V>>,
    newest: u32,
    gen_log: &mut CsvLog,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Result<(), RunError> {
    let first_missing = gen_log.last_generation()?.map_or(0, |g| g + 1);
    for g in first_missing..newest {
        let model_dir = run_dir.join("models").join(generation_dir_name(g + 1));
        let Some(summary) = GenerationSummary::read(&model_dir)? else { continue };
        let ladder = LadderResult::read(&model_dir)?;
        let probe = match ProbeResult::read(&model_dir)? {
            Some(p) => Some(p),
            None if config.ladder.probes(ladder.is_some()) => {
                probe_stage(probe_set, config, &model_dir)?
            }
            None => None,
        };
        let row = GenerationRow::new(run_dir, g, &summary)?;
        gen_log.append(&row.csv_row(&summary, ladder.as_ref(), probe.as_ref()))?;
        on_event(RunEvent::RowRestored { generation: g });
    }
    Ok(())
}

/// The value probe of the model in `model_dir`, saved beside it; `None` without a probe set.
fn probe_stage<V: Variant>(
    set: Option<&ProbeSet<V>>,
    config: &RunConfig,
    model_dir: &Path,
) -> Result<Option<ProbeResult>, RunError> {
    let Some(set) = set else { return Ok(None) };
    let result = set.measure(model_dir, config.net.device)?;
    result.write(model_dir)?;
    Ok(Some(result))
}

/// The seed of generation `g`'s self-play games.
fn selfplay_seed(seed: u64, g: u32) -> u64 {
    // Not a splitmix64 mix (it has no finaliser): kept as it is, since changing it would
    // change every run's games.
    seed.wrapping_mul(games::seed::GOLDEN_GAMMA) ^ (u64::from(g) << 32) ^ 0x5E1F
}

/// Plays the ladder of `gen-g`, reporting its games.
fn ladder_stage<V: Variant>(
    run_dir: &Path,
    config: &RunConfig,
    g: u32,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Result<LadderResult, RunError> {
    on_event(RunEvent::StageStarted {
        stage: Stage::Ladder,
        len: 2 * u64::from(config.ladder.games),
    });
    let result = run_ladder::<V>(run_dir, config, g, || on_event(RunEvent::LadderGame));
    on_event(RunEvent::StageEnded { stage: Stage::Ladder });
    result
}

/// Trains generation `g`: from `models/gen-g` on the replay window to `models/gen-(g+1)`, with
/// a `metrics.csv` row (and a [`RunEvent::TrainStep`]) per step. Also the `train` command's
/// whole work.
pub fn train_stage<V: Variant>(
    run_dir: &Path,
    config: &RunConfig,
    g: u32,
    steps_log: &mut CsvLog,
    clock: &RunClock,
    stop: Option<&AtomicBool>,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Result<GenerationSummary, RunError>
where
    State<V>: TrainGame,
{
    let models = run_dir.join("models");
    let run_seconds = clock.now();
    let loading = Instant::now();
    let mut window = ReplayWindow::<State<V>>::load(
        run_dir,
        config.train.window_at(g),
        config.game.rule_options(),
        config.train.value_target,
    )?;
    window.set_search_weight(config.train.search_value_weight);
    on_event(RunEvent::StageStarted {
        stage: Stage::Training,
        len: u64::from(config.train.steps_per_generation),
    });
    // A growing network is deepened to the new model's depth; otherwise it keeps its own.
    let blocks = match config.net.growth {
        Growth::Off => None,
        Growth::Blocks { .. } => Some(config.net.blocks_at(g + 1)?),
    };
    let mut log_error = None;
    let result = train_generation(
        GenerationJob {
            start: StartFrom::Checkpoint(models.join(generation_dir_name(g))),
            out_dir: models.join(generation_dir_name(g + 1)),
            generation: g,
            seed: config.run.seed,
            device: config.net.device,
            stop,
            window_seconds: loading.elapsed().as_secs_f64(),
            run_seconds,
            blocks,
        },
        &mut window,
        &config.train,
        |m| {
            if log_error.is_none() {
                log_error = steps_log.append(&m.csv_row()).err();
            }
            on_event(RunEvent::TrainStep(m));
        },
    );
    on_event(RunEvent::StageEnded { stage: Stage::Training });
    let summary = match result {
        Ok(s) => s,
        Err(TrainError::Interrupted { .. }) => {
            return Err(interrupted(run_dir, Stage::Training, g));
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(e) = log_error {
        return Err(e.into());
    }
    Ok(summary)
}

fn interrupted(run_dir: &Path, stage: Stage, generation: u32) -> RunError {
    RunError::Interrupted { stage, generation, run_dir: run_dir.to_path_buf() }
}

/// Generation 0's model: a random network of the configured preset, seeded by the run seed.
fn initial_model<V: Variant>(models: &Path, config: &RunConfig) -> Result<(), RunError> {
    let shape = State::<V>::layout(config.net.encoding).clone();
    let net_config = config.net.config_at(shape, 0)?;
    let net = Net::seeded(&net_config, &config.net.device.device()?, config.run.seed)?;
    let dir = models.join(generation_dir_name(0));
    let tmp = storage::temp_dir(&dir)?;
    model::checkpoint::save(&tmp, &net, V::NAME)?;
    std::fs::rename(&tmp, &dir).map_err(io("creating", &dir))?;
    Ok(())
}
