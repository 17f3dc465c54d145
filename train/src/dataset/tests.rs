//! Tests of `dataset`.

use std::collections::BTreeSet;

use games::{Camelot, Game, TriCamelot};
use rand::SeedableRng;

use super::*;
use crate::testutil::{random_rows, scratch_dir, write_generation};

/// A run with generations 0..=5 of Camelot, 3 rows each, every row's `ply` set to its
/// generation (so a sample tells where it came from).
fn six_generations(name: &str) -> (storage::ScratchDir, Vec<PathBuf>) {
    let run = scratch_dir(name);
    let files = (0..6)
        .map(|g| {
            let mut rows = random_rows::<Camelot>(100 + g as u64, 3);
            for r in &mut rows {
                r.ply = g;
            }
            write_generation::<Camelot>(&run, g, rows)
        })
        .collect();
    (run, files)
}

#[test]
fn draw_weights_set_how_often_each_row_is_drawn() {
    let (run, _) = six_generations("draw-weights");
    let mut w =
        ReplayWindow::<Camelot>::load(&run, 2, RuleOptions::default(), ValueTarget::Outcome)
            .unwrap();
    let count = |w: &ReplayWindow<Camelot>, seed| {
        let batch = w.sample_batch(&mut StdRng::seed_from_u64(seed), 6000, false).unwrap();
        let mut counts = [0usize; 6];
        batch.rows.iter().for_each(|&r| counts[r] += 1);
        counts
    };
    // Rows 0 and 5 never (weight 0 at either end), row 2 three times as often as 1 and 3.
    w.set_draw_weights(Some(vec![0.0, 1.0, 3.0, 1.0, 1.0, 0.0])).unwrap();
    let counts = count(&w, 3);
    assert_eq!((counts[0], counts[5]), (0, 0), "{counts:?}");
    let ratio = counts[2] as f64 / (counts[1] + counts[3]) as f64 * 2.0;
    assert!((ratio - 3.0).abs() < 0.3, "{counts:?}");
    assert_eq!(count(&w, 3), counts, "the same seed draws the same rows");
    // Back to uniform: every row, about equally.
    w.set_draw_weights(None).unwrap();
    assert!(count(&w, 3).iter().all(|&c| (850..1150).contains(&c)));

    for bad in [vec![1.0; 5], vec![0.0; 6], vec![1.0, -1.0, 1.0, 1.0, 1.0, 1.0], {
        let mut v = vec![1.0; 6];
        v[4] = f64::NAN;
        v
    }] {
        let e = w.set_draw_weights(Some(bad.clone())).unwrap_err();
        assert!(matches!(e, DatasetError::BadWeights { rows: 6, .. }), "{bad:?}: {e}");
    }
}

#[test]
fn the_window_holds_only_the_newest_generations() {
    let (run, _) = six_generations("window");
    let w = ReplayWindow::<Camelot>::load(&run, 2, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap();
    assert_eq!(w.generations(), [4, 5]);
    assert_eq!(w.len(), 6);
    let mut rng = StdRng::seed_from_u64(1);
    let batch = w.sample_batch(&mut rng, 64, true).unwrap();
    let seen: BTreeSet<u32> = batch.rows.iter().map(|&r| w.source(r).generation).collect();
    assert_eq!(seen, BTreeSet::from([4, 5]));
    let wanted: Vec<String> =
        (4..6).flat_map(|g| random_rows::<Camelot>(100 + g, 3)).map(|r| r.position).collect();
    for &r in &batch.rows {
        assert!(wanted.contains(&w.record(r).position.to_string()));
    }
    // Both mirror images turn up, and the same seed draws the same batch.
    assert_eq!(batch.syms.iter().collect::<BTreeSet<_>>().len(), 2);
    let again = w.sample_batch(&mut StdRng::seed_from_u64(1), 64, true).unwrap();
    assert_eq!(again, batch);
    let other = w.sample_batch(&mut StdRng::seed_from_u64(2), 64, true).unwrap();
    assert_ne!(other.rows, batch.rows);
    // A window wider than the run takes everything.
    let all = ReplayWindow::<Camelot>::load(&run, 10, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap();
    assert_eq!(all.generations(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(all.len(), 18);
}

#[test]
fn a_corrupt_shard_in_the_window_is_an_error_naming_it() {
    let (run, files) = six_generations("corrupt");
    let bytes = std::fs::read(&files[5]).unwrap();
    std::fs::write(&files[5], &bytes[..bytes.len() / 2]).unwrap();
    let e = ReplayWindow::<Camelot>::load(&run, 2, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap_err();
    assert!(e.to_string().contains(&files[5].display().to_string()), "{e}");
    // Outside the window it is not read.
    std::fs::write(&files[5], &bytes).unwrap();
    std::fs::write(&files[1], &bytes[..10]).unwrap();
    ReplayWindow::<Camelot>::load(&run, 2, RuleOptions::default(), ValueTarget::Outcome).unwrap();
}

#[test]
fn empty_runs_and_windows_are_reported() {
    let run = scratch_dir("empty");
    let e = ReplayWindow::<Camelot>::load(&run, 2, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap_err();
    assert!(matches!(e, DatasetError::NoGenerations { .. }), "{e}");
    std::fs::create_dir_all(run.join("games/gen-0000")).unwrap();
    let e = ReplayWindow::<Camelot>::load(&run, 2, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap_err();
    assert!(matches!(e, DatasetError::Empty { first: 0, last: 0, .. }), "{e}");
    assert!(e.to_string().contains("no positions"), "{e}");
}

#[test]
fn a_row_of_another_game_names_file_and_row() {
    let run = scratch_dir("wrong-game");
    let path = write_generation::<TriCamelot>(&run, 0, random_rows::<TriCamelot>(3, 2));
    let w = ReplayWindow::<Camelot>::load(&run, 1, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap();
    let e = w.sample_batch(&mut StdRng::seed_from_u64(0), 4, false).unwrap_err();
    assert!(matches!(e, DatasetError::BadRow { .. }), "{e}");
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
}

#[test]
fn cheap_search_rows_have_no_policy_weight() {
    let run = scratch_dir("weights");
    let mut rows = random_rows::<TriCamelot>(5, 4);
    for (i, r) in rows.iter_mut().enumerate() {
        r.full_search = i % 2 == 0;
    }
    write_generation::<TriCamelot>(&run, 0, rows);
    let w = ReplayWindow::<TriCamelot>::load(&run, 1, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap();
    let batch = w.encode_batch(vec![0, 1, 2, 3], vec![0; 4]).unwrap();
    assert_eq!(batch.policy_weight, [2.0, 0.0, 2.0, 0.0]);
    let a = TriCamelot::NUM_ACTIONS;
    for (i, row) in batch.train_policy.chunks(a).enumerate() {
        let sum: f32 = row.iter().sum();
        let raw: f32 = batch.policy_target[i * a..(i + 1) * a].iter().sum();
        assert!((raw - 1.0).abs() < 1e-4);
        assert!((sum - batch.policy_weight[i]).abs() < 1e-4, "row {i}: {sum}");
    }
    let none = w.encode_batch(vec![1, 3], vec![0; 2]).unwrap();
    assert!(none.train_policy.iter().all(|&p| p == 0.0));
}

#[test]
fn discounted_targets_shrink_wins_towards_the_fair_share_by_distance_to_the_end() {
    let run = scratch_dir("discount");
    let mut rows = random_rows::<Camelot>(11, 5);
    assert_eq!(rows.len(), 5);
    for (i, r) in rows.iter_mut().enumerate() {
        r.move_number = i as u32;
        r.result = vec![1.0, 0.0];
    }
    write_generation::<Camelot>(&run, 0, rows);
    let options = RuleOptions::default();
    let target = ValueTarget::Discounted { per_move: 0.5 };
    let w = ReplayWindow::<Camelot>::load(&run, 1, options, target).unwrap();
    let batch = w.encode_batch((0..5).collect(), vec![0; 5]).unwrap();
    for (i, value) in batch.value_target.chunks(3).enumerate() {
        // The last decision is 1 move from the end, the first 5.
        let weight = 0.5f32.powi(4 - i as i32);
        let winner = (2 - w.record(i).mover as usize) % 2;
        // The rest is spread over both seats' win classes, none reaches the draw class.
        let spread = (1.0 - weight) / 2.0;
        assert!((value[winner] - (weight + spread)).abs() < 1e-6, "row {i}: {value:?}");
        assert!((value[1 - winner] - spread).abs() < 1e-6, "row {i}: {value:?}");
        assert_eq!(value[2], 0.0, "row {i}: {value:?}");
    }
    // The plain outcome is one-hot on the winner, whatever the distance.
    let plain = ReplayWindow::<Camelot>::load(&run, 1, options, ValueTarget::Outcome).unwrap();
    let batch = plain.encode_batch((0..5).collect(), vec![0; 5]).unwrap();
    assert!(batch.value_target.chunks(3).all(|v| v[2] == 0.0 && v[0] + v[1] == 1.0));
}

#[test]
fn the_search_weight_mixes_every_rows_root_values_into_its_value_target() {
    let run = scratch_dir("search-weight");
    let mut rows = random_rows::<Camelot>(12, 4);
    for r in &mut rows {
        r.result = vec![1.0, 0.0];
        r.root_values = vec![0.2, 0.6];
    }
    write_generation::<Camelot>(&run, 0, rows);
    let options = RuleOptions::default();
    let mut w = ReplayWindow::<Camelot>::load(&run, 1, options, ValueTarget::Outcome).unwrap();
    let alone = w.encode_batch((0..4).collect(), vec![0; 4]).unwrap();
    w.set_search_weight(0.5);
    let mixed = w.encode_batch((0..4).collect(), vec![0; 4]).unwrap();
    for (i, (a, m)) in alone.value_target.chunks(3).zip(mixed.value_target.chunks(3)).enumerate() {
        // [mover, other, draw]: half the result, half the root values (the 0.2 they leave
        // of 1 to the draw class).
        let mover = w.record(i).mover as usize;
        let (won, root) = ([1.0, 0.0][mover], [0.2, 0.6][mover]);
        assert_eq!(a, [won, 1.0 - won, 0.0], "row {i}");
        let expected = [0.5 * won + 0.5 * root, 0.5 * (1.0 - won) + 0.5 * (0.8 - root), 0.1];
        assert!(m.iter().zip(expected).all(|(x, y)| (x - y).abs() < 1e-6), "row {i}: {m:?}");
    }
    w.set_search_weight(0.0);
    assert_eq!(w.encode_batch((0..4).collect(), vec![0; 4]).unwrap(), alone);
}

/// A window of two random games of 120 decisions (both game id 1, in generations 0 and 1),
/// their moves numbered as the mover changes (the legs of a capture chain share one), and
/// the games' rows.
fn two_game_window(name: &str) -> (ReplayWindow<Camelot>, Vec<Vec<PositionRow>>) {
    let run = scratch_dir(name);
    let mut games = Vec::new();
    for g in 0..2 {
        let mut rows = random_rows::<Camelot>(40 + u64::from(g), 120);
        let mut number = 0;
        for i in 1..rows.len() {
            number += u32::from(rows[i].mover != rows[i - 1].mover);
            rows[i].move_number = number;
        }
        games.push(rows.clone());
        write_generation::<Camelot>(&run, g, rows);
    }
    let options = RuleOptions::default();
    let w = ReplayWindow::<Camelot>::load(&run, 2, options, ValueTarget::Outcome).unwrap();
    (w, games)
}

#[test]
fn the_moves_left_target_counts_the_moves_to_each_games_end_in_classes_of_five() {
    let (mut w, games) = two_game_window("moves-left-window");
    assert!(w.encode_batch(vec![0], vec![0]).unwrap().as_train_batch().moves_left.is_none());
    w.set_moves_left_target(MovesLeftTarget::Moves { weight: 0.75 });
    let rows: Vec<usize> = (0..w.len()).collect();
    let batch = w.encode_batch(rows.clone(), vec![0; rows.len()]).unwrap();
    assert_eq!(batch.moves_left_weight, 0.75);
    let got: Vec<usize> = batch
        .moves_left_target
        .chunks_exact(MOVES_LEFT_CLASSES)
        .map(|row| {
            assert_eq!(row.iter().sum::<f32>(), 1.0, "one-hot");
            row.iter().position(|&x| x == 1.0).unwrap()
        })
        .collect();
    // By hand: each game's last move is 1 move from the end, classes of 5 moves.
    let mut expected = Vec::new();
    for rows in &games {
        let last = rows.last().unwrap().move_number;
        expected.extend(rows.iter().map(|r| (((last - r.move_number) / 5) as usize).min(23)));
    }
    assert_eq!(got, expected);
    assert_eq!(*got.last().unwrap(), 0);
    assert!(got.iter().any(|&c| c >= 10), "long games reach the far classes: {got:?}");
    w.set_moves_left_target(MovesLeftTarget::Off);
    assert!(w.encode_batch(vec![0], vec![0]).unwrap().as_train_batch().moves_left.is_none());
}
