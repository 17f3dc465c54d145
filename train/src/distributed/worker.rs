//! A self-play worker: plays shards of games with the newest published model and uploads them
//! to the run's location, until the run is finished (see the [module docs](super)).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use games::{State, Variant};
use location::{Location, Store};
use records::{ShardPaths, WORKER_DIR_PREFIX};
use selfplay::{SelfPlayStats, ShardWriter};

use super::pointer::LatestModel;
use super::shard_key::WorkerShard;
use crate::evaluators::{EvaluatorFactory, Source};
use crate::run::{CONFIG_FILE, ProgramInfo, RUN_INFO_FILE, RunError, play_games};
use crate::{RunConfig, generation_dir_name};

/// What a worker does once the generation it plays for has its games, until the learner
/// publishes the next model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Surplus {
    /// Keep playing with the newest model: the games are trained on in later generations while
    /// they are in the replay window. Best where workers have machines of their own.
    #[default]
    Play,
    /// Wait for the next model: the learner's training gets the CPU. Best where workers share
    /// the learner's machine.
    Wait,
}

impl Surplus {
    pub const ALL: [Surplus; 2] = [Surplus::Play, Surplus::Wait];

    pub const fn as_str(self) -> &'static str {
        match self {
            Surplus::Play => "play",
            Surplus::Wait => "wait",
        }
    }
}

impl std::fmt::Display for Surplus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Surplus {
    type Err = String;
    fn from_str(s: &str) -> Result<Surplus, String> {
        Surplus::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| format!("surplus {s:?}: expected play or wait"))
    }
}

/// A worker to run.
#[derive(Clone, Copy, Debug)]
pub struct WorkerJob<'a> {
    pub location: &'a Location,
    /// Names the worker's folders (`w-ID`) and seeds its games; unique per worker.
    pub worker_id: &'a str,
    /// Local folder for downloaded models (S3) and shards being written.
    pub cache: &'a Path,
    /// Once set, the shard in flight is dropped and the worker returns.
    pub stop: Option<&'a AtomicBool>,
    /// Stop after this many uploaded shards (tests); `None`: until the run is finished.
    pub max_shards: Option<u64>,
    /// What to do once the current generation has its games.
    pub surplus: Surplus,
    /// This program, named beside the learner's when it is another build and when the learner
    /// refuses a shard.
    pub program: ProgramInfo<'a>,
}

/// What a worker reports.
#[derive(Clone, Copy, Debug)]
pub enum WorkerEvent<'a> {
    /// Waiting for the learner (no config or no model yet).
    Waiting(&'static str),
    /// The run's learner is another build (`learner`, as run-info.toml records it, against
    /// `worker`): its games are taken while they fit the run, but a build that plays by other
    /// rules or encodings than the learner's would mislead its training unnoticed.
    OtherProgram { learner: &'a str, worker: &'a str },
    /// Playing with model `generation` from now on.
    Model { generation: u32 },
    /// Self-play's running totals of the shard in flight.
    SelfPlay(&'a SelfPlayStats),
    /// A shard is uploaded.
    Uploaded { generation: u32, shard: u64, games: usize },
    /// The run is finished: the worker stops.
    Finished,
}

/// What a worker did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    pub shards: u64,
    pub games: u64,
    /// Whether it stopped because the run is finished (else: stopped or `max_shards`).
    pub finished: bool,
}

/// Checks a worker id: letters, digits, `-`, `_`, `.` (it names a folder and seeds games).
pub fn check_worker_id(id: &str) -> Result<(), String> {
    if id.is_empty()
        || id.len() > 64
        || !id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(format!(
            "worker id {id:?}: 1 to 64 letters, digits, `-`, `_` or `.` (it names the folder w-ID)"
        ));
    }
    Ok(())
}

/// Runs a worker until the run is finished, `stop` is set or `max_shards` are uploaded.
pub fn run_worker(
    job: WorkerJob<'_>,
    mut on_event: impl FnMut(WorkerEvent<'_>),
) -> Result<WorkerSummary, RunError> {
    check_worker_id(job.worker_id).map_err(RunError::Worker)?;
    let store = Store::open(job.location)?;
    let stopped = || job.stop.is_some_and(|s| s.load(Ordering::SeqCst));
    let run = loop {
        if let Some(run) = LearnersRun::read(&store, job.location)? {
            break run;
        }
        if stopped() {
            return Ok(WorkerSummary::default());
        }
        on_event(WorkerEvent::Waiting("the run's config.toml"));
        std::thread::sleep(job.location.poll_interval());
    };
    let worker = job.program.to_string();
    if run.learner != worker {
        on_event(WorkerEvent::OtherProgram { learner: &run.learner, worker: &worker });
    }
    games::with_variant!(run.config.game.variant, V => {
        work::<V>(&job, &store, &run, &mut on_event)
    })
}

/// What the learner has written about its run: the config, the run's name and the learner's
/// program (as run-info.toml records it).
struct LearnersRun {
    config: RunConfig,
    name: String,
    /// The learner's program, `version (git revision)`.
    learner: String,
}

impl LearnersRun {
    /// Reads config.toml and run-info.toml; `None` until the learner has written both.
    fn read(store: &Store, location: &Location) -> Result<Option<LearnersRun>, RunError> {
        let (Some(config), Some(info)) = (store.get(CONFIG_FILE)?, store.get(RUN_INFO_FILE)?)
        else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&config).into_owned();
        let config = RunConfig::parse(&text, &format!("{location}/config.toml"))
            .map_err(|e| RunError::Worker(e.to_string()))?;
        let info: toml::Table =
            String::from_utf8_lossy(&info).parse().map_err(|e: toml::de::Error| {
                RunError::BadObject {
                    location: location.to_string(),
                    key: RUN_INFO_FILE.into(),
                    message: e.to_string(),
                }
            })?;
        let field = |key: &str| info.get(key).and_then(|n| n.as_str()).map(str::to_string);
        let name = field("name").unwrap_or_else(|| "run".into());
        let (version, git_revision) = (field("version"), field("git_revision"));
        let learner = ProgramInfo {
            version: version.as_deref().unwrap_or("?"),
            git_revision: git_revision.as_deref().unwrap_or("?"),
        }
        .to_string();
        Ok(Some(LearnersRun { config, name, learner }))
    }
}

fn work<V: Variant>(
    job: &WorkerJob<'_>,
    store: &Store,
    run: &LearnersRun,
    on_event: &mut impl FnMut(WorkerEvent<'_>),
) -> Result<WorkerSummary, RunError> {
    let (config, run_name, learner) = (&run.config, run.name.as_str(), run.learner.as_str());
    let stopped = || job.stop.is_some_and(|s| s.load(Ordering::SeqCst));
    let per_shard = config.run.games_per_shard.max(1) as u64;
    // Every game of this worker has its own seed: (run seed, worker id, game id).
    let seed =
        job.worker_id.bytes().fold(config.run.seed, |h, b| games::seed::mix(h, u64::from(b)));
    let mut next = next_shard(store, job.worker_id)?;
    let mut summary = WorkerSummary::default();
    let mut loaded: Option<(u32, EvaluatorFactory)> = None;
    // The shards this process has uploaded for the newest generation it played: a notice of
    // the learner's refusing one of them stops the worker (notices of an earlier process's
    // shards are not its own).
    let mut uploaded: Vec<WorkerShard> = Vec::new();
    loop {
        check_refusals(store, job, &uploaded, learner)?;
        if stopped() || job.max_shards.is_some_and(|m| summary.shards >= m) {
            return Ok(summary);
        }
        let Some(latest) = LatestModel::read(store)? else {
            on_event(WorkerEvent::Waiting("the first model"));
            std::thread::sleep(job.location.poll_interval());
            continue;
        };
        if latest.finished {
            on_event(WorkerEvent::Finished);
            summary.finished = true;
            return Ok(summary);
        }
        let g = latest.generation;
        if job.surplus == Surplus::Wait
            && uploaded_games(store, g, per_shard)? >= u64::from(config.run.games_per_generation)
        {
            on_event(WorkerEvent::Waiting("the next model"));
            std::thread::sleep(job.location.poll_interval());
            continue;
        }
        if loaded.as_ref().is_none_or(|(l, _)| *l != latest.model) {
            let dir = model_dir(store, job, &latest)?;
            let factory = EvaluatorFactory::new::<State<V>>(
                &Source::Checkpoint(dir),
                config.net.device,
                config.selfplay.eval_cache,
            )?
            .with_precision(config.net.precision)?;
            loaded = Some((latest.model, factory));
            on_event(WorkerEvent::Model { generation: latest.model });
        }
        let factory = &loaded.as_ref().expect("just loaded").1;
        // The shard is written in a fresh staging folder and uploaded only when whole.
        let staging =
            job.cache.join("staging").join(format!("{WORKER_DIR_PREFIX}{}", job.worker_id));
        if staging.exists() {
            std::fs::remove_dir_all(&staging)
                .map_err(crate::run::error::io("removing", &staging))?;
        }
        let mut writer = ShardWriter::new(
            &staging,
            run_name,
            g,
            V::NAME,
            &generation_dir_name(latest.model),
            per_shard as usize,
        )?;
        // A session plays whole shards, enough of them to fill every self-play batch (a
        // session's batches shrink as its last games finish); each is uploaded as soon as it
        // is written, so a killed worker loses only the shard in flight.
        let shards = chunk_shards(config, per_shard);
        let start = u64::from(next);
        let ids: Vec<u64> = (start * per_shard..(start + shards) * per_shard).collect();
        let first = next;
        // Both hooks report: progress and uploads.
        let events = std::cell::RefCell::new(&mut *on_event);
        let played = play_games::<V>(
            config,
            factory,
            ids,
            seed,
            &mut writer,
            job.stop,
            |s| (events.borrow_mut())(WorkerEvent::SelfPlay(s)),
            |staged| {
                let n = first + staged.index;
                let shard =
                    WorkerShard { generation: g, worker: job.worker_id.to_string(), index: n };
                upload(store, staged, &shard)?;
                if uploaded.last().is_some_and(|s| s.generation != g) {
                    uploaded.clear();
                }
                uploaded.push(shard);
                let event = WorkerEvent::Uploaded {
                    generation: g,
                    shard: u64::from(n),
                    games: per_shard as usize,
                };
                (events.borrow_mut())(event);
                summary.shards += 1;
                summary.games += per_shard;
                next = n + 1;
                check_refusals(store, job, &uploaded, learner)
            },
        );
        // A partial shard (stopped in the middle) stays in the staging folder: never uploaded.
        let _ = std::fs::remove_dir_all(&staging);
        let stats = played?;
        if stats.games < shards * per_shard {
            return Ok(summary);
        }
    }
}

/// How many shards one self-play session of a worker plays: the fewest that fill the batches
/// of every self-play thread (`selfplay.workers x selfplay.games_in_flight` games), at least one.
fn chunk_shards(config: &RunConfig, per_shard: u64) -> u64 {
    let in_flight = config.selfplay.games_in_flight as u64 * config.selfplay.workers.max(1) as u64;
    in_flight.div_ceil(per_shard).max(1)
}

/// Games uploaded for generation `g` by every worker (`per_shard` per shard: a worker uploads
/// only whole shards).
fn uploaded_games(store: &Store, g: u32, per_shard: u64) -> Result<u64, RunError> {
    let prefix = format!("games/{}", generation_dir_name(g));
    let keys = store.list(&prefix)?;
    let shards = keys.iter().filter_map(|k| WorkerShard::parse(k)).filter(|s| s.generation == g);
    Ok(shards.count() as u64 * per_shard)
}

/// Fails with the learner's reason if it has refused one of `uploaded` (this process's shards,
/// all of one generation; none: nothing to check): the worker's games do not fit the run
/// (another version of the program, a run's files changed under it), and every further shard
/// would be refused as well.
fn check_refusals(
    store: &Store,
    job: &WorkerJob<'_>,
    uploaded: &[WorkerShard],
    learner: &str,
) -> Result<(), RunError> {
    let Some(g) = uploaded.first().map(|s| s.generation) else {
        return Ok(());
    };
    let notices = store.list(&WorkerShard::rejected_folder(g, job.worker_id))?;
    let Some(refused) = uploaded.iter().find(|s| notices.contains(&s.rejection_key())) else {
        return Ok(());
    };
    let why = store.get(&refused.rejection_key())?.unwrap_or_default();
    Err(RunError::Worker(format!(
        "the learner refused this worker's shard {}: {}; every shard it plays would be refused, \
         so it stops (is it the learner's camelot-zero, {learner} by the run's run-info.toml, \
         against this one's {}, and are the run's files in {} as the learner wrote them?)",
        refused.keys().0,
        String::from_utf8_lossy(&why),
        job.program,
        store.location()
    )))
}

/// The worker's next shard number: one past the highest it has uploaded, in any generation,
/// refused shards included (a folder location's learner moves their files aside: their numbers
/// must not come again, or the notice of the old shard would stop the new one).
fn next_shard(store: &Store, worker_id: &str) -> Result<u32, RunError> {
    let keys = store.list("games")?;
    let shards = keys
        .iter()
        .filter_map(|k| WorkerShard::parse(k).or_else(|| WorkerShard::parse_rejection(k)));
    let mine = shards.filter(|s| s.worker == worker_id);
    Ok(mine.map(|s| s.index + 1).max().unwrap_or(0))
}

/// The local folder of the pointer's model: in the location itself, or downloaded into the
/// cache (a cached copy is used only if its weights are the pointer's). The model's
/// `net.json` must carry the pointer's weights hash: a worker never plays with other weights
/// than the learner published (a cache left by another run, a model rewritten in place).
fn model_dir(
    store: &Store,
    job: &WorkerJob<'_>,
    latest: &LatestModel,
) -> Result<PathBuf, RunError> {
    let name = generation_dir_name(latest.model);
    let hash =
        |dir: &Path| model::checkpoint::read_meta(dir).ok().and_then(|meta| meta.tensors_fnv1a64);
    // (A checkpoint written before weights hashes existed has none: nothing to compare.)
    let wanted = Some(latest.tensors_fnv1a64.clone()).filter(|h| !h.is_empty());
    let differs = |dir: &Path| wanted.is_some() && hash(dir) != wanted;
    let dir = match job.location.local() {
        Some(location) => location.join("models").join(&name),
        None => {
            let dir = job.cache.join("models").join(&name);
            if dir.exists() && differs(&dir) {
                std::fs::remove_dir_all(&dir).map_err(crate::run::error::io("removing", &dir))?;
            }
            if !dir.exists() {
                download_model(store, &name, &dir)?;
            }
            dir
        }
    };
    if differs(&dir) {
        return Err(RunError::Worker(format!(
            "models/{name} in {} has weights hash {}, not the {} models/latest.toml names",
            job.location,
            hash(&dir).as_deref().unwrap_or("(none)"),
            latest.tensors_fnv1a64
        )));
    }
    Ok(dir)
}

/// Downloads `models/<name>` into `dir` (through a temporary folder renamed when whole).
fn download_model(store: &Store, name: &str, dir: &Path) -> Result<(), RunError> {
    let tmp = storage::temp_dir(dir)?;
    for key in store.list(&format!("models/{name}"))? {
        let file = key.rsplit('/').next().unwrap_or(&key).to_string();
        let bytes = store.get(&key)?.ok_or_else(|| RunError::Worker(format!("{key} vanished")))?;
        std::fs::write(tmp.join(&file), bytes).map_err(crate::run::error::io("writing", &tmp))?;
    }
    std::fs::rename(&tmp, dir).map_err(crate::run::error::io("creating", dir))?;
    Ok(())
}

/// Uploads a shard written in the staging folder as shard `n` of the worker's folder of
/// generation `g`: positions first, the games file last (the shard is visible once it is
/// there), each create-only (a name taken by another worker with the same id is an error, not
/// an overwrite).
fn upload(store: &Store, staged: &ShardPaths, shard: &WorkerShard) -> Result<(), RunError> {
    let (games_key, positions_key) = shard.keys();
    for (path, key) in [(&staged.positions, positions_key), (&staged.games, games_key)] {
        let bytes = std::fs::read(path).map_err(crate::run::error::io("reading", path))?;
        if !store.put_new(&key, bytes)? {
            return Err(RunError::Worker(format!(
                "{} already holds {key}: is another worker running with id {:?}?",
                store.location(),
                shard.worker
            )));
        }
    }
    Ok(())
}
