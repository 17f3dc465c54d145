//! What survives a kill: a smoke run SIGKILLed at seeded random moments (in self-play, training,
//! the ladder, a checkpoint's or a row's write, wherever the moment falls) and restarted each
//! time ends with exactly the files of an uninterrupted run of the same seed: the games and
//! positions of every generation and of every ladder, `metrics.csv` and `generations.csv` row by
//! row (the figures that depend on wall time aside), every model's weights bit for bit, its
//! counters and its ladder result.
//!
//! CI runs a short version (`CI_KILLS` kills). The long one is ignored; run it with
//! `cargo test --release --test kill_loop -- --ignored` (`KILLS=N` and `KILL_SEED=S` in the
//! environment change the number of kills, 32 by default, and the seed).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use train::testing::{records, timeless_cells};

mod common;

use common::{LONG_GENERATION, Spawned, run_command, scratch, smoke_camelot_with, text};

/// Kills in the CI version.
const CI_KILLS: usize = 6;

/// configs/smoke-camelot.toml with three generations of 24 games, 2 per shard and 2 in flight
/// (many small steps for a kill to land between or inside).
fn smoke_config(dir: &Path) -> PathBuf {
    // At a line's start, so that `window_generations = 2` stays.
    let three = [("\ngenerations = 2", "\ngenerations = 3")];
    smoke_camelot_with(dir, "kill", &[&LONG_GENERATION[..], &three].concat())
}

fn start(cfg: &Path, run_dir: &Path) -> Spawned {
    Spawned::start(run_command(cfg, run_dir).stdout(Stdio::null()).stderr(Stdio::piped()))
}

/// Runs to the end; panics on failure.
fn finish(cfg: &Path, run_dir: &Path) -> Duration {
    let t = Instant::now();
    let out = start(cfg, run_dir).wait_with_output().unwrap();
    assert!(out.status.success(), "run failed: {}", text(&out.stderr));
    t.elapsed()
}

/// Starts and SIGKILLs the run `kills` times at random moments (uniform in
/// `[0, 2 * whole / kills]`, so the kills spread over the whole run); returns how many landed
/// before the run finished on its own.
fn kill_repeatedly(cfg: &Path, run_dir: &Path, kills: usize, whole: Duration, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let most = 2.0 * whole.as_secs_f64() / kills as f64;
    let mut landed = 0;
    while landed < kills {
        let mut child = start(cfg, run_dir);
        let moment = Duration::from_secs_f64(rng.random_range(0.0..most));
        std::thread::sleep(moment);
        if let Some(status) = child.try_wait().unwrap() {
            let stderr = text(&child.wait_with_output().unwrap().stderr);
            assert!(status.success(), "a restart failed: {stderr}");
            break;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        landed += 1;
    }
    landed
}

/// Asserts that the killed run's files equal the uninterrupted run's.
fn assert_same_files(killed: &Path, whole: &Path, generations: u32) {
    for g in 0..generations {
        for folder in [format!("games/gen-{g:04}"), format!("ladder/gen-{:04}", g + 1)] {
            let (a_games, a_positions) = records(&killed.join(&folder));
            let (b_games, b_positions) = records(&whole.join(&folder));
            assert_eq!(a_games.len(), b_games.len(), "{folder}: number of games");
            for (a, b) in a_games.iter().zip(&b_games) {
                assert!(a == b, "{folder}, game {}: {a:?}\nuninterrupted: {b:?}", a.game_id);
            }
            assert_eq!(a_positions.len(), b_positions.len(), "{folder}: number of positions");
            for (a, b) in a_positions.iter().zip(&b_positions) {
                assert!(a == b, "{folder}: {a:?}\nuninterrupted: {b:?}");
            }
        }
    }
    for file in ["metrics.csv", "generations.csv"] {
        let (a, b) = (timeless_cells(&killed.join(file)), timeless_cells(&whole.join(file)));
        assert_eq!(a.len(), b.len(), "{file}: rows");
        for (row, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(x, y, "{file}, row {}", row + 1);
        }
    }
    for g in 0..=generations {
        let model = format!("models/gen-{g:04}");
        let weights = |run: &Path| train::testing::weights(&run.join(&model), "camelot");
        assert!(weights(killed) == weights(whole), "{model} differs");
        // The hash of the tensor values identifies the weights across runs.
        let hash = |run: &Path| {
            let meta = model::checkpoint::read_meta(&run.join(&model)).unwrap();
            meta.tensors_fnv1a64.expect("written by this version")
        };
        assert_eq!(hash(killed), hash(whole), "{model}: tensors hash");
        for file in ["training.toml", "ladder.toml"] {
            let read = |run: &Path| std::fs::read_to_string(run.join(&model).join(file)).ok();
            assert_eq!(read(killed), read(whole), "{model}/{file}");
        }
    }
    assert!(!killed.join("run.lock").exists(), "the lock is released at the end");
}

fn kill_loop(name: &str, kills: usize, seed: u64) {
    let dir = scratch(name);
    let cfg = smoke_config(&dir);
    // Both run directories are named `run`: records carry the run's name.
    let whole = dir.join("whole/run");
    let time = finish(&cfg, &whole);
    let killed = dir.join("killed/run");
    let landed = kill_repeatedly(&cfg, &killed, kills, time, seed);
    finish(&cfg, &killed);
    eprintln!("{landed} kills landed (seed {seed}, uninterrupted run {:.1} s)", time.as_secs_f64());
    assert!(landed >= kills.min(3), "only {landed} kills landed before the run finished");
    assert_same_files(&killed, &whole, 3);
}

#[test]
fn a_run_killed_at_random_moments_ends_with_the_files_of_an_uninterrupted_run() {
    kill_loop("short", CI_KILLS, 1);
}

#[test]
#[ignore = "about a minute: 32 kills (KILLS=N, KILL_SEED=S to change)"]
fn a_run_killed_at_thirty_two_random_moments_ends_with_the_same_files() {
    let env = |k: &str, default: u64| {
        std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
    };
    let kills = env("KILLS", 32) as usize;
    let seed = env("KILL_SEED", 7);
    kill_loop("long", kills, seed);
}
