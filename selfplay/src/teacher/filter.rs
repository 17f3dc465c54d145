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
    use games::CamelotRules;
    use records::PositionRow;

    use super::*;
    use crate::driver::SelfPlayConfig;
    use crate::teacher::tests::{even_row, leg_index, state};
    use crate::teacher::{TeacherTargets, teacher_game};

    const FILTER: TacticsFilter = TacticsFilter::AlphaBeta { depth: 1, margin: 100 };

    /// White's Man on F7 faces Black's Man on F9 across an empty F8: F7-F8 is jumped (F9xF7),
    /// F7-E7 and F7-G7 are safe.
    const JUMPABLE: &str = "camelot W W:KA4,ME4,MF7 B:KA13,MF9,ML13 cm=0,0";

    fn target(row: &PositionRow, a: u16) -> f32 {
        let i = row.policy_actions.iter().position(|&b| b == a).unwrap();
        row.policy_target[i]
    }

    #[test]
    fn a_game_s_full_search_rows_are_filtered_and_its_fast_ones_are_not() {
        let (row, fast) = (even_row(JUMPABLE, true), even_row(JUMPABLE, false));
        let s = state(JUMPABLE);
        let config = SelfPlayConfig { max_moves: 1, ..SelfPlayConfig::default() };
        let mut game = teacher_game(s.clone(), 0, 1, 1, 0.0, TeacherTargets::Best, &config);
        game.positions = vec![row.clone(), fast.clone()];
        filter_targets::<CamelotRules>(FILTER, &mut game, RuleOptions::default());
        assert_eq!(target(&game.positions[0], leg_index(JUMPABLE, "F7>F8")), 0.0);
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
