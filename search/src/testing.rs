//! Test doubles for the [`Evaluator`] trait, public so that other crates' tests (the driver,
//! the arena) can use them: evaluators whose answers are known, or deterministic but varied;
//! and a [`RootFilter`] whose changes are known.

use games::{Game, MAX_PLAYERS, Values};

use crate::evaluator::{Evaluation, Evaluator, evaluate_each};
use crate::mcts::RootFilter;

/// A root filter that clears `action` from the prior wherever it is legal beside others and
/// renormalises the rest; with `None`, zeroes every prior and says it changed nothing. Counts
/// its calls.
#[derive(Clone, Debug)]
pub struct ClearAction<A> {
    pub action: Option<A>,
    pub calls: usize,
}

impl<A> ClearAction<A> {
    pub fn new(action: Option<A>) -> Self {
        ClearAction { action, calls: 0 }
    }
}

impl<G: Game> RootFilter<G> for ClearAction<G::Action>
where
    G::Action: Send + PartialEq,
{
    fn filter(&mut self, _: &G, legal: &[G::Action], prior: &mut [f32]) -> bool {
        assert_eq!(legal.len(), prior.len());
        self.calls += 1;
        let Some(action) = self.action.as_ref() else {
            prior.fill(0.0);
            return false;
        };
        let Some(i) = legal.iter().position(|a| a == action).filter(|_| legal.len() > 1) else {
            return false;
        };
        let rest = 1.0 - prior[i];
        prior[i] = 0.0;
        prior.iter_mut().for_each(|p| *p /= rest);
        true
    }
}

/// An evaluator from a closure over one state.
pub struct FnEvaluator<F>(pub F);

impl<G: Game, F: FnMut(&G) -> Evaluation> Evaluator<G> for FnEvaluator<F> {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        states.iter().map(&mut self.0).collect()
    }
}

/// Deterministic pseudo-random priors and values derived from [`Game::hash`] (lc0's random
/// backend): varied enough to break ties as a real network would, identical on every run.
/// Values are a random split of 1 between the seats.
#[derive(Clone, Copy, Debug, Default)]
pub struct HashEvaluator {
    /// Mixed into every hash, to get a different "network".
    pub salt: u64,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    z ^ (z >> 33)
}

/// A number in (0, 1] from a hash.
fn unit(h: u64) -> f32 {
    ((h >> 40) as f32 + 1.0) / (1u64 << 24) as f32
}

impl<G: Game> Evaluator<G> for HashEvaluator {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        evaluate_each(states, |s, legal| {
            let h = mix(s.hash() ^ self.salt);
            let raw: Vec<f32> =
                legal.iter().map(|&a| unit(mix(h ^ (s.action_index(a) as u64 + 1)))).collect();
            let total: f32 = raw.iter().sum();
            let policy = raw.iter().map(|p| p / total).collect();
            let mut v = [0.0; MAX_PLAYERS];
            for (seat, x) in v.iter_mut().take(G::NUM_PLAYERS).enumerate() {
                *x = unit(mix(h.wrapping_add(seat as u64 + 101)));
            }
            let sum: f32 = v.iter().sum();
            let values = s.returns().unwrap_or(Values(v.map(|x| x / sum)));
            Evaluation { policy, values, moves_left: None }
        })
    }
}

/// Counts the batches and states passing through to an inner evaluator.
#[derive(Clone, Debug, Default)]
pub struct CountingEvaluator<E> {
    inner: E,
    batches: usize,
    states: usize,
}

impl<E> CountingEvaluator<E> {
    pub fn new(inner: E) -> Self {
        CountingEvaluator { inner, batches: 0, states: 0 }
    }

    /// Calls to `evaluate` so far.
    pub fn batches(&self) -> usize {
        self.batches
    }

    /// States evaluated so far.
    pub fn states(&self) -> usize {
        self.states
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for CountingEvaluator<E> {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        self.batches += 1;
        self.states += states.len();
        self.inner.evaluate(states)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::toy::Race3;

    #[test]
    fn hash_evaluator_is_deterministic_and_normalised() {
        let s = [Race3::initial()];
        let a = HashEvaluator::default().evaluate(&s);
        let b = HashEvaluator::default().evaluate(&s);
        assert_eq!(a, b);
        assert!((a[0].policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!((a[0].values.0.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_ne!(a, HashEvaluator { salt: 1 }.evaluate(&s));
    }
}
