//! The lockstep loop that self-play (`selfplay::driver`) and arena matches (`selfplay::arena`) run
//! on (lc0's multigame, kZero's gather/apply).
//!
//! A set of games is in flight. One step: every game advances in parallel (rayon) until it needs
//! an evaluation or ends; the leaves are grouped by the evaluator they ask for (self-play has one,
//! the arena one per network player), each evaluator gets its group in **one** `evaluate` call (a
//! batched forward pass), in evaluator order, and the evaluations are applied in parallel.
//! Finished games are handed over and their slots refilled in place, highest index first.
//!
//! Nothing here draws a random number: each game has its own streams, and the batches depend only
//! on the order of the slots, so the games are the same in every run with the same seeds.

use std::time::{Duration, Instant};

use games::Game;
use rayon::prelude::*;
use thiserror::Error;

use crate::CacheStats;
use crate::evaluator::{Evaluation, Evaluator};
use crate::mcts::{Leaf, SearchError};

/// What a game in flight needs next.
pub enum Step<G: Game> {
    /// Evaluator `evaluator` must evaluate this leaf; it comes back through [`Slot::apply`].
    Evaluate { evaluator: usize, leaf: Leaf<G> },
    /// The game is over: [`Slot::finish`] is next.
    Finished,
}

/// One game in flight. `C` is what all slots of a loop share (the session's or match's settings).
pub trait Slot<C: ?Sized> {
    type Game: Game;
    /// What a finished game becomes.
    type Finished;

    /// Plays until an evaluation is needed or the game ends. After [`Step::Finished`] it is not
    /// called again.
    fn step(&mut self, shared: &C) -> Result<Step<Self::Game>, SearchError>;

    /// Hands back the evaluation of the leaf of the last [`Step::Evaluate`].
    fn apply(&mut self, leaf: Leaf<Self::Game>, eval: Evaluation) -> Result<(), SearchError>;

    /// The finished game (after [`Step::Finished`]).
    fn finish(self) -> Self::Finished;
}

/// An evaluator that did not keep its contract with the loop.
#[derive(Debug, Error)]
pub enum EvaluationError {
    /// A game asked for an evaluator that was not given (a bug in the caller).
    #[error("no evaluator {0} to evaluate with")]
    Missing(usize),
    #[error("evaluator {evaluator} returned {got} evaluations for {expected} states")]
    Count { evaluator: usize, expected: usize, got: usize },
}

/// One `evaluate` call, for statistics.
pub struct BatchReport {
    pub states: usize,
    /// Time spent inside `evaluate`.
    pub time: Duration,
    /// The evaluator's cache counters after the call, if it has a cache.
    pub cache: Option<CacheStats>,
}

/// What one loop works with besides the slots.
pub struct Lockstep<'a, C: ?Sized, G: Game> {
    /// Shared by all slots.
    pub shared: &'a C,
    /// Games in flight at most.
    pub in_flight: usize,
    /// Evaluator `i` answers the leaves of [`Step::Evaluate`] `{ evaluator: i }`; `None` for an
    /// index no game asks for.
    pub evaluators: Vec<Option<&'a mut dyn Evaluator<G>>>,
}

impl<C: ?Sized + Sync, G: Game> Lockstep<'_, C, G> {
    /// Runs games until `next` has none left: `next` gives the next game (None: no more),
    /// `on_batch` sees every `evaluate` call, `on_finish` every finished game, in the order
    /// they finish.
    pub fn run<S, E>(
        mut self,
        mut next: impl FnMut() -> Result<Option<S>, E>,
        mut on_batch: impl FnMut(BatchReport),
        mut on_finish: impl FnMut(S::Finished),
    ) -> Result<(), E>
    where
        S: Slot<C, Game = G> + Send,
        E: From<SearchError> + From<EvaluationError>,
    {
        let shared = self.shared;
        let mut slots = Vec::new();
        while slots.len() < self.in_flight {
            match next()? {
                Some(s) => slots.push(s),
                None => break,
            }
        }
        while !slots.is_empty() {
            let steps: Vec<Result<Step<G>, SearchError>> =
                slots.par_iter_mut().map(|s| s.step(shared)).collect();
            let mut leaves: Vec<Option<(usize, Leaf<G>)>> = Vec::with_capacity(slots.len());
            let mut finished = Vec::new();
            for (i, step) in steps.into_iter().enumerate() {
                match step? {
                    Step::Evaluate { evaluator, leaf } => leaves.push(Some((evaluator, leaf))),
                    Step::Finished => {
                        leaves.push(None);
                        finished.push(i);
                    }
                }
            }
            let evals = self.evaluate(&leaves, &mut on_batch)?;
            let work: Vec<Option<(Leaf<G>, Evaluation)>> = leaves
                .into_iter()
                .zip(evals)
                .map(|(l, e)| l.zip(e).map(|((_, leaf), eval)| (leaf, eval)))
                .collect();
            slots.par_iter_mut().zip(work).try_for_each(|(slot, w)| match w {
                Some((leaf, eval)) => slot.apply(leaf, eval),
                None => Ok(()),
            })?;
            for i in finished.into_iter().rev() {
                on_finish(slots.remove(i).finish());
                if let Some(s) = next()? {
                    slots.insert(i, s);
                }
            }
        }
        Ok(())
    }

    /// One `evaluate` call per evaluator with the leaves that ask for it; the evaluations come
    /// back in the order of `leaves`.
    fn evaluate(
        &mut self,
        leaves: &[Option<(usize, Leaf<G>)>],
        on_batch: &mut impl FnMut(BatchReport),
    ) -> Result<Vec<Option<Evaluation>>, EvaluationError> {
        let mut out: Vec<Option<Evaluation>> = vec![None; leaves.len()];
        let asks = |i: usize| leaves[i].as_ref().map(|(e, _)| *e);
        if let Some(e) = (0..leaves.len()).filter_map(asks).find(|&e| e >= self.evaluators.len()) {
            return Err(EvaluationError::Missing(e));
        }
        for (index, evaluator) in self.evaluators.iter_mut().enumerate() {
            let mine: Vec<usize> = (0..leaves.len()).filter(|&i| asks(i) == Some(index)).collect();
            if mine.is_empty() {
                continue;
            }
            let Some(evaluator) = evaluator else {
                return Err(EvaluationError::Missing(index));
            };
            let states: Vec<G> = mine
                .iter()
                .filter_map(|&i| leaves[i].as_ref().map(|(_, l)| l.state.clone()))
                .collect();
            let t = Instant::now();
            let evals = evaluator.evaluate(&states);
            let time = t.elapsed();
            if evals.len() != states.len() {
                return Err(EvaluationError::Count {
                    evaluator: index,
                    expected: states.len(),
                    got: evals.len(),
                });
            }
            let cache = evaluator.cache_stats();
            on_batch(BatchReport { states: states.len(), time, cache });
            for (i, e) in mine.into_iter().zip(evals) {
                out[i] = Some(e);
            }
        }
        Ok(out)
    }
}
