//! [`CachedEvaluator`]: an evaluation cache in front of any [`Evaluator`], keyed by
//! [`Game::hash`] (KataGo's `NNCacheTable`, lc0's cache backend).
//!
//! Transpositions and positions revisited between moves or between games (openings) are
//! evaluated once. The cache holds at most `capacity` entries and forgets the oldest first.
//! Keys are 64-bit hashes; two positions with the same hash would share an evaluation, which
//! with Zobrist hashing is rare enough to ignore.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use games::Game;

use crate::evaluator::{CacheStats, Evaluation, Evaluator};

/// An evaluator that remembers up to `capacity` evaluations of its inner evaluator.
#[derive(Clone, Debug)]
pub struct CachedEvaluator<E> {
    inner: E,
    map: HashMap<u64, Evaluation>,
    /// Keys in insertion order, for first-in-first-out eviction.
    order: VecDeque<u64>,
    capacity: usize,
    hits: u64,
    misses: u64,
}

impl<E> CachedEvaluator<E> {
    /// Wraps `inner`; `capacity == 0` caches nothing.
    pub fn new(inner: E, capacity: usize) -> Self {
        CachedEvaluator {
            inner,
            map: HashMap::new(),
            order: VecDeque::new(),
            capacity,
            hits: 0,
            misses: 0,
        }
    }

    /// Counters and size.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits,
            misses: self.misses,
            len: self.map.len(),
            capacity: self.capacity,
        }
    }

    /// The wrapped evaluator.
    pub fn inner(&self) -> &E {
        &self.inner
    }

    /// Forgets every entry (for example when the network changes); keeps the counters.
    pub fn clear(&mut self) {
        self.map.clear();
        self.order.clear();
    }

    fn insert(&mut self, key: u64, eval: Evaluation) {
        if self.capacity == 0 {
            return;
        }
        if let Entry::Vacant(slot) = self.map.entry(key) {
            slot.insert(eval);
            self.order.push_back(key);
        }
        while self.map.len() > self.capacity {
            match self.order.pop_front() {
                Some(old) => self.map.remove(&old),
                None => break,
            };
        }
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for CachedEvaluator<E> {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        let mut out: Vec<Option<Evaluation>> = vec![None; states.len()];
        // Misses to send on, deduplicated within the batch: key -> position in `to_eval`.
        let mut pending: HashMap<u64, usize> = HashMap::new();
        let mut to_eval: Vec<G> = Vec::new();
        let mut waiting: Vec<(usize, usize)> = Vec::new();
        for (i, s) in states.iter().enumerate() {
            let key = s.hash();
            if let Some(e) = self.map.get(&key) {
                self.hits += 1;
                out[i] = Some(e.clone());
            } else if let Some(&j) = pending.get(&key) {
                self.hits += 1;
                waiting.push((i, j));
            } else {
                self.misses += 1;
                pending.insert(key, to_eval.len());
                waiting.push((i, to_eval.len()));
                to_eval.push(s.clone());
            }
        }
        if !to_eval.is_empty() {
            let evals = self.inner.evaluate(&to_eval);
            for (i, j) in waiting {
                out[i] = evals.get(j).cloned();
            }
            for (s, e) in to_eval.iter().zip(evals) {
                self.insert(s.hash(), e);
            }
        }
        // Complete unless the inner evaluator broke its contract and returned too few.
        out.into_iter().flatten().collect()
    }

    fn cache_stats(&self) -> Option<CacheStats> {
        Some(self.stats())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::UniformEvaluator;
    use crate::testing::CountingEvaluator;
    use games::toy::TicTacToe;

    fn position(cell: u8) -> TicTacToe {
        let mut t = TicTacToe::initial();
        t.play(cell);
        t
    }

    #[test]
    fn repeated_states_hit_the_cache() {
        let mut ev = CachedEvaluator::new(CountingEvaluator::new(UniformEvaluator), 100);
        let a = ev.evaluate(&[position(0), position(1)]);
        let b = ev.evaluate(&[position(1), position(0), position(1)]);
        assert_eq!(a[0], b[1]);
        assert_eq!(a[1], b[0]);
        let stats = ev.stats();
        assert_eq!((stats.hits, stats.misses, stats.len), (3, 2, 2));
        assert!((stats.hit_rate() - 0.6).abs() < 1e-12);
        assert_eq!(ev.inner().states(), 2, "only the misses reached the inner evaluator");
        assert_eq!(ev.inner().batches(), 1, "an all-hit batch makes no inner call");
    }

    #[test]
    fn duplicates_within_a_batch_are_evaluated_once() {
        let mut ev = CachedEvaluator::new(CountingEvaluator::new(UniformEvaluator), 100);
        let out = ev.evaluate(&[position(4), position(4), position(4)]);
        assert_eq!(out.len(), 3);
        assert_eq!(ev.inner().states(), 1);
        assert_eq!((ev.stats().hits, ev.stats().misses), (2, 1));
    }

    #[test]
    fn capacity_is_a_bound_and_the_oldest_entry_goes_first() {
        let mut ev = CachedEvaluator::new(UniformEvaluator, 3);
        for cell in 0..9 {
            ev.evaluate(&[position(cell)]);
            assert!(ev.stats().len <= 3);
        }
        assert_eq!(ev.stats().len, 3);
        ev.evaluate(&[position(8), position(0)]);
        assert_eq!((ev.stats().hits, ev.stats().misses), (1, 10), "8 is kept, 0 was evicted");
        let mut none = CachedEvaluator::new(UniformEvaluator, 0);
        none.evaluate(&[position(0), position(1)]);
        none.evaluate(&[position(0)]);
        assert_eq!((none.stats().hits, none.stats().len), (0, 0));
    }
}
