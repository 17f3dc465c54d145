//! [`TeacherTargets`]: what the rows of the classical teacher's games teach: the move it chose,
//! every move weighted by its score, or the move it chose beside every move that does not lose.

use games::{Action, Game, Move, State, Variant};
use serde::{Deserialize, Serialize};

use super::tactics::loses;
use crate::arena::alphabeta::{AlphaBeta, SearchResult};
use crate::driver::LegPolicy;

/// Targets below this share of a row are dropped (and the rest renormalised): a move scored a
/// Man below the best at temperature 30 keeps ~3.6% of the best's weight, one scored three Men
/// below ~0.005%, which only fills the records.
const SMALLEST_SHARE: f64 = 1e-4;

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
    /// filter's judge, [`TacticsFilter`](super::TacticsFilter)). Every losing move gets
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
                super::TacticsFilter::AlphaBeta { depth, margin }.problem_at([
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

    /// The teacher's search of `state`'s turn (from the start of the move, legs in progress or
    /// not) and the weight of each of its moves (aligned with `state.moves()`, summing to 1):
    /// what [`leg_target`] turns into a row's target. `None` when the game is over.
    pub fn weigh<V: Variant>(
        self,
        searcher: &mut AlphaBeta<V>,
        state: &State<V>,
    ) -> Option<(SearchResult, Vec<f64>)> {
        let found = searcher.search(state.position())?;
        let scores = match (self, self.margin()) {
            (TeacherTargets::Safe { depth, .. }, _) => {
                let scores = searcher.move_scores(state.position(), state.moves(), depth);
                scores.into_iter().map(Some).collect()
            }
            (_, None) => Vec::new(),
            (_, Some(margin)) => {
                searcher.root_scores(state.position(), state.moves(), &found, margin)
            }
        };
        let weights = self.move_weights(state.moves(), &found.best, &scores);
        Some((found, weights))
    }

    /// The weight of each of a turn's `moves` (in their order, summing to 1), given the
    /// teacher's choice `best` and, for soft targets, each move's score (`scores`, aligned
    /// with `moves`, `None` for a move below [`TeacherTargets::margin`]: weight 0; for safe
    /// targets, every move's score at the judge's depth; ignored for [`TeacherTargets::Best`]).
    pub fn move_weights(self, moves: &[Move], best: &Move, scores: &[Option<i32>]) -> Vec<f64> {
        let one_hot = || moves.iter().map(|m| f64::from(u8::from(m == best))).collect();
        match self {
            TeacherTargets::Best => one_hot(),
            TeacherTargets::Soft { temperature } => {
                debug_assert_eq!(moves.len(), scores.len());
                // No score at all (none given): the teacher's move alone.
                let Some(top) = scores.iter().flatten().copied().max() else { return one_hot() };
                let t = f64::from(temperature);
                let weight = |s: i32| ((f64::from(s) - f64::from(top)) / t).exp();
                let w: Vec<f64> = scores.iter().map(|s| s.map_or(0.0, weight)).collect();
                let sum: f64 = w.iter().sum();
                w.into_iter().map(|x| x / sum).collect()
            }
            TeacherTargets::Safe { share, margin, .. } => {
                debug_assert_eq!(moves.len(), scores.len());
                let Some(top) = scores.iter().flatten().copied().max() else { return one_hot() };
                let safe: Vec<bool> =
                    scores.iter().map(|s| s.is_some_and(|s| !loses(s, top, margin))).collect();
                // The best-scored move is always safe, so the count is at least 1.
                let spread = f64::from(share) / safe.iter().filter(|&&ok| ok).count() as f64;
                let kept = 1.0 - f64::from(share);
                let weight = |(m, &ok): (&Move, &bool)| {
                    kept * f64::from(u8::from(m == best)) + if ok { spread } else { 0.0 }
                };
                moves.iter().zip(&safe).map(weight).collect()
            }
        }
    }
}

/// The legs of `played` from `state` (its mover's turn, some of its legs played or none), each
/// with its row's [`leg_target`] from the teacher's `weights` (aligned with `state.moves()`)
/// where the leg has a choice: every such leg of the teacher's own move (`teachers`), the first
/// only of another (a random move's later legs are not the teacher's decisions).
pub fn move_legs<V: Variant>(
    state: &State<V>,
    played: &Move,
    weights: &[f64],
    teachers: bool,
) -> Vec<(Action, Option<LegPolicy>)> {
    let mut legs = Vec::new();
    let mut state = state.clone();
    let mut legal = Vec::new();
    loop {
        state.legal_actions(&mut legal);
        let recorded = legal.len() > 1 && (teachers || state.landed().is_empty());
        let policy = if recorded { leg_target(&state, weights) } else { None };
        let action = state.next_action(played);
        legs.push((action, policy));
        state.play(action);
        if state.last_move().is_some() {
            return legs;
        }
    }
}

/// The policy target of `state`'s next decision: the weights of the turn's moves (`weights`,
/// aligned with `state.moves()`) that extend the legs played so far, summed per next action and
/// renormalised; shares below [`SMALLEST_SHARE`] dropped. Returns (action indices in the
/// mover's frame, ascending; their targets, summing to 1). `None` when no extending move has
/// weight (a random move's later legs under one-hot targets).
pub fn leg_target<V: Variant>(state: &State<V>, weights: &[f64]) -> Option<(Vec<u16>, Vec<f32>)> {
    let mut per_action: Vec<(u16, f64)> = Vec::new();
    for (m, &w) in state.moves().iter().zip(weights) {
        if w <= 0.0 || !m.path().starts_with(state.landed()) {
            continue;
        }
        let a = state.action_index(state.next_action(m)) as u16;
        match per_action.iter_mut().find(|(b, _)| *b == a) {
            Some((_, sum)) => *sum += w,
            None => per_action.push((a, w)),
        }
    }
    let total: f64 = per_action.iter().map(|(_, w)| w).sum();
    if total <= 0.0 {
        return None;
    }
    per_action.retain(|&(_, w)| w / total >= SMALLEST_SHARE);
    per_action.sort_by_key(|&(a, _)| a);
    let kept: f64 = per_action.iter().map(|(_, w)| w).sum();
    Some(per_action.into_iter().map(|(a, w)| (a, (w / kept) as f32)).unzip())
}
