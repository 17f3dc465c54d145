//! The teacher's settings (`selfplay.teacher`): who plays a share of the self-play games
//! ([`Teacher`]) and what its rows teach ([`TeacherTargets`]). The settings only, so that the
//! self-play config can hold them without the driver and the teacher importing each other.

use classical::leaf_heuristic::linear_fade;
use search::TacticsFilter;
use serde::{Deserialize, Serialize};

use crate::arena::spec::PlayerSpec;

/// Targets below this share of a row are dropped (and the rest renormalised): a move scored a
/// Man below the best at temperature 30 keeps ~3.6% of the best's weight, one scored three Men
/// below ~0.005%, which only fills the records.
pub(crate) const SMALLEST_SHARE: f64 = 1e-4;

/// Salt of the draw that gives a game to the teacher (not the game's own seed, so the share can
/// change without changing the games).
const TEACHER_SALT: u64 = 0x7EAC_4E12;

/// Who plays a share of the self-play games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Teacher {
    /// The searches play every game.
    #[default]
    Off,
    /// `alphabeta:depth=depth` plays every seat of a share of the games: `fraction` of them in
    /// generation 0, falling linearly to none in generation `fade_generations`. Each of its
    /// moves is, with probability `explore`, replaced by a uniformly random legal move (the row
    /// still holds the teacher's targets), so that its games, deterministic otherwise, differ.
    /// `targets`: its move one-hot (the default) or every move weighted by its score.
    /// `label`: the share of every full-search row's policy target in the searches' own games
    /// that the teacher's targets for that position take, in every generation (0, the default:
    /// none; see [`TeacherLabels`](super::TeacherLabels)).
    /// `spar`: the share of the searches' own games in which the teacher plays one seat (drawn
    /// per game, as is the seat), its moves recorded as in its own games, in every generation
    /// (0, the default: none; see [`TeacherSparrer`](super::TeacherSparrer)).
    AlphaBeta {
        depth: u32,
        fraction: f32,
        fade_generations: u32,
        explore: f32,
        #[serde(default)]
        targets: TeacherTargets,
        #[serde(default)]
        label: f32,
        #[serde(default)]
        spar: f32,
    },
}

impl Teacher {
    /// The share of generation `generation`'s games the teacher plays, in `[0, 1]`.
    pub fn fraction_at(self, generation: u32) -> f32 {
        match self {
            Teacher::Off => 0.0,
            Teacher::AlphaBeta { fraction, fade_generations, .. } => {
                linear_fade(fraction, generation, fade_generations)
            }
        }
    }

    /// Whether the teacher plays game `id` of generation `generation`'s session seeded `seed`:
    /// a draw of its own per game, so the same ids are the teacher's when a session resumes.
    pub fn plays(self, generation: u32, seed: u64, id: u64) -> bool {
        let share = self.fraction_at(generation);
        let draw = games::seed::mix(seed ^ TEACHER_SALT, id) >> 11;
        (draw as f64 / (1u64 << 53) as f64) < f64::from(share)
    }

    /// The player's name in game records, as the arena writes it (`alphabeta:depth=2`); empty
    /// when off.
    pub fn name(self) -> String {
        match self {
            Teacher::Off => String::new(),
            Teacher::AlphaBeta { depth, .. } => alpha_beta(depth).to_string(),
        }
    }

    /// Checks the values (None when the setting is valid).
    pub(crate) fn problem(self) -> Option<(&'static str, &'static str)> {
        let Teacher::AlphaBeta { depth, fraction, fade_generations, explore, targets, label, spar } =
            self
        else {
            return None;
        };
        if !(1..=8).contains(&depth) {
            return Some(("teacher.alpha_beta.depth", "must be between 1 and 8"));
        }
        if !(0.0..=1.0).contains(&fraction) {
            return Some(("teacher.alpha_beta.fraction", "must be between 0 and 1"));
        }
        if !(1..=search::bounds::MAX_GENERATIONS).contains(&u64::from(fade_generations)) {
            return Some(("teacher.alpha_beta.fade_generations", "must be from 1 to 1000000"));
        }
        if !(0.0..1.0).contains(&explore) {
            return Some(("teacher.alpha_beta.explore", "must be at least 0 and below 1"));
        }
        if !(0.0..=1.0).contains(&label) {
            return Some(("teacher.alpha_beta.label", "must be between 0 and 1"));
        }
        if !(0.0..=1.0).contains(&spar) {
            return Some(("teacher.alpha_beta.spar", "must be between 0 and 1"));
        }
        targets.problem()
    }
}

/// The policy targets of the teacher's rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TeacherTargets {
    /// The teacher's move, one-hot. Among moves it scores alike, that is whichever its move
    /// ordering tried first.
    #[default]
    Best,
    /// Every legal move, weighted `exp((score - best) / temperature)`: its exact alpha-beta
    /// score at the teacher's depth (hundredths of a Man: a Man is 100) from a search of each
    /// move in the window of [`TeacherTargets::margin`] (moves below it weigh 0). The network
    /// learns which moves lose material, not only the one the teacher picked among equals.
    /// Costs a search of every root move: ~5-7 times the teacher's game at depth 2.
    Soft { temperature: f32 },
    /// The teacher's move with weight `1 - share`, and `share` spread evenly over the legal
    /// moves that do not lose: those a search of each move to `depth` plies and quiescence
    /// scores less than `margin` (hundredths of a Man) below the best move's (the tactics
    /// filter's judge, [`TacticsFilter`]). Every losing move gets
    /// target 0 and every safe one some, a label on every move of the position, as the soft
    /// targets give, at the cost of a one-ply search of each move instead of a two-ply one.
    Safe { share: f32, depth: u32, margin: i32 },
}

impl TeacherTargets {
    /// Checks the values (None when the setting is valid).
    pub(crate) fn problem(self) -> Option<(&'static str, &'static str)> {
        match self {
            TeacherTargets::Soft { temperature }
                if !(temperature.is_finite() && temperature > 0.0) =>
            {
                Some(("teacher.alpha_beta.targets.soft.temperature", "must be above 0"))
            }
            TeacherTargets::Safe { share, .. } if !(0.0..=1.0).contains(&share) => {
                Some(("teacher.alpha_beta.targets.safe.share", "must be between 0 and 1"))
            }
            TeacherTargets::Safe { depth, margin, .. } => {
                TacticsFilter::AlphaBeta { depth, margin }.problem_at([
                    "teacher.alpha_beta.targets.safe.depth",
                    "teacher.alpha_beta.targets.safe.margin",
                ])
            }
            _ => None,
        }
    }

    /// How far below the best a move's score still matters (hundredths of a Man): below it a
    /// move's weight is under [`SMALLEST_SHARE`] of the best's. `None` for one-hot targets,
    /// and for safe ones, which score every move.
    pub fn margin(self) -> Option<i32> {
        match self {
            TeacherTargets::Best | TeacherTargets::Safe { .. } => None,
            TeacherTargets::Soft { temperature } => {
                Some((f64::from(temperature) * (1.0 / SMALLEST_SHARE).ln()).ceil() as i32)
            }
        }
    }
}

/// The arena player the teacher is.
pub(crate) fn alpha_beta(depth: u32) -> PlayerSpec {
    PlayerSpec::AlphaBeta { depth: Some(depth), ms: None, clock: None }
}
