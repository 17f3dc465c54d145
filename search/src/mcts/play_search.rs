//! [`PlaySearch`]: how a model searches when it plays rather than when it makes training data.
//!
//! Self-play's search (`[mcts]`) is tuned for learning: Gumbel root sampling that improves the
//! policy at a few simulations, root noise, a temperature. A model measured or played against
//! (the ladder, `arena`, `rate`, `engine`, `analyze`, `play`) searches to win instead, with the
//! `[play]` section of a run config, or these defaults without one:
//!
//! ```toml
//! [play]
//! selection = "puct"
//! c_puct_init = 1.25
//! c_puct_base = 19652.0
//! fpu = { reduction = 0.2 }
//! forced_legs = "pass_captures"
//! win_check = "in_one"
//! tactics_filter = "off"
//! captures = "prior"
//! certainty = "off"
//! move_choice = "visits"
//! ```
//!
//! The simulations come from each player (`sims=` of a player spec, `ladder.simulations`,
//! `--sims`); root noise is off and the most visited action is played, or with `certainty` or
//! `move_choice` the action those rules choose ([`super::tactical`]; `camelot-cpu.toml` sets all
//! three of its options, lever DD). Measured in Camelot
//! (docs/results.md, "The play search"): PUCT against Gumbel with 8 considered actions, and
//! capture sequences passed through, each made a 20-minute model markedly stronger at 64
//! simulations.
//!
//! `tactics_filter = { alpha_beta = { depth = 1, margin = 100 } }` clears the network's prior
//! at the root of each search (each leg of a move) of the actions that alpha-beta to `depth`
//! plies and its quiescence scores `margin` (hundredths of a Man) or more below the best
//! ([`TacticsFilter`]): the player never walks a piece into a capture chain that search sees.
//! The player is then the network's search and a classical guard together. Every search of a
//! playing model is made by `classical::GuardedSearch::search`, which sets the filter's guard as
//! the search's root filter ([`Search::set_root_filter`](super::Search::set_root_filter)):
//! `arena`, `rate`, the ladder, `engine`, `analyze` and `play` all apply it when their config
//! (`--config`) sets it.

use serde::{Deserialize, Serialize};

use super::config::{
    ConfigError, ForcedLegs, Fpu, MctsConfig, RootNoise, Selection, TemperatureSchedule, WinCheck,
};
use super::moves_left::MovesLeft;
use super::tactical::{Captures, Certainty, MoveChoice};
use super::tactics_filter::TacticsFilter;

/// The search options of a playing model; [`PlaySearch::mcts`] makes the whole configuration.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlaySearch {
    /// See [`MctsConfig::selection`].
    pub selection: Selection,
    /// See [`MctsConfig::c_puct_init`].
    pub c_puct_init: f32,
    /// See [`MctsConfig::c_puct_base`].
    pub c_puct_base: f32,
    /// See [`MctsConfig::fpu`].
    pub fpu: Fpu,
    /// See [`MctsConfig::forced_legs`].
    pub forced_legs: ForcedLegs,
    /// See [`MctsConfig::win_check`].
    pub win_check: WinCheck,
    /// See [`MctsConfig::moves_left`].
    pub moves_left: MovesLeft,
    /// See [`MctsConfig::captures`].
    pub captures: Captures,
    /// See [`MctsConfig::certainty`].
    pub certainty: Certainty,
    /// See [`MctsConfig::move_choice`].
    pub move_choice: MoveChoice,
    /// Whether the network's prior at the root is cleared of the actions alpha-beta shows to
    /// lose material (the root filter of every search `classical::GuardedSearch::search` makes).
    pub tactics_filter: TacticsFilter,
}

impl Default for PlaySearch {
    fn default() -> Self {
        let plain = MctsConfig::default();
        PlaySearch {
            selection: Selection::Puct,
            c_puct_init: plain.c_puct_init,
            c_puct_base: plain.c_puct_base,
            fpu: plain.fpu,
            forced_legs: ForcedLegs::PassCaptures,
            win_check: WinCheck::InOne,
            moves_left: MovesLeft::Off,
            captures: plain.captures,
            certainty: plain.certainty,
            move_choice: plain.move_choice,
            tactics_filter: TacticsFilter::Off,
        }
    }
}

impl PlaySearch {
    /// The search of `simulations` simulations with these options, no root noise, and the most
    /// visited action played (temperature 0).
    pub fn mcts(&self, simulations: u32) -> MctsConfig {
        MctsConfig {
            simulations: simulations.max(1),
            c_puct_init: self.c_puct_init,
            c_puct_base: self.c_puct_base,
            fpu: self.fpu,
            root_noise: RootNoise::None,
            selection: self.selection,
            temperature: TemperatureSchedule::Constant(0.0),
            forced_legs: self.forced_legs,
            win_check: self.win_check,
            moves_left: self.moves_left,
            captures: self.captures,
            certainty: self.certainty,
            move_choice: self.move_choice,
        }
    }

    /// Checks every option.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if let Some((key, problem)) = self.tactics_filter.problem() {
            return Err(ConfigError::Play { key, problem });
        }
        self.mcts(1).validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_toml() {
        let c = PlaySearch::default().mcts(64);
        assert_eq!(c.simulations, 64);
        assert_eq!(c.selection, Selection::Puct);
        assert_eq!(c.root_noise, RootNoise::None);
        assert_eq!(c.temperature, TemperatureSchedule::Constant(0.0));
        assert_eq!((c.forced_legs, c.win_check), (ForcedLegs::PassCaptures, WinCheck::InOne));
        assert_eq!(PlaySearch::default().mcts(0).simulations, 1);
        let p: PlaySearch = toml::from_str(
            "selection = { gumbel = { considered_actions = 16 } }\nforced_legs = \"evaluate\"\n\
             win_check = \"off\"",
        )
        .unwrap();
        assert_eq!(p.mcts(8).forced_legs, ForcedLegs::Evaluate);
        assert_eq!(p.win_check, WinCheck::Off);
        assert!(matches!(p.selection, Selection::Gumbel { considered_actions: 16, .. }));
        assert_eq!(p.c_puct_init, PlaySearch::default().c_puct_init);
        // Simulations come from the player, root noise and temperature are not play options.
        assert!(toml::from_str::<PlaySearch>("simulations = 5").is_err());
        assert!(toml::from_str::<PlaySearch>("root_noise = \"none\"").is_err());
        assert!(toml::from_str::<PlaySearch>("win_check = \"in_two\"").is_err());
        let bad = PlaySearch { c_puct_init: f32::NAN, ..PlaySearch::default() };
        assert!(bad.validate().is_err());
        let guarded: PlaySearch =
            toml::from_str("tactics_filter = { alpha_beta = { depth = 2, margin = 150 } }")
                .unwrap();
        assert_eq!(guarded.tactics_filter, TacticsFilter::AlphaBeta { depth: 2, margin: 150 });
        assert_eq!(PlaySearch::default().tactics_filter, TacticsFilter::Off);
        let mlh: PlaySearch =
            toml::from_str("moves_left = { utility = { slope = 0.01, cap = 0.1 } }").unwrap();
        assert_eq!(mlh.mcts(8).moves_left, MovesLeft::Utility { slope: 0.01, cap: 0.1 });
        assert_eq!(PlaySearch::default().mcts(8).moves_left, MovesLeft::Off);
        let bad = PlaySearch {
            tactics_filter: TacticsFilter::AlphaBeta { depth: 1, margin: 0 },
            ..PlaySearch::default()
        };
        let error = bad.validate().unwrap_err();
        assert_eq!(error.to_string(), "tactics_filter.alpha_beta.margin must be at least 1");
        assert_eq!(error.key(), "tactics_filter.alpha_beta.margin");
    }
}
