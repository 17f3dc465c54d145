//! The invariant harness on thousands of random playouts of each variant (see
//! `games::testing::check_position` for the per-position checks), plus the symmetries:
//! Camelot's left-right mirror and Tri-Camelot's 120-degree rotation preserve move counts and
//! results.

use games::testing::{check_position, random_game, random_playout, rotated_player, transform};
use games::{
    CamelotPosition, CamelotRules, Game, KnightCanter, MIRROR, Outcome, Position, RuleOptions,
    State, TRI_ROTATION, TriCamelotPosition, TriCamelotRules, Variant,
};
use rand::SeedableRng;
use rand::rngs::StdRng;

const PLY_CAP: usize = 300;

/// Random games from the start; every position is checked, every 8th one deeply (leg tree).
fn harness<V: Variant>(games: usize, seed: u64, options: RuleOptions) -> (usize, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let start = Position::<V>::start_with(options);
    let (mut positions, mut finished) = (0, 0);
    for g in 0..games {
        let line = random_game(&start, &mut rng, PLY_CAP);
        let last = line.last().unwrap();
        // Games end or hit the ply cap.
        assert!(last.outcome().is_some() || line.len() == PLY_CAP + 1, "game {g} stopped early");
        finished += last.outcome().is_some() as usize;
        for (i, pos) in line.iter().enumerate() {
            check_position(pos, &mut rng, (i + g) % 8 == 0);
            positions += 1;
        }
    }
    (positions, finished)
}

/// [`harness`] with the default options, which must check over 50,000 positions and see over
/// 100 games end by the rules.
fn harness_covers_many_positions_and_endings<V: Variant>(games: usize, seed: u64) {
    let (positions, finished) = harness::<V>(games, seed, RuleOptions::default());
    assert!(positions > 50_000, "{positions}");
    assert!(finished > 100, "some games must end by the rules: {finished}");
}

#[test]
fn camelot_random_playouts_keep_invariants() {
    harness_covers_many_positions_and_endings::<CamelotRules>(1000, 1);
}

#[test]
fn camelot_final_square_playouts_keep_invariants() {
    let options = RuleOptions { knight_canter: KnightCanter::FinalSquare };
    harness::<CamelotRules>(200, 2, options);
}

#[test]
fn tricamelot_random_playouts_keep_invariants() {
    harness_covers_many_positions_and_endings::<TriCamelotRules>(1500, 3);
}

#[test]
fn camelot_mirror_preserves_move_counts_and_results() {
    let mut rng = StdRng::seed_from_u64(4);
    let identity = [0, 1, 2];
    for _ in 0..300 {
        let line = random_game(&CamelotPosition::start(), &mut rng, PLY_CAP);
        for pos in &line {
            let mirrored = transform(pos, &MIRROR.cell, &identity);
            assert_eq!(mirrored.count_moves(), pos.count_moves(), "{pos} vs {mirrored}");
            assert_eq!(mirrored.outcome(), pos.outcome(), "{pos}");
            assert_eq!(transform(&mirrored, &MIRROR.cell, &identity), *pos);
        }
    }
}

#[test]
fn tricamelot_rotation_preserves_move_counts_and_results() {
    let mut rng = StdRng::seed_from_u64(5);
    let players = [0u8, 1, 2].map(|p| rotated_player(games::Player(p)).0);
    assert_eq!(players, [2, 0, 1], "Blue -> Green -> Red -> Blue");
    let start = TriCamelotPosition::start();
    let rotated = transform(&start, &TRI_ROTATION, &players);
    assert_eq!(rotated.board(), start.board(), "the start position is symmetric");
    assert_eq!(rotated.to_move(), games::GREEN);
    for _ in 0..500 {
        let line = random_game(&start, &mut rng, PLY_CAP);
        for pos in &line {
            let r = transform(pos, &TRI_ROTATION, &players);
            assert_eq!(r.count_moves(), pos.count_moves(), "{pos} vs {r}");
            let map = |o: Option<games::GameOver>| {
                o.map(|g| match g.outcome {
                    Outcome::Win(p) => (Some(rotated_player(p)), g.termination),
                    Outcome::Draw => (None, g.termination),
                })
            };
            assert_eq!(
                r.outcome().map(|g| match g.outcome {
                    Outcome::Win(p) => (Some(p), g.termination),
                    Outcome::Draw => (None, g.termination),
                }),
                map(pos.outcome()),
                "{pos}"
            );
            let r3 = transform(&transform(&r, &TRI_ROTATION, &players), &TRI_ROTATION, &players);
            assert_eq!(r3, *pos, "three rotations are the identity");
        }
    }
}

#[test]
fn leg_level_playouts_end_and_agree_with_whole_moves() {
    let mut rng = StdRng::seed_from_u64(6);
    for _ in 0..200 {
        let (state, n) = random_playout(State::<CamelotRules>::initial(), &mut rng, 3000);
        assert!(state.outcome().is_some() || n == 3000);
        let (state, n) = random_playout(State::<TriCamelotRules>::initial(), &mut rng, 3000);
        assert!(state.outcome().is_some() || n == 3000);
        // Position strings of mid-move states round-trip too.
        let text = state.to_string();
        assert_eq!(text.parse::<State<TriCamelotRules>>().unwrap().to_string(), text);
    }
}
