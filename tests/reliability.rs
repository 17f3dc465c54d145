//! Regression tests of the reliability defects of issue 15, one per defect, named after it
//! (`d<N>_...`). The defects the library tests cover (rows of `generations.csv` after a kill,
//! a resumed generation's figures, the weights hash, foreign rows in `metrics.csv`, zero-byte
//! shards in the listing) are in `train/tests/generation_loop.rs`, `model`, `train::metrics`
//! and `records`; the random-kill loop is `tests/kill_loop.rs`.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod common;

use common::{
    Spawned, args, bin, config, run, run_command, run_loop, scratch, smoke_camelot_with, text,
    with_input,
};

const CAMELOT_START: &str = "camelot W W:KC6,KD7,KI7,KJ6,MD6,ME6,ME7,MF6,MF7,MG6,MG7,MH6,MH7,MI6 B:KC11,KD10,KI10,KJ11,MD11,ME10,ME11,MF10,MF11,MG10,MG11,MH10,MH11,MI11 cm=0,0";

/// A finished smoke run of Camelot, made once for the tests that read one. Under Cargo's
/// scratch folder for integration tests rather than [`scratch`]'s guard: a static is never
/// dropped, so the next test run replaces it instead.
fn smoke_run() -> &'static Path {
    static RUN: OnceLock<PathBuf> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("reliability-smoke/run");
        let _ = std::fs::remove_dir_all(&dir);
        let out = run_loop(config("smoke-camelot.toml"), &dir, &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        dir
    })
}

/// The lines of standard error that report an error.
fn error_lines(o: &Output) -> Vec<String> {
    text(&o.stderr).lines().filter(|l| l.starts_with("error")).map(String::from).collect()
}

/// Asserts exit status 2 and one error line in which no part is said twice in a row.
fn assert_bad_input(o: &Output, what: &str) -> String {
    assert_eq!(o.status.code(), Some(2), "{what}: {}", text(&o.stderr));
    let lines = error_lines(o);
    assert_eq!(lines.len(), 1, "{what}: {lines:?}");
    let parts: Vec<&str> = lines[0].split(": ").collect();
    for pair in parts.windows(2) {
        assert!(!pair[1].starts_with(pair[0]), "{what}: `{}` said twice: {}", pair[0], lines[0]);
    }
    lines[0].clone()
}

#[test]
fn d3_selfplay_refuses_a_folder_of_another_variant_or_run() {
    let dir = scratch("d3");
    let games = smoke_run().join("games/gen-0000");
    let copy = dir.join("gen-0000");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(&games).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
    }
    let before = std::fs::read_dir(&copy).unwrap().count();
    let out = uniform_selfplay(&config("smoke-tricamelot.toml"), 10, &copy);
    let line = assert_bad_input(&out, "tricamelot into a camelot folder");
    assert!(line.contains("camelot games of run") && line.contains("tricamelot"), "{line}");
    assert_eq!(std::fs::read_dir(&copy).unwrap().count(), before, "nothing was written");
}

#[test]
fn d4_a_closed_pipe_ends_a_command_quietly() {
    for args in [
        vec!["moves", "start", "--variant", "camelot"],
        vec!["show", "start", "--variant", "camelot"],
        vec!["perft", "start", "2", "--variant", "camelot", "--divide"],
        vec!["analyze", "start", "--variant", "camelot", "--sims", "8", "--top", "50"],
        vec!["stats", "openings", "--games", smoke_run().to_str().unwrap(), "--depth", "3"],
    ] {
        let mut child =
            bin().args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        // Close the reading end at once, as `| head -0` does.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{stderr}");
    }
}

/// `selfplay --uniform` of `games` games with `cfg` into `out`.
fn uniform_selfplay(cfg: &str, games: u32, out: &Path) -> Output {
    run(&args![
        "selfplay",
        "--config",
        cfg,
        "--uniform",
        "--games",
        games.to_string(),
        "--out",
        out
    ])
}

fn play(args: &[&str], input: &[u8]) -> Output {
    with_input(bin().arg("play").args(args), input)
}

#[test]
fn d5_play_goes_on_after_a_failed_save_or_a_line_that_is_not_text() {
    let dir = scratch("d5");
    let saved = dir.join("g.txt");
    let mut input = b"save /nonexistent/dir/g.txt\n".to_vec();
    input.extend([0xff, 0xfe, b'\n']); // not UTF-8
    input.extend(b"C6-B5\n");
    input.extend(format!("save {}\nquit\n", saved.display()).as_bytes());
    let out = play(&["start", "--variant", "camelot", "--sims", "2"], &input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("could not save"), "{stdout}");
    assert!(stdout.contains("not UTF-8"), "{stdout}");
    assert!(stdout.contains("Black plays"), "the game went on: {stdout}");
    let file = std::fs::read_to_string(&saved).unwrap();
    let game: games::SavedGame = file.parse().unwrap();
    assert_eq!(game.moves.first().map(String::as_str), Some("C6-B5"), "{file}");
}

#[test]
fn d6_one_number_cannot_ask_for_unbounded_work() {
    let t = Instant::now();
    for depth in ["13", "300", "10000"] {
        let out = run(&["perft", "start", depth, "--variant", "camelot"]);
        let line = assert_bad_input(&out, depth);
        assert!(line.contains("at most") || line.contains("more than 12"), "{line}");
    }
    let dir = scratch("d6");
    let games = ("games_per_generation = 8", "games_per_generation = 1000000000");
    let path = smoke_camelot_with(&dir, "huge", &[games]);
    let out = run_loop(&path, dir.join("r"), &[]);
    let line = assert_bad_input(&out, "games_per_generation");
    assert!(line.contains("run.games_per_generation") && line.contains("at most"), "{line}");
    let selfplay = ["selfplay", "--uniform", "--out", "/tmp/unused"];
    for command in [&selfplay[..], &["arena", "--a", "random", "--b", "random"]] {
        let huge = args!["--games", "1000000000", "--config", path];
        let out = bin().args(command).args(huge).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}: {}", command[0], text(&out.stderr));
    }
    // The two inputs #72 found: a batch of 10^8 grew to 24 GB before the kernel killed it, and a
    // deep alpha-beta searched for ever.
    let batch = ("batch_size = 32", "batch_size = 100000000");
    let huge_batch = smoke_camelot_with(&dir, "batch", &[batch]);
    let out = run_loop(&huge_batch, dir.join("b"), &[]);
    let line = assert_bad_input(&out, "train.batch_size");
    assert!(line.contains("train.batch_size: must be from 1 to 8192"), "{line}");
    for args in [
        vec!["rate", "alphabeta:depth=99", "--variant", "camelot"],
        vec!["arena", "--a", "alphabeta:depth=40", "--b", "random", "--games", "2"],
    ] {
        let out = run(&args);
        let line = assert_bad_input(&out, "depth=");
        assert!(line.contains("depth=") && line.contains("at most 8"), "{args:?}: {line}");
    }
    let out = run_loop("/dev/zero", dir.join("z"), &[]);
    let line = assert_bad_input(&out, "/dev/zero");
    assert!(line.contains("longer than"), "{line}");
    assert!(t.elapsed() < Duration::from_secs(60), "the refusals are immediate");
}

#[test]
fn d7_a_corrupt_checkpoint_or_shard_is_exit_2_and_one_line_in_every_command() {
    let dir = scratch("d7");
    let cfg = config("smoke-camelot.toml");
    // A truncated newest checkpoint: run, train, analyze.
    let broken = dir.join("ckpt/run");
    copy_dir(smoke_run(), &broken);
    let weights = broken.join("models/gen-0002/weights.bpk");
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..100]).unwrap();
    let run_dir = broken.to_str().unwrap();
    let model = broken.join("models/gen-0002");
    for args in [
        vec!["run", "--config", &cfg, "--run-dir", run_dir, "--generations", "3"],
        vec!["train", "--config", &cfg, "--run-dir", run_dir],
        vec!["analyze", "start", "--variant", "camelot", "--model", model.to_str().unwrap()],
    ] {
        let line = assert_bad_input(&run(&args), args[0]);
        assert_eq!(line.matches("weights.bpk").count(), 1, "{line}");
    }
    // A corrupt games shard: run (which replays generation 1) and stats.
    let shard = dir.join("shard/run");
    copy_dir(smoke_run(), &shard);
    std::fs::remove_dir_all(shard.join("models/gen-0002")).unwrap();
    let games = shard.join("games/gen-0001/games-000000.parquet");
    let bytes = std::fs::read(&games).unwrap();
    std::fs::write(&games, &bytes[..200]).unwrap();
    let shard_s = shard.to_str().unwrap();
    for args in [
        vec!["run", "--config", &cfg, "--run-dir", shard_s],
        vec!["stats", "summary", "--games", shard_s],
    ] {
        let line = assert_bad_input(&run(&args), args[0]);
        assert!(line.contains("games-000000.parquet"), "{line}");
    }
}

/// The smoke run's start position with White's first leg of D7-D5-B7 played.
fn mid_move() -> String {
    format!("{CAMELOT_START} move=D7-D5")
}

#[test]
fn d8_a_position_with_a_move_in_progress_parses_everywhere() {
    let pos = mid_move();
    let out = run(&["moves", &pos]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "D7-D5\nD7-D5-B7\n");
    let out = run(&["perft", &pos, "1"]);
    assert_eq!(text(&out.stdout).trim(), "2", "{}", text(&out.stderr));
    let out = run(&["perft", &pos, "2"]);
    assert_eq!(text(&out.stdout).trim(), "200", "{}", text(&out.stderr));
    let out = run(&["show", &pos]);
    assert!(text(&out.stdout).contains("move in progress D7-D5 (2 legal continuations)"));
    let out = run(&["analyze", &pos, "--sims", "4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Playing from it: White's move must continue D7-D5.
    let out = play(&[&pos, "--sims", "2"], b"C6-B5\nD7-D5-B7\nquit\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("does not continue the move in progress `D7-D5`"), "{stdout}");
    assert!(stdout.contains("Black plays"), "{stdout}");
    // And the engine finishes a move in progress.
    let out = play(&[&pos, "--sims", "2", "--seat", "B"], b"quit\n");
    assert!(text(&out.stdout).contains("White plays D7-D5"), "{}", text(&out.stdout));
}

#[cfg(unix)]
#[test]
fn d9_temporary_files_never_follow_a_planted_link() {
    use std::os::unix::fs::symlink;
    let dir = scratch("d9");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    // Links at the temporary names of today and of earlier versions.
    let plant = |target: &Path| {
        let name = target.file_name().unwrap().to_str().unwrap();
        for tmp in [format!("{name}.tmp"), format!(".{name}.tmp")] {
            let link = target.with_file_name(tmp);
            let _ = std::fs::remove_file(&link);
            symlink(&victim, &link).unwrap();
        }
    };
    let rep = dir.join("rep");
    std::fs::create_dir_all(&rep).unwrap();
    plant(&rep.join("index.html"));
    plant(&rep.join("losses.svg"));
    let out = run(&args!["report", "--run", smoke_run(), "--out", rep]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let onnx = dir.join("x.onnx");
    plant(&onnx);
    plant(&dir.join("x.onnx.json"));
    let model = smoke_run().join("models/gen-0002");
    let out = run(&args!["export", "--model", model, "--format", "onnx", "--out", onnx]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    plant(&games.join("games-000000.parquet"));
    plant(&games.join("positions-000000.parquet"));
    let out = uniform_selfplay(&config("smoke-camelot.toml"), 2, &games);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    for file in [rep.join("index.html"), onnx, games.join("games-000000.parquet")] {
        let meta = std::fs::symlink_metadata(&file).unwrap();
        assert!(meta.is_file(), "{} is a regular file", file.display());
    }
}

#[test]
fn d10_a_run_refuses_a_non_empty_directory_that_is_not_a_run_directory() {
    let dir = scratch("d10");
    std::fs::create_dir_all(dir.join("photos")).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let cfg = config("smoke-camelot.toml");
    let out = run_loop(&cfg, &dir, &[]);
    let line = assert_bad_input(&out, "a foreign directory");
    assert!(line.contains("not a run directory") && line.contains("--any-dir"), "{line}");
    assert!(!dir.join("config.toml").exists() && !dir.join("models").exists());
    let out = run_loop(&cfg, "/", &[]);
    assert_bad_input(&out, "/");
    // With the flag it is used; an empty or new directory never needs it.
    let out = run_loop(&cfg, &dir, &["--any-dir", "--generations", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn d11_an_arena_without_out_leaves_no_records_behind() {
    let before = arena_dirs();
    let out =
        run(&["arena", "--a", "random", "--b", "greedy", "--games", "2", "--max-moves", "20"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("games not kept"), "{}", text(&out.stdout));
    assert_eq!(arena_dirs(), before, "no camelot-zero-arena-* folder was left in the temp dir");
}

fn arena_dirs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("camelot-zero-arena-"))
        .collect();
    names.sort();
    names
}

#[test]
fn d13_a_zero_byte_games_file_follows_one_rule_everywhere() {
    let dir = scratch("d13");
    let copy = dir.join("run");
    copy_dir(smoke_run(), &copy);
    std::fs::remove_dir_all(copy.join("models/gen-0002")).unwrap();
    std::fs::write(copy.join("games/gen-0001/games-000000.parquet"), b"").unwrap();
    // Statistics leave it out, as training does...
    let summary = || run(&args!["stats", "summary", "--games", copy, "--format", "csv"]);
    let out = summary();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let gen1: Vec<String> =
        text(&out.stdout).lines().filter(|l| l.starts_with("1,all,")).map(String::from).collect();
    assert_eq!(gen1.len(), 1);
    assert!(gen1[0].starts_with("1,all,4,"), "4 of generation 1's 8 games left: {}", gen1[0]);
    // ...and the run plays its games again.
    let out = run_loop(config("smoke-camelot.toml"), &copy, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = summary();
    assert!(text(&out.stdout).lines().any(|l| l.starts_with("1,all,8,")), "{}", text(&out.stdout));
}

#[test]
fn d15_a_second_run_on_the_same_directory_is_refused_and_a_stale_lock_taken_over() {
    let dir = scratch("d15");
    let long = [
        ("games_per_generation = 8", "games_per_generation = 400"),
        ("games_in_flight = 8", "games_in_flight = 2"),
    ];
    let cfg = smoke_camelot_with(&dir, "long", &long);
    let run_dir = dir.join("run");
    let mut first =
        Spawned::start(run_command(&cfg, &run_dir).stdout(Stdio::null()).stderr(Stdio::null()));
    let lock = run_dir.join("run.lock");
    let t = Instant::now();
    while !lock.exists() && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = run_loop(&cfg, &run_dir, &[]);
    let line = assert_bad_input(&second, "a second run");
    assert!(line.contains(&format!("pid {}", first.id())), "names the holder: {line}");
    first.kill().unwrap(); // SIGKILL: the lock stays behind
    first.wait().unwrap();
    assert!(lock.exists());
    // The lock of the killed run is taken over (stopped again at once with --generations 0).
    let out = run_loop(&cfg, &run_dir, &["--generations", "0"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!lock.exists(), "released at the end");
}

#[test]
fn d16_perft_zero_is_one_everywhere() {
    let out = run(&["perft", "start", "0", "--variant", "camelot"]);
    assert_eq!(text(&out.stdout), "1\n");
    assert!(text(&out.stderr).contains("perft(0) = 1"), "{}", text(&out.stderr));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
