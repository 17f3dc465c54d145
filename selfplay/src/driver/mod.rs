//! The self-play driver (DESIGN.md §4).
//!
//! Each worker keeps `games_in_flight` games in the [lockstep loop](search::lockstep): the leaves
//! of all its games go to the worker's evaluator in ONE batched call per step. Finished games are
//! handed to the caller as their record rows ([`PlayedGame`]). Several workers, each with its own
//! evaluator (a network copy), play disjoint sets of games on their own threads.
//!
//! Reproducible: a game's random choices come from its own stream, seeded from the session seed
//! and its id; worker `w` of `W` plays the ids `w, w + W, ...` of the list in order, so the
//! batches (and thus the games) are the same in every run with the same seed and settings.

mod config;
mod move_limit;
mod played;
mod slot;
mod sparring;
mod start;
mod stats;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use games::Game;
use thiserror::Error;

pub use config::{
    MAX_EVAL_CACHE, MAX_GAMES_IN_FLIGHT, MAX_WORKERS, PlayoutCap, Resign, SelfPlayConfig,
    SelfPlayConfigError,
};
pub use move_limit::MoveLimit;
pub use played::PlayedGame;
pub use sparring::{BoxedSparrer, LegPolicy, SparMove, Sparrer, SparringFactory};
pub use start::Start;
pub use stats::SelfPlayStats;

use search::evaluator::Evaluator;
use search::lockstep::{EvaluationError, Lockstep};
use search::mcts::{MctsConfig, RootFilter, SearchError};
use slot::Slot;
pub(crate) use slot::game_seed;

/// The most games one session (a generation's self-play, a `selfplay` or `arena` command)
/// plays: a bound, so a mistyped count is refused instead of allocating its game ids (8 bytes
/// each) before the first game. A million games is weeks of self-play on a CPU.
pub const MAX_GAMES: u64 = 1_000_000;

/// Why self-play stopped.
#[derive(Debug, Error)]
pub enum DriverError {
    #[error(transparent)]
    Config(#[from] SelfPlayConfigError),
    #[error("search: {0}")]
    Search(#[from] SearchError),
    #[error(transparent)]
    Evaluation(#[from] EvaluationError),
    #[error("worker {0} panicked")]
    WorkerPanicked(usize),
    /// An error of the caller's game handler (e.g. writing a record failed).
    #[error("{0}")]
    Handler(String),
}

/// What the driver needs to know about a session.
pub struct Session<'a, G> {
    pub config: &'a SelfPlayConfig,
    pub mcts: &'a MctsConfig,
    /// Game ids to play, in order.
    pub game_ids: Vec<u64>,
    pub seed: u64,
    /// The start state of a game, from its id.
    pub start: &'a (dyn Fn(u64) -> G + Sync),
    /// When set (e.g. by Ctrl-C), no new game starts; games in flight are finished.
    pub stop: Option<&'a AtomicBool>,
    /// Builds each game's filter of its searches' root priors (`selfplay.root_filter`, for the
    /// caller to make: it knows the variant), or None for none.
    pub root_filter: Option<&'a RootFilterFactory<G>>,
    /// Gives a game a classical player at one of its seats (`selfplay.teacher`'s `spar`
    /// share, for the caller to make: it knows the variant), or None for none.
    pub sparring: Option<&'a SparringFactory<G>>,
}

impl<'a, G> Session<'a, G> {
    /// A session of `game_ids` from `start`'s states under `config` and `mcts`, with no stop
    /// flag, root filter or sparring partner (set those fields on the result to have them).
    pub fn new(
        config: &'a SelfPlayConfig,
        mcts: &'a MctsConfig,
        game_ids: Vec<u64>,
        seed: u64,
        start: &'a (dyn Fn(u64) -> G + Sync),
    ) -> Self {
        Session {
            config,
            mcts,
            game_ids,
            seed,
            start,
            stop: None,
            root_filter: None,
            sparring: None,
        }
    }
}

/// Makes one game's root filter (one each: a filter may keep a table from move to move).
pub type RootFilterFactory<G> = dyn Fn() -> Box<dyn RootFilter<G>> + Sync;

enum Message {
    Game(Box<PlayedGame>),
    Batch { worker: usize, evaluations: u64, seconds: f64, cache: Option<search::CacheStats> },
}

/// Plays the session's games with `workers` workers, each with an evaluator from
/// `make_evaluator(worker)` (called on the worker's thread). `on_game` receives every finished
/// game, in the order they finish, with the running totals that count it; `on_progress` the
/// running totals after every game or batch.
pub fn play<G, E>(
    session: &Session<'_, G>,
    make_evaluator: &(dyn Fn(usize) -> E + Sync),
    mut on_game: impl FnMut(PlayedGame, &SelfPlayStats) -> Result<(), String>,
    mut on_progress: impl FnMut(&SelfPlayStats),
) -> Result<SelfPlayStats, DriverError>
where
    G: Game,
    E: Evaluator<G>,
{
    session.config.validate(G::NUM_PLAYERS)?;
    if session.config.root_filter.is_on() && session.root_filter.is_none() {
        let problem = "is set, but this session was given no filter to apply it with".into();
        return Err(SelfPlayConfigError { key: "root_filter", problem }.into());
    }
    session.mcts.validate().map_err(|e| DriverError::Search(SearchError::Config(e)))?;
    if let Some(&id) = session.game_ids.first()
        && let Some((key, problem)) = session.config.start.check(&(session.start)(id))
    {
        return Err(SelfPlayConfigError { key, problem }.into());
    }
    let workers = session.config.workers.min(session.game_ids.len()).max(1);
    let started = Instant::now();
    let mut stats = SelfPlayStats::default();
    let mut caches: Vec<Option<search::CacheStats>> = vec![None; workers];
    let (tx, rx) = mpsc::channel::<Message>();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let tx = tx.clone();
                let ids: Vec<u64> =
                    session.game_ids.iter().copied().skip(w).step_by(workers).collect();
                scope.spawn(move || {
                    let mut evaluator = make_evaluator(w);
                    worker(session, w, ids, &mut evaluator, &tx)
                })
            })
            .collect();
        drop(tx);
        let mut handler_error = None;
        for msg in rx {
            match msg {
                Message::Game(game) => {
                    stats.record(&game);
                    stats.wall_time = started.elapsed();
                    if handler_error.is_none()
                        && let Err(e) = on_game(*game, &stats)
                    {
                        // Stop starting games; the ones in flight finish and are dropped.
                        handler_error = Some(e);
                    }
                }
                Message::Batch { worker, evaluations, seconds, cache } => {
                    stats.evaluations += evaluations;
                    stats.batches += 1;
                    stats.evaluator_time += std::time::Duration::from_secs_f64(seconds);
                    if cache.is_some() {
                        caches[worker] = cache;
                        stats.cache_hits = caches.iter().flatten().map(|c| c.hits).sum();
                        stats.cache_misses = caches.iter().flatten().map(|c| c.misses).sum();
                    }
                }
            }
            stats.wall_time = started.elapsed();
            on_progress(&stats);
        }
        for (w, h) in handles.into_iter().enumerate() {
            h.join().map_err(|_| DriverError::WorkerPanicked(w))??;
        }
        match handler_error {
            Some(e) => Err(DriverError::Handler(e)),
            None => Ok(()),
        }
    })?;
    stats.wall_time = started.elapsed();
    Ok(stats)
}

/// One worker's lockstep loop over its games.
fn worker<G: Game, E: Evaluator<G>>(
    session: &Session<'_, G>,
    index: usize,
    ids: Vec<u64>,
    evaluator: &mut E,
    tx: &mpsc::Sender<Message>,
) -> Result<(), DriverError> {
    let config = session.config;
    let stopped = || session.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut ids = ids.into_iter();
    let next = || -> Result<Option<Slot<G>>, DriverError> {
        if stopped() {
            return Ok(None);
        }
        let Some(id) = ids.next() else { return Ok(None) };
        let filter = session.root_filter.map(|make| make());
        let mut slot =
            Slot::new((session.start)(id), id, session.seed, session.mcts, config, filter)?;
        if let Some(sparrer) = session.sparring.and_then(|make| make(id)) {
            slot.set_sparrer(sparrer);
        }
        Ok(Some(slot))
    };
    let lockstep = Lockstep {
        shared: config,
        in_flight: config.games_in_flight,
        evaluators: vec![Some(evaluator as &mut dyn Evaluator<G>)],
    };
    lockstep.run(
        next,
        |batch| {
            let _ = tx.send(Message::Batch {
                worker: index,
                evaluations: batch.states as u64,
                seconds: batch.time.as_secs_f64(),
                cache: batch.cache,
            });
        },
        |game| {
            let _ = tx.send(Message::Game(Box::new(game)));
        },
    )
}

#[cfg(test)]
mod tests;
