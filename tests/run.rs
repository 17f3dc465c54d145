//! The generation loop end to end with the smoke configs: both variants complete, a run killed
//! in the middle of a generation resumes without losing or duplicating anything, and broken
//! configs or checkpoints stop with a message naming the file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{
    LONG_GENERATION, ScratchDir, Spawned, args, config, games_in, run, run_command, run_loop,
    scratch, smoke_camelot_with, text,
};

/// A smoke run with [`LONG_GENERATION`]s in `scratch(name)`, for tests that interrupt it.
struct LongRun {
    /// Holds the folder until the test ends.
    _dir: ScratchDir,
    run_dir: PathBuf,
    cfg: PathBuf,
}

impl LongRun {
    fn new(name: &str) -> Self {
        let dir = scratch(name);
        let cfg = smoke_camelot_with(&dir, name, &LONG_GENERATION);
        LongRun { run_dir: dir.join("run"), _dir: dir, cfg }
    }

    /// Runs it (also: resumes it) to completion.
    fn run(&self) -> Output {
        run_loop(&self.cfg, &self.run_dir, &[])
    }

    /// Starts the run in the background (stdout discarded, stderr as given) and returns once
    /// `marker`, a path in the run directory, exists (or the run has exited).
    fn start_until(&self, marker: &str, stderr: Stdio) -> Spawned {
        let mut child = Spawned::start(
            run_command(&self.cfg, &self.run_dir).stdout(Stdio::null()).stderr(stderr),
        );
        wait_for(&self.run_dir.join(marker), &mut child);
        child
    }
}

/// Waits (at most 120 s) until `marker` exists or `child` has exited.
fn wait_for(marker: &Path, child: &mut Spawned) {
    let started = Instant::now();
    while !marker.exists() && started.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Game ids per generation, asserting that no id is recorded twice.
fn games_by_generation(run_dir: &Path) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for g in 0.. {
        let dir = run_dir.join("games").join(format!("gen-{g:04}"));
        if !dir.exists() {
            break;
        }
        let mut ids = Vec::new();
        for shard in records::list_shards(&dir).unwrap() {
            let games = records::read_games(&shard.games).unwrap();
            let positions = records::read_positions(&shard.positions).unwrap();
            assert!(!positions.is_empty());
            ids.extend(games.iter().map(|g| g.game_id));
        }
        let unique: BTreeSet<u64> = ids.iter().copied().collect();
        assert_eq!(unique.len(), ids.len(), "a game recorded twice in {}", dir.display());
        ids.sort();
        out.push(ids);
    }
    out
}

fn check_finished(run_dir: &Path, generations: usize, games: u64) {
    let by_gen = games_by_generation(run_dir);
    assert_eq!(by_gen.len(), generations);
    for ids in &by_gen {
        assert_eq!(ids, &(0..games).collect::<Vec<_>>());
    }
    for g in 0..=generations {
        assert!(run_dir.join(format!("models/gen-{g:04}/net.json")).is_file(), "model {g}");
    }
    let rows = std::fs::read_to_string(run_dir.join("generations.csv")).unwrap();
    let gens: Vec<&str> = rows.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(gens, (0..generations).map(|g| g.to_string()).collect::<Vec<_>>());
    let steps = std::fs::read_to_string(run_dir.join("metrics.csv")).unwrap();
    let keys: Vec<(String, String)> = steps
        .lines()
        .skip(1)
        .map(|l| {
            let mut f = l.split(',');
            (f.next().unwrap().to_string(), f.next().unwrap().to_string())
        })
        .collect();
    let unique: BTreeSet<_> = keys.iter().collect();
    assert_eq!(unique.len(), keys.len(), "a training step logged twice");
    assert!(run_dir.join("config.toml").is_file() && run_dir.join("run-info.toml").is_file());
    // The smoke configs have a ladder: every trained model was measured, and its row says so.
    let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for (g, line) in rows.lines().skip(1).enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        let ladder = run_dir.join(format!("models/gen-{:04}/ladder.toml", g + 1));
        let saved = std::fs::read_to_string(&ladder).unwrap();
        assert!(saved.contains(&format!("generation = {}", g + 1)), "{saved}");
        assert_eq!(cells[col("ladder_opponent")], g.to_string(), "without gating: the previous");
        let rating: f64 = cells[col("rating")].parse().unwrap();
        assert!(rating.is_finite());
        let score: f64 = cells[col("score_vs_baseline")].parse().unwrap();
        assert!((0.0..=1.0).contains(&score));
        assert!(run_dir.join(format!("ladder/gen-{:04}/games-000001.parquet", g + 1)).is_file());
    }
}

#[test]
fn smoke_runs_complete_for_both_variants_and_rerunning_only_reports() {
    for (cfg, name) in [("smoke-camelot.toml", "camelot"), ("smoke-tricamelot.toml", "tricamelot")]
    {
        let (dir, cfg) = (scratch(name), config(cfg));
        let o = run_loop(&cfg, &dir, &[]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(text(&o.stdout).contains("gen 1:"), "{}", text(&o.stdout));
        check_finished(&dir, 2, 8);
        let again = run_loop(&cfg, &dir, &[]);
        assert!(again.status.success());
        assert!(
            text(&again.stdout).starts_with(&format!("run {} has 2 generations", dir.display()))
        );
        // Extending the run to 3 generations plays and trains one more.
        let more = run_loop(&cfg, &dir, &["--generations", "3"]);
        assert!(more.status.success(), "{}", text(&more.stderr));
        check_finished(&dir, 3, 8);
    }
}

/// The `model` of every game recorded in generation `g`, in game-id order.
fn players_of(run_dir: &Path, g: u32) -> Vec<String> {
    players_in(&run_dir.join("games").join(format!("gen-{g:04}")))
}

/// The `model` of every game in the shards of `dir`, in game-id order.
fn players_in(dir: &Path) -> Vec<String> {
    games_in(dir).into_iter().map(|g| g.model).collect()
}

#[test]
fn a_teacher_plays_its_share_of_the_first_generations_and_selfplay_plays_the_model() {
    let dir = scratch("teacher");
    // `label = 1.0`: the teacher's targets replace the searches' in their own games.
    let teacher = "teacher = { alpha_beta = { depth = 1, fraction = 1.0, fade_generations = 2, \
                   explore = 0.1, label = 1.0 } }";
    let max_moves = "max_moves = 30               # complete moves before a game is adjudicated";
    let with = format!("{teacher}\n{max_moves}");
    let cfg = smoke_camelot_with(&dir, "teacher", &[(max_moves, &with)]);
    let run_dir = dir.join("run");
    let o = run_loop(&cfg, &run_dir, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    check_finished(&run_dir, 2, 8);
    // Generation 0: all the teacher's; generation 1 (half the share): both players.
    assert_eq!(players_of(&run_dir, 0), vec!["alphabeta:depth=1"; 8]);
    let second = players_of(&run_dir, 1);
    assert!(second.iter().any(|p| p == "alphabeta:depth=1"), "{second:?}");
    assert!(second.iter().any(|p| p == "gen-0001"), "{second:?}");
    // Its rows are ordinary training rows: a third generation trains on them.
    let more = run_loop(&cfg, &run_dir, &["--generations", "3"]);
    assert!(more.status.success(), "{}", text(&more.stderr));
    assert_eq!(players_of(&run_dir, 2), vec!["gen-0002"; 8], "the share is 0 from generation 2");
    // The searches' games are labelled in full: every full-search row at the start of a move
    // targets the teacher's one move (a search of 8 simulations spreads its visits).
    let rows: Vec<records::PositionRow> = records::list_shards(&run_dir.join("games/gen-0002"))
        .unwrap()
        .iter()
        .flat_map(|s| records::read_positions(&s.positions).unwrap())
        .filter(|r| r.full_search && r.policy_actions.len() > 1 && !r.position.contains("move="))
        .collect();
    assert!(rows.len() >= 8, "{} rows", rows.len());
    for r in &rows {
        let mut positive = r.policy_target.iter().filter(|&&p| p > 0.0);
        assert_eq!(positive.next(), Some(&1.0), "{}: {:?}", r.position, r.policy_target);
        assert_eq!(positive.next(), None, "{}: {:?}", r.position, r.policy_target);
    }
    // The `selfplay` command plays the model it is given, whatever the config's teacher.
    let out = dir.join("games");
    let model = run_dir.join("models/gen-0000");
    let o =
        run(&args!["selfplay", "--config", cfg, "--model", model, "--games", "2", "--out", out]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let played = players_in(&out);
    assert_eq!(played.len(), 2);
    assert!(played.iter().all(|m| !m.starts_with("alphabeta")), "{played:?}");
}

#[test]
fn a_killed_run_resumes_without_losing_or_duplicating_shards() {
    // Larger generations than the smoke config so that the kill lands inside one.
    let long = LongRun::new("resume");
    let run_dir = &long.run_dir;
    // Kill it once generation 1 has written its first shard (i.e. in the middle of it).
    let mut child = long.start_until("games/gen-0001/games-000000.parquet", Stdio::null());
    let killed_midway = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(killed_midway, "the run ended before it could be killed mid-generation");
    let partial = games_by_generation(run_dir);
    assert_eq!(partial[0].len(), 24, "generation 0 was complete");
    assert!(partial[1].len() < 24, "generation 1 was interrupted");

    let o = long.run();
    assert!(o.status.success(), "{}", text(&o.stderr));
    check_finished(run_dir, 2, 24);
}

#[test]
fn broken_configs_and_checkpoints_are_named() {
    let dir = scratch("broken");
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\n[mcts]\nsimulatons = 3\n",
    )
    .unwrap();
    let o = run_loop(&bad, dir.join("r"), &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("bad.toml") && err.contains("simulatons"), "{err}");
    let o = run(&args!["run", "--config", dir.join("missing.toml")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("missing.toml"));

    // A corrupt checkpoint in a run directory stops the run, naming the file.
    let (cfg, run_dir) = (config("smoke-camelot.toml"), dir.join("r2"));
    assert!(run_loop(&cfg, &run_dir, &["--generations", "1"]).status.success());
    let weights = run_dir.join("models/gen-0001/weights.bpk");
    let bytes = std::fs::read(&weights).unwrap();
    std::fs::write(&weights, &bytes[..bytes.len() / 2]).unwrap();
    let o = run_loop(&cfg, &run_dir, &["--generations", "2"]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("gen-0001") && err.lines().count() <= 2, "{err}");

    // Another config on an existing run directory is refused, naming the sections that differ.
    let other_play = smoke_camelot_with(
        &dir,
        "other-play",
        &[("[ladder]\n", "[play]\nforced_legs = \"evaluate\"\n\n[ladder]\n")],
    );
    let o = run_loop(&other_play, &run_dir, &[]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("(sections differ: play)"), "{}", text(&o.stderr));
    let o = run_loop(config("smoke-tricamelot.toml"), &run_dir, &[]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("another configuration"), "{}", text(&o.stderr));
}

#[test]
fn train_runs_only_the_training_stage() {
    let dir = scratch("train-only");
    let cfg = config("smoke-tricamelot.toml");
    assert!(run_loop(&cfg, &dir, &["--generations", "1"]).status.success());
    let o = run(&args!["train", "--config", cfg, "--run-dir", dir]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("gen-0002"), "{}", text(&o.stdout));
    assert!(dir.join("models/gen-0002/net.json").is_file());
    assert!(!dir.join("games/gen-0001").exists(), "no self-play");
    let o = run(&["train", "--config", &cfg, "--run-dir", "/nonexistent/run"]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("/nonexistent/run/models"), "{}", text(&o.stderr));
}

#[test]
fn with_gating_self_play_uses_the_newest_promoted_model() {
    let dir = scratch("gating");
    // With 2 ladder games the score against the best is 0, 1/4, 1/2, 3/4 or 1: a threshold of
    // 3/4 promotes some models and not others; the check below holds either way.
    let cfg = smoke_camelot_with(
        &dir,
        "gating",
        &[
            ("generations = 2", "generations = 4"),
            ("gating = \"off\"", "gating = { threshold = { score = 0.75 } }"),
        ],
    );
    let run_dir = dir.join("run");
    let o = run_loop(&cfg, &run_dir, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut best = 0;
    for g in 1..=4u32 {
        let saved = std::fs::read_to_string(run_dir.join(format!("models/gen-{g:04}/ladder.toml")))
            .unwrap();
        let value = |key: &str| -> String {
            saved
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = ")))
                .unwrap_or_else(|| panic!("{key} in {saved}"))
                .to_string()
        };
        assert_eq!(value("opponent"), best.to_string(), "gen {g} plays the best before it");
        let score: f64 = saved
            .split("[vs_opponent]")
            .nth(1)
            .and_then(|t| t.lines().find_map(|l| l.strip_prefix("score = ")))
            .unwrap()
            .parse()
            .unwrap();
        let promoted = value("promoted") == "true";
        assert_eq!(promoted, score >= 0.75, "{saved}");
        if promoted {
            best = g;
        }
        if g < 4 {
            // Generation g's self-play was played by the best model after gen-g's ladder.
            let games = run_dir.join(format!("games/gen-{g:04}"));
            for game in games_in(&games) {
                assert_eq!(game.model, format!("gen-{best:04}"), "generation {g}");
            }
        }
    }
}

#[test]
fn an_interrupt_delivered_twice_at_once_still_stops_at_a_safe_point() {
    // `timeout -s INT` sends SIGINT to the process and to its group: two signals at once must
    // count as one Ctrl-C (finish the games in flight, write them, exit with a message), not as
    // the second press that exits at once.
    let long = LongRun::new("sigint");
    let child = long.start_until("games/gen-0000/games-000000.parquet", Stdio::piped());
    let pid = child.id().to_string();
    for _ in 0..2 {
        let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(sent.success());
    }
    let out = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert_ne!(out.status.code(), Some(130), "exited at once: {err}");
    assert!(err.contains("interrupted during"), "{err}");
    let o = long.run();
    assert!(o.status.success(), "{}", text(&o.stderr));
    check_finished(&long.run_dir, 2, 24);
}
