//! The command line as a user meets it: output formats, exit codes and error messages.

mod common;

use common::{args, bin, run, run_loop, scratch, stderr, stdout, with_input};
use std::ffi::OsStr;
use std::path::Path;
use std::process::Output;

const CAMELOT_START: &str = "camelot W W:KC6,KD7,KI7,KJ6,MD6,ME6,ME7,MF6,MF7,MG6,MG7,MH6,MH7,MI6 B:KC11,KD10,KI10,KJ11,MD11,ME10,ME11,MF10,MF11,MG10,MG11,MH10,MH11,MI11 cm=0,0";

#[test]
fn moves_prints_one_legal_move_per_line() {
    let o = run(&["moves", "start", "--variant", "camelot"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 100);
    for m in ["C6-B5", "D7-D5-B7", "F7-H5-J7-J5", "J6-H8"] {
        assert!(lines.iter().any(|l| l == m), "{m} missing");
    }
    let same = run(&["moves", CAMELOT_START]);
    assert_eq!(stdout(&same), stdout(&o), "`start` is the start position string");
    let tri = run(&["moves", "start", "--variant", "tricamelot"]);
    assert_eq!(stdout(&tri).lines().count(), 36);
}

#[test]
fn perft_prints_the_total_on_its_last_line() {
    let o = run(&["perft", "start", "3", "--variant", "tricamelot"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("46656"));
    let o = run(&["perft", "start", "2", "--variant", "camelot", "--divide"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 101);
    assert_eq!(lines[100], "10036");
    let sum: u64 =
        lines[..100].iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 10036);
    let o =
        run(&["perft", "start", "3", "--variant", "camelot", "--knight-canter", "final-square"]);
    assert_eq!(stdout(&o).lines().last(), Some("1072516"));
}

#[test]
fn show_draws_both_boards() {
    let o = run(&["show", "start", "--variant", "camelot"]);
    let out = stdout(&o);
    assert!(out.contains("White to move"), "{out}");
    assert!(out.contains("Castle moves used: White 0/2, Black 0/2"));
    assert!(out.lines().any(|l| l.trim_start().starts_with("16") && l.contains('#')));
    let o = run(&["show", "start", "--variant", "tricamelot"]);
    let out = stdout(&o);
    assert!(out.contains("Blue to move, 36 legal moves"), "{out}");
    // Staggered: rank 5 has BM at D5, BK at F5, BM at H5; rank 4 Knights at E4 and G4 sit between.
    let col = |rank: &str, text: &str| {
        let line = out.lines().find(|l| l.trim_start().starts_with(rank)).unwrap().to_string();
        line.find(text).unwrap()
    };
    assert!(col("5 ", "BM") < col("4 ", "BK") && col("4 ", "BK") < col("5 ", "BK"));
    let o = run(&["show", "tricamelot R B:KE4 R:KB13 G:"]);
    assert!(stdout(&o).contains("Red to move"));
}

#[test]
fn malformed_input_exits_2_with_one_line() {
    for args in [
        vec!["moves", "camelot W W:KZ9 B:KC11"],
        vec!["moves", "chess W"],
        vec!["moves", "start"],
        vec!["perft", "camelot W W:KC6,KC6 B:KC11", "1"],
        vec!["show", "tricamelot B B:KE4 R:KB13"],
        vec!["show", "camelot W W:KC6 B:KC11 cm=3,0"],
        vec!["moves", CAMELOT_START, "--variant", "tricamelot"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
    // Command-line syntax errors come from clap: also status 2, the problem on the first line.
    let o = run(&["moves", "start", "--variant", "tricamelot", "--knight-canter", "sometimes"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).lines().next().unwrap().contains("invalid value 'sometimes'"));
    let o = run(&["moves", "camelot W W:KZ9 B:KC11"]);
    assert_eq!(stderr(&o).trim_end(), "error: bad position: unknown square `Z9`");
}

fn read_games(dir: &std::path::Path) -> Vec<records::GameRecord> {
    let mut all = common::games_in(dir);
    // The run name comes from the folder; everything else must match between folders.
    for g in &mut all {
        g.run.clear();
    }
    all
}

#[test]
fn selfplay_writes_reproducible_shards_and_resumes() {
    let tmp = scratch("selfplay");
    let config = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/smoke-camelot.toml"));
    let play_with = |config: &Path, dir: &str, games: &str, source: &[&OsStr]| {
        let out = tmp.join(dir);
        let o = bin()
            .args(args!["selfplay", "--config", config])
            .args(source)
            .args(args!["--games", games, "--out", out])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        (out, stdout(&o))
    };
    let play = |dir: &str, games: &str, source: &str| play_with(config, dir, games, &args![source]);
    let (a, summary) = play("a", "6", "--random");
    assert!(summary.starts_with("6 games in"), "{summary}");
    let (b, _) = play("b", "6", "--random");
    let games_a = read_games(&a);
    assert_eq!(games_a.len(), 6);
    assert_eq!(games_a, read_games(&b), "the same seed gives the same games");
    // An interrupted session (here: fewer games asked) continues where it stopped.
    play("c", "3", "--random");
    let (c, summary) = play("c", "6", "--random");
    assert!(summary.starts_with("3 games in"), "only the missing games are played: {summary}");
    assert_eq!(read_games(&c), games_a);
    // A config whose network grows: --random is its generation 0 (one block, not the preset's
    // four), the very network a run of it starts from.
    let growing = common::smoke_camelot_with(
        &tmp,
        "growing",
        &[(
            "preset = \"b4c32\"",
            "growth = { blocks = { start = 1, every_generations = 1 } }\npreset = \"b4c32\"",
        )],
    );
    let (grown, _) = play_with(&growing, "grown", "6", &args!["--random"]);
    let run_dir = tmp.join("growing-run");
    let o = run_loop(&growing, &run_dir, &["--generations", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let gen0 = run_dir.join("models/gen-0000");
    let (first, _) = play_with(&growing, "first", "6", &args!["--model", gen0]);
    let without_model = |dir: &Path| {
        let mut games = read_games(dir);
        games.iter_mut().for_each(|g| g.model.clear());
        games
    };
    assert_eq!(without_model(&grown), without_model(&first), "--random is the run's gen-0000");
    assert_ne!(without_model(&grown), without_model(&a), "one block is not the preset's four");
    let (u, _) = play("u", "2", "--uniform");
    assert!(read_games(&u).iter().all(|g| g.model == "uniform"));
    // A missing checkpoint is a one-line error naming it.
    let missing = "/nonexistent/gen-0001";
    let out = tmp.join("x");
    let o = run(&args![
        "selfplay", "--config", config, "--model", missing, "--games", "1", "--out", out
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(missing), "{}", stderr(&o));
}

/// Two games of `selfplay --uniform` (uniform priors and draw values, so that any difference
/// between two folders' games comes from the key) on the smoke config with one more
/// `[selfplay]` line `key`, into `tmp/name`: the command's output.
fn selfplay_with(tmp: &Path, name: &str, key: &str) -> Output {
    let section = format!("[selfplay]\n{key}\n");
    let config = common::smoke_camelot_with(tmp, name, &[("[selfplay]\n", &section)]);
    run(&args![
        "selfplay",
        "--config",
        config,
        "--uniform",
        "--games",
        "2",
        "--out",
        tmp.join(name)
    ])
}

/// [`selfplay_with`], which must succeed: the games it played.
fn played_with(tmp: &Path, name: &str, key: &str) -> Vec<records::GameRecord> {
    let o = selfplay_with(tmp, name, key);
    assert!(o.status.success(), "{key}: {}", stderr(&o));
    read_games(&tmp.join(name))
}

/// [`selfplay_with`], which must be refused as bad input: its standard error.
fn refused_with(tmp: &Path, name: &str, key: &str) -> String {
    let o = selfplay_with(tmp, name, key);
    assert_eq!(o.status.code(), Some(2), "{key}: {}", stderr(&o));
    stderr(&o)
}

#[test]
fn selfplay_mixes_the_heuristic_into_its_searches_when_configured() {
    let tmp = scratch("leaf-heuristic");
    let off = played_with(&tmp, "off", "leaf_heuristic = \"off\"");
    let mix = "leaf_heuristic = { mix = { weight = 1.0, fade_generations = 5 } }";
    let mixed = played_with(&tmp, "mix", mix);
    let judged =
        "leaf_heuristic = { mix = { weight = 1.0, fade_generations = 5, judge = \"quiescence\" } }";
    let quiet = played_with(&tmp, "quiet", judged);
    assert_eq!((off.len(), mixed.len(), quiet.len()), (2, 2, 2));
    assert_ne!(off, mixed, "the heuristic's values change the searches' moves");
    assert_ne!(mixed, quiet, "judging leaves after their captures changes them again");
    // An out-of-range weight is bad input naming the key.
    let weight = "leaf_heuristic = { mix = { weight = 2.0, fade_generations = 5 } }";
    let err = refused_with(&tmp, "bad", weight);
    assert!(err.contains("leaf_heuristic.mix.weight"), "{err}");
    let unknown =
        "leaf_heuristic = { mix = { weight = 0.5, fade_generations = 5, judge = \"deep\" } }";
    let err = refused_with(&tmp, "unknown", unknown);
    assert!(err.contains("deep"), "{err}");
}

#[test]
fn selfplay_filters_its_searches_roots_when_configured() {
    let tmp = scratch("root-filter");
    let off = played_with(&tmp, "off", "root_filter = \"off\"");
    let on = played_with(&tmp, "on", "root_filter = { alpha_beta = { depth = 1, margin = 100 } }");
    assert_eq!((off.len(), on.len()), (2, 2));
    assert_ne!(off, on, "uniform priors walk into captures that the filter keeps them from");
    let depth = "root_filter = { alpha_beta = { depth = 0, margin = 100 } }";
    let err = refused_with(&tmp, "bad", depth);
    assert!(err.contains("selfplay.root_filter.alpha_beta.depth"), "{err}");
}

#[test]
fn analyze_prints_the_search_and_the_raw_network_output() {
    let o = run(&["analyze", "start", "--variant", "camelot", "--sims", "50", "--top", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("White to move") && out.contains("principal variation: "), "{out}");
    let table: Vec<&str> =
        out.lines().skip_while(|l| !l.starts_with("action")).skip(1).take(3).collect();
    let visits: u32 =
        table.iter().map(|l| l.split_whitespace().nth(1).unwrap().parse::<u32>().unwrap()).sum();
    assert!(visits > 0 && visits <= 50, "{out}");
    let o = run(&["analyze", "start", "--variant", "tricamelot", "--raw"]);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1 + 36, "a values line and one line per legal leg: {out}");
    let total: f64 =
        out.lines().skip(1).map(|l| l.split(' ').nth(2).unwrap().parse::<f64>().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-3);
    let o = run(&["analyze", "start", "--variant", "camelot", "--model", "/nonexistent/gen-0001"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn play_takes_moves_rejects_illegal_ones_undoes_and_saves() {
    let dir = scratch("play");
    let saved = dir.join("game.txt");
    let script = format!("C6-C4\nC6-B5\nundo\nD7-D5-B7\nsave {}\nquit\n", saved.display());
    let play = ["play", "start", "--variant", "camelot", "--sims", "8"];
    let o = with_input(bin().args(play), script.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("illegal move `C6-C4`") && out.contains("legal moves: C6-B5"), "{out}");
    assert!(out.contains("Black plays "), "{out}");
    let text = std::fs::read_to_string(&saved).unwrap();
    let game: games::SavedGame = text.parse().unwrap();
    assert_eq!(game.start, CAMELOT_START);
    assert_eq!(game.result, None, "{text}");
    assert_eq!(game.moves[0], "D7-D5-B7", "C6-B5 and its reply were undone: {text}");
    assert_eq!(game.moves.len(), 2, "D7-D5-B7 and Black's reply: {text}");
    assert!(text.starts_with("[Game \"camelot\"]\n"), "{text}");

    // `replay` lists the saved moves by seat and draws the board after one of them.
    let o = run(&["replay", saved.to_str().unwrap(), "--move", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("   1. White D7-D5-B7\n"), "{out}");
    assert!(out.contains(&format!("   2. Black {}", game.moves[1])), "{out}");
    assert!(out.contains("after move 1 of 2:") && out.contains("Black to move"), "{out}");
    let o = run(&["replay", saved.to_str().unwrap(), "--move", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--move 3: the game has 2 moves"), "{}", stderr(&o));

    // `play --game` goes on after the saved moves: White to move, and the next save keeps them.
    let again = dir.join("again.txt");
    let states = game.states::<games::CamelotRules>(Default::default()).unwrap();
    let last = states.last().unwrap();
    let next = last.position().notation(last.continuations().next().unwrap());
    let script = format!("{next}\nsave {}\nquit\n", again.display());
    let o = with_input(
        bin().args(["play", "--game", saved.to_str().unwrap(), "--sims", "8"]),
        script.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let more: games::SavedGame = std::fs::read_to_string(&again).unwrap().parse().unwrap();
    assert_eq!(more.moves[..2], game.moves[..], "the saved moves come first");
    assert_eq!(more.moves[2], next);
    assert_eq!(more.moves.len(), 4, "and Black's reply: {:?}", more.moves);
}

#[test]
fn a_bad_saved_game_is_refused_with_where() {
    let dir = scratch("replay-bad");
    let file = dir.join("bad.txt");
    std::fs::write(&file, "[Game \"camelot\"]\n\nD7-D5-B7 F6-F8\n").unwrap();
    for args in
        [&["replay", file.to_str().unwrap()][..], &["play", "--game", file.to_str().unwrap()]]
    {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("move 2 `F6-F8`"), "{args:?}: {}", stderr(&o));
    }
    let o = run(&["play", "start", "--variant", "camelot", "--game", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not both"), "{}", stderr(&o));
    let o = run(&["replay", dir.join("none.txt").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

/// White's lone Man on F7 faces Black's Man on F9: after F7>F8, F7>E8 or F7>G8 it is jumped from
/// F9; the other legs are safe.
const JUMPABLE: &str = "camelot W W:MF7 B:KA13,MF9,ML13 cm=0,0";

/// The prior of `leg` in `analyze`'s action table.
fn analyzed_prior(out: &str, leg: &str) -> f32 {
    let line = out.lines().find(|l| l.split_whitespace().next() == Some(leg));
    let line = line.unwrap_or_else(|| panic!("{leg} in the table: {out}"));
    line.split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// `smoke-camelot.toml` with a `[play]` section setting `tactics_filter` to `filter`, written
/// to `dir/<name>.toml`.
fn play_filter_config(dir: &Path, name: &str, filter: &str) -> String {
    let play = format!("[play]\ntactics_filter = {filter}\n\n[ladder]\n");
    let path = common::smoke_camelot_with(dir, name, &[("[ladder]\n", &play)]);
    path.to_str().unwrap().to_string()
}

#[test]
fn analyze_engine_and_play_search_with_the_config_s_tactics_filter() {
    let dir = scratch("play-filter");
    let on = play_filter_config(&dir, "on", "{ alpha_beta = { depth = 1, margin = 100 } }");
    let bad = play_filter_config(&dir, "bad", "{ alpha_beta = { depth = 0, margin = 100 } }");

    let analyze = |config: &[&str]| {
        let mut args = vec!["analyze", JUMPABLE, "--sims", "40", "--top", "99"];
        args.extend(config);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let (plain, filtered) = (analyze(&[]), analyze(&["--config", &on]));
    assert!(analyzed_prior(&plain, "F7>F8") > 0.0, "{plain}");
    for jumped in ["F7>F8", "F7>E8", "F7>G8"] {
        assert_eq!(analyzed_prior(&filtered, jumped), 0.0, "{filtered}");
    }
    assert!(analyzed_prior(&filtered, "F7>E7") > analyzed_prior(&plain, "F7>E7"));

    // The engine's analyses (a script on its standard input) search the same way.
    let engine_prior = |config: &[&str]| -> f64 {
        let request = format!(r#"analyze {{"id":"j","position":"{JUMPABLE}","sims":40,"top":99}}"#);
        let o = with_input(bin().arg("engine").args(config), format!("{request}\n").as_bytes());
        assert!(o.status.success(), "{}", stderr(&o));
        let answer: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let moves = answer["moves"].as_array().unwrap_or_else(|| panic!("{answer}"));
        let line = moves.iter().find(|m| m["leg"] == "F7>F8").expect("F7>F8 analysed");
        line["prior"].as_f64().unwrap()
    };
    assert!(engine_prior(&[]) > 0.0);
    assert_eq!(engine_prior(&["--config", &on]), 0.0);

    // `play`: the model (White, uniform priors, one simulation) plays the first leg, F7-F8,
    // unless the filter clears it.
    let white_plays = |config: &[&str]| {
        let o = bin()
            .args(["play", JUMPABLE, "--seat", "B", "--sims", "1"])
            .args(config)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let played = out.lines().find_map(|l| l.strip_prefix("White plays "));
        played.unwrap_or_else(|| panic!("White moves: {out}")).to_string()
    };
    assert_eq!(white_plays(&[]), "F7-F8");
    let played = white_plays(&["--config", &on]);
    assert!(!["F7-F8", "F7-E8", "F7-G8"].contains(&played.as_str()), "{played}");

    // Each reads the config, and refuses a bad one naming the key.
    for command in [&["analyze", JUMPABLE][..], &["engine"], &["play", JUMPABLE, "--seat", "B"]] {
        let o = run(&[command, &["--config", &bad]].concat());
        assert_eq!(o.status.code(), Some(2), "{command:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("play.tactics_filter.alpha_beta.depth"), "{}", stderr(&o));
    }
}

/// `analyze` and `play` at the start need no `--variant` when the model's checkpoint names its
/// game (and `play` needs no position at all); without a model the message says what to add.
#[test]
fn analyze_and_play_start_in_the_model_s_game() {
    use games::{Encoding, State, TriCamelotRules};
    let dir = scratch("model-variant");
    let model = dir.join("gen-0001");
    let fresh = train::trainer::fresh_net::<State<TriCamelotRules>>;
    let net = fresh("b4c32", Encoding::Basic, model::DeviceKind::Cpu).unwrap();
    model::checkpoint::save(&model, &net, "tricamelot").unwrap();
    let m = model.to_str().unwrap();
    let o = run(&["analyze", "start", "--model", m, "--sims", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Blue to move"), "{}", stdout(&o));
    let o = with_input(bin().args(["play", "--model", m, "--seat", "R", "--sims", "8"]), b"quit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Blue plays "), "{}", stdout(&o));
    let o = run(&["play"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--variant"), "{}", stderr(&o));
}
