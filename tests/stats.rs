//! `stats openings` and `stats summary` on a small hand-made set of game records, whose figures
//! were worked out by hand from the move lists below; bad input; the charts; the Python
//! cross-check (`scripts/check_stats.py`, when pyarrow is installed). `stats blunders` is
//! `tests/blunders.rs`.
//!
//! The records (a run directory `run/`, generations 0 and 1; W = White wins, B = Black wins):
//!
//! | id | gen | moves                                   | result | termination | plies |
//! |----|-----|-----------------------------------------|--------|-------------|-------|
//! | 0  | 0   | E7-E8 H10-H9 F7-F8 H11-H10              | W      | castle      | 4     |
//! | 1  | 0   | E7-E8 H10-H9                            | B      | castle      | 2     |
//! | 2  | 0   | E7-E8 E10-E9 E8xE10xG12 (takes 2 Men)   | draw   | move-limit  | 3     |
//! | 3  | 0   | F7-F8 H10-H9 E7-E8                      | W      | resign      | 3     |
//! | 4  | 1   | E7-E8 H10-H9 F7-F8                      | W      | castle      | 3     |
//! | 5  | 1   | F7-F8 E10-E9                            | B      | capture-all | 2     |
//! | 6  | 1   | F7-F8                                   | draw   | draw        | 1     |
//! | 7  | 1   | D7-D5-B7 H10-H9 E7-E8                   | W      | castle      | 3     |
//! | 8  | 1   | from another position: F14xF16 L13-L12  | W      | castle      | 2     |
//!
//! Game 8's first move captures a Man and enters Black's castle.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use games::Termination;
use records::{GameRecord, Shard, write_shard};
use serde_json::Value;

mod common;

use common::{args, bin, run, scratch, stderr, stdout};

const OTHER_START: &str = "camelot W W:KA4,MF14 B:KL13,MF15 cm=0,0";

fn game(id: u64, generation: u32, moves: &str, result: [f32; 2], t: Termination) -> GameRecord {
    let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
    GameRecord {
        run: "hand".into(),
        generation,
        game_id: id,
        variant: "camelot".into(),
        seed: id,
        start_position: "start".into(),
        plies: moves.len() as u32,
        moves,
        result: result.to_vec(),
        termination: t,
        model: "random".into(),
    }
}

const W: [f32; 2] = [1.0, 0.0];
const B: [f32; 2] = [0.0, 1.0];
const D: [f32; 2] = [0.5, 0.5];

/// Writes the records of the table above as a run directory `dir/run` and returns it.
fn fixture(dir: &Path) -> PathBuf {
    use Termination::*;
    let run_dir = dir.join("run");
    let gen0 = vec![
        game(0, 0, "E7-E8 H10-H9 F7-F8 H11-H10", W, Castle),
        game(1, 0, "E7-E8 H10-H9", B, Castle),
        game(2, 0, "E7-E8 E10-E9 E8xE10xG12", D, MoveLimit),
        game(3, 0, "F7-F8 H10-H9 E7-E8", W, Resign),
    ];
    let mut other = game(8, 1, "F14xF16 L13-L12", W, Castle);
    other.start_position = OTHER_START.into();
    let gen1 = vec![
        game(4, 1, "E7-E8 H10-H9 F7-F8", W, Castle),
        game(5, 1, "F7-F8 E10-E9", B, CaptureAll),
        game(6, 1, "F7-F8", D, Draw),
        game(7, 1, "D7-D5-B7 H10-H9 E7-E8", W, Castle),
        other,
    ];
    for (g, games) in [(0, gen0), (1, gen1)] {
        let shard = Shard { games, positions: vec![] };
        write_shard(&run_dir.join(format!("games/gen-{g:04}")), 0, "hand", g, &shard).unwrap();
    }
    std::fs::create_dir_all(run_dir.join("models/gen-0000")).unwrap();
    // Arena games of the ladder: not self-play, so not counted when the run directory is given.
    let mut arena = game(0, 1, "E7-E8", W, Castle);
    arena.run = "arena".into();
    let ladder = Shard { games: vec![arena], positions: vec![] };
    write_shard(&run_dir.join("ladder/gen-0001"), 0, "arena", 1, &ladder).unwrap();
    run_dir
}

/// The output of `stats <args> --format json`, which must succeed, as JSON.
fn stats_json(args: &[&OsStr]) -> Value {
    let o = bin().arg("stats").args(args).args(["--format", "json"]).output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn line<'a>(v: &'a Value, moves: &str) -> &'a Value {
    let want: Vec<&str> = moves.split(' ').collect();
    v["lines"].as_array().unwrap().iter().find(|l| l["moves"] == serde_json::json!(want)).unwrap()
}

fn close(v: &Value, want: f64) -> bool {
    (v.as_f64().unwrap() - want).abs() < 1e-6
}

/// games, share of parent, share of all, mover, wins [W, B], draws, score, interval, mean length.
type Expected = (u64, f64, f64, &'static str, [u64; 2], u64, f64, (f64, f64), f64);

fn check_line(v: &Value, moves: &str, e: Expected) {
    let l = line(v, moves);
    assert_eq!(l["games"], e.0, "{moves}");
    assert!(close(&l["share_of_parent"], e.1) && close(&l["share_of_all"], e.2), "{moves}: {l}");
    assert_eq!(l["mover"], e.3, "{moves}");
    assert_eq!(l["wins"], serde_json::json!(e.4), "{moves}");
    assert_eq!(l["draws"], e.5, "{moves}");
    assert!(close(&l["score"], e.6), "{moves}: score {}", l["score"]);
    assert!(close(&l["score_low"], e.7.0) && close(&l["score_high"], e.7.1), "{moves}: {l}");
    assert!(close(&l["mean_length"], e.8), "{moves}: length {}", l["mean_length"]);
}

#[test]
fn openings_count_lines_outcomes_scores_and_intervals() {
    let dir = scratch("openings");
    let run_dir = fixture(&dir);
    let v = stats_json(&args!["openings", "--games", run_dir, "--depth", "2"]);
    assert_eq!(v["variant"], "camelot");
    assert_eq!((v["games"].as_u64(), v["other_starts"].as_u64()), (Some(8), Some(1)));
    assert_eq!((v["wins"].clone(), v["draws"].as_u64()), (serde_json::json!([4, 2]), Some(2)));
    assert!(close(&v["mean_length"], 21.0 / 8.0));
    let order: Vec<String> = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        order,
        [
            "E7-E8",
            "E7-E8 H10-H9",
            "E7-E8 E10-E9",
            "F7-F8",
            "F7-F8 E10-E9",
            "F7-F8 H10-H9",
            "D7-D5-B7",
            "D7-D5-B7 H10-H9"
        ],
        "depth first, most played first, then by notation"
    );
    // Wilson, z = 1.96: for 2.5 of 4, centre 0.625 + 3.8415/8 = 1.1052, half
    // 1.96·sqrt(0.2344/4 + 3.8415/64) = 0.6750, over 1 + 3.8415/4 = 1.9604: 0.2194-0.9081.
    check_line(&v, "E7-E8", (4, 0.5, 0.5, "White", [2, 1], 1, 0.625, (0.219427, 0.908101), 3.0));
    check_line(&v, "F7-F8", (3, 0.375, 0.375, "White", [1, 1], 1, 0.5, (0.125334, 0.874666), 2.0));
    check_line(&v, "D7-D5-B7", (1, 0.125, 0.125, "White", [1, 0], 0, 1.0, (0.206549, 1.0), 3.0));
    let third = 1.0 / 3.0;
    check_line(
        &v,
        "E7-E8 H10-H9",
        (3, 0.75, 0.375, "Black", [2, 1], 0, third, (0.061492, 0.79234), 3.0),
    );
    check_line(
        &v,
        "E7-E8 E10-E9",
        (1, 0.25, 0.125, "Black", [0, 0], 1, 0.5, (0.054621, 0.945379), 3.0),
    );
    check_line(
        &v,
        "F7-F8 E10-E9",
        (1, third, 0.125, "Black", [0, 1], 0, 1.0, (0.206549, 1.0), 2.0),
    );
    check_line(
        &v,
        "F7-F8 H10-H9",
        (1, third, 0.125, "Black", [1, 0], 0, 0.0, (0.0, 0.793451), 3.0),
    );
    check_line(
        &v,
        "D7-D5-B7 H10-H9",
        (1, 1.0, 0.125, "Black", [1, 0], 0, 0.0, (0.0, 0.793451), 3.0),
    );
}

#[test]
fn openings_filters_and_formats() {
    let dir = scratch("filters");
    let run_dir = fixture(&dir);
    let games = run_dir.to_str().unwrap();
    let v = stats_json(&args!["openings", "--games", games, "--depth", "3", "--min-games", "2"]);
    let lines: Vec<&Value> = v["lines"].as_array().unwrap().iter().collect();
    assert_eq!(lines.len(), 4, "E7-E8, E7-E8 H10-H9, E7-E8 H10-H9 F7-F8, F7-F8: {v}");
    check_line(
        &v,
        "E7-E8 H10-H9 F7-F8",
        (2, 2.0 / 3.0, 0.25, "White", [2, 0], 0, 1.0, (0.34238, 1.0), 3.5),
    );
    // Generation 1 only, given as its games folder and one file of it (read once).
    let gen1 = run_dir.join("games/gen-0001");
    let file = gen1.join("games-000000.parquet");
    let v = stats_json(&args!["openings", "--games", gen1, file, "--generation", "1-"]);
    assert_eq!((v["games"].as_u64(), v["other_starts"].as_u64()), (Some(4), Some(1)));
    check_line(&v, "F7-F8", (2, 0.5, 0.5, "White", [0, 1], 1, 0.25, (0.026677, 0.802133), 1.5));
    let v = stats_json(&args!["openings", "--games", games, "--generation", "0"]);
    assert_eq!((v["games"].as_u64(), v["other_starts"].as_u64()), (Some(4), Some(0)));
    // The ladder's games only when asked for.
    let ladder = run_dir.join("ladder");
    let v = stats_json(&args!["openings", "--games", ladder]);
    assert_eq!(v["games"], 1);
    // The table indents replies and shows the interval; CSV has one row per line.
    let o = run(&["stats", "openings", "--games", games]);
    let table = stdout(&o);
    assert!(table.contains("8 camelot games from the start position"), "{table}");
    assert!(table.contains("left out: 1 game from other positions"), "{table}");
    let row = table.lines().find(|l| l.starts_with("E7-E8 ")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells,
        ["E7-E8", "4", "50.0", "50.0", "White", "2", "1", "1", "0.625", "0.219-0.908", "3.0"]
    );
    assert!(table.lines().any(|l| l.starts_with("  H10-H9 ")), "{table}");
    let csv = stdout(&run(&["stats", "openings", "--games", games, "--format", "csv"]));
    let mut rows = csv.lines();
    assert_eq!(
        rows.next(),
        Some(
            "line,depth,move,games,share_of_parent,share_of_all,mover,wins_White,wins_Black,draws,score,score_low,score_high,mean_length"
        )
    );
    assert!(
        rows.next().unwrap().starts_with("E7-E8,1,E7-E8,4,0.5,0.5,White,2,1,1,0.625,0.2194"),
        "{csv}"
    );
    assert!(
        csv.lines().any(|l| l.starts_with("E7-E8 H10-H9,2,H10-H9,3,0.75,0.375,Black,2,1,0,")),
        "{csv}"
    );
}

#[test]
fn summary_by_generation_and_termination() {
    let dir = scratch("summary");
    let run_dir = fixture(&dir);
    let v = stats_json(&args!["summary", "--games", run_dir]);
    let rows = v["rows"].as_array().unwrap();
    let keys: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {}", r["generation"], r["termination"].as_str().unwrap()))
        .collect();
    assert_eq!(
        keys,
        [
            "0 all",
            "0 castle",
            "0 move-limit",
            "0 resign",
            "1 all",
            "1 castle",
            "1 capture-all",
            "1 draw"
        ]
    );
    let check = |i: usize,
                 games: u64,
                 wins: [u64; 2],
                 draws: u64,
                 len: (u64, f64, f64, u64, u64),
                 caps: f64,
                 entries: f64| {
        let r = &rows[i];
        assert_eq!(
            (r["games"].as_u64(), &r["wins"], r["draws"].as_u64()),
            (Some(games), &serde_json::json!(wins), Some(draws)),
            "{r}"
        );
        let l = &r["length"];
        assert_eq!(
            (l["min"].as_u64(), l["p90"].as_u64(), l["max"].as_u64()),
            (Some(len.0), Some(len.3), Some(len.4)),
            "{r}"
        );
        assert!(close(&l["median"], len.1) && close(&l["mean"], len.2), "{r}");
        assert!(
            close(&r["captures_per_game"], caps) && close(&r["castle_entries_per_game"], entries),
            "{r}"
        );
    };
    // Generation 0 lengths 4, 2, 3, 3: median 3, mean 3, p90 = the ⌈3.6⌉ = 4th smallest = 4.
    check(0, 4, [2, 1], 1, (2, 3.0, 3.0, 4, 4), 0.5, 0.0);
    check(1, 2, [1, 1], 0, (2, 3.0, 3.0, 4, 4), 0.0, 0.0);
    check(2, 1, [0, 0], 1, (3, 3.0, 3.0, 3, 3), 2.0, 0.0);
    check(3, 1, [1, 0], 0, (3, 3.0, 3.0, 3, 3), 0.0, 0.0);
    // Generation 1 lengths 3, 2, 1, 3, 2: median 2, mean 2.2, p90 = 5th smallest = 3.
    check(4, 5, [3, 1], 1, (1, 2.0, 2.2, 3, 3), 0.2, 0.2);
    check(5, 3, [3, 0], 0, (2, 3.0, 8.0 / 3.0, 3, 3), 1.0 / 3.0, 1.0 / 3.0);
    check(6, 1, [0, 1], 0, (2, 2.0, 2.0, 2, 2), 0.0, 0.0);
    check(7, 1, [0, 0], 1, (1, 1.0, 1.0, 1, 1), 0.0, 0.0);
    let csv = stdout(&run(&args!["stats", "summary", "--games", run_dir, "--format", "csv"]));
    assert!(
        csv.starts_with("generation,termination,games,wins_White,wins_Black,draws,length_min,"),
        "{csv}"
    );
    assert!(csv.contains("\n1,all,5,3,1,1,1,2,2.2,3,3,0.2,0.2\n"), "{csv}");
    let table = stdout(&run(&args!["stats", "summary", "--games", run_dir, "--generation", "1"]));
    assert!(!table.lines().any(|l| l.starts_with("0 ")), "{table}");
    let row: Vec<&str> =
        table.lines().find(|l| l.starts_with("1 ")).unwrap().split_whitespace().collect();
    assert_eq!(
        row,
        ["1", "all", "5", "3", "1", "1", "1", "2.00", "2.20", "3", "3", "0.20", "0.20"]
    );
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let dir = scratch("bad");
    let run_dir = fixture(&dir);
    let games = run_dir.to_str().unwrap();
    let corrupt = dir.join("corrupt");
    std::fs::create_dir_all(&corrupt).unwrap();
    std::fs::write(corrupt.join("games-000000.parquet"), b"not parquet at all").unwrap();
    std::fs::write(corrupt.join("positions-000000.parquet"), b"nor this").unwrap();
    let tri = dir.join("tri");
    let mut g = game(0, 0, "E4-E2", W, Termination::Castle);
    (g.variant, g.result) = ("tricamelot".into(), vec![1.0, 0.0, 0.0]);
    write_shard(&tri, 0, "hand", 0, &Shard { games: vec![g], positions: vec![] }).unwrap();
    let illegal = dir.join("illegal");
    let shard =
        Shard { games: vec![game(0, 0, "E7-E8 A1-A2", W, Termination::Castle)], positions: vec![] };
    write_shard(&illegal, 0, "hand", 0, &shard).unwrap();
    let missing = dir.join("missing");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "x").unwrap();
    let (corrupt_file, jpg) = (corrupt.join("games-000000.parquet"), dir.join("c.jpg"));
    let cases: Vec<(Vec<&OsStr>, &str)> = vec![
        (args!["openings", "--games", missing].into(), "no such file or directory"),
        (args!["summary", "--games", empty].into(), "no games files"),
        (args!["openings", "--games", text].into(), "not a .parquet file"),
        (args!["openings", "--games", corrupt].into(), "not a readable parquet file"),
        (args!["summary", "--games", corrupt_file].into(), "not a readable parquet file"),
        (
            args!["openings", "--games", games, tri].into(),
            "mix variants (9 camelot games, 1 tricamelot games)",
        ),
        (args!["summary", "--games", games, tri].into(), "choose one with --variant"),
        (args!["openings", "--games", games, "--depth", "0"].into(), "--depth must be at least 1"),
        (
            args!["openings", "--games", games, "--generation", "7"].into(),
            "no games left after the filters (--generation 7)",
        ),
        (args!["openings", "--games", games, "--generation", "5-2"].into(), "after the last"),
        (args!["openings", "--games", illegal].into(), "game 0: move 2 `A1-A2` cannot be replayed"),
        (args!["summary", "--games", illegal].into(), "move 2 `A1-A2`"),
        (args!["openings", "--games", games, "--chart", jpg].into(), "must end in .png or .svg"),
    ];
    for (args, message) in cases {
        let o = bin().arg("stats").args(&args).output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: expected {message:?} in {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // With --variant, the mixed records are fine.
    let v = stats_json(&args!["summary", "--games", games, tri, "--variant", "tricamelot"]);
    assert_eq!(v["rows"][0]["games"], 1);
}

#[test]
fn openings_chart_as_png_and_svg() {
    let dir = scratch("chart");
    let run_dir = fixture(&dir);
    let games = run_dir.to_str().unwrap();
    let png = dir.join("first-moves.png");
    let o = run(&args!["stats", "openings", "--games", games, "--chart", png]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(bytes.len() > 5_000, "a drawn chart, not an empty image");
    let svg = dir.join("first-moves.SVG");
    let o = run(&args!["stats", "openings", "--games", games, "--chart", svg, "--format", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..80]);
    for label in ["E7-E8 (4)", "F7-F8 (3)", "D7-D5-B7 (1)", "score of White", "0.62"] {
        assert!(text.contains(label), "{label} missing from the SVG");
    }
    assert!(!text.contains("H10-H9"), "only first moves are charted");
}

/// Runs `scripts/check_stats.py`, which recomputes the openings with pyarrow straight from the
/// parquet files, against the binary; and checks that it does catch a wrong count.
#[test]
fn python_cross_check_agrees() {
    let has_pyarrow = Command::new("python3")
        .args(["-c", "import pyarrow"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_pyarrow {
        // Written to the stderr handle rather than with `eprintln!`, which the test harness
        // captures: the line shows in a plain `cargo test` run.
        let line =
            "python_cross_check_agrees skipped: pyarrow not installed (pip install pyarrow)\n";
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        return;
    }
    let dir = scratch("python");
    let run_dir = fixture(&dir);
    let games = run_dir.to_str().unwrap();
    let script = format!("{}/scripts/check_stats.py", env!("CARGO_MANIFEST_DIR"));
    let bin = env!("CARGO_BIN_EXE_camelot-zero");
    for extra in [
        &["--depth", "2"][..],
        &["--depth", "4", "--min-games", "2"],
        &["--depth", "3", "--generation", "1"],
    ] {
        let o = Command::new("python3")
            .arg(&script)
            .args(["--bin", bin, "--games", games])
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{extra:?}: {}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).starts_with("ok: "), "{}", stdout(&o));
    }
    // A tampered output is caught.
    let mut v = stats_json(&args!["openings", "--games", games]);
    v["lines"][1]["games"] = serde_json::json!(4);
    let saved = dir.join("tampered.json");
    std::fs::write(&saved, v.to_string()).unwrap();
    let o = Command::new("python3")
        .arg(&script)
        .args(["--json", saved.to_str().unwrap(), "--games", games])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("line E7-E8 H10-H9 games: expected 3"), "{}", stderr(&o));
}
