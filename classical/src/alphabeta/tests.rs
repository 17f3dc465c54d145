//! Tests of `alphabeta`.

use super::*;
use crate::heuristic::MAN;
use games::{CamelotPosition, CamelotRules, TriCamelotPosition, TriCamelotRules};

/// White to play F7-F8, a sacrifice that wins a chain of three (the tests below say how).
const SACRIFICE: &str = "camelot W W:KA4,KB4,MD5,ME6,MF7 B:KA13,KL13,MF9,MH8,MI9 cm=0,0";

fn depth(depth: u32) -> AlphaBetaLimits {
    AlphaBetaLimits { depth, time: None }
}

fn best<V: Variant>(pos: &Position<V>, d: u32) -> (String, SearchResult) {
    let r = AlphaBeta::<V>::new(depth(d)).search(pos).expect("a move");
    (pos.notation(&r.best), r)
}

#[test]
fn a_sacrifice_that_forces_a_capture_and_wins_a_chain() {
    // F7-F8 offers a Man: Black must take it (F9xF7, compulsory, and the only capture),
    // which puts the Black Man on F7 where E6 jumps it and goes on over H8 and I9
    // (E6xG8xI8xI10): one Man for three. The quiescence search sees it at depth 1.
    let pos: CamelotPosition = SACRIFICE.parse().unwrap();
    for d in [1, 2, 3] {
        let (m, r) = best(&pos, d);
        assert_eq!(m, "F7-F8", "depth {d}: {r:?}");
        assert!(r.score >= MAN, "depth {d}: wins material, {r:?}");
    }
}

#[test]
fn root_scores_are_each_moves_exact_score() {
    // Every move's score at depth d is the negation of the opponent's best reply searched
    // to depth d - 1 by a fresh searcher (Camelot's score is one side's less the other's):
    // exact, not the bounds that the search's cut-offs leave, and the best is the search's.
    let pos: CamelotPosition = SACRIFICE.parse().unwrap();
    let moves = pos.legal_moves();
    for d in [2, 3] {
        let mut searcher = AlphaBeta::<CamelotRules>::new(depth(d));
        let found = searcher.search(&pos).unwrap();
        let margin = 2 * MAN;
        let scores = searcher.root_scores(&pos, &moves, &found, margin);
        assert_eq!(scores.len(), moves.len());
        assert_eq!(scores.iter().max(), Some(&Some(found.score)), "depth {d}");
        let top = scores.iter().position(|&s| s == Some(found.score)).unwrap();
        assert_eq!(pos.notation(&moves[top]), "F7-F8", "depth {d}");
        for (m, &score) in moves.iter().zip(&scores) {
            let mut child = pos.clone();
            child.play(m);
            let (_, reply) = best(&child, d - 1);
            let exact = -reply.score;
            match score {
                Some(s) => assert_eq!(s, exact, "depth {d}, {}", pos.notation(m)),
                None => assert!(exact < found.score - margin, "depth {d}, {}", pos.notation(m)),
            }
        }
        let known = scores.iter().flatten();
        assert!(known.clone().filter(|&&s| s < found.score).count() > 5, "{scores:?}");
        assert!(known.count() < moves.len(), "some moves are worse than the margin");
    }
}

#[test]
fn castle_entries_in_one_and_in_two_moves() {
    // White already holds G16: F15-F16 fills the castle and wins at once.
    let one: CamelotPosition = "camelot W W:KA4,MF15,MG16 B:KA13,KL13,MB6 cm=0,0".parse().unwrap();
    let (m, r) = best(&one, 1);
    assert_eq!(m, "F15-F16");
    assert_eq!(r.score, WIN - 1);
    // From F14 it takes two moves, and Black (its pieces far away, none able to offer a
    // capture that White would have to take) cannot cover the three squares next to the
    // castle: a win in three plies. Depth 1 does not see it; depth 2 does, the entry at its
    // horizon being searched by the quiescence.
    let two: CamelotPosition = "camelot W W:KA4,MF14,MG16 B:KA13,KL13,ML5 cm=0,0".parse().unwrap();
    let (_, shallow) = best(&two, 1);
    assert!(shallow.score < WIN - 100, "{shallow:?}");
    for d in [2, 3] {
        let (m, r) = best(&two, d);
        assert_eq!(r.score, WIN - 3, "depth {d}, {m}: {r:?}");
        assert!(["E15", "F15", "G15"].iter().any(|c| m.ends_with(c)), "{m}");
    }
    // With a Black Man on B6 the same entry is not a forced win: B6-B5 (or B6-A5) offers a
    // Man that White's Knight must take, and Black gains the time to come back.
    let held: CamelotPosition = "camelot W W:KA4,MF14,MG16 B:KA13,KL13,MB6 cm=0,0".parse().unwrap();
    let (m, r) = best(&held, 3);
    assert!(r.score < WIN - 100, "{m}: {r:?}");
    // Tri-Camelot: Blue one step from Red's castle (A16) takes it.
    let tri: TriCamelotPosition =
        "tricamelot B B:KE4,MB15 R:KC12,MD13 G:KI14,MJ11".parse().unwrap();
    let (m, r) = best(&tri, 3);
    assert_eq!((m.as_str(), r.score), ("B15-A16", WIN - 1));
}

#[test]
fn the_capture_that_stops_a_castle_entry_beats_the_bigger_one() {
    // Black must capture: D8xD6xD4 takes two Men, E15xG15 only one, but it is the Man on
    // F15 that would step into F16 next to White's G16 and win (D15 is Black's, so F15
    // has no jump over E15 to make first). Depth 2 sees that.
    let pos: CamelotPosition =
        "camelot B W:KA4,MD5,MD7,MF15,MG16 B:KL13,KL12,MD8,MD15,ME15 cm=0,0".parse().unwrap();
    let (m, r) = best(&pos, 2);
    assert_eq!(m, "E15xG15", "{r:?}");
    assert!(r.score > -WIN / 2, "{r:?}");
    // The one-ply greedy choice loses at once.
    let greedy = pos.parse_move("D8xD6xD4").unwrap();
    let mut after = pos.clone();
    after.play(&greedy);
    let (reply, r) = best(&after, 1);
    assert_eq!((reply.as_str(), r.score), ("F15-F16", WIN - 1));
}

#[test]
fn the_quiet_score_sees_the_chain_that_the_reply_must_jump() {
    // After F7-F8 the material is even, but Black must take the Man (F9xF7) and White's
    // E6 then jumps three (E6xG8xI8xI10): two Men down for the side to move.
    let pos: CamelotPosition = SACRIFICE.parse().unwrap();
    let offered = State::new(pos.clone()).after_move("F7-F8").unwrap();
    let black = Player(1);
    let h = Heuristic::new::<CamelotRules>();
    let stand = h.score_for(offered.position(), black);
    assert!(stand.abs() < MAN / 2, "{stand}");
    let mut ab = AlphaBeta::<CamelotRules>::new(depth(1));
    let q = ab.quiet_score(&offered, 10_000).unwrap();
    assert!(q <= stand - 3 * MAN / 2, "static {stand}, quiet {q}");
    // Too small a node budget gives no score rather than a wrong one.
    assert_eq!(ab.quiet_score(&offered, 1), None);
    // With White's chain begun (E6xG8), its completion is judged, not the board mid-move.
    let replied = offered.after_move("F9xF7").unwrap();
    let mut jumping = replied.clone();
    jumping.try_play(replied.parse_action("E6>G8").unwrap()).unwrap();
    assert!(!jumping.landed().is_empty(), "the chain goes on");
    let whole = ab.quiet_score(&replied, 10_000).unwrap();
    assert_eq!(ab.quiet_score(&jumping, 10_000), Some(whole));
    assert!(whole >= 3 * MAN / 2, "{whole}");
    // A finished game has no quiet score.
    let over: CamelotPosition = "camelot W W:KA4,MF16,MG16 B:KA13 cm=0,0".parse().unwrap();
    assert_eq!(ab.quiet_score(&State::new(over), 10_000), None);
}

#[test]
fn a_time_limit_still_gives_a_move_and_deeper_search_visits_more() {
    let start = CamelotPosition::start();
    let mut timed = AlphaBeta::<CamelotRules>::new(AlphaBetaLimits {
        depth: MAX_DEPTH,
        time: Some(Duration::from_millis(50)),
    });
    let r = timed.search(&start).unwrap();
    assert!(r.depth >= 1 && r.depth < MAX_DEPTH, "{r:?}");
    let (_, d1) = best(&start, 1);
    let (_, d3) = best(&start, 3);
    assert!(d3.nodes > d1.nodes, "{d1:?} {d3:?}");
    let tri = TriCamelotPosition::start();
    assert!(AlphaBeta::<TriCamelotRules>::new(depth(3)).search(&tri).is_some());
    let over: CamelotPosition = "camelot W W:KA4,MF16,MG16 B:KA13 cm=0,0".parse().unwrap();
    assert!(AlphaBeta::<CamelotRules>::new(depth(2)).search(&over).is_none());
}
