//! The teacher's labels on the searches' own games (`teacher.alpha_beta.label`).
//!
//! The teacher's games show the network sound moves in the positions the teacher's play
//! reaches, and the network's own play then reaches others: the blunders that lose its games
//! (a piece walked into a capture chain) are made in positions the teacher never played into,
//! where the policy targets are a small search's, which misses the same tactics. The labels give
//! those positions the teacher's judgement too (DAgger's remedy for a student that drifts from
//! its teacher's states): the teacher searches each full-search row's position and its targets
//! take a share of the row's policy target.

use games::{RuleOptions, State, Variant};

use super::{Teacher, leg_target};
use crate::driver::PlayedGame;
use crate::teacher::TeacherTargets;
use classical::alphabeta::{AlphaBeta, AlphaBetaLimits};

/// The teacher of a self-play session labelling its searches' games: one alpha-beta searcher
/// for all of them, so that its tables carry over.
pub struct TeacherLabels<V: Variant> {
    searcher: AlphaBeta<V>,
    targets: TeacherTargets,
    share: f32,
    options: RuleOptions,
}

impl Teacher {
    /// The labeller of the searches' games of variant `V` under `options`; `None` when the
    /// teacher is off or its `label` share is 0.
    pub fn labels<V: Variant>(self, options: RuleOptions) -> Option<TeacherLabels<V>> {
        let Teacher::AlphaBeta { depth, targets, label, .. } = self else { return None };
        (label > 0.0).then(|| TeacherLabels {
            searcher: AlphaBeta::new(AlphaBetaLimits { depth, time: None }),
            targets,
            share: label,
            options,
        })
    }
}

impl<V: Variant> TeacherLabels<V> {
    /// Blends the teacher's targets into the policy target of every full-search row of `game`
    /// (a row with more than one action): `(1 - share) × the search's + share × the teacher's`,
    /// still summing to 1, the teacher's actions added to the row's where missing. A row of a
    /// move in progress whose legs the teacher's move does not extend (under one-hot targets),
    /// and a row whose position does not parse, are left as they are. Returns the rows labelled.
    pub fn apply(&mut self, game: &mut PlayedGame) -> usize {
        let mut labelled = 0;
        for row in game.positions.iter_mut().filter(|r| r.full_search && r.policy_actions.len() > 1)
        {
            let Ok(state) = State::<V>::parse_with(&row.position, self.options) else { continue };
            let Some((_, weights)) = self.targets.weigh(&mut self.searcher, &state) else {
                continue;
            };
            let Some((actions, targets)) = leg_target(&state, &weights) else { continue };
            blend(&mut row.policy_actions, &mut row.policy_target, &actions, &targets, self.share);
            labelled += 1;
        }
        labelled
    }
}

/// `target` (over `actions`) becomes `(1 - share) × target + share × teacher` (the teacher's
/// weights over `teacher_actions`), the teacher's actions missing from `actions` appended.
fn blend(
    actions: &mut Vec<u16>,
    target: &mut Vec<f32>,
    teacher_actions: &[u16],
    teacher: &[f32],
    share: f32,
) {
    target.iter_mut().for_each(|p| *p *= 1.0 - share);
    for (&a, &t) in teacher_actions.iter().zip(teacher) {
        match actions.iter().position(|&b| b == a) {
            Some(i) => target[i] += share * t,
            None => {
                actions.push(a);
                target.push(share * t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use games::CamelotRules;

    use super::*;
    use crate::teacher::tests::{even_row, leg_index, state};
    use records::PositionRow;

    const LABEL: Teacher = Teacher::AlphaBeta {
        depth: 2,
        fraction: 0.0,
        fade_generations: 1,
        explore: 0.0,
        targets: TeacherTargets::Best,
        label: 0.25,
        spar: 0.0,
    };

    /// F7-F8 offers a Man that Black must take, and E6 then jumps three (the teacher's own
    /// test of this position): the one move that wins material.
    const SACRIFICE: &str = "camelot W W:KA4,KB4,MD5,ME6,MF7 B:KA13,KL13,MF9,MH8,MI9 cm=0,0";

    fn game(rows: Vec<PositionRow>) -> PlayedGame {
        let mut g = PlayedGame::start(0, 1, &state(SACRIFICE), String::new());
        g.positions = rows;
        g
    }

    #[test]
    fn the_teacher_s_move_takes_its_share_of_a_full_search_row() {
        let mut labels = LABEL.labels::<CamelotRules>(RuleOptions::default()).unwrap();
        let mut g = game(vec![even_row(SACRIFICE, true), even_row(SACRIFICE, false)]);
        let before = g.positions.clone();
        assert_eq!(labels.apply(&mut g), 1);
        let row = &g.positions[0];
        let n = before[0].policy_actions.len() as f32;
        assert_eq!(row.policy_actions, before[0].policy_actions, "no action added");
        let sacrifice = leg_index(SACRIFICE, "F7>F8");
        for (&a, &p) in row.policy_actions.iter().zip(&row.policy_target) {
            let expected = 0.75 / n + if a == sacrifice { 0.25 } else { 0.0 };
            assert!((p - expected).abs() < 1e-6, "{a}: {p} against {expected}");
        }
        assert!((row.policy_target.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert_eq!(g.positions[1], before[1], "a fast search's row is no policy target");
    }

    #[test]
    fn no_labeller_without_a_share_and_blend_appends_missing_actions() {
        let off = Teacher::AlphaBeta {
            depth: 2,
            fraction: 1.0,
            fade_generations: 1,
            explore: 0.0,
            targets: TeacherTargets::Best,
            label: 0.0,
            spar: 0.0,
        };
        assert!(off.labels::<CamelotRules>(RuleOptions::default()).is_none());
        assert!(Teacher::Off.labels::<CamelotRules>(RuleOptions::default()).is_none());
        let (mut actions, mut target) = (vec![3, 1], vec![0.5, 0.5]);
        blend(&mut actions, &mut target, &[1, 7], &[0.5, 0.5], 0.5);
        assert_eq!(actions, [3, 1, 7]);
        assert_eq!(target, [0.25, 0.5, 0.25]);
    }
}
