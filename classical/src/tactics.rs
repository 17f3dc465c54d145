//! The judge of a [`TacticsFilter`] (`selfplay.tactics_filter`): the self-play searches' policy
//! targets cleared of the moves a shallow alpha-beta search shows to lose material.
//!
//! A model's searches lose to `alphabeta:depth=2` in the opening by walking pieces beside enemy
//! pieces with an empty square behind them, which are jumped, often in chains: its prior gives
//! those moves weight, and a search of 16-64 simulations does not look deep enough to refute
//! them all. The search's improved policy still gives them a share of the target. The filter
//! scores every move of each full search's decision by alpha-beta to `depth` plies and its
//! quiescence (the classical teacher's search: compulsory capture chains played out) and moves
//! the target of every action whose best move scores at least `margin` below the best action's
//! onto the others. Moves played and value targets are unchanged.
//!
//! The same filter, as a [`TacticsGuard`] ([`RootFilter`]), clears a search's root prior
//! instead: the play search's (`[play] tactics_filter`, every search of a playing model) and
//! self-play's (`selfplay.root_filter`: the moves played avoid those actions too, and the
//! search's improved policy gives them next to no target).

use games::{Action, Game, State, Variant};

use crate::alphabeta::{AlphaBeta, AlphaBetaLimits};
use search::mcts::{PlaySearch, RootFilter, Search, SearchError, TacticsFilter};

/// Transposition-table entries of a guard's searcher (~100 KB): one is kept per search in
/// flight (a self-play game's, an arena player's move), up to a thousand of them, and its
/// searches of one or two plies fill few.
const GUARD_TABLE: usize = 1 << 12;

/// The judges of a [`TacticsFilter`] that is on.
pub trait Guards {
    /// The filter's judge for variant `V`'s states (None when off). Keep one for many
    /// positions (a game's, a move's legs): its searcher's table carries over.
    fn guard<V: Variant>(self) -> Option<TacticsGuard<V>>;

    /// A maker of the filter's judges, a fresh one (with its own table) per call, for code that
    /// needs one per thread (None when off).
    fn guards<V: Variant>(self) -> Option<impl Fn() -> TacticsGuard<V> + Send + Sync>;
}

impl Guards for TacticsFilter {
    fn guard<V: Variant>(self) -> Option<TacticsGuard<V>> {
        self.guards::<V>().map(|make| make())
    }

    fn guards<V: Variant>(self) -> Option<impl Fn() -> TacticsGuard<V> + Send + Sync> {
        let TacticsFilter::AlphaBeta { depth, margin } = self else { return None };
        Some(move || {
            let limits = AlphaBetaLimits { depth, time: None };
            TacticsGuard { searcher: AlphaBeta::with_table(limits, GUARD_TABLE), depth, margin }
        })
    }
}

/// Every search of a playing model: [`PlaySearch::mcts`] with the tactics filter's guard set as
/// the search's root filter ([`Search::set_root_filter`]) when the filter is on.
pub trait GuardedSearch {
    /// A search of `root` by a playing model: [`PlaySearch::mcts`]`(simulations)`, its root
    /// prior filtered by the tactics filter when that is on. Searches that a player makes
    /// without a network (the rollout anchors) are not a model's, and use `Search::new`.
    fn search<V: Variant>(
        &self,
        root: State<V>,
        simulations: u32,
    ) -> Result<Search<State<V>>, SearchError>;
}

impl GuardedSearch for PlaySearch {
    fn search<V: Variant>(
        &self,
        root: State<V>,
        simulations: u32,
    ) -> Result<Search<State<V>>, SearchError> {
        let mut search = Search::new(root, self.mcts(simulations))?;
        if let Some(guard) = self.tactics_filter.guard::<V>() {
            search.set_root_filter(Box::new(guard));
        }
        Ok(search)
    }
}

/// The judge's rule: a move scored `score` loses when that is `margin` or more below the best
/// move's score `best` (hundredths of a Man); the guard and the teacher's safe targets share it.
pub fn loses(score: i32, best: i32, margin: i32) -> bool {
    score <= best - margin
}

/// A [`TacticsFilter`] that is on, with its alpha-beta searcher: clears the weights (a policy
/// target, a prior) of the actions that lose material.
pub struct TacticsGuard<V: Variant> {
    searcher: AlphaBeta<V>,
    depth: u32,
    margin: i32,
}

impl<V: Variant> TacticsGuard<V> {
    /// Which of `actions` (action indices of `state`, in the mover's frame, as
    /// [`State::action_index`]) lose: their best continuation scores `margin` or more below the
    /// best action's, by alpha-beta to the guard's depth and quiescence. All false when `state`
    /// has no move.
    pub fn losing(&mut self, state: &State<V>, actions: &[u16]) -> Vec<bool> {
        let moves: Vec<_> = state.continuations().cloned().collect();
        let scores = self.searcher.move_scores(state.position(), &moves, self.depth);
        // Each action's score: the best of the moves it starts (or ends).
        let mut best_of: Vec<(u16, i32)> = Vec::new();
        for (m, &s) in moves.iter().zip(&scores) {
            let a = state.action_index(state.next_action(m)) as u16;
            match best_of.iter_mut().find(|(b, _)| *b == a) {
                Some((_, top)) => *top = (*top).max(s),
                None => best_of.push((a, s)),
            }
        }
        let Some(top) = best_of.iter().map(|&(_, s)| s).max() else {
            return vec![false; actions.len()];
        };
        let margin = self.margin;
        let losing = |a: u16| best_of.iter().any(|&(b, s)| b == a && loses(s, top, margin));
        actions.iter().map(|&a| losing(a)).collect()
    }

    /// Clears the weight of every action of `state` that [loses](Self::losing); `weights[i]`
    /// belongs to action index `actions[i]` and the weights sum to 1, before and after.
    /// Returns whether any action was cleared. When every action with weight is cleared, the
    /// weight is spread evenly over the actions that are not.
    pub fn clear(&mut self, state: &State<V>, actions: &[u16], weights: &mut [f32]) -> bool {
        debug_assert_eq!(actions.len(), weights.len());
        let cleared = self.losing(state, actions);
        if !cleared.contains(&true) || !cleared.contains(&false) {
            return false;
        }
        // The kept weight summed as it is, not one minus the cleared weight: when nearly all of
        // it is cleared, the rounding of stored targets would be a large share of what is left.
        let kept: f64 =
            weights.iter().zip(&cleared).filter(|(_, c)| !**c).map(|(&p, _)| f64::from(p)).sum();
        let open = cleared.iter().filter(|c| !**c).count() as f32;
        for (p, &c) in weights.iter_mut().zip(&cleared) {
            *p = match (c, kept > 0.0) {
                (true, _) => 0.0,
                (false, true) => (f64::from(*p) / kept) as f32,
                (false, false) => 1.0 / open,
            };
        }
        true
    }
}

/// [`TacticsGuard::clear`] on a search's prior: `policy` over `legal`, `state`'s legal actions
/// (an [`Evaluation`](search::Evaluation) of a [`Leaf`](search::Leaf), or a kept root's
/// children). A state with one legal action is left alone.
impl<V: Variant> RootFilter<State<V>> for TacticsGuard<V> {
    fn filter(&mut self, state: &State<V>, legal: &[Action], policy: &mut [f32]) -> bool {
        if legal.len() < 2 || legal.len() != policy.len() {
            return false;
        }
        let actions: Vec<u16> = legal.iter().map(|&a| state.action_index(a) as u16).collect();
        self.clear(state, &actions, policy)
    }
}

#[cfg(test)]
mod tests {
    use games::{Camelot, CamelotRules, RuleOptions};

    use super::*;

    const FILTER: TacticsFilter = TacticsFilter::AlphaBeta { depth: 1, margin: 100 };

    /// White's Man on F7 faces Black's Man on F9 across an empty F8: F7-F8 is jumped (F9xF7),
    /// F7-E7 and F7-G7 are safe.
    const JUMPABLE: &str = "camelot W W:KA4,ME4,MF7 B:KA13,MF9,ML13 cm=0,0";

    fn guard() -> TacticsGuard<CamelotRules> {
        FILTER.guard().expect("on")
    }

    fn state(s: &str) -> Camelot {
        State::parse_with(s, RuleOptions::default()).unwrap()
    }

    /// A search's target: weights over action indices.
    #[derive(Clone, Debug, PartialEq)]
    struct Row {
        policy_actions: Vec<u16>,
        policy_target: Vec<f32>,
    }

    /// A target over every legal action of `position`, uniform.
    fn uniform_row(position: &str) -> (Row, Camelot) {
        let s = state(position);
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        let mut actions: Vec<u16> = legal.iter().map(|&a| s.action_index(a) as u16).collect();
        actions.sort();
        let n = actions.len();
        let row = Row { policy_actions: actions, policy_target: vec![1.0 / n as f32; n] };
        (row, s)
    }

    fn index(s: &Camelot, leg: &str) -> u16 {
        s.action_index(s.parse_action(leg).unwrap()) as u16
    }

    fn target(row: &Row, a: u16) -> f32 {
        let i = row.policy_actions.iter().position(|&b| b == a).unwrap();
        row.policy_target[i]
    }

    #[test]
    fn a_man_walked_into_a_jump_loses_its_target_and_safe_moves_keep_theirs() {
        let (mut row, s) = uniform_row(JUMPABLE);
        let before = row.policy_target.clone();
        assert!(guard().clear(&s, &row.policy_actions, &mut row.policy_target), "F7>F8 is cleared");
        assert_eq!(target(&row, index(&s, "F7>F8")), 0.0);
        assert!(target(&row, index(&s, "F7>E7")) > before[0]);
        assert!((row.policy_target.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // The cleared share moved onto the rest in proportion: each kept action's target is
        // its old one over the share kept.
        let after = row.policy_target.iter().zip(&before);
        let cleared: f32 = after.clone().filter(|(p, _)| **p == 0.0).map(|(_, b)| b).sum();
        assert!(cleared > 0.0 && cleared < 0.5, "{cleared}");
        for (p, b) in after.filter(|(p, _)| **p > 0.0) {
            assert!((p - b / (1.0 - cleared)).abs() < 1e-6, "{p} from {b}");
        }
    }

    #[test]
    fn a_prior_over_the_legal_actions_is_cleared_alike() {
        let s = state(JUMPABLE);
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        let mut prior = vec![1.0 / legal.len() as f32; legal.len()];
        assert!(guard().filter(&s, &legal, &mut prior));
        let at = |leg: &str| {
            prior[legal.iter().position(|&a| a == s.parse_action(leg).unwrap()).unwrap()]
        };
        assert_eq!(at("F7>F8"), 0.0);
        assert!(at("F7>E7") > 1.0 / legal.len() as f32);
        assert!((prior.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // The same weights as a row's target over the same actions.
        let (mut row, _) = uniform_row(JUMPABLE);
        guard().clear(&s, &row.policy_actions, &mut row.policy_target);
        for (a, p) in legal.iter().zip(&prior) {
            assert_eq!(target(&row, s.action_index(*a) as u16), *p);
        }
        // A prior that does not match the legal actions is left alone.
        let mut short = vec![0.5, 0.5];
        assert!(!guard().filter(&s, &legal, &mut short));
    }

    #[test]
    fn a_quiet_position_keeps_its_target() {
        let position = "camelot W W:KA4,ME4 B:KA13,ML13 cm=0,0";
        let (mut row, s) = uniform_row(position);
        let before = row.policy_target.clone();
        assert!(!guard().clear(&s, &row.policy_actions, &mut row.policy_target));
        assert_eq!(row.policy_target, before);
    }

    #[test]
    fn when_all_the_mass_is_on_losing_actions_the_rest_share_it_evenly() {
        let (mut row, s) = uniform_row(JUMPABLE);
        let bad = index(&s, "F7>F8");
        for (a, p) in row.policy_actions.iter().zip(row.policy_target.iter_mut()) {
            *p = if *a == bad { 1.0 } else { 0.0 };
        }
        assert!(guard().clear(&s, &row.policy_actions, &mut row.policy_target));
        assert_eq!(target(&row, bad), 0.0);
        let open: Vec<f32> = row.policy_target.iter().copied().filter(|&p| p > 0.0).collect();
        assert!(open.len() > 5 && open.iter().all(|&p| (p - open[0]).abs() < 1e-6));
        assert!((open.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn a_tiny_remainder_is_renormalised_to_a_whole() {
        // Almost all of the mass on the losing action, the stored targets summing to 1 only to
        // f32's precision: what is kept still sums to 1.
        let (mut row, s) = uniform_row(JUMPABLE);
        let (bad, n) = (index(&s, "F7>F8"), row.policy_actions.len());
        for (a, p) in row.policy_actions.iter().zip(row.policy_target.iter_mut()) {
            *p = if *a == bad { 1.0 - 1e-6 } else { 1e-6 / (n - 1) as f32 };
        }
        assert!(guard().clear(&s, &row.policy_actions, &mut row.policy_target), "F7>F8 is cleared");
        let sum: f32 = row.policy_target.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5, "{sum}");
    }
}
