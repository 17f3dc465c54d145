//! [`MoveRollouts`]: the value of the `mcts` player's leaves, from one random playout of
//! **complete moves**.
//!
//! The playout first finishes the move in progress with random legs, then plays uniformly random
//! complete moves on the [`Position`](games::Position) (no leg interface), which is about three
//! times faster than [`RolloutEvaluator`](search::RolloutEvaluator)'s playouts one action at a
//! time, and draws each legal move (rather than each leg) with equal probability. The prior is
//! uniform over the leaf's legal actions; a playout cut off after `max_moves` moves is a draw.
//!
//! With a **cutoff** of `K` moves (`mcts:sims=N,cutoff=K`) the playout stops after `K` moves and
//! is scored by the [`Heuristic`]'s score shares: a short look ahead that settles the captures in
//! reach, judged by material and progress, where a long random playout of a 200-move game is
//! mostly noise. More simulations then make a stronger player.

use games::{Game, State, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

use super::heuristic::Heuristic;
use search::evaluator::{Evaluation, Evaluator, draw_values};

/// Uniform prior, values from one random playout of complete moves (seeded).
#[derive(Clone, Debug)]
pub struct MoveRollouts {
    max_moves: usize,
    /// The cutoff of [`Evaluator::evaluate`] (a game's slot passes each player's own to
    /// [`MoveRollouts::leaf`]).
    cutoff: Option<u32>,
    /// Built on the first cut-off playout (it belongs to the variant played).
    heuristic: Option<Heuristic>,
    rng: StdRng,
}

impl MoveRollouts {
    /// Playouts of at most `max_moves` complete moves, drawn from `seed`.
    pub fn new(max_moves: usize, seed: u64) -> Self {
        MoveRollouts { max_moves, cutoff: None, heuristic: None, rng: StdRng::seed_from_u64(seed) }
    }

    /// The same, each playout cut after `cutoff` moves and scored by the heuristic.
    pub fn with_cutoff(self, cutoff: Option<u32>) -> Self {
        MoveRollouts { cutoff, ..self }
    }

    /// The evaluation of one leaf: the uniform prior and one playout, cut after `cutoff` moves
    /// when given.
    pub fn leaf<V: Variant>(&mut self, state: &State<V>, cutoff: Option<u32>) -> Evaluation {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let mut e = Evaluation::uniform(legal.len(), V::NUM_PLAYERS);
        e.values = self.playout(state, cutoff);
        e
    }

    /// The per-seat returns of one random playout from `state`.
    fn playout<V: Variant>(&mut self, state: &State<V>, cutoff: Option<u32>) -> games::Values {
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
        let limit = cutoff.map_or(self.max_moves, |k| k as usize);
        for _ in 0..limit {
            let moves = pos.legal_moves();
            match moves.choose(&mut self.rng) {
                Some(m) => pos.play(m),
                None => break,
            }
        }
        match (pos.outcome(), cutoff) {
            (Some(over), _) => over.outcome.values(V::NUM_PLAYERS),
            (None, Some(_)) => self.heuristic.get_or_insert_with(Heuristic::new::<V>).values(&pos),
            (None, None) => draw_values(V::NUM_PLAYERS),
        }
    }
}

impl<V: Variant> Evaluator<State<V>> for MoveRollouts {
    fn evaluate(&mut self, states: &[State<V>]) -> Vec<Evaluation> {
        states.iter().map(|s| self.leaf(s, self.cutoff)).collect()
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
    fn cut_off_playouts_are_scored_by_the_heuristic() {
        // White a Man and a Knight up, far from any capture: a playout cut at once scores the
        // position as the heuristic does, every time; a long one mostly ends in a draw by the cap.
        let s: Camelot = "camelot W W:KA4,KB4,MF6 B:KL13,ML12 cm=0,0".parse().unwrap();
        let mut cut = MoveRollouts::new(10_000, 5).with_cutoff(Some(1));
        let e = cut.evaluate(std::slice::from_ref(&s));
        assert!(e[0].values.0[0] > 0.7, "{:?}", e[0].values);
        assert!((e[0].values.0[0] + e[0].values.0[1] - 1.0).abs() < 1e-6);
        let h = Heuristic::new::<games::CamelotRules>().values(s.position());
        let zero = MoveRollouts::new(10_000, 5).leaf(&s, Some(1));
        assert!((zero.values.0[0] - h.0[0]).abs() < 0.2, "one random move changes little");
        let uncut = MoveRollouts::new(10, 5).leaf(&s, None);
        assert_eq!(uncut.values, draw_values(2), "cut by the cap without a cutoff: a draw");
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
