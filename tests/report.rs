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

#[test]
fn a_smoke_run_gets_every_chart_and_a_page() {
    let dir = scratch("smoke");
    let run_dir = dir.join("run");
    let o = run_loop(common::config("smoke-camelot.toml"), &run_dir, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));

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
