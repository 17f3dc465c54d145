//! The [`Evaluator`] trait through which the search gets priors and values, and the evaluators
//! that need no network: [`UniformEvaluator`] and [`RolloutEvaluator`].
//!
//! As lc0's backends and OpenSpiel's `Evaluator`: one call takes a whole batch of states, the
//! policy covers the legal actions only, and **values are absolute per seat** (index = seat),
//! never relative to the mover.

use games::{Game, MAX_PLAYERS, Values};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// The evaluation of one state.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Prior over the state's legal actions, in `legal_actions` order; sums to 1 (empty for a
    /// finished game).
    pub policy: Vec<f32>,
    /// Expected score share of each seat, absolute (index = seat), each in `[0, 1]`.
    pub values: Values,
    /// Expected complete moves to the game's end, counting the one being played (a network
    /// with the moves-left head); `None` from evaluators without one.
    /// The search reads it with `mcts.moves_left` on ([`crate::mcts::MovesLeft`]).
    pub moves_left: Option<f32>,
}

impl Evaluation {
    /// A uniform prior over `num_legal` actions with the draw share `1 / num_players` for each
    /// seat.
    pub fn uniform(num_legal: usize, num_players: usize) -> Self {
        let p = if num_legal == 0 { 0.0 } else { 1.0 / num_legal as f32 };
        Evaluation {
            policy: vec![p; num_legal],
            values: draw_values(num_players),
            moves_left: None,
        }
    }
}

/// `1 / num_players` for every seat (0 beyond `num_players`).
pub fn draw_values(num_players: usize) -> Values {
    let mut v = [0.0; MAX_PLAYERS];
    v[..num_players.min(MAX_PLAYERS)].fill(1.0 / num_players as f32);
    Values(v)
}

/// Hits and misses of an evaluation cache ([`CachedEvaluator`](crate::CachedEvaluator)), as an
/// evaluator reports them ([`Evaluator::cache_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// States answered from the cache (including repeats within one batch).
    pub hits: u64,
    /// States passed to the inner evaluator.
    pub misses: u64,
    /// Entries held now.
    pub len: usize,
    /// The most entries it will hold.
    pub capacity: usize,
}

impl CacheStats {
    /// `hits / (hits + misses)`, 0 before the first lookup.
    pub fn hit_rate(&self) -> f64 {
        let total = self.hits + self.misses;
        if total == 0 { 0.0 } else { self.hits as f64 / total as f64 }
    }
}

/// Anything that evaluates states in batches: the network, or a stand-in.
///
/// Contract: `evaluate(states)` returns exactly one [`Evaluation`] per state, in order. The
/// search only asks about unfinished states.
pub trait Evaluator<G: Game> {
    /// Evaluates a batch (one forward pass for a network).
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation>;

    /// Hit/miss counts of an evaluation cache inside this evaluator, if it has one.
    fn cache_stats(&self) -> Option<CacheStats> {
        None
    }
}

/// An evaluator behind a box: what a worker, a player or a search gets from a factory.
pub type BoxedEvaluator<G> = Box<dyn Evaluator<G>>;

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &mut E {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        (**self).evaluate(states)
    }

    fn cache_stats(&self) -> Option<CacheStats> {
        (**self).cache_stats()
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        (**self).evaluate(states)
    }

    fn cache_stats(&self) -> Option<CacheStats> {
        (**self).cache_stats()
    }
}

/// Evaluates each of `states` with `evaluate`, given the state and its legal actions (one
/// buffer for the whole batch, refilled per state): the loop of the evaluators that need no
/// network.
pub(crate) fn evaluate_each<G: Game>(
    states: &[G],
    mut evaluate: impl FnMut(&G, &[G::Action]) -> Evaluation,
) -> Vec<Evaluation> {
    let mut legal = Vec::new();
    states
        .iter()
        .map(|s| {
            s.legal_actions(&mut legal);
            evaluate(s, &legal)
        })
        .collect()
}

/// Uniform prior, every seat valued at the draw share: search guided by nothing but the rules
/// (finished games still score exactly).
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        evaluate_each(states, |s, legal| {
            let mut e = Evaluation::uniform(legal.len(), G::NUM_PLAYERS);
            if let Some(r) = s.returns() {
                e.values = r;
            }
            e
        })
    }
}

/// Uniform prior; values are the mean returns of `playouts` uniformly random playouts of at
/// most `max_actions` actions each (a playout cut off by the cap counts as a draw). Seeded,
/// so a given sequence of calls is reproducible. The classic MCTS baseline.
#[derive(Clone, Debug)]
pub struct RolloutEvaluator {
    playouts: u32,
    max_actions: usize,
    rng: StdRng,
}

impl RolloutEvaluator {
    /// `playouts` is raised to at least 1.
    pub fn new(playouts: u32, max_actions: usize, seed: u64) -> Self {
        RolloutEvaluator {
            playouts: playouts.max(1),
            max_actions,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The returns of one random playout from `state`.
    fn playout<G: Game>(&mut self, state: &G, legal: &mut Vec<G::Action>) -> Values {
        let mut s = state.clone();
        for _ in 0..self.max_actions {
            s.legal_actions(legal);
            match legal.choose(&mut self.rng) {
                Some(&a) => s.play(a),
                None => break,
            }
        }
        s.returns().unwrap_or_else(|| draw_values(G::NUM_PLAYERS))
    }
}

impl<G: Game> Evaluator<G> for RolloutEvaluator {
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        // The playouts' own buffer of legal actions: `legal` is the root's.
        let mut scratch = Vec::new();
        evaluate_each(states, |s, legal| {
            let mut sum = [0.0f32; MAX_PLAYERS];
            for _ in 0..self.playouts {
                let r = self.playout(s, &mut scratch);
                for (acc, v) in sum.iter_mut().zip(r.0) {
                    *acc += v;
                }
            }
            let mut e = Evaluation::uniform(legal.len(), G::NUM_PLAYERS);
            e.values = Values(sum.map(|x| x / self.playouts as f32));
            e
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::toy::{Race3, TicTacToe};

    #[test]
    fn uniform_gives_uniform_priors_and_draw_values() {
        let e = UniformEvaluator.evaluate(&[TicTacToe::initial()]);
        assert_eq!(e[0].policy, vec![1.0 / 9.0; 9]);
        assert_eq!(e[0].values, Values([0.5, 0.5, 0.0]));
        let e = UniformEvaluator.evaluate(&[Race3::initial(), Race3::initial()]);
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].values, Values([1.0 / 3.0; 3]));
    }

    #[test]
    fn rollouts_see_a_won_position_and_are_reproducible() {
        // X has two in a row and O cannot stop every random continuation; after X plays c3 the
        // game is simply won.
        let mut won = TicTacToe::parse("XX./OO./...").unwrap();
        won.play(2);
        let mut ev = RolloutEvaluator::new(8, 20, 1);
        let e = ev.evaluate(std::slice::from_ref(&won));
        assert_eq!(e[0].values, Values([1.0, 0.0, 0.0]));
        assert!(e[0].policy.is_empty());
        let s = TicTacToe::initial();
        let a = RolloutEvaluator::new(32, 20, 7).evaluate(std::slice::from_ref(&s));
        let b = RolloutEvaluator::new(32, 20, 7).evaluate(std::slice::from_ref(&s));
        assert_eq!(a, b);
        let total: f32 = a[0].values.0.iter().sum();
        assert!((total - 1.0).abs() < 1e-5);
    }

    #[test]
    fn a_playout_cut_by_the_cap_is_a_draw() {
        let mut ev = RolloutEvaluator::new(4, 0, 3);
        let e = ev.evaluate(&[Race3::initial()]);
        assert_eq!(e[0].values, Values([1.0 / 3.0; 3]));
    }
}
