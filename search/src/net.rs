//! The network as an [`Evaluator`]: encode states with `games`, one batched forward pass through
//! `model::Predictor`, policy masked to the legal actions, outcome classes turned into per-seat
//! values. Behind the `net` feature (it pulls in burn).

use std::marker::PhantomData;

use rayon::prelude::*;

use games::{Encode, Encoding, Player, Values};
use model::{DeviceKind, ModelError, Net, NetConfig, Predictor, masked_softmax};

use crate::DrawScore;
use crate::evaluator::{Evaluation, Evaluator};

/// Per-seat values from the value head's classes (`[seat wins, mover first..., draw]`): seat `s`
/// gets the probability that it wins plus the draw probability times what a draw is worth to it
/// (`draw`; the fair share `1 / num_players` gives score shares).
pub fn values_from_classes(probs: &[f32], mover: Player, num_players: usize, draw: f32) -> Values {
    let mut v = [0.0; games::MAX_PLAYERS];
    let draw = probs[num_players] * draw;
    for (k, &p) in probs[..num_players].iter().enumerate() {
        v[(mover.index() + k) % num_players] = p + draw;
    }
    Values(v)
}

/// A network for `G` reading `encoding`, with random weights of the named preset, drawn from
/// `seed`.
pub fn random_net<G: Encode>(
    preset: &str,
    encoding: Encoding,
    device: DeviceKind,
    seed: u64,
) -> Result<Net, ModelError> {
    let config = NetConfig::preset(preset, G::layout(encoding).clone())?;
    Net::seeded(&config, &device.device()?, seed)
}

/// Evaluates states of game `G` with a network.
pub struct NetEvaluator<G> {
    predictor: Predictor,
    /// The encoding the network reads (its shape names it).
    encoding: Encoding,
    planes: Vec<f32>,
    legal: Vec<Vec<usize>>,
    /// What a draw is worth to each seat ([`DrawScore::value`]).
    draw: f32,
    _game: PhantomData<fn() -> G>,
}

impl<G: Encode> NetEvaluator<G> {
    /// Wraps a predictor, checking that its network was built for `G`'s shape under the
    /// encoding it names; states are encoded that way.
    pub fn new(predictor: Predictor) -> Result<Self, ModelError> {
        let encoding = predictor.config().shape.encoding;
        let want = G::layout(encoding);
        if predictor.config().shape != *want {
            return Err(ModelError::InvalidShape(format!(
                "the network was built for another game or encoding ({} planes {}x{}, {} actions; {} needs {} planes {}x{}, {} actions)",
                predictor.config().shape.planes,
                predictor.config().shape.height,
                predictor.config().shape.width,
                predictor.config().shape.num_actions(),
                G::NAME,
                want.planes,
                want.height,
                want.width,
                want.num_actions(),
            )));
        }
        Ok(NetEvaluator {
            predictor,
            encoding,
            planes: Vec::new(),
            legal: Vec::new(),
            draw: DrawScore::Share.value(G::NUM_PLAYERS),
            _game: PhantomData,
        })
    }

    /// The same evaluator with draws scored by `draw_score` (self-play's `selfplay.draw_score`).
    pub fn with_draw_score(mut self, draw_score: DrawScore) -> Self {
        self.draw = draw_score.value(G::NUM_PLAYERS);
        self
    }

    /// A network with random weights of the named preset (generation 0 of a run), drawn from
    /// `seed` so that the same seed gives the same network.
    pub fn random(
        preset: &str,
        encoding: Encoding,
        device: DeviceKind,
        seed: u64,
    ) -> Result<Self, ModelError> {
        Self::new(Predictor::new(&random_net::<G>(preset, encoding, device, seed)?, device)?)
    }

    /// The predictor (e.g. for benchmarks of the raw forward pass).
    pub fn predictor(&self) -> &Predictor {
        &self.predictor
    }
}

impl<G: Encode> Evaluator<G> for NetEvaluator<G> {
    /// Encoding, legal actions and the policy softmax run on all cores (rayon) in chunks of
    /// [`PARALLEL_CHUNK`] positions: at a GPU's batch of 1024 they would otherwise be serial work
    /// beside every forward pass. A batch of one chunk or less stays on the calling thread.
    fn evaluate(&mut self, states: &[G]) -> Vec<Evaluation> {
        let (len, encoding) = (G::layout(self.encoding).input_len(), self.encoding);
        self.planes.resize(states.len() * len, 0.0);
        self.legal.resize_with(states.len(), Vec::new);
        self.planes
            .par_chunks_mut(len)
            .zip(self.legal.par_iter_mut())
            .zip(states.par_iter())
            .with_min_len(PARALLEL_CHUNK)
            .for_each_init(Vec::new, |actions, ((planes, legal), s)| {
                s.encode(encoding, planes);
                s.legal_actions(actions);
                legal.clear();
                legal.extend(actions.iter().map(|&a| s.action_index(a)));
            });
        // The shape was checked in `new` and the input length is exact, so a failure here is a
        // broken device, not bad input: there is nothing to recover.
        let out = self
            .predictor
            .predict(&self.planes, states.len())
            .unwrap_or_else(|e| panic!("network forward pass failed: {e}"));
        let (legal, draw) = (&self.legal, self.draw);
        states
            .par_iter()
            .enumerate()
            .with_min_len(PARALLEL_CHUNK)
            .map(|(i, s)| Evaluation {
                policy: masked_softmax(out.policy_row(i).expect("row"), &legal[i]),
                values: values_from_classes(
                    out.value_row(i).expect("row"),
                    s.to_move(),
                    G::NUM_PLAYERS,
                    draw,
                ),
                moves_left: out.moves_left.as_ref().map(|m| m[i]),
            })
            .collect()
    }
}

/// Positions per rayon task when a batch is encoded and read back: ~30 µs of work, so that a
/// CPU config's batch of 16 stays on one thread and a GPU's 1024 spreads over 16+ cores.
const PARALLEL_CHUNK: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;
    use games::{Camelot, Game, TriCamelot};

    /// A random b4c32 Camelot network on the CPU, drawn from `seed`.
    fn random_camelot(seed: u64) -> NetEvaluator<Camelot> {
        NetEvaluator::random("b4c32", Encoding::Basic, DeviceKind::Cpu, seed).unwrap()
    }

    #[test]
    fn class_probabilities_become_per_seat_shares() {
        let v = values_from_classes(&[0.5, 0.2, 0.1, 0.2], Player(1), 3, 1.0 / 3.0);
        // Classes are mover first: seat 1 wins 0.5, seat 2 wins 0.2, seat 0 wins 0.1.
        let expect = [0.1 + 0.2 / 3.0, 0.5 + 0.2 / 3.0, 0.2 + 0.2 / 3.0];
        for (a, b) in v.0.iter().zip(expect) {
            assert!((a - b).abs() < 1e-6);
        }
        let v = values_from_classes(&[0.7, 0.1, 0.2], Player(0), 2, 0.5);
        assert_eq!(v.0[..2], [0.8, 0.2]);
        // A draw worth 0.1 to each seat: the draw probability counts that much for both.
        let v = values_from_classes(&[0.3, 0.1, 0.6], Player(1), 2, 0.1);
        assert!((v.0[0] - 0.16).abs() < 1e-6 && (v.0[1] - 0.36).abs() < 1e-6, "{v:?}");
    }

    #[test]
    fn a_draw_score_lowers_both_seats_values_by_the_draw_probability() {
        let s = [Camelot::initial()];
        let fair = random_camelot(5).evaluate(&s);
        let averse = random_camelot(5).with_draw_score(DrawScore::Fixed(0.0)).evaluate(&s);
        assert_eq!(fair[0].policy, averse[0].policy);
        let drop: Vec<f32> = (0..2).map(|i| fair[0].values.0[i] - averse[0].values.0[i]).collect();
        // Both seats lose half the draw probability, which a random network puts above 0.
        assert!(drop[0] > 0.0 && (drop[0] - drop[1]).abs() < 1e-6, "{drop:?}");
    }

    fn check<G: Encode>(encoding: Encoding) {
        let mut ev = NetEvaluator::<G>::random("b4c32", encoding, DeviceKind::Cpu, 1).unwrap();
        let mut s = G::initial();
        let mut states = vec![s.clone()];
        let mut actions = Vec::new();
        for _ in 0..5 {
            s.legal_actions(&mut actions);
            s.play(actions[actions.len() / 2]);
            states.push(s.clone());
        }
        let evals = ev.evaluate(&states);
        for (s, e) in states.iter().zip(&evals) {
            s.legal_actions(&mut actions);
            assert_eq!(e.policy.len(), actions.len());
            assert!((e.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            assert!((e.values.0.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        }
        // Batched and one-by-one evaluations agree.
        let single = ev.evaluate(&states[2..3]);
        for (a, b) in single[0].policy.iter().zip(&evals[2].policy) {
            assert!((a - b).abs() < 1e-4);
        }
    }

    #[test]
    fn random_network_evaluates_both_games() {
        for e in Encoding::ALL {
            check::<Camelot>(e);
            check::<TriCamelot>(e);
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_random_network() {
        let s = [Camelot::initial()];
        let a = random_camelot(5).evaluate(&s);
        let b = random_camelot(5).evaluate(&s);
        let c = random_camelot(6).evaluate(&s);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn a_network_of_the_other_game_is_refused() {
        let tri = NetEvaluator::<TriCamelot>::random("b4c32", Encoding::Basic, DeviceKind::Cpu, 1)
            .unwrap();
        let Err(e) = NetEvaluator::<Camelot>::new(tri.predictor.clone()) else {
            panic!("accepted")
        };
        assert!(e.to_string().contains("camelot needs"), "{e}");
    }
}
