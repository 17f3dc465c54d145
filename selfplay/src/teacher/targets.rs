//! The targets of the classical teacher's rows ([`TeacherTargets`]): the move it chose, every
//! move weighted by its score, or the move it chose beside every move that does not lose.

use games::{Action, Game, Move, State, Variant};

use super::config::{SMALLEST_SHARE, TeacherTargets};
use crate::driver::LegPolicy;
use classical::alphabeta::{AlphaBeta, SearchResult};
use classical::tactics::loses;

impl TeacherTargets {
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
