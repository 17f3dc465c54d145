//! The classical evaluation mixed into the self-play searches' leaf values
//! (`selfplay.leaf_heuristic`): AlphaGo's mixed leaf evaluation, with the alpha-beta players'
//! [`Heuristic`] in place of rollouts, fading out as the network learns.
//!
//! A random network's values are noise, so the first generations' searches cannot tell a Man
//! lost from a Man won, and their games teach little. Mixing in the heuristic's score shares
//! (material, progress to the goal, castle occupancy) gives the early searches a sense of
//! material at once; its weight falls linearly to 0 over the first generations, so the network's
//! own values take over and the checkpoints stand alone (arena, ladder and export never see the
//! heuristic). Recorded results and training targets are unchanged.
//!
//! The heuristic judges a leaf statically (its board as it stands) or, with `judge =
//! "quiescence"`, after the captures and castle entries pending there are played out by the
//! alpha-beta player's quiescence search ([`AlphaBeta::quiet_score`]): a leaf just after a move
//! that walks into a compulsory capture chain then counts the chain, which a static score and a
//! shallow tree do not see.

use std::marker::PhantomData;

use games::{Game, State, Values, Variant};
use serde::{Deserialize, Serialize};

use crate::alphabeta::{AlphaBeta, AlphaBetaLimits};
use crate::heuristic::Heuristic;
use search::evaluator::{Evaluation, Evaluator};

/// Whether and how much of the heuristic the self-play searches mix into their leaf values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum LeafHeuristic {
    /// The network's values alone.
    #[default]
    Off,
    /// Leaf values `(1 - w) x network + w x heuristic`, with `w = weight` in generation 0
    /// falling linearly to 0 in generation `fade_generations` (and after it); the heuristic
    /// judges each leaf as `judge` says.
    Mix {
        weight: f32,
        fade_generations: u32,
        #[serde(default)]
        judge: Judge,
    },
}

/// How the heuristic judges a leaf.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judge {
    /// Its board as it stands (a move in progress with its legs applied).
    #[default]
    Static,
    /// After the captures and goal entries pending there are played out
    /// ([`AlphaBeta::quiet_score`], at most [`QUIESCENCE_NODES`] positions; past that, or in a
    /// finished game, statically).
    Quiescence,
}

/// Positions a leaf's quiescence search may visit before the leaf is judged statically.
pub const QUIESCENCE_NODES: u64 = 2_000;

/// `start` in generation 0, falling linearly to 0 in generation `fade_generations` and after
/// it: how the self-play aids (the leaf heuristic, the teacher) leave a run.
pub fn linear_fade(start: f32, generation: u32, fade_generations: u32) -> f32 {
    let left = 1.0 - generation as f32 / fade_generations.max(1) as f32;
    start * left.max(0.0)
}

impl LeafHeuristic {
    /// The heuristic's weight in the searches of generation `generation`'s games, in `[0, 1]`.
    pub fn weight_at(self, generation: u32) -> f32 {
        match self {
            LeafHeuristic::Off => 0.0,
            LeafHeuristic::Mix { weight, fade_generations, .. } => {
                linear_fade(weight, generation, fade_generations)
            }
        }
    }

    /// How the heuristic judges leaves (static when off).
    pub fn judge(self) -> Judge {
        match self {
            LeafHeuristic::Off => Judge::Static,
            LeafHeuristic::Mix { judge, .. } => judge,
        }
    }

    /// Checks the values (None when the setting is valid).
    pub fn problem(self) -> Option<(&'static str, &'static str)> {
        match self {
            LeafHeuristic::Mix { weight, .. } if !(0.0..=1.0).contains(&weight) => {
                Some(("leaf_heuristic.mix.weight", "must be between 0 and 1"))
            }
            LeafHeuristic::Mix { fade_generations, .. }
                if !(1..=search::bounds::MAX_GENERATIONS)
                    .contains(&u64::from(fade_generations)) =>
            {
                Some(("leaf_heuristic.mix.fade_generations", "must be from 1 to 1000000"))
            }
            _ => None,
        }
    }
}

/// An evaluator of variant `V`'s states whose values are `inner`'s mixed with the heuristic's:
/// `(1 - weight) x inner + weight x heuristic`, per seat; the policy is `inner`'s. A state with a
/// move in progress is judged statically on its board as it stands (the legs played applied),
/// or with [`Judge::Quiescence`] by the best of the moves that complete it.
pub struct HeuristicMix<V: Variant, E> {
    inner: E,
    weight: f32,
    heuristic: Heuristic,
    /// The quiescence searcher ([`Judge::Quiescence`]).
    quiescence: Option<AlphaBeta<V>>,
    variant: PhantomData<V>,
}

impl<V: Variant, E> HeuristicMix<V, E> {
    /// `inner` with the heuristic mixed in at `weight` (in `[0, 1]`), judging leaves by `judge`.
    pub fn new(inner: E, weight: f32, judge: Judge) -> Self {
        let quiescence = (judge == Judge::Quiescence)
            .then(|| AlphaBeta::new(AlphaBetaLimits { depth: 1, time: None }));
        HeuristicMix {
            inner,
            weight,
            heuristic: Heuristic::new::<V>(),
            quiescence,
            variant: PhantomData,
        }
    }

    /// The heuristic's score shares for `state`.
    fn judge(&mut self, state: &State<V>) -> Values {
        let judged = self.quiescence.as_mut().and_then(|q| q.quiet_score(state, QUIESCENCE_NODES));
        let Some(score) = judged else { return self.heuristic.board_values::<V>(state.board()) };
        let seat = state.position().to_move();
        // A forced result inside the quiescence: the seat wins, or the others share.
        self.heuristic.searched_values::<V>(state.position().board(), seat, score)
    }
}

impl<V: Variant, E: Evaluator<State<V>>> Evaluator<State<V>> for HeuristicMix<V, E> {
    fn evaluate(&mut self, states: &[State<V>]) -> Vec<Evaluation> {
        let mut evaluations = self.inner.evaluate(states);
        let w = self.weight;
        for (e, s) in evaluations.iter_mut().zip(states) {
            let h = self.judge(s);
            for (v, h) in e.values.0.iter_mut().zip(h.0).take(State::<V>::NUM_PLAYERS) {
                *v = (1.0 - w) * *v + w * h;
            }
        }
        evaluations
    }

    fn cache_stats(&self) -> Option<search::CacheStats> {
        self.inner.cache_stats()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{Camelot, CamelotRules, TriCamelot, TriCamelotRules};
    use search::UniformEvaluator;

    #[test]
    fn the_weight_fades_linearly_to_zero() {
        let mix = LeafHeuristic::Mix { weight: 0.5, fade_generations: 4, judge: Judge::Static };
        let w: Vec<f32> = (0..6).map(|g| mix.weight_at(g)).collect();
        assert_eq!(w, [0.5, 0.375, 0.25, 0.125, 0.0, 0.0]);
        assert_eq!(LeafHeuristic::Off.weight_at(0), 0.0);
        assert_eq!(mix.problem(), None);
        let bad = LeafHeuristic::Mix { weight: 1.5, fade_generations: 4, judge: Judge::Static };
        assert_eq!(bad.problem().unwrap().0, "leaf_heuristic.mix.weight");
        let never = LeafHeuristic::Mix { weight: 0.5, fade_generations: 0, judge: Judge::Static };
        assert_eq!(never.problem().unwrap().0, "leaf_heuristic.mix.fade_generations");
    }

    #[test]
    fn values_are_mixed_per_seat_and_the_policy_is_kept() {
        // White a Knight and a Man up: the heuristic favours White, the uniform evaluator
        // says a draw; half and half lies halfway, and the shares still sum to 1.
        let s: Camelot = "camelot W W:KA4,KB4,MF6 B:KL13,ML12 cm=0,0".parse().unwrap();
        let h = Heuristic::new::<CamelotRules>().values(s.position());
        assert!(h.0[0] > 0.7, "{h:?}");
        let plain = UniformEvaluator.evaluate(std::slice::from_ref(&s));
        let mut mix = HeuristicMix::<CamelotRules, _>::new(UniformEvaluator, 0.5, Judge::Static);
        let mixed = mix.evaluate(std::slice::from_ref(&s));
        assert_eq!(mixed[0].policy, plain[0].policy);
        assert!((mixed[0].values.0[0] - (0.25 + 0.5 * h.0[0])).abs() < 1e-6, "{mixed:?}");
        assert!((mixed[0].values.0[0] + mixed[0].values.0[1] - 1.0).abs() < 1e-6);
        // Weight 0 is the inner evaluator; weight 1 the heuristic alone.
        let mut none = HeuristicMix::<CamelotRules, _>::new(UniformEvaluator, 0.0, Judge::Static);
        assert_eq!(none.evaluate(std::slice::from_ref(&s)), plain);
        let mut all = HeuristicMix::<CamelotRules, _>::new(UniformEvaluator, 1.0, Judge::Static);
        assert!((all.evaluate(std::slice::from_ref(&s))[0].values.0[0] - h.0[0]).abs() < 1e-6);
    }

    #[test]
    fn a_move_in_progress_is_judged_on_the_board_as_it_stands() {
        // White must jump the Black Men on F7 and F9 (F6-F8-F10). After the first leg the move
        // is in progress and the board already lacks the first Man, so the mixed value counts
        // the capture that the position at the turn's start does not.
        let s: Camelot = "camelot W W:KA4,MF6 B:KL13,MF7,MF9 cm=0,0".parse().unwrap();
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        let before = HeuristicMix::<CamelotRules, _>::new(UniformEvaluator, 1.0, Judge::Static)
            .evaluate(std::slice::from_ref(&s))[0]
            .values;
        let mut jumped = s.clone();
        jumped.play(legal[0]);
        assert!(!jumped.landed().is_empty(), "the chain goes on");
        assert_eq!(jumped.position(), s.position());
        assert!(jumped.board().count(games::Player(1)) < s.board().count(games::Player(1)));
        let after = HeuristicMix::<CamelotRules, _>::new(UniformEvaluator, 1.0, Judge::Static)
            .evaluate(std::slice::from_ref(&jumped))[0]
            .values;
        assert!(after.0[0] > before.0[0] + 0.1, "{before:?} -> {after:?}");
    }

    #[test]
    fn a_quiescence_judge_sees_the_chain_that_the_reply_must_jump() {
        // After F7-F8 the board is even, but Black must take the Man and White then jumps three
        // (alphabeta's sacrifice test): statically Black holds about half, judged after the
        // captures well under a quarter. With a move in progress the completion is judged.
        let pos: Camelot =
            "camelot W W:KA4,KB4,MD5,ME6,MF7 B:KA13,KL13,MF9,MH8,MI9 cm=0,0".parse().unwrap();
        let offered = pos.after_move("F7-F8").unwrap();
        let judge = |j: Judge, s: &Camelot| {
            HeuristicMix::<CamelotRules, _>::new(UniformEvaluator, 1.0, j)
                .evaluate(std::slice::from_ref(s))[0]
                .values
        };
        let flat = judge(Judge::Static, &offered);
        let quiet = judge(Judge::Quiescence, &offered);
        assert!((flat.0[1] - 0.5).abs() < 0.15, "{flat:?}");
        assert!(quiet.0[1] < 0.25, "{quiet:?}");
        assert!((quiet.0[0] + quiet.0[1] - 1.0).abs() < 1e-6);
        // A win the quiescence finds (F15-F16 fills the castle) is the seat's whole share.
        let entry: Camelot = "camelot W W:KA4,MF15,MG16 B:KA13,KL13,MB6 cm=0,0".parse().unwrap();
        assert_eq!(judge(Judge::Quiescence, &entry).0[0], 1.0);
        // Tri-Camelot's shares still sum to 1.
        let tri = judge_tri(&TriCamelot::initial());
        assert!((tri.0.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{tri:?}");
    }

    fn judge_tri(s: &TriCamelot) -> Values {
        HeuristicMix::<TriCamelotRules, _>::new(UniformEvaluator, 1.0, Judge::Quiescence)
            .evaluate(std::slice::from_ref(s))[0]
            .values
    }

    #[test]
    fn tri_camelot_values_are_mixed_for_three_seats() {
        let start = TriCamelot::initial();
        let mut mix = HeuristicMix::<TriCamelotRules, _>::new(UniformEvaluator, 0.3, Judge::Static);
        let v = mix.evaluate(std::slice::from_ref(&start))[0].values;
        assert!(v.0.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-6), "{v:?}");
    }

    #[test]
    fn the_setting_reads_from_toml() {
        let read = |s: &str| {
            s.parse::<toml::Table>()
                .and_then(|t| t["leaf_heuristic"].clone().try_into::<LeafHeuristic>())
        };
        assert_eq!(read("leaf_heuristic = \"off\"").unwrap(), LeafHeuristic::Off);
        assert_eq!(
            read("leaf_heuristic = { mix = { weight = 0.5, fade_generations = 20 } }").unwrap(),
            LeafHeuristic::Mix { weight: 0.5, fade_generations: 20, judge: Judge::Static }
        );
        let judged = "leaf_heuristic = { mix = { weight = 0.5, fade_generations = 20, judge = \"quiescence\" } }";
        assert_eq!(read(judged).unwrap().judge(), Judge::Quiescence);
        assert!(read("leaf_heuristic = { mix = { weight = 0.5, fade_generations = 20, judge = \"deep\" } }").is_err());
        assert!(read("leaf_heuristic = { mix = { weight = 0.5 } }").is_err());
    }
}
