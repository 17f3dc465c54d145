//! `report` end to end: on a finished smoke run it writes every chart as PNG and SVG and a page
//! with the charts inlined, the configuration and the generation table; Elo is charted when
//! generations.csv has it and replaced by a note when not; a run without a finished generation
//! still gets its page; bad input exits with status 2 and a message naming the problem.

use std::path::Path;
use std::process::Output;

mod common;

use common::{args, run, run_loop, scratch, text};

fn report(run_dir: &Path, out: &Path) -> Output {
    run(&args!["report", "--run", run_dir, "--out", out])
}

const ALWAYS: [&str; 7] =
    ["losses", "entropy", "game_length", "terminations", "speed", "probe", "pace"];
const LADDER_COLUMNS: [&str; 10] = [
    "abs_elo",
    "abs_elo_low",
    "abs_elo_high",
    "rating",
    "elo_vs_baseline",
    "elo_vs_baseline_low",
    "elo_vs_baseline_high",
    "elo_vs_opponent",
    "elo_vs_opponent_low",
    "elo_vs_opponent_high",
];

fn check_chart(out: &Path, stem: &str, page: &str) {
    let png = std::fs::read(out.join(format!("{stem}.png")))
        .unwrap_or_else(|e| panic!("{stem}.png: {e}"));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png is a PNG");
    let svg = std::fs::read_to_string(out.join(format!("{stem}.svg"))).unwrap();
    assert!(svg.contains("<svg"), "{stem}.svg is an SVG");
    let at = page
        .find(&format!("<figure id=\"{stem}\">"))
        .unwrap_or_else(|| panic!("{stem} in the page"));
    let figure = &page[at..at + page[at..].find("</figure>").unwrap()];
    assert!(figure.contains("<svg"), "{stem} is inlined");
    assert!(figure.contains(&format!("{stem}.png")), "{stem} links its PNG");
}

/// The columns of `generations.csv`.
fn header_of(run_dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(run_dir.join("generations.csv")).unwrap();
    text.lines().next().unwrap().split(',').map(String::from).collect()
}

/// Rewrites `generations.csv` with `edit(header, rows)`.
fn edit_generations(run_dir: &Path, edit: impl Fn(&mut Vec<String>, &mut Vec<Vec<String>>)) {
    let path = run_dir.join("generations.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines().map(|l| l.split(',').map(String::from).collect::<Vec<_>>());
    let mut header = lines.next().unwrap();
    let mut rows: Vec<Vec<String>> = lines.collect();
    edit(&mut header, &mut rows);
    let mut out = header.join(",") + "\n";
    for r in rows {
        out += &(r.join(",") + "\n");
    }
    std::fs::write(&path, out).unwrap();
}

/// A finished smoke run in the scratch folder `name`: the folder and the run directory in it.
fn smoke_run(name: &str) -> (common::ScratchDir, std::path::PathBuf) {
    let dir = scratch(name);
    let run_dir = dir.join("run");
    let o = run_loop(common::config("smoke-camelot.toml"), &run_dir, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    (dir, run_dir)
}

#[test]
fn a_smoke_run_gets_every_chart_and_a_page() {
    let (dir, run_dir) = smoke_run("smoke");

    // Without Elo columns: every other chart, and the note in place of the Elo chart.
    edit_generations(&run_dir, |header, rows| {
        let keep: Vec<bool> =
            header.iter().map(|h| !LADDER_COLUMNS.contains(&h.as_str())).collect();
        for r in std::iter::once(header).chain(rows.iter_mut()) {
            let mut k = keep.iter();
            r.retain(|_| *k.next().unwrap());
        }
    });
    let out = dir.join("report");
    let o = report(&run_dir, &out);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    for stem in ALWAYS {
        check_chart(&out, stem, &page);
    }
    assert!(page.contains("no Elo recorded for this run"));
    assert!(!out.join("elo.png").exists() && !out.join("elo.svg").exists());
    for legend in [
        "policy",
        "value",
        "total",
        "network policy",
        "move-limit",
        "evaluations/s",
        "even material",
        "models saved",
    ] {
        assert!(page.contains(legend), "{legend} in a chart");
    }
    // The configuration as text, escaped, and a table row per generation.
    let config_text = std::fs::read_to_string(run_dir.join("config.toml")).unwrap();
    let preset = config_text.lines().find(|l| l.starts_with("preset")).unwrap();
    assert!(page.contains(&preset.replace('"', "&quot;")), "config.toml in the page");
    assert!(page.contains("git_revision"), "run-info.toml in the page");
    let table = &page[page.find("<table class=\"generations\">").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(table.matches("<tr>").count(), 1 + 2, "header and two generations");
    assert!(table.contains("<th>evaluations_per_sec</th>"));
    assert!(page.contains("<table class=\"games\">"));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1 + 2 * ALWAYS.len(), "no leftovers");

    // With Elo columns (as the ladder writes them), the Elo chart too; reporting again into the
    // same folder replaces the files.
    edit_generations(&run_dir, |header, rows| {
        header.extend(
            ["abs_elo", "abs_elo_low", "abs_elo_high"]
                .into_iter()
                .chain(["rating", "elo_vs_baseline", "elo_vs_baseline_low", "elo_vs_baseline_high"])
                .map(String::from),
        );
        for (i, r) in rows.iter_mut().enumerate() {
            let e = 40.0 * (i + 1) as f64;
            let cells = [e + 300.0, e + 200.0, e + 400.0, e, e + 5.0, e - 60.0, e + 70.0];
            r.extend(cells.map(|x| format!("{x:.1}")));
        }
    });
    let o = report(&run_dir, &out);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    check_chart(&out, "elo", &page);
    // The run's clock came with the run; with the absolute Elo it gives Elo per CPU-hour.
    assert!(header_of(&run_dir).contains(&"run_seconds".to_string()));
    check_chart(&out, "elo_time", &page);
    assert!(page.contains("Absolute Elo against run time"));
    assert!(
        page.contains("rating (chained Elo)")
            && page.contains("Elo vs baseline (band: 95% interval)")
    );
    assert!(page.contains("absolute Elo (anchors, random = 0)"), "the absolute Elo's line");
    assert!(!page.contains("no Elo recorded"));

    // Elo columns with only empty cells (no generation measured yet): the note again, and the
    // earlier Elo files are removed.
    edit_generations(&run_dir, |header, rows| {
        let n = header.len();
        for r in rows.iter_mut() {
            for c in &mut r[n - 7..] {
                c.clear();
            }
        }
    });
    let o = report(&run_dir, &out);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("no Elo recorded for this run"));
    assert!(!out.join("elo.png").exists());
    assert!(page.contains("no model with both an absolute Elo and a run time"));
    assert!(!out.join("elo_time.png").exists() && !out.join("elo_time.svg").exists());
}

/// `scripts/compute_curve.sh` with `env` on `run_dir` into `out`.
fn compute_curve(run_dir: &Path, out: &Path, cores: &str, env: &[(&str, &str)]) -> Output {
    let mut command = std::process::Command::new("bash");
    command.arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/compute_curve.sh"));
    command.args([run_dir.as_os_str(), out.as_os_str()]).arg(cores);
    command.env("BIN", env!("CARGO_BIN_EXE_camelot-zero"));
    command.env("GAMES", "2").env("ANCHOR_GAMES", "2").env("SIMS", "2");
    command.env("ANCHORS", "alphabeta:depth=1");
    command.envs(env.iter().copied());
    command.output().unwrap()
}

/// Issue #84, item 3: the curve of a run (its models at budgets of core-minutes, each against
/// the one before and the anchors) is measured by the script, copied into the run directory
/// and drawn by `report` on a log axis; a finished match is reused only for the same pair, and
/// a run resumed on more cores counts each stretch at its own number of cores.
#[test]
fn the_compute_curve_of_a_smoke_run_is_measured_and_drawn() {
    let (dir, run_dir) = smoke_run("curve");
    let generations = std::fs::read_to_string(run_dir.join("generations.csv")).unwrap();
    let column = header_of(&run_dir).iter().position(|h| h == "run_seconds").unwrap();
    let seconds: Vec<f64> = generations
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(column).unwrap().parse().unwrap())
        .collect();
    assert_eq!(seconds.len(), 2, "{generations}");
    // A budget just past each model's save, in core-minutes on one core.
    let budgets: Vec<String> = seconds.iter().map(|s| format!("{:.4}", s / 60.0 + 1e-4)).collect();
    let budgets = budgets.join(" ");
    let out = dir.join("curve");
    let o = compute_curve(&run_dir, &out, "1", &[("BUDGETS", budgets.as_str())]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let curve = std::fs::read_to_string(out.join("curve.csv")).unwrap();
    let rows: Vec<Vec<&str>> = curve.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "budget",
            "model",
            "core_minutes",
            "score_vs_previous",
            "elo_step",
            "elo",
            "vs_alphabeta:depth=1"
        ]
    );
    assert_eq!((rows.len(), rows[1][1], rows[2][1]), (3, "gen-0001", "gen-0002"), "{curve}");
    let score: f64 = rows[2][3].parse().unwrap();
    assert!((0.0..=1.0).contains(&score), "{curve}");
    assert_eq!(
        std::fs::read_to_string(run_dir.join("curve.csv")).unwrap(),
        curve,
        "copied into the run"
    );

    // Again: every match is reused; a match file of another pair is played again.
    let chain = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("chain-"))
        .expect("a chain match");
    let o = compute_curve(&run_dir, &out, "1", &[("BUDGETS", budgets.as_str())]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stderr).matches("reusing").count(), 3, "{}", text(&o.stderr));
    let other = std::fs::read_to_string(&chain).unwrap().replace("gen-0001:sims", "gen-0009:sims");
    std::fs::write(&chain, other).unwrap();
    let o = compute_curve(&run_dir, &out, "1", &[("BUDGETS", budgets.as_str())]);
    assert!(text(&o.stderr).contains("played again"), "{}", text(&o.stderr));
    assert!(std::fs::read_to_string(&chain).unwrap().contains("gen-0001:sims"));

    // Two cores from the first model's save on: the second model has spent more core-minutes
    // than one core would give it, so the second budget finds only the first model.
    let cores = format!("1,2@{}", seconds[0]);
    let o = compute_curve(&run_dir, &dir.join("curve2"), &cores, &[("BUDGETS", budgets.as_str())]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let two = std::fs::read_to_string(dir.join("curve2/curve.csv")).unwrap();
    assert_eq!(two.lines().count(), 2, "one budget's model: {two}");
    for bad in ["0", "2,1@0", "1,2@50,3@40", "two"] {
        let o = compute_curve(&run_dir, &dir.join("bad"), bad, &[]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains("CORES"), "{bad}: {}", text(&o.stderr));
    }

    // The report draws it, on a log axis of core-minutes.
    let report_dir = dir.join("report");
    let o = report(&run_dir, &report_dir);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = std::fs::read_to_string(report_dir.join("index.html")).unwrap();
    check_chart(&report_dir, "compute", &page);
    assert!(
        page.contains("Strength against compute") && page.contains("against alphabeta:depth=1")
    );
}

#[test]
fn a_run_without_finished_generations_still_gets_its_page() {
    let dir = scratch("empty");
    let run_dir = dir.join("run");
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::write(run_dir.join("config.toml"), "[game]\nvariant = \"tricamelot\"\n").unwrap();
    let header = "generation,games,evaluations_per_sec\n";
    std::fs::write(run_dir.join("generations.csv"), header).unwrap();
    let out = dir.join("out");
    let o = report(&run_dir, &out);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    for note in [
        "no generations yet",
        "no training steps yet",
        "no games recorded yet",
        "no Elo recorded",
        "no run-info.toml",
        "no curve.csv",
    ] {
        assert!(page.contains(note), "{note}");
    }
    assert!(page.contains("tricamelot"));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1, "only the page");
}

#[test]
fn bad_input_exits_with_status_2_and_says_why() {
    let dir = scratch("bad");
    let out = dir.join("out");
    let expect_bad = |run_dir: &Path, out: &Path, needle: &str| {
        let o = report(run_dir, out);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains(needle) && err.lines().count() == 1, "{needle}: {err}");
    };
    expect_bad(&dir.join("missing"), &out, "no run directory");
    let not_run = dir.join("not-a-run");
    std::fs::create_dir_all(&not_run).unwrap();
    expect_bad(&not_run, &out, "not a run directory");

    let run_dir = dir.join("run");
    std::fs::create_dir_all(&run_dir).unwrap();
    std::fs::write(run_dir.join("config.toml"), "[game\n").unwrap();
    expect_bad(&run_dir, &out, "config.toml is not valid TOML: line 1: ");
    std::fs::write(run_dir.join("config.toml"), "[game]\nvariant = \"camelot\"\n").unwrap();
    let csv = run_dir.join("generations.csv");
    std::fs::write(&csv, "generation,evaluations_per_sec\n0,10.5\n1,3,4\n").unwrap();
    expect_bad(&run_dir, &out, "generations.csv: line 3: 3 fields for 2 columns");
    std::fs::write(&csv, "generation,evaluations_per_sec\n0,fast\n").unwrap();
    expect_bad(&run_dir, &out, "column `evaluations_per_sec` is \"fast\"");
    std::fs::write(&csv, "generation,speed\n0,1\n").unwrap();
    expect_bad(&run_dir, &out, "no column `evaluations_per_sec`");
    std::fs::write(&csv, "generation,evaluations_per_sec\n").unwrap();
    std::fs::write(run_dir.join("metrics.csv"), "generation,total_step\n0,1\n").unwrap();
    expect_bad(&run_dir, &out, "metrics.csv: no column `loss_total`");
    std::fs::remove_file(run_dir.join("metrics.csv")).unwrap();

    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    expect_bad(&run_dir, &file, "is not a directory");
    assert!(report(&run_dir, &out).status.success(), "the good run after the bad cases");
}
