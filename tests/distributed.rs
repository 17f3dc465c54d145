//! A run shared by a learner and worker processes through a folder (the storage layer's own
//! tests are in `location/`): two workers and a learner finish the smoke configuration's two
//! generations; a worker killed in the middle of a shard loses only that shard; a learner
//! killed and started again resumes; a second learner is refused; a foreign shard is rejected
//! without stopping the learner, and a worker whose shards are refused stops with the learner's
//! reason; a worker with `--surplus wait` plays no more than a generation needs; the games a
//! worker's classical teacher plays are accepted as the model's.
//! `scripts/test_s3.sh` runs the same through `s3://`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use records::{list_shards, read_games, read_positions};

mod common;

use common::{ScratchDir, Spawned, args, bin, run, run_loop, scratch, smoke_camelot_with, text};

/// The [`smoke_camelot_with`] edits making small shards (2 games), so workers upload often.
const SMALL_SHARDS: [(&str, &str); 2] = [
    ("games_per_shard = 4", "games_per_shard = 2"),
    ("games_in_flight = 8", "games_in_flight = 2"),
];

/// configs/smoke-camelot.toml with [`SMALL_SHARDS`].
fn smoke(dir: &Path) -> PathBuf {
    smoke_camelot_with(dir, "smoke", &SMALL_SHARDS)
}

/// [`smoke`] with the CPU configs' kind of classical teacher (`alphabeta:depth=1` here, so that
/// it is quick): half of generation 0's games, a quarter of generation 1's.
fn smoke_with_teacher(dir: &Path) -> PathBuf {
    let max_moves = "max_moves = 30               # complete";
    let teacher = format!(
        "teacher = {{ alpha_beta = {{ depth = 1, fraction = 0.5, fade_generations = 2, \
         explore = 0.1 }} }}\n{max_moves}"
    );
    smoke_camelot_with(dir, "smoke", &[&SMALL_SHARDS[..], &[(max_moves, &teacher)]].concat())
}

/// The learner's command on `run_dir` and `cfg`.
fn learner_command(run_dir: &Path, cfg: &Path) -> Command {
    let mut command = bin();
    command.args(args!["learner", "--run", run_dir, "--config", cfg]);
    command
}

fn learner(run_dir: &Path, cfg: &Path) -> Spawned {
    Spawned::piped(&mut learner_command(run_dir, cfg))
}

/// In the scratch folder `name`, the config `config(dir)` and a learner started on the run folder
/// `dir/run`: (the folder, the config, the run folder, the learner).
fn start_learner(
    name: &str,
    config: fn(&Path) -> PathBuf,
) -> (ScratchDir, PathBuf, PathBuf, Spawned) {
    let dir = scratch(name);
    let cfg = config(&dir);
    let run_dir = dir.join("run");
    let lead = learner(&run_dir, &cfg);
    (dir, cfg, run_dir, lead)
}

fn worker(run_dir: &Path, id: &str, cache: &Path) -> Spawned {
    worker_with(run_dir, id, cache, &[])
}

fn worker_with(run_dir: &Path, id: &str, cache: &Path, options: &[&str]) -> Spawned {
    let cache = cache.join(id);
    let args = args!["worker", "--run", run_dir, "--worker-id", id, "--cache", cache];
    Spawned::piped(bin().args(args).args(options))
}

/// Waits until `path` exists (at most 120 s).
fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < Duration::from_secs(120), "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every worker shard of generation `g`: (worker folder, games in the shard), each whole.
fn worker_shards(run_dir: &Path, g: u32) -> Vec<(String, usize)> {
    let dir = run_dir.join(format!("games/gen-{g:04}"));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("w-") {
            continue;
        }
        for shard in list_shards(&entry.path()).unwrap() {
            let games = read_games(&shard.games).unwrap();
            assert!(!read_positions(&shard.positions).unwrap().is_empty());
            out.push((name.clone(), games.len()));
        }
    }
    out
}

fn rows(run_dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(run_dir.join("generations.csv")).unwrap();
    text.lines().skip(1).map(|l| l.split(',').next().unwrap().to_string()).collect()
}

#[test]
fn a_learner_and_two_workers_finish_a_run_and_a_second_learner_is_refused() {
    let (dir, cfg, run_dir, lead) = start_learner("two-workers", smoke_with_teacher);
    wait_for(&run_dir.join("learner.lease"));
    // A second learner on the same run is refused, naming the first.
    let second = learner_command(&run_dir, &cfg).output().unwrap();
    assert_eq!(second.status.code(), Some(2), "{}", text(&second.stderr));
    assert!(
        text(&second.stderr).contains(&format!("pid {}", lead.id())),
        "{}",
        text(&second.stderr)
    );
    // A shard of another run planted in the run: rejected, and the learner goes on.
    let foreign = dir.join("foreign");
    let out = run_loop(&cfg, &foreign, &["--generations", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let planted = run_dir.join("games/gen-0000/w-evil");
    std::fs::create_dir_all(&planted).unwrap();
    for name in ["positions-000000.parquet", "games-000000.parquet"] {
        std::fs::copy(foreign.join("games/gen-0000").join(name), planted.join(name)).unwrap();
    }
    let workers = [worker(&run_dir, "a", &dir), worker(&run_dir, "b", &dir)];
    let out = lead.finish(300, "the learner");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("rejected shard games/gen-0000/w-evil/games-000000.parquet"),
        "{stderr}"
    );
    assert!(stderr.contains("a game of run \"foreign\""), "{stderr}");
    // Its files are put aside with the learner's notice to its worker.
    let aside = run_dir.join("games/gen-0000/rejected/w-evil");
    assert!(aside.join("games-000000.parquet").exists());
    assert!(aside.join("positions-000000.parquet").exists());
    let notice = std::fs::read_to_string(aside.join("games-000000.parquet.why")).unwrap();
    assert!(notice.contains("a game of run \"foreign\""), "{notice}");
    // Nothing else was rejected: the teacher's games (its share of the workers' sessions) were
    // taken with the model's, and trained on.
    for g in 0..2 {
        let rejected = run_dir.join(format!("games/gen-{g:04}/rejected"));
        let aside: Vec<String> = std::fs::read_dir(&rejected)
            .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        assert!(aside.iter().all(|f| f == "w-evil"), "generation {g}: {aside:?}");
    }
    let players: std::collections::BTreeSet<String> = ["a", "b"]
        .iter()
        .flat_map(|w| list_shards(&run_dir.join(format!("games/gen-0000/w-{w}"))).unwrap())
        .flat_map(|shard| read_games(&shard.games).unwrap())
        .map(|game| game.model)
        .collect();
    assert_eq!(players, ["alphabeta:depth=1".to_string(), "gen-0000".to_string()].into());
    for w in workers {
        let out = w.finish(120, "a worker");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("the run is finished"), "{}", text(&out.stdout));
    }
    assert_eq!(rows(&run_dir), ["0", "1"]);
    for g in 0..2 {
        let shards = worker_shards(&run_dir, g);
        let total: usize = shards.iter().map(|(_, n)| n).sum();
        assert!(total >= 8, "generation {g}: {total} games");
        assert!(shards.iter().all(|(_, n)| *n == 2), "whole shards only: {shards:?}");
        assert!(!shards.iter().any(|(w, _)| w == "w-evil"));
    }
    let by_worker: std::collections::BTreeSet<String> =
        (0..2).flat_map(|g| worker_shards(&run_dir, g)).map(|(w, _)| w).collect();
    assert_eq!(by_worker, ["w-a".to_string(), "w-b".to_string()].into());
    assert!(run_dir.join("models/gen-0002/net.json").exists());
    assert!(!run_dir.join("learner.lease").exists(), "the lease is released");
}

#[test]
fn a_killed_worker_loses_only_its_shard_in_flight_and_a_killed_learner_resumes() {
    let (dir, cfg, run_dir, mut lead) = start_learner("kills", smoke);
    let mut w = worker(&run_dir, "k", &dir);
    // The worker is killed once its first shard is up, in the middle of its second.
    wait_for(&run_dir.join("games/gen-0000/w-k/games-000000.parquet"));
    std::thread::sleep(Duration::from_millis(150));
    w.kill().unwrap();
    w.wait().unwrap();
    for (_, games) in worker_shards(&run_dir, 0) {
        assert_eq!(games, 2, "only whole shards are visible");
    }
    // The learner is killed while it waits (or trains), then started again.
    lead.kill().unwrap();
    lead.wait().unwrap();
    // The worker comes back waiting for the next model once a generation has its games, so
    // the generation after the kills holds exactly its 8 games (4 shards of 2).
    let lead = learner(&run_dir, &cfg);
    let w = worker_with(&run_dir, "k", &dir, &["--surplus", "wait"]);
    let out = lead.finish(300, "the resumed learner");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = w.finish(120, "the worker");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(rows(&run_dir), ["0", "1"]);
    assert_eq!(worker_shards(&run_dir, 1), vec![("w-k".to_string(), 2); 4]);
    // The restarted worker went on numbering its shards after the last whole one.
    let names: Vec<String> = std::fs::read_dir(run_dir.join("games/gen-0000/w-k"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("games-"))
        .collect();
    assert!(names.contains(&"games-000000.parquet".to_string()), "{names:?}");
}

#[test]
fn a_worker_refuses_a_model_whose_weights_are_not_the_pointers() {
    let (dir, _, run_dir, mut lead) = start_learner("weights-hash", smoke);
    let pointer = run_dir.join("models/latest.toml");
    wait_for(&pointer);
    lead.kill().unwrap();
    lead.wait().unwrap();
    let latest = std::fs::read_to_string(&pointer).unwrap();
    let line = latest.lines().find(|l| l.starts_with("tensors_fnv1a64")).unwrap().to_string();
    let forged = latest.replace(&line, "tensors_fnv1a64 = \"0123456789abcdef\"");
    std::fs::write(&pointer, forged).unwrap();
    let out = worker(&run_dir, "h", &dir).finish(60, "the worker");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("models/gen-0000"), "{stderr}");
    assert!(stderr.contains("not the 0123456789abcdef models/latest.toml names"), "{stderr}");
    assert!(!run_dir.join("games/gen-0000/w-h").exists(), "no game played with the wrong weights");
}

#[test]
fn a_worker_whose_shards_the_learner_refuses_stops_with_the_reason_and_resumes_once_put_right() {
    let (dir, _, run_dir, lead) = start_learner("refused", smoke);
    wait_for(&run_dir.join("models/latest.toml"));
    // The run's name changed under the learner (which keeps the one it started with): the
    // worker's games carry the new name, and the learner refuses every shard of them.
    let info_path = run_dir.join("run-info.toml");
    let info = std::fs::read_to_string(&info_path).unwrap();
    let name = info.lines().find(|l| l.starts_with("name = ")).unwrap().to_string();
    std::fs::write(&info_path, info.replace(&name, "name = \"elsewhere\"")).unwrap();
    let out = worker(&run_dir, "r", &dir).finish(120, "the worker");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the learner refused this worker's shard games/gen-0000/w-r/games-0000"),
        "{stderr}"
    );
    assert!(stderr.contains("a game of run \"elsewhere\", not \"run\""), "{stderr}");
    // Both programs are named: the learner's as run-info.toml records it, and the worker's.
    let version = text(&run(&["--version"]).stdout).trim().replace("camelot-zero ", "");
    assert!(version.contains(" ("), "the version names the git revision: {version}");
    assert!(stderr.contains(&format!("{version} by the run's run-info.toml")), "{stderr}");
    assert!(stderr.contains(&format!("against this one's {version}")), "{stderr}");
    assert!(!stderr.contains("the run's learner is"), "the same build: no note\n{stderr}");
    // (Without the notice it would play on until killed: `finish` would fail.)
    let uploaded = std::fs::read_dir(run_dir.join("games/gen-0000/rejected/w-r"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".why"))
        .count();
    assert!(uploaded >= 1, "{uploaded} shards refused");
    // Put right and started again with the same id, the worker numbers its shards after the
    // refused ones (whose files the learner moved aside), so no old notice is taken for a new
    // shard's, and the run finishes. Its run-info.toml now names another build of the program
    // as the learner's: the worker says so and plays on (its games fit the run).
    let version_line = info.lines().find(|l| l.starts_with("version = ")).unwrap();
    std::fs::write(&info_path, info.replace(version_line, "version = \"0.0.1\"")).unwrap();
    let folder = run_dir.join("games/gen-0000/w-r");
    let started = Instant::now();
    while std::fs::read_dir(&folder).unwrap().next().is_some() {
        assert!(started.elapsed() < Duration::from_secs(60), "the learner left shards of w-r");
        std::thread::sleep(Duration::from_millis(20));
    }
    let w = worker(&run_dir, "r", &dir);
    let out = lead.finish(300, "the learner");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = w.finish(120, "the worker started again");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let revision = version.split(" (").nth(1).unwrap().trim_end_matches(')');
    let note = format!("the run's learner is camelot-zero 0.0.1 ({revision}) (run-info.toml)");
    assert!(stderr.contains(&note), "{stderr}");
    assert_eq!(rows(&run_dir), ["0", "1"]);
}
