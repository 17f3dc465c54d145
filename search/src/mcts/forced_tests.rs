//! Searches through forced positions, where the right answer is known by hand: forced moves at
//! the root, forced legs and capture chains passed through inside the tree (`forced_legs`), and
//! wins in one scored without the evaluator (`win_check`).

use games::toy::TicTacToe;
use games::{Game, Player, Values};
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::search_tests::{best, puct, ttt};
use super::*;
use crate::evaluator::{Evaluation, Evaluator};
use crate::testing::FnEvaluator;

#[test]
fn forced_moves_are_reported() {
    let mut t = ttt("XOX/XOO/OX.");
    assert_eq!(Search::new(t, puct(8)).unwrap().forced_action(), Some(8));
    assert_eq!(Search::new(TicTacToe::initial(), puct(8)).unwrap().forced_action(), None);
    t.play(8);
    let mut over = Search::new(t, puct(8)).unwrap();
    assert!(over.is_done());
    assert_eq!(over.forced_action(), None);
    assert_eq!(over.gather(&mut StdRng::seed_from_u64(0)).map(|l| l.state), None);
    assert_eq!(over.summary(), Err(SearchError::GameOver));
}

#[test]
fn forced_legs_pass_through_without_an_evaluation() {
    // O to move with cells 7 and 8 empty: 7 wins at once; after 8, X's only move is 7 and the
    // board is full (a draw). Neither child needs the network: only the root is evaluated.
    let state = ttt("XOX/OOX/X..");
    assert_eq!(state.to_move(), Player(1));
    let mut evaluated = Vec::new();
    let mut evaluator = FnEvaluator(|g: &TicTacToe| {
        evaluated.push(g.to_string());
        Evaluation { policy: vec![0.5, 0.5], values: Values([0.5, 0.5, 0.0]), moves_left: None }
    });
    let config = MctsConfig { forced_legs: ForcedLegs::Pass, ..puct(40) };
    let mut s = Search::new(state, config.clone()).unwrap();
    let summary = s.run(&mut evaluator, &mut StdRng::seed_from_u64(4)).unwrap();
    assert_eq!(evaluated, vec!["XOX/OOX/X.."], "only the root is evaluated");
    assert_eq!(summary.simulations, 40);
    assert_eq!(best(&summary), 7);
    let q8 = summary.actions.iter().position(|&a| a == 8).map(|i| summary.q[i]);
    assert_eq!(q8, Some(Some(0.5)), "after 8 the forced reply draws");
    // The forced node holds the value found below it as its own.
    let tree = s.tree();
    let after8 = tree.children(NodeId::ROOT).find(|&c| tree.node(c).action == Some(8)).unwrap();
    assert_eq!(tree.node(after8).num_children(), 1);
    assert_eq!(tree.node(after8).value, Values([0.5, 0.5, 0.0]));
    // Evaluated (the default), the forced position after 8 costs the network one call.
    let mut calls = 0;
    let mut evaluator = FnEvaluator(|g: &TicTacToe| {
        calls += 1;
        let empty = g.to_string().matches('.').count();
        Evaluation { policy: vec![1.0; empty], values: Values([0.5, 0.5, 0.0]), moves_left: None }
    });
    let mut s = Search::new(state, puct(40)).unwrap();
    s.run(&mut evaluator, &mut StdRng::seed_from_u64(4)).unwrap();
    assert_eq!(calls, 2);
}

/// A Camelot evaluator: uniform policy, each seat's share of the pieces on the board as values.
fn material_evaluator(evaluated: &mut Vec<games::Camelot>) -> impl Evaluator<games::Camelot> + '_ {
    FnEvaluator(move |g: &games::Camelot| {
        evaluated.push(g.clone());
        let m = g.material().unwrap();
        let total = (m[0] + m[1]) as f32;
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        Evaluation {
            policy: vec![1.0; legal.len()],
            values: Values([m[0] as f32 / total, m[1] as f32 / total, 0.0]),
            moves_left: None,
        }
    })
}

#[test]
fn pass_captures_judges_only_settled_positions_and_sees_the_chain() {
    // alphabeta's sacrifice: F7-F8 offers a Man that Black must take (F9xF7), after which White
    // must jump three (E6xG8xI8xI10). Passing through every position where the mover must
    // capture, the search never asks the evaluator about one, and the material evaluator's
    // leaf after the exchange shows White two pieces up: F7-F8 is the search's move. Evaluated
    // like any leaf, the position after F7-F8 looks even.
    let pos: games::Camelot =
        "camelot W W:KA4,KB4,MD5,ME6,MF7 B:KA13,KL13,MF9,MH8,MI9 cm=0,0".parse().unwrap();
    let sacrifice = pos.parse_action("F7>F8").unwrap();
    let config = MctsConfig { forced_legs: ForcedLegs::PassCaptures, ..puct(300) };
    let mut evaluated = Vec::new();
    let mut s = Search::new(pos.clone(), config).unwrap();
    let summary = s.run(&mut material_evaluator(&mut evaluated), &mut StdRng::seed_from_u64(3));
    let summary = summary.unwrap();
    assert_eq!(summary.simulations, 300);
    assert!(evaluated.iter().skip(1).all(|g| !g.must_capture()), "a capture was evaluated");
    assert_eq!(best(&summary), sacrifice);
    let i = summary.actions.iter().position(|&a| a == sacrifice).unwrap();
    assert!((summary.q[i].unwrap() - 4.0 / 6.0).abs() < 1e-5, "{:?}", summary.q[i]);
    // The position after F7-F8 was passed through, and holds the settled leaf's values.
    let tree = s.tree();
    let offered = tree.children(NodeId::ROOT).nth(i).unwrap();
    assert_eq!(tree.node(offered).kind, NodeKind::Passed);
    assert_eq!(tree.node(offered).value, Values([4.0 / 6.0, 2.0 / 6.0, 0.0]));

    // Evaluated (the default), the searches stop in the middle of the exchange.
    let mut evaluated = Vec::new();
    let mut s = Search::new(pos, puct(300)).unwrap();
    s.run(&mut material_evaluator(&mut evaluated), &mut StdRng::seed_from_u64(3)).unwrap();
    assert!(evaluated.iter().any(|g| g.must_capture()));
}

#[test]
fn a_passed_root_with_a_choice_is_evaluated_afresh() {
    // After G7-G6 White must capture, with a choice of two jumps (F5xH7 and H5xF7).
    // Passed through as a child, the position has uniform priors; advancing into it starts a
    // new tree, whose root the evaluator judges (its policy, not the uniform one).
    let pos: games::Camelot = "camelot B W:KA4,MF5,MH5 B:KL13,MG7 cm=0,0".parse().unwrap();
    let mut legal = Vec::new();
    pos.legal_actions(&mut legal);
    let config = MctsConfig { forced_legs: ForcedLegs::PassCaptures, ..puct(200) };
    let mut evaluated = Vec::new();
    let mut s = Search::new(pos.clone(), config).unwrap();
    s.run(&mut material_evaluator(&mut evaluated), &mut StdRng::seed_from_u64(1)).unwrap();
    let passed: Vec<_> = s
        .tree()
        .children(NodeId::ROOT)
        .filter(|&c| {
            let node = s.tree().node(c);
            node.kind == NodeKind::Passed && node.num_children() > 1
        })
        .collect();
    let action = s.tree().node(passed[0]).action.unwrap();
    let mut after = pos.clone();
    after.play(action);
    assert!(after.must_capture());
    s.advance(action).unwrap();
    assert_eq!(s.tree().len(), 1, "a fresh tree");
    let before = evaluated.len();
    s.run(&mut material_evaluator(&mut evaluated), &mut StdRng::seed_from_u64(1)).unwrap();
    assert_eq!(evaluated[before].to_string(), after.to_string(), "the root is evaluated first");
}

#[test]
fn win_check_scores_a_win_in_one_without_the_evaluator_and_plays_it_at_the_root() {
    // White to move: F15-F16 puts a first Man into the goal castle, and Black, far away, cannot
    // stop G15-G16 next. With the check every position where White can fill the castle is a
    // White win, never evaluated, so F15-F16 is worth a win; without it the material evaluator
    // sees an even game wherever the search has not played the entry itself.
    let pos: games::Camelot = "camelot W W:MD4,MF15,MG15 B:MK14,ML13 cm=0,0".parse().unwrap();
    let entry = pos.parse_action("F15>F16").unwrap();
    let config = MctsConfig { win_check: WinCheck::InOne, ..puct(200) };
    let mut evaluated = Vec::new();
    let mut checked = Search::new(pos.clone(), config.clone()).unwrap();
    assert_eq!(checked.forced_action(), None, "no win at the root");
    let mut rng = StdRng::seed_from_u64(2);
    let summary = checked.run(&mut material_evaluator(&mut evaluated), &mut rng);
    let summary = summary.unwrap();
    assert!(evaluated.iter().all(|g| g.winning_action().is_none()), "a win was evaluated");
    let i = summary.actions.iter().position(|&a| a == entry).unwrap();
    // Its own first visit evaluated the position after F15-F16 (even); every later one is a win.
    assert!(summary.q[i].unwrap() > 0.99, "{:?}", summary.q[i]);
    assert_eq!(best(&summary), entry);
    let mut evaluated = Vec::new();
    let mut plain = Search::new(pos.clone(), puct(200)).unwrap();
    let summary = plain.run(&mut material_evaluator(&mut evaluated), &mut StdRng::seed_from_u64(2));
    let q = summary.unwrap().q[i].unwrap();
    assert!(q < 0.9, "without the check the win is only found where the search plays it: {q}");
    // Once the castle holds one Man, the winning leg is played at the root without a search.
    let mut after = pos;
    after.play(entry);
    let reply = after.parse_action("K14>K13").unwrap();
    after.play(reply);
    let win = after.parse_action("G15>G16").unwrap();
    assert_eq!(Search::new(after.clone(), config).unwrap().forced_action(), Some(win));
    assert_eq!(Search::new(after.clone(), puct(10)).unwrap().forced_action(), None);
    // Reached by tree reuse, the scored node is no root to keep: a fresh tree, searchable.
    checked.advance(entry).unwrap();
    let tree = checked.tree();
    let scored = tree.children(NodeId::ROOT).find(|&c| tree.node(c).action == Some(reply));
    assert_eq!(tree.node(scored.unwrap()).kind, NodeKind::Terminal);
    checked.advance(reply).unwrap();
    assert_eq!(checked.tree().len(), 1);
    assert_eq!(checked.forced_action(), Some(win));
    let summary = checked.run(&mut material_evaluator(&mut evaluated), &mut rng);
    assert_eq!(best(&summary.unwrap()), win);
}
