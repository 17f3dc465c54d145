//! The lockstep self-play driver (DESIGN.md §4; lc0's multigame, kZero's gather/apply).
//!
//! Each worker keeps `games_in_flight` games. One step: every game advances in parallel (rayon)
//! until it needs an evaluation or ends; the leaves of all games go to the worker's evaluator in
//! ONE batched call; the evaluations are applied in parallel. Finished games are handed to the
//! caller and their slots refilled. Several workers, each with its own evaluator (a network
//! copy), play disjoint sets of games on their own threads.
//!
//! Reproducible: a game's random choices come from its own stream, seeded from the session seed
//! and its id; worker `w` of `W` plays the ids `w, w + W, ...` of the list in order, so the
//! batches (and thus the games) are the same in every run with the same seed and settings.

mod config;
mod game_log;
mod move_limit;
mod slot;
mod start;
mod stats;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use games::{Game, Outcome};
use rayon::prelude::*;
use thiserror::Error;

pub use config::{PlayoutCap, Resign, SelfPlayConfig, SelfPlayConfigError};
pub use game_log::{Decision, FinishedGame};
pub use move_limit::MoveLimit;
pub use start::Start;
pub use stats::SelfPlayStats;

use crate::evaluator::{Evaluation, Evaluator};
use crate::mcts::{Leaf, MctsConfig, SearchError};
use slot::{Slot, Step};

/// Why self-play stopped.
#[derive(Debug, Error)]
pub enum DriverError {
    #[error(transparent)]
    Config(#[from] SelfPlayConfigError),
    #[error("search: {0}")]
    Search(#[from] SearchError),
    #[error("the evaluator returned {got} evaluations for {expected} states")]
    EvaluationCount { expected: usize, got: usize },
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
}

enum Message {
    Game(Box<FinishedGame>, Option<Outcome>),
    Batch { worker: usize, evaluations: u64, seconds: f64, cache: Option<crate::CacheStats> },
}

/// Plays the session's games with `workers` workers, each with an evaluator from
/// `make_evaluator(worker)` (called on the worker's thread). `on_game` receives every finished
/// game, in the order they finish; `on_progress` the running totals after every game or batch.
pub fn play<G, E>(
    session: &Session<'_, G>,
    make_evaluator: &(dyn Fn(usize) -> E + Sync),
    mut on_game: impl FnMut(FinishedGame) -> Result<(), String>,
    mut on_progress: impl FnMut(&SelfPlayStats),
) -> Result<SelfPlayStats, DriverError>
where
    G: Game,
    E: Evaluator<G>,
{
    session.config.validate(G::NUM_PLAYERS)?;
    session.mcts.validate().map_err(|e| DriverError::Search(SearchError::Config(e)))?;
    if let Some(&id) = session.game_ids.first()
        && let Some((key, problem)) = session.config.start.check(&(session.start)(id))
    {
        return Err(SelfPlayConfigError { key, problem }.into());
    }
    let workers = session.config.workers.min(session.game_ids.len()).max(1);
    let started = Instant::now();
    let mut stats = SelfPlayStats::default();
    let mut caches: Vec<Option<crate::CacheStats>> = vec![None; workers];
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
                Message::Game(game, outcome) => {
                    stats.record(&game, outcome);
                    stats.actions += game.actions as u64;
                    stats.decisions += game.decisions.len() as u64;
                    if handler_error.is_none()
                        && let Err(e) = on_game(*game)
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
    let mut next = ids.into_iter();
    let new_slot = |next: &mut std::vec::IntoIter<u64>| -> Result<Option<Slot<G>>, DriverError> {
        if stopped() {
            return Ok(None);
        }
        next.next()
            .map(|id| Slot::new((session.start)(id), id, session.seed, session.mcts, config))
            .transpose()
            .map_err(DriverError::from)
    };
    let mut slots = Vec::new();
    while slots.len() < config.games_in_flight {
        match new_slot(&mut next)? {
            Some(s) => slots.push(s),
            None => break,
        }
    }
    while !slots.is_empty() {
        let steps: Vec<Result<Step<G>, SearchError>> =
            slots.par_iter_mut().map(|s| s.step(config)).collect();
        let mut pending: Vec<Option<Leaf<G>>> = Vec::with_capacity(slots.len());
        let mut finished = Vec::new();
        for (i, step) in steps.into_iter().enumerate() {
            match step? {
                Step::Evaluate(leaf) => pending.push(Some(leaf)),
                Step::Finished => {
                    pending.push(None);
                    finished.push(i);
                }
            }
        }
        let states: Vec<G> = pending.iter().flatten().map(|l| l.state.clone()).collect();
        if !states.is_empty() {
            let t = Instant::now();
            let evals = evaluator.evaluate(&states);
            let seconds = t.elapsed().as_secs_f64();
            if evals.len() != states.len() {
                return Err(DriverError::EvaluationCount {
                    expected: states.len(),
                    got: evals.len(),
                });
            }
            let _ = tx.send(Message::Batch {
                worker: index,
                evaluations: states.len() as u64,
                seconds,
                cache: evaluator.cache_stats(),
            });
            let mut evals = evals.into_iter();
            let work: Vec<Option<(Leaf<G>, Evaluation)>> = pending
                .into_iter()
                .map(|l| l.map(|l| (l, evals.next().expect("counted above"))))
                .collect();
            slots.par_iter_mut().zip(work).try_for_each(|(slot, w)| match w {
                Some((leaf, eval)) => slot.apply(leaf, eval),
                None => Ok(()),
            })?;
        }
        for i in finished.into_iter().rev() {
            let (game, outcome) = slots.remove(i).finish();
            let _ = tx.send(Message::Game(Box::new(game), outcome));
            if let Some(s) = new_slot(&mut next)? {
                slots.insert(i, s);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
