//! [`TacticsFilter`] (`selfplay.tactics_filter`, `selfplay.root_filter`, `[play]
//! tactics_filter`): whether a classical search judges the searches' policy targets or root
//! priors, and the [`RootFilter`] through which a judge rewrites a search's root. This is the
//! setting and the interface only; the judge is `classical::tactics` (alpha-beta and its
//! quiescence), so the search depends on no player.

use games::Game;
use serde::{Deserialize, Serialize};

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
    pub fn problem(self) -> Option<(&'static str, &'static str)> {
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
}

/// Rewrites the prior at a search's root, where a move is chosen (the tactics filter). A search
/// given one ([`Search::set_root_filter`]) applies it to every root it chooses at: to a fresh
/// root's evaluation in [`Search::apply`], and to the root [`Search::advance`] keeps.
///
/// [`Search::set_root_filter`]: super::Search::set_root_filter
/// [`Search::apply`]: super::Search::apply
/// [`Search::advance`]: super::Search::advance
pub trait RootFilter<G: Game>: Send {
    /// Changes `prior`, over `state`'s legal actions `legal` (in the same order) and summing to
    /// 1, in place, still summing to 1; returns whether it changed any.
    fn filter(&mut self, state: &G, legal: &[G::Action], prior: &mut [f32]) -> bool;
}

impl<G: Game> std::fmt::Debug for dyn RootFilter<G> + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RootFilter")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILTER: TacticsFilter = TacticsFilter::AlphaBeta { depth: 1, margin: 100 };

    #[test]
    fn the_setting_reads_from_toml() {
        #[derive(serde::Deserialize)]
        struct Section {
            tactics_filter: TacticsFilter,
        }
        let read = |t: &str| toml::from_str::<Section>(t).map(|s| s.tactics_filter);
        let on = "tactics_filter = { alpha_beta = { depth = 1, margin = 100 } }";
        assert_eq!(read(on).unwrap(), FILTER);
        assert_eq!(read("tactics_filter = \"off\"").unwrap(), TacticsFilter::Off);
        assert!(read("tactics_filter = { alpha_beta = { depth = 1 } }").is_err());
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
