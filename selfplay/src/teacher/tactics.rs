//! [`TacticsFilter`] (`selfplay.tactics_filter`): the self-play searches' policy targets cleared
//! of the moves a shallow alpha-beta search shows to lose material.
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

use games::{Action, Game, RuleOptions, State, Variant};
use serde::{Deserialize, Serialize};

use crate::arena::alphabeta::{AlphaBeta, AlphaBetaLimits};
use crate::driver::PlayedGame;
use crate::mcts::RootFilter;

/// Transposition-table entries of a guard's searcher (~100 KB): one is kept per search in
/// flight (a self-play game's, an arena player's move), up to a thousand of them, and its
/// searches of one or two plies fill few.
const GUARD_TABLE: usize = 1 << 12;

/// Whether the searches' policy targets are filtered by a classical search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TacticsFilter {
    /// The searches' improved policies as they are.
    #[default]
    Off,
    /// In each full search's row, every action whose best continuation scores at least `margin`
    /// (hundredths of a Man: a Man is 100) below the best action's, by alpha-beta to `depth`
    /// plies and quiescence, gets target 0; the rest is renormalised.
    AlphaBeta { depth: u32, margin: i32 },
}

impl TacticsFilter {
    /// Checks the values of the `tactics_filter` key (None when the setting is valid).
    pub(crate) fn problem(self) -> Option<(&'static str, &'static str)> {
        self.problem_at(["tactics_filter.alpha_beta.depth", "tactics_filter.alpha_beta.margin"])
    }

    /// Checks the values of a key whose depth and margin are named `keys`.
    pub fn problem_at(
        self,
        [depth_key, margin_key]: [&'static str; 2],
    ) -> Option<(&'static str, &'static str)> {
        let TacticsFilter::AlphaBeta { depth, margin } = self else { return None };
        if !(1..=4).contains(&depth) {
            return Some((depth_key, "must be between 1 and 4"));
        }
        if margin <= 0 {
            return Some((margin_key, "must be at least 1"));
        }
        None
    }

    /// Whether the filter is on.
    pub fn is_on(self) -> bool {
        self != TacticsFilter::Off
    }

    /// The filter's judge for variant `V`'s states (None when off). Keep one for many
    /// positions (a game's, a move's legs): its searcher's table carries over.
    pub fn guard<V: Variant>(self) -> Option<TacticsGuard<V>> {
        self.guards::<V>().map(|make| make())
    }

    /// A maker of the filter's judges, a fresh one (with its own table) per call, for code that
    /// needs one per thread (None when off).
    pub fn guards<V: Variant>(self) -> Option<impl Fn() -> TacticsGuard<V> + Send + Sync> {
        let TacticsFilter::AlphaBeta { depth, margin } = self else { return None };
        Some(move || {
            let limits = AlphaBetaLimits { depth, time: None };
            TacticsGuard { searcher: AlphaBeta::with_table(limits, GUARD_TABLE), depth, margin }
        })
    }

    /// Filters the full-search rows of `game`, a game of variant `V` under `options` (rows
    /// whose position does not parse are left as they are).
    pub fn apply<V: Variant>(self, game: &mut PlayedGame, options: RuleOptions) {
        let Some(mut guard) = self.guard::<V>() else { return };
        for row in game.positions.iter_mut().filter(|r| r.full_search && r.policy_actions.len() > 1)
        {
            let Ok(state) = State::<V>::parse_with(&row.position, options) else { continue };
            guard.clear(&state, &row.policy_actions, &mut row.policy_target);
        }
    }
}

/// The judge's rule: a move scored `score` loses when that is `margin` or more below the best
/// move's score `best` (hundredths of a Man); the guard and the teacher's safe targets share it.
pub(crate) fn loses(score: i32, best: i32, margin: i32) -> bool {
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
/// (an [`Evaluation`](crate::Evaluation) of a [`Leaf`](crate::Leaf), or a kept root's
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
    use games::{Camelot, CamelotRules};

    use super::*;
    use crate::driver::SelfPlayConfig;
    use crate::record::PositionRow;
    use crate::teacher::{TeacherTargets, teacher_game};

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

    /// A full-search row of `position` with every legal action, the target uniform.
    fn uniform_row(position: &str) -> (PositionRow, Camelot) {
        let s = state(position);
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        let mut actions: Vec<u16> = legal.iter().map(|&a| s.action_index(a) as u16).collect();
        actions.sort();
        let n = actions.len();
        let row = PositionRow {
            game_id: 0,
            ply: 0,
            move_number: 0,
            position: position.to_string(),
            mover: s.to_move().0,
            policy_actions: actions,
            policy_target: vec![1.0 / n as f32; n],
            root_values: vec![0.5, 0.5],
            net_values: vec![0.5, 0.5],
            result: Vec::new(),
            full_search: true,
        };
        (row, s)
    }

    fn index(s: &Camelot, leg: &str) -> u16 {
        s.action_index(s.parse_action(leg).unwrap()) as u16
    }

    fn target(row: &PositionRow, a: u16) -> f32 {
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

    #[test]
    fn a_game_s_full_search_rows_are_filtered_and_its_fast_ones_are_not() {
        let (row, s) = uniform_row(JUMPABLE);
        let config = SelfPlayConfig { max_moves: 1, ..SelfPlayConfig::default() };
        let mut game = teacher_game(s.clone(), 0, 1, 1, 0.0, TeacherTargets::Best, &config);
        let fast = PositionRow { full_search: false, ..row.clone() };
        game.positions = vec![row.clone(), fast.clone()];
        FILTER.apply::<CamelotRules>(&mut game, RuleOptions::default());
        assert_eq!(target(&game.positions[0], index(&s, "F7>F8")), 0.0);
        assert_eq!(game.positions[1], fast);
        // Off leaves every row as it is.
        let mut off = game.clone();
        off.positions[0] = row.clone();
        TacticsFilter::Off.apply::<CamelotRules>(&mut off, RuleOptions::default());
        assert_eq!(off.positions[0], row);
    }

    #[test]
    fn the_setting_reads_from_toml_and_the_config_checks_it() {
        #[derive(serde::Deserialize)]
        struct Section {
            tactics_filter: TacticsFilter,
        }
        let read = |t: &str| toml::from_str::<Section>(t).map(|s| s.tactics_filter);
        let on = "tactics_filter = { alpha_beta = { depth = 1, margin = 100 } }";
        assert_eq!(read(on).unwrap(), FILTER);
        assert_eq!(read("tactics_filter = \"off\"").unwrap(), TacticsFilter::Off);
        assert!(read("tactics_filter = { alpha_beta = { depth = 1 } }").is_err());
        let bad = TacticsFilter::AlphaBeta { depth: 9, margin: 100 };
        let config = SelfPlayConfig { tactics_filter: bad, ..SelfPlayConfig::default() };
        let error = config.validate(2).unwrap_err().to_string();
        assert!(error.contains("selfplay.tactics_filter.alpha_beta.depth"), "{error}");
        // The root filter is the same setting under its own key.
        let config: SelfPlayConfig =
            toml::from_str("root_filter = { alpha_beta = { depth = 1, margin = 100 } }").unwrap();
        assert_eq!((config.root_filter, config.tactics_filter), (FILTER, TacticsFilter::Off));
        let bad = TacticsFilter::AlphaBeta { depth: 1, margin: -5 };
        let config = SelfPlayConfig { root_filter: bad, ..SelfPlayConfig::default() };
        let error = config.validate(2).unwrap_err().to_string();
        assert_eq!(error, "selfplay.root_filter.alpha_beta.margin: must be at least 1");
    }

    #[test]
    fn settings_out_of_range_are_named() {
        assert_eq!(TacticsFilter::Off.problem(), None);
        assert_eq!(FILTER.problem(), None);
        let bad = TacticsFilter::AlphaBeta { depth: 0, margin: 100 };
        assert_eq!(bad.problem().unwrap().0, "tactics_filter.alpha_beta.depth");
        let bad = TacticsFilter::AlphaBeta { depth: 1, margin: 0 };
        assert_eq!(bad.problem().unwrap().0, "tactics_filter.alpha_beta.margin");
    }
}
