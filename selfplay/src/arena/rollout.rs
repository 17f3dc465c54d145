//! [`MoveRollouts`]: the value of the `mcts` player's leaves, from one random playout of
//! **complete moves**.
//!
//! The playout first finishes the move in progress with random legs, then plays uniformly random
//! complete moves on the [`Position`](games::Position) (no leg interface), which is about three
//! times faster than [`RolloutEvaluator`](crate::RolloutEvaluator)'s playouts one action at a
//! time, and draws each legal move (rather than each leg) with equal probability. The prior is
//! uniform over the leaf's legal actions; a playout cut off after `max_moves` moves is a draw.

use games::{Game, State, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use crate::evaluator::{Evaluation, Evaluator, draw_values};

/// Uniform prior, values from one random playout of complete moves (seeded).
#[derive(Clone, Debug)]
pub struct MoveRollouts {
    max_moves: usize,
    rng: StdRng,
}

impl MoveRollouts {
    /// Playouts of at most `max_moves` complete moves, drawn from `seed`.
    pub fn new(max_moves: usize, seed: u64) -> Self {
        MoveRollouts { max_moves, rng: StdRng::seed_from_u64(seed) }
    }

    /// The per-seat returns of one random playout from `state`.
    fn playout<V: Variant>(&mut self, state: &State<V>) -> games::Values {
        let mut s = state.clone();
        let mut legal = Vec::new();
        while !s.landed().is_empty() {
            s.legal_actions(&mut legal);
            match legal.choose(&mut self.rng) {
                Some(&a) => s.play(a),
                None => break,
            }
        }
        let mut pos = s.position().clone();
        for _ in 0..self.max_moves {
            let moves = pos.legal_moves();
            match moves.choose(&mut self.rng) {
                Some(m) => pos.play(m),
                None => break,
            }
        }
        pos.outcome()
            .map_or_else(|| draw_values(V::NUM_PLAYERS), |o| o.outcome.values(V::NUM_PLAYERS))
    }
}

impl<V: Variant> Evaluator<State<V>> for MoveRollouts {
    fn evaluate(&mut self, states: &[State<V>]) -> Vec<Evaluation> {
        let mut legal = Vec::new();
        states
            .iter()
            .map(|s| {
                s.legal_actions(&mut legal);
                let mut e = Evaluation::uniform(legal.len(), V::NUM_PLAYERS);
                e.values = self.playout(s);
                e
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{Camelot, TriCamelot};

    #[test]
    fn playouts_end_games_and_score_them() {
        let mut r = MoveRollouts::new(10_000, 1);
        let e = r.evaluate(&[Camelot::initial(), Camelot::initial()]);
        assert_eq!(e.len(), 2);
        let mut legal = Vec::new();
        Camelot::initial().legal_actions(&mut legal);
        for ev in &e {
            assert_eq!(ev.policy, vec![1.0 / legal.len() as f32; legal.len()]);
            let total: f32 = ev.values.0.iter().sum();
            assert!((total - 1.0).abs() < 1e-6);
        }
        let t = MoveRollouts::new(10_000, 2).evaluate(&[TriCamelot::initial()]);
        assert!((t[0].values.0.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        // Cut off at once: a draw.
        let d = MoveRollouts::new(0, 3).evaluate(&[Camelot::initial()]);
        assert_eq!(d[0].values, draw_values(2));
        // Same seed, same values.
        let again = MoveRollouts::new(10_000, 1).evaluate(&[Camelot::initial()]);
        assert_eq!(again[0], e[0]);
    }

    #[test]
    fn a_move_in_progress_is_finished_first() {
        // White is in the middle of a canter (D7-D5); the playout completes it and goes on.
        let s: Camelot =
            Camelot::parse_with(&format!("{} move=D7-D5", Camelot::initial()), Default::default())
                .unwrap();
        assert!(!s.landed().is_empty());
        let e = MoveRollouts::new(10_000, 4).evaluate(std::slice::from_ref(&s));
        assert!((e[0].values.0.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
