//! The network's view: layouts, action indices on random states (mid-move ones included), and
//! the symmetries: a mirrored Camelot state encodes to the mirrored planes with mirrored action
//! indices; a rotated Tri-Camelot state (the mover in another seat) encodes identically (the
//! tactical planes included).

use games::testing::{rotated_player, transform_state};
use games::{
    Camelot, CamelotRules, Encode, Encoding, Game, MIRROR, State, TRI_ROTATION, TriCamelot,
    TriCamelotRules, Variant,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Random leg-level states: the states along random playouts, many of them in mid-move.
fn random_states<V: Variant>(games: usize, seed: u64) -> Vec<State<V>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut actions = Vec::new();
    for _ in 0..games {
        let mut s = State::<V>::initial();
        let cap = rng.random_range(0..400);
        for _ in 0..cap {
            s.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            out.push(s.clone());
            s.play(actions[rng.random_range(0..actions.len())]);
        }
        out.push(s);
    }
    out
}

fn check_layout<G: Encode>(encoding: Encoding) {
    let l = G::layout(encoding);
    assert_eq!(l.num_actions(), G::NUM_ACTIONS);
    assert_eq!(l.value_classes, G::NUM_PLAYERS + 1);
    let mut seen = vec![false; l.height * l.width];
    for &g in &l.cells {
        assert!(!std::mem::replace(&mut seen[g as usize], true), "two cells on grid index {g}");
    }
    assert_eq!(G::initial().encode_array(encoding).shape(), &[l.planes, l.height, l.width]);
}

#[test]
fn layouts_match_the_action_space() {
    for e in Encoding::ALL {
        check_layout::<Camelot>(e);
        check_layout::<TriCamelot>(e);
    }
    assert_eq!(Camelot::NUM_ACTIONS, 2561);
    assert_eq!(TriCamelot::NUM_ACTIONS, 877);
}

#[test]
fn hex_neighbours_fit_a_3x3_kernel() {
    let t = TriCamelotRules::tables();
    let g = &t.geometry;
    let l = TriCamelot::layout(Encoding::Basic);
    for c in 0..g.num_cells() as u8 {
        for d in 0..6 {
            let n = g.step(c, d);
            if n == games::NO_CELL {
                continue;
            }
            let (a, b) = (l.cells[c as usize] as i32, l.cells[n as usize] as i32);
            let (dr, dc) = (b / 11 - a / 11, b % 11 - a % 11);
            assert!(dr.abs() <= 1 && dc.abs() <= 1, "{} -> {}", g.name(c), g.name(n));
        }
    }
}

#[test]
fn legal_legs_map_to_distinct_indices_and_back() {
    fn check<G: Game + Encode>(states: &[G]) -> usize {
        let mut actions = Vec::new();
        let mut legs = 0;
        for s in states {
            s.legal_actions(&mut actions);
            let mut seen = std::collections::HashSet::new();
            for &a in &actions {
                let i = s.action_index(a);
                assert!(i < G::NUM_ACTIONS && seen.insert(i), "{s}");
                assert_eq!(s.action_from_index(i), Some(a));
                legs += 1;
            }
        }
        legs
    }
    assert!(check(&random_states::<CamelotRules>(300, 1)) > 500_000);
    assert!(check(&random_states::<TriCamelotRules>(300, 2)) > 100_000);
}

/// Legal action indices of a state.
fn indices<G: Game>(s: &G) -> Vec<usize> {
    let mut actions = Vec::new();
    s.legal_actions(&mut actions);
    actions.iter().map(|&a| s.action_index(a)).collect()
}

/// Whether the two index sets differ only in canter legs: leaps that capture nothing (their
/// middle cell holds a piece of the mover). Those are the legs whose choice among equally short
/// canter paths depends on square-index order (see `games::testing::transform_state`).
fn differ_only_in_canter_legs<G: Game<Action = games::Action> + HasBoard>(
    a: &G,
    a_idx: &[usize],
    b: &G,
    b_idx: &[usize],
) -> bool {
    let only_a = a_idx.iter().filter(|i| !b_idx.contains(i)).map(|&i| (a, i));
    let only_b = b_idx.iter().filter(|i| !a_idx.contains(i)).map(|&i| (b, i));
    only_a.chain(only_b).all(|(s, i)| s.is_canter_leg(s.action_from_index(i).unwrap()))
}

trait HasBoard {
    fn is_canter_leg(&self, a: games::Action) -> bool;
}

impl<V: Variant> HasBoard for State<V> {
    fn is_canter_leg(&self, a: games::Action) -> bool {
        let games::Action::Leg { from, dir, kind: games::LegKind::Leap } = a else { return false };
        let mid = V::tables().geometry.step(from, dir);
        self.board().owner(mid) == Some(self.to_move())
    }
}

/// A symmetry check compared over 10,000 states, and fewer than 1% of them (`tie_breaks`) differ
/// by the canonical canter path's tie-break.
#[track_caller]
fn assert_enough_and_rare_tie_breaks(compared: usize, tie_breaks: usize) {
    assert!(compared > 10_000, "{compared}");
    assert!(
        tie_breaks * 100 < compared,
        "canter tie-breaks must stay rare: {tie_breaks} of {compared}"
    );
}

#[test]
fn mirrored_camelot_state_encodes_to_the_mirrored_planes() {
    let states = random_states::<CamelotRules>(200, 3);
    let mid_move = states.iter().filter(|s| !s.landed().is_empty()).count();
    assert!(mid_move > 100, "the sample must contain moves in progress: {mid_move}");
    let (mut compared, mut tie_breaks) = (0, 0);
    for s in &states {
        let Some(m) = transform_state(s, &MIRROR.cell, &[0, 1, 2]) else {
            tie_breaks += 1;
            continue;
        };
        compared += 1;
        let mut planes = s.encode_array(Encoding::LATEST).into_raw_vec_and_offset().0;
        Camelot::transform_planes(1, &mut planes);
        assert_eq!(m.encode_array(Encoding::LATEST).into_raw_vec_and_offset().0, planes, "{s}");
        let mut expected: Vec<usize> =
            indices(s).iter().map(|&i| Camelot::transform_action(1, i)).collect();
        expected.sort();
        let got = indices(&m);
        if got != expected {
            tie_breaks += 1;
            let back: Vec<usize> =
                indices(&m).iter().map(|&i| Camelot::transform_action(1, i)).collect();
            let mut back_sorted = back.clone();
            back_sorted.sort();
            assert!(differ_only_in_canter_legs(s, &indices(s), s, &back_sorted), "{s} vs {m}");
        }
    }
    assert_enough_and_rare_tie_breaks(compared, tie_breaks);
}

#[test]
fn rotated_tricamelot_state_encodes_identically() {
    let players = [0u8, 1, 2].map(|p| rotated_player(games::Player(p)).0);
    let states = random_states::<TriCamelotRules>(200, 4);
    let seats: std::collections::HashSet<u8> = states.iter().map(|s| s.to_move().0).collect();
    assert_eq!(seats.len(), 3);
    let (mut compared, mut tie_breaks) = (0, 0);
    for s in &states {
        let mut r = s.clone();
        for _ in 0..2 {
            let Some(next) = transform_state(&r, &TRI_ROTATION, &players) else {
                tie_breaks += 1;
                break;
            };
            r = next;
            compared += 1;
            assert_ne!(r.to_move(), s.to_move(), "the mover sits in another seat");
            assert_eq!(
                r.encode_array(Encoding::LATEST),
                s.encode_array(Encoding::LATEST),
                "{s} vs {r}"
            );
            let (a, b) = (indices(s), indices(&r));
            if a != b {
                tie_breaks += 1;
                assert!(differ_only_in_canter_legs(s, &a, &r, &b), "{s} vs {r}");
            }
        }
    }
    assert_enough_and_rare_tie_breaks(compared, tie_breaks);
}

#[test]
fn encoding_marks_the_move_in_progress() {
    let mut g = Camelot::initial();
    g.play(g.parse_action("D7>D5").unwrap());
    assert_eq!(g.landed().len(), 2, "D7-D5 can go on to B7");
    let planes = g.encode_array(Encoding::Tactical);
    let l = Camelot::layout(Encoding::Tactical);
    let frame_cell = |name: &str| {
        let c = CamelotRules::tables().geometry.parse_cell(name).unwrap();
        let gi = l.cells[c as usize] as usize;
        (gi / l.width, gi % l.width)
    };
    let (r, c) = frame_cell("D5");
    assert_eq!(planes[[2 * 2 + 3, r, c]], 1.0, "moving piece plane");
    assert_eq!(planes[[1, r, c]], 1.0, "the moving Knight stands on D5");
    let (r7, c7) = frame_cell("D7");
    assert_eq!(planes[[2 * 2 + 4, r7, c7]], 1.0, "start cell is marked as landed on");
    assert_eq!(planes[[1, r7, c7]], 0.0, "and is empty");
    assert_eq!(planes.index_axis(ndarray::Axis(0), 2 * 2 + 5).sum(), 0.0, "no capture yet");
}

#[test]
fn encodings_have_names_and_versions() {
    for (i, e) in Encoding::ALL.into_iter().enumerate() {
        assert_eq!(e.version() as usize, i + 1);
        assert_eq!(Encoding::from_version(e.version()), Some(e));
        assert_eq!(e.as_str().parse::<Encoding>(), Ok(e));
    }
    assert_eq!(Encoding::from_version(0), None);
    assert_eq!(Encoding::from_version(3), None);
    let e = "fancy".parse::<Encoding>().unwrap_err().to_string();
    assert_eq!(e, "unknown encoding `fancy` (expected basic or tactical)");
    assert_eq!(Encoding::default(), Encoding::Basic, "what checkpoints without a name read");
}

/// The tactical planes come after the basic ones, which they leave as they are.
#[test]
fn the_tactical_encoding_extends_the_basic_one() {
    for s in random_states::<CamelotRules>(20, 5) {
        let basic = s.encode_array(Encoding::Basic);
        let tactical = s.encode_array(Encoding::Tactical);
        let (basic, tactical) = (basic.as_slice().unwrap(), tactical.as_slice().unwrap());
        assert_eq!(&tactical[..basic.len()], basic, "{s}");
    }
}
