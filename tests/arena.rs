//! `camelot-zero arena` end to end: a checkpoint of the smoke run beats `random` with a fixed
//! seed, every game is recorded with its players in seat order, three-player matches run, and
//! bad player specs exit with status 2 and a one-line message; `anchors` and `rate` end to end.

mod common;

use common::{config, games_in, run, run_loop, scratch, text};

#[test]
fn a_checkpoint_of_the_smoke_run_beats_random() {
    let dir = scratch("smoke");
    let dir_s = dir.to_str().unwrap();
    let out = run_loop(config("smoke-camelot.toml"), &dir, &[]);
    assert!(out.status.success(), "run failed: {}", text(&out.stderr));

    let model = format!("{dir_s}/models/gen-0002:sims=16");
    let games_dir = dir.join("arena");
    // A 200-move cap keeps the test near 15 s (the smoke network is nearly untrained, so many
    // games run to the cap).
    let args = ["arena", "--a", &model, "--b", "random", "--games", "20", "--seed", "1"];
    let args = [&args[..], &["--max-moves", "200"]].concat();
    let out = run(&[&args[..], &["--out", games_dir.to_str().unwrap()]].concat());
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "arena failed: {}", text(&out.stderr));
    eprintln!("{stdout}");
    assert!(stdout.contains("Elo A - B: "), "{stdout}");
    assert!(stdout.contains("gen-0002:sims=16"), "{stdout}");

    // The records: 20 games, each seating 10 times, and the checkpoint's score from them.
    let games = games_in(&games_dir);
    assert_eq!(games.len(), 20);
    let as_white = "gen-0002:sims=16 vs random";
    let as_black = "random vs gen-0002:sims=16";
    assert_eq!(games.iter().filter(|g| g.model == as_white).count(), 10);
    assert_eq!(games.iter().filter(|g| g.model == as_black).count(), 10);
    let score_of = |g: &records::GameRecord, as_white: &str| {
        if g.model == as_white { g.result[0] } else { g.result[1] }
    };
    let score: f32 = games.iter().map(|g| score_of(g, as_white)).sum::<f32>() / 20.0;
    eprintln!("checkpoint score against random: {score:.3}");
    // Observed with seed 1: 3 wins, 16 draws (move cap), 1 loss: score 0.550, +35 Elo [-32, +104].
    // (Without the cap: 5 wins, 14 draws, 1 loss, 0.600, in about 35 s.)
    let wins = games.iter().filter(|g| score_of(g, as_white) == 1.0).count();
    let losses = games.iter().filter(|g| score_of(g, as_white) == 0.0).count();
    assert!(
        score > 0.5 && wins > losses,
        "the checkpoint should win: {wins} wins, {losses} losses, score {score}"
    );
    assert!(stdout.contains(&format!("{score:.3}")), "the table shows the same score: {stdout}");
    assert!(stdout.contains("gen-0002:sims=16: ") && stdout.contains("simulations a move"));
    assert!(!stdout.contains("ms a move"), "a batched match's wall time is not shown: {stdout}");

    // On a clock: both keep to their time, and the report says what each searched a move.
    let timed = format!("{dir_s}/models/gen-0002:tc=1+0.01");
    let clocked = ["--b", "alphabeta:tc=1+0.01", "--games", "2", "--max-moves", "60"];
    let out = run(&[&["arena", "--a", &timed][..], &clocked[..]].concat());
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "timed arena failed: {stderr}");
    eprintln!("{stdout}");
    assert!(stderr.contains("one at a time (players on a clock)"), "{stderr}");
    let line = |name: &str| stdout.lines().find(|l| l.starts_with(name)).map(str::to_string);
    let network = line("gen-0002:tc=1+0.01: ").expect("the network's work");
    assert!(network.contains("simulations a move") && network.contains("ms a move"), "{network}");
    let classical = line("alphabeta:tc=1+0.01: ").expect("alpha-beta's work");
    assert!(classical.contains("nodes a move"), "{classical}");
    assert!(!stdout.contains("over the clock"), "{stdout}");
}

#[test]
fn three_players_of_tricamelot() {
    let dir = scratch("tri");
    let out = run(&[
        "arena",
        "--a",
        "greedy",
        "--b",
        "random",
        "--c",
        "mcts:sims=4",
        "--games",
        "6",
        "--max-moves",
        "40",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for pair in ["A - B", "A - C", "B - C"] {
        assert!(stdout.contains(&format!("head-to-head Elo {pair}: ")), "{stdout}");
    }
    let games = games_in(&dir);
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g.variant == "tricamelot" && g.result.len() == 3));
    let mut seatings: Vec<&str> = games.iter().map(|g| g.model.as_str()).collect();
    seatings.sort();
    seatings.dedup();
    assert_eq!(seatings.len(), 6, "every order of the three players once: {seatings:?}");
}

#[test]
fn bad_players_exit_with_status_2_and_one_line() {
    let cases: [(&[&str], &str); 6] = [
        (&["--a", "alphabet", "--b", "random"], "unknown player kind `alphabet`"),
        (&["--a", "alphabeta:depth=0", "--b", "random"], "depth=0"),
        (&["--a", "mcts:sims=0", "--b", "random"], "sims must be"),
        (&["--a", "./no/such/gen-0001:sims=4", "--b", "random"], "does not exist"),
        (&["--a", "random", "--b", "random", "--c", "random", "--variant", "camelot"], "2 players"),
        (&["--a", "random", "--b", "random", "--variant", "tricamelot"], "--c"),
    ];
    for (args, message) in cases {
        let out = run(&[&["arena", "--games", "2"][..], args].concat());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn anchors_are_rated_and_a_player_is_rated_against_them() {
    let dir = scratch("anchors");
    let table = dir.join("anchors.toml");
    let table_s = table.to_str().unwrap();
    let players = "random,alphabeta:depth=1";
    let args = ["anchors", "--players", players, "--games-per-pair", "6", "--out", table_s];
    let out = run(&args);
    assert!(out.status.success(), "anchors failed: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("alphabeta:depth=1") && stdout.contains("written to"), "{stdout}");
    let written = std::fs::read_to_string(&table).unwrap();
    assert!(
        written.contains("variant = \"camelot\"") && written.contains("[[anchor]]"),
        "{written}"
    );

    let args =
        ["rate", "greedy", "--anchors", table_s, "--games-per-match", "6", "--max-games", "12"];
    let out = run(&args);
    assert!(out.status.success(), "rate failed: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("greedy: ") && stdout.contains("Elo ±"), "{stdout}");
    assert!(stdout.contains("12 games"), "{stdout}");

    // The table built into the program rates without --anchors (one short match here).
    let out = run(&["rate", "random", "--games-per-match", "2", "--max-games", "2"]);
    assert!(out.status.success(), "rate failed: {}", text(&out.stderr));

    // Bad input: exit status 2, one line.
    let cases: [(&[&str], &str); 4] = [
        (&["rate", "no/such/gen-0001:sims=2"], "does not exist"),
        (&["rate", "greedy", "--variant", "tricamelot", "--anchors", table_s], "not tricamelot"),
        (&["rate", "greedy", "--anchors", "/no/such/table.toml"], "/no/such/table.toml"),
        (&["anchors", "--players", "random"], "at least two"),
    ];
    for (args, message) in cases {
        let out = run(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
}
