//! Search options: one serde-able [`MctsConfig`] whose choices are enums, not booleans.
//!
//! In TOML (the `[mcts]` section of a run config) it reads, for example:
//!
//! ```toml
//! simulations = 200
//! c_puct_init = 1.25
//! c_puct_base = 19652.0
//! fpu = { reduction = 0.2 }
//! root_noise = { dirichlet = { alpha = 0.3, fraction = 0.25 } }
//! selection = "puct"                     # or { gumbel = { considered_actions = 16 } }
//! temperature = { step = { initial = 1.0, moves = 30, after = 0.0 } }
//! forced_legs = "evaluate"               # or "pass"
//! ```
//!
//! All values the search works with are per-seat score shares in `[0, 1]` (win 1, loss 0,
//! draw `1 / players`), so FPU values and Q are on that scale.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::moves_left::MovesLeft;
use super::tactical::{Captures, Certainty, MoveChoice};

/// Everything that shapes one search. Defaults are AlphaZero's where it has one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MctsConfig {
    /// Simulations of a full search per move (evaluations below the root; the root's own
    /// evaluation is not counted). A driver may run fewer per move (playout cap randomization).
    pub simulations: u32,
    /// `c_puct(N) = c_puct_init + ln((N + c_puct_base + 1) / c_puct_base)` (AlphaZero).
    pub c_puct_init: f32,
    /// See [`MctsConfig::c_puct_init`].
    pub c_puct_base: f32,
    /// Q assumed for children never visited (PUCT only).
    pub fpu: Fpu,
    /// Noise mixed into the root priors of full PUCT searches.
    pub root_noise: RootNoise,
    /// How simulations choose actions: PUCT everywhere, or Gumbel at the root.
    pub selection: Selection,
    /// Temperature for choosing the move to play from PUCT visit counts, by move number.
    pub temperature: TemperatureSchedule,
    /// What a simulation does at a position inside the tree with a single legal action.
    pub forced_legs: ForcedLegs,
    /// Whether a position whose mover can win at once is recognised without an evaluation.
    pub win_check: WinCheck,
    /// Whether selection reads the evaluator's moves left ([`MovesLeft`]).
    pub moves_left: MovesLeft,
    /// Whether captures get their first visits before quiet actions ([`Captures`]).
    pub captures: Captures,
    /// Whether proven wins and losses propagate up the tree ([`Certainty`]).
    pub certainty: Certainty,
    /// How the move is picked at temperature 0 ([`MoveChoice`]).
    pub move_choice: MoveChoice,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            simulations: 800,
            c_puct_init: 1.25,
            c_puct_base: 19652.0,
            fpu: Fpu::Reduction(0.2),
            root_noise: RootNoise::Dirichlet { alpha: 0.3, fraction: 0.25 },
            selection: Selection::Puct,
            temperature: TemperatureSchedule::Step { initial: 1.0, moves: 30, after: 0.0 },
            forced_legs: ForcedLegs::Evaluate,
            win_check: WinCheck::Off,
            moves_left: MovesLeft::Off,
            captures: Captures::Prior,
            certainty: Certainty::Off,
            move_choice: MoveChoice::Visits,
        }
    }
}

/// Wins in one move, found by the rules rather than by the evaluator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinCheck {
    /// Every position is searched and evaluated alike.
    #[default]
    Off,
    /// A position inside the tree whose mover has a move that wins at once
    /// ([`games::Game::winning_action`]: into the goal castle, or taking every opposing piece)
    /// is a win for that mover, scored without an evaluation (so the move before it is seen
    /// to lose, a defence found at the cost of one simulation); at the root the winning
    /// action is played without a search ([`Search::forced_action`](super::Search::forced_action)).
    InOne,
}

/// Positions inside the tree that a simulation passes through without an evaluation: those with
/// a single legal action (a compulsory capture, the only continuation of a chain), and with
/// `PassCaptures` those where the mover must capture. At the root the driver plays a single
/// action without searching, and a root is always evaluated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForcedLegs {
    /// Evaluated by the network like any other leaf.
    #[default]
    Evaluate,
    /// Passed through without an evaluation: the node takes the value found below it, so
    /// capture chains are read as deep as the budget reaches. Measured in Camelot self-play: the
    /// searches avoid losing their pieces far better, half the games end at the move cap, and
    /// learning per hour did not improve (docs/experiments.md, "Learning three times faster").
    Pass,
    /// As `Pass`, and positions where the mover must capture ([`games::Game::must_capture`])
    /// are passed through too, their capture legs given equal priors: a simulation only stops
    /// at a position whose material is settled (a quiescence search inside MCTS), so the network
    /// never judges a position in the middle of an exchange.
    PassCaptures,
}

impl ForcedLegs {
    /// Whether a simulation passes through a position inside the tree (not the root) whose
    /// legal actions are `legal`, without evaluating it.
    pub fn passes<G: games::Game>(self, state: &G, legal: &[G::Action]) -> bool {
        match self {
            ForcedLegs::Evaluate => false,
            ForcedLegs::Pass => legal.len() == 1,
            ForcedLegs::PassCaptures => legal.len() == 1 || state.must_capture(),
        }
    }
}

/// First-play urgency: the Q used for a child with no visits yet.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fpu {
    /// The parent's Q for its mover minus `r * sqrt(sum of priors of visited children)`, as in
    /// Leela: the more of the policy already tried, the less an untried child is assumed worth.
    Reduction(f32),
    /// A fixed Q in `[0, 1]`: 0 is pessimistic (a loss), 1 optimistic (a win).
    Absolute(f32),
}

/// Exploration noise at the root.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RootNoise {
    /// Priors as the evaluator gave them.
    None,
    /// `prior = (1 - fraction) * prior + fraction * eta`, `eta ~ Dirichlet(alpha, ..., alpha)`
    /// over the legal actions. Applied once per move, to full PUCT searches only (cheap searches
    /// of playout cap randomization and Gumbel searches explore otherwise).
    Dirichlet { alpha: f32, fraction: f32 },
}

/// The action selection rule of a simulation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// AlphaZero's PUCT at every node; the policy target is the root visit distribution.
    Puct,
    /// Gumbel MuZero (Danihelka et al. 2022): sequential halving over Gumbel-top-k sampled root
    /// actions, the deterministic improved-policy rule below the root, and the completed-Q
    /// improved policy as the target. Suited to small simulation counts.
    Gumbel {
        /// Root actions sampled without replacement and then halved (`m` in the paper).
        considered_actions: u32,
        /// `sigma(q) = (c_visit + max_b N(b)) * c_scale * q`.
        #[serde(default = "default_c_visit")]
        c_visit: f32,
        /// See `c_visit`.
        #[serde(default = "default_c_scale")]
        c_scale: f32,
        /// How the completed q values are scaled before `sigma` (default min-max, as mctx).
        #[serde(default)]
        q_transform: QTransform,
    },
}

/// How Gumbel's completed q values (score shares in `[0, 1]` for the root's mover) are scaled
/// before `sigma(q)`.
///
/// Raw shares make the improvement operator as weak as the value differences are small: where
/// every child scores 0.45-0.55, `sigma` spans ~5 logits at 50 visits and the target sits on the
/// prior. mctx's default (`qtransform_completed_by_mix_value` with `rescale_values`) stretches
/// the children's completed q to `[0, 1]` first, so the best child always gains `c_visit + max N`
/// logits over the worst, whatever the scale of the values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QTransform {
    /// `(q - min) / max(max - min, 1e-8)` over the node's children (mctx).
    #[default]
    MinMax,
    /// The shares as they are.
    Raw,
}

impl Selection {
    /// Gumbel with the paper's `c_visit = 50`, `c_scale = 1`.
    pub fn gumbel(considered_actions: u32) -> Self {
        Selection::Gumbel {
            considered_actions,
            c_visit: default_c_visit(),
            c_scale: default_c_scale(),
            q_transform: QTransform::default(),
        }
    }
}

fn default_c_visit() -> f32 {
    50.0
}

fn default_c_scale() -> f32 {
    1.0
}

/// Temperature for choosing the action to play, as a function of the number of actions already
/// played in the game (`ply`, counting every leg). Temperature 0 plays the most visited action.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TemperatureSchedule {
    /// The same temperature throughout.
    Constant(f32),
    /// `initial` for the first `moves` plies, `after` from then on (AlphaZero: 1, then 0).
    Step { initial: f32, moves: u32, after: f32 },
    /// From `initial` at ply 0 linearly to `after` at ply `moves`, then `after`.
    Linear { initial: f32, moves: u32, after: f32 },
}

impl TemperatureSchedule {
    /// The temperature at `ply`.
    pub fn at(&self, ply: u32) -> f32 {
        match *self {
            TemperatureSchedule::Constant(t) => t,
            TemperatureSchedule::Step { initial, moves, after } => {
                if ply < moves {
                    initial
                } else {
                    after
                }
            }
            TemperatureSchedule::Linear { initial, moves, after } => {
                if ply >= moves {
                    after
                } else {
                    let f = ply as f32 / moves as f32;
                    initial + (after - initial) * f
                }
            }
        }
    }

    fn temperatures(&self) -> [f32; 2] {
        match *self {
            TemperatureSchedule::Constant(t) => [t, t],
            TemperatureSchedule::Step { initial, after, .. }
            | TemperatureSchedule::Linear { initial, after, .. } => [initial, after],
        }
    }
}

/// The most simulations of one search (a tree of that many nodes, each a few hundred bytes).
pub const MAX_SIMULATIONS: u32 = 1_000_000;

/// The most actions a Gumbel root search considers (no position has as many legal legs).
pub const MAX_CONSIDERED: u32 = 4096;

/// A configuration that cannot run. The message names the option (`fpu`) but not its section,
/// which the search and the play search share: [`ConfigError::key`] says which option.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ConfigError {
    #[error("simulations must be at least 1")]
    NoSimulations,
    #[error("simulations must be at most {MAX_SIMULATIONS}, got {0}")]
    TooManySimulations(u32),
    #[error(
        "c_puct_init must be from 0 to 100 and c_puct_base above 0 and at most 1e9, got {init} and {base}"
    )]
    CPuct { init: f32, base: f32 },
    #[error("fpu value must be from -1 to 1, got {0}")]
    Fpu(f32),
    #[error(
        "root_noise needs alpha above 0 and at most 100 and fraction in [0, 1], got {alpha} and {fraction}"
    )]
    Noise { alpha: f32, fraction: f32 },
    #[error(
        "selection gumbel needs considered_actions from 1 to {MAX_CONSIDERED}, c_visit from 0 to 1e6, c_scale above 0 and at most 1e6, got {0:?}"
    )]
    Gumbel(Selection),
    #[error("temperature must be from 0 to 100, got {0}")]
    Temperature(f32),
    #[error("temperature moves must be at most 10000, got {0}")]
    TemperatureMoves(u32),
    #[error("moves_left.utility {0}")]
    MovesLeft(&'static str),
    #[error("move_choice.lcb {0}")]
    MoveChoice(&'static str),
    /// An option of the play search (`[play]`) that the search itself does not take.
    #[error("{key} {problem}")]
    Play { key: &'static str, problem: &'static str },
}

impl ConfigError {
    /// The option the error is about, as its key in a `[mcts]` or `[play]` section.
    pub fn key(&self) -> &'static str {
        match self {
            ConfigError::NoSimulations | ConfigError::TooManySimulations(_) => "simulations",
            ConfigError::CPuct { .. } => "c_puct_init",
            ConfigError::Fpu(_) => "fpu",
            ConfigError::Noise { .. } => "root_noise",
            ConfigError::Gumbel(_) => "selection",
            ConfigError::Temperature(_) | ConfigError::TemperatureMoves(_) => "temperature",
            ConfigError::MovesLeft(_) => "moves_left",
            ConfigError::MoveChoice(_) => "move_choice",
            ConfigError::Play { key, .. } => key,
        }
    }
}

impl MctsConfig {
    /// The plain PUCT search of `simulations`: no root noise, the most visited action
    /// (temperature 0), every leaf evaluated. The rollout players (`mcts:sims=N`, among them
    /// the anchors) search with it, as they were rated; a playing model uses
    /// [`PlaySearch`](super::PlaySearch).
    pub fn analysis(simulations: u32) -> Self {
        MctsConfig {
            simulations: simulations.max(1),
            root_noise: RootNoise::None,
            selection: Selection::Puct,
            temperature: TemperatureSchedule::Constant(0.0),
            ..MctsConfig::default()
        }
    }

    /// Checks every option; [`Search::new`](super::Search::new) calls it.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.simulations == 0 {
            return Err(ConfigError::NoSimulations);
        }
        if self.simulations > MAX_SIMULATIONS {
            return Err(ConfigError::TooManySimulations(self.simulations));
        }
        let (init, base) = (self.c_puct_init, self.c_puct_base);
        if !((0.0..=100.0).contains(&init) && base > 0.0 && base <= 1e9) {
            return Err(ConfigError::CPuct { init, base });
        }
        // Values are scores in [0, 1]: a first-play value, or a reduction of one, beyond them
        // means nothing.
        let (Fpu::Reduction(v) | Fpu::Absolute(v)) = self.fpu;
        if !(-1.0..=1.0).contains(&v) {
            return Err(ConfigError::Fpu(v));
        }
        if let RootNoise::Dirichlet { alpha, fraction } = self.root_noise
            && !(alpha > 0.0 && alpha <= 100.0 && (0.0..=1.0).contains(&fraction))
        {
            return Err(ConfigError::Noise { alpha, fraction });
        }
        if let Selection::Gumbel { considered_actions, c_visit, c_scale, .. } = self.selection
            && !((1..=MAX_CONSIDERED).contains(&considered_actions)
                && (0.0..=1e6).contains(&c_visit)
                && c_scale > 0.0
                && c_scale <= 1e6)
        {
            return Err(ConfigError::Gumbel(self.selection));
        }
        for t in self.temperature.temperatures() {
            if !(0.0..=100.0).contains(&t) {
                return Err(ConfigError::Temperature(t));
            }
        }
        if let TemperatureSchedule::Step { moves, .. } | TemperatureSchedule::Linear { moves, .. } =
            self.temperature
            && u64::from(moves) > crate::bounds::MAX_MOVES
        {
            return Err(ConfigError::TemperatureMoves(moves));
        }
        if let Some(problem) = self.moves_left.problem() {
            return Err(ConfigError::MovesLeft(problem));
        }
        if let Some(problem) = self.move_choice.problem() {
            return Err(ConfigError::MoveChoice(problem));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_round_trip_reads_like_the_docs() {
        let text = r#"
            simulations = 64
            fpu = { absolute = 0.0 }
            root_noise = "none"
            selection = { gumbel = { considered_actions = 8 } }
            temperature = { linear = { initial = 1.0, moves = 10, after = 0.25 } }
        "#;
        let cfg: MctsConfig = toml::from_str(text).unwrap();
        assert_eq!(cfg.simulations, 64);
        assert_eq!(cfg.c_puct_init, 1.25, "unset keys keep their defaults");
        assert_eq!(cfg.fpu, Fpu::Absolute(0.0));
        assert_eq!(cfg.root_noise, RootNoise::None);
        assert_eq!(cfg.selection, Selection::gumbel(8));
        assert_eq!(cfg.validate(), Ok(()));
        let back: MctsConfig = toml::from_str(&toml::to_string(&cfg).unwrap()).unwrap();
        assert_eq!(back, cfg);
        assert!(toml::from_str::<MctsConfig>("simulatoins = 3").is_err(), "typos are errors");
    }

    #[test]
    fn invalid_options_are_typed_errors() {
        let ok = MctsConfig::default();
        assert_eq!(ok.validate(), Ok(()));
        let bad = MctsConfig { simulations: 0, ..ok.clone() };
        assert_eq!(bad.validate(), Err(ConfigError::NoSimulations));
        let bad = MctsConfig {
            root_noise: RootNoise::Dirichlet { alpha: 0.3, fraction: 1.5 },
            ..ok.clone()
        };
        assert!(matches!(bad.validate(), Err(ConfigError::Noise { .. })));
        let bad = MctsConfig { selection: Selection::gumbel(0), ..ok.clone() };
        assert!(matches!(bad.validate(), Err(ConfigError::Gumbel(_))));
        let bad = MctsConfig { temperature: TemperatureSchedule::Constant(f32::NAN), ..ok.clone() };
        assert!(matches!(bad.validate(), Err(ConfigError::Temperature(_))));
        let bad = MctsConfig { moves_left: MovesLeft::Utility { slope: -0.1, cap: 0.1 }, ..ok };
        let error = bad.validate().unwrap_err().to_string();
        assert_eq!(error, "moves_left.utility slope and cap must be from 0 to 1");
        assert_eq!(bad.validate().unwrap_err().key(), "moves_left");
    }

    #[test]
    fn temperature_schedules() {
        let step = TemperatureSchedule::Step { initial: 1.0, moves: 2, after: 0.0 };
        assert_eq!([step.at(0), step.at(1), step.at(2), step.at(99)], [1.0, 1.0, 0.0, 0.0]);
        let lin = TemperatureSchedule::Linear { initial: 1.0, moves: 4, after: 0.0 };
        assert_eq!([lin.at(0), lin.at(2), lin.at(4), lin.at(9)], [1.0, 0.5, 0.0, 0.0]);
        assert_eq!(TemperatureSchedule::Constant(0.7).at(1000), 0.7);
    }
}
