//! The tactics filter on a played game's rows (`selfplay.tactics_filter`): the full-search rows'
//! policy targets cleared of the actions the filter's judge ([`classical::TacticsGuard`]) shows
//! to lose material. Moves played and value targets are unchanged.

use classical::Guards;
use games::{RuleOptions, State, Variant};
use search::TacticsFilter;

use crate::driver::PlayedGame;

/// Filters the full-search rows of `game`, a game of variant `V` under `options`, by `filter`
/// (rows whose position does not parse are left as they are; `Off` leaves every row).
pub fn filter_targets<V: Variant>(
    filter: TacticsFilter,
    game: &mut PlayedGame,
    options: RuleOptions,
) {
    let Some(mut guard) = filter.guard::<V>() else { return };
    for row in game.positions.iter_mut().filter(|r| r.full_search && r.policy_actions.len() > 1) {
        let Ok(state) = State::<V>::parse_with(&row.position, options) else { continue };
        guard.clear(&state, &row.policy_actions, &mut row.policy_target);
    }
}

#[cfg(test)]
mod tests {
    use games::{Camelot, CamelotRules, Game};
    use records::PositionRow;

    use super::*;
    use crate::driver::SelfPlayConfig;
    use crate::teacher::{TeacherTargets, teacher_game};

    const FILTER: TacticsFilter = TacticsFilter::AlphaBeta { depth: 1, margin: 100 };

    /// White's Man on F7 faces Black's Man on F9 across an empty F8: F7-F8 is jumped (F9xF7),
    /// F7-E7 and F7-G7 are safe.
    const JUMPABLE: &str = "camelot W W:KA4,ME4,MF7 B:KA13,MF9,ML13 cm=0,0";

    /// A full-search row of `position` with every legal action, the target uniform.
    fn uniform_row(position: &str) -> (PositionRow, Camelot) {
        let s: Camelot = State::parse_with(position, RuleOptions::default()).unwrap();
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
    fn a_game_s_full_search_rows_are_filtered_and_its_fast_ones_are_not() {
        let (row, s) = uniform_row(JUMPABLE);
        let config = SelfPlayConfig { max_moves: 1, ..SelfPlayConfig::default() };
        let mut game = teacher_game(s.clone(), 0, 1, 1, 0.0, TeacherTargets::Best, &config);
        let fast = PositionRow { full_search: false, ..row.clone() };
        game.positions = vec![row.clone(), fast.clone()];
        filter_targets::<CamelotRules>(FILTER, &mut game, RuleOptions::default());
        assert_eq!(target(&game.positions[0], index(&s, "F7>F8")), 0.0);
        assert_eq!(game.positions[1], fast);
        // Off leaves every row as it is.
        let mut off = game.clone();
        off.positions[0] = row.clone();
        filter_targets::<CamelotRules>(TacticsFilter::Off, &mut off, RuleOptions::default());
        assert_eq!(off.positions[0], row);
    }

    #[test]
    fn the_config_checks_the_setting_under_each_key() {
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
}
