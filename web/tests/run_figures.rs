//! `/api/run/figures`: the served run's charts (and `--compare`'s) as data, read afresh at every
//! request so that the live run page follows a run while it trains.

mod common;

use std::path::Path;

use axum::http::StatusCode;
use common::{get, options, run_with_games, scratch};
use serde_json::Value;
use web::App;

/// `generations.csv` of `rows` generations with a ladder, a probe and a run clock.
fn write_generations(run: &Path, rows: usize) {
    let mut text = String::from(
        "generation,evaluations_per_sec,run_seconds,abs_elo,abs_elo_low,abs_elo_high,probe_down2,probe_even,probe_up2\n",
    );
    for g in 0..rows {
        let elo = 100.0 * g as f64;
        text.push_str(&format!(
            "{g},{},{},{elo},{},{},0.3,0.5,0.7\n",
            1000 + g,
            30 * (g + 1),
            elo - 50.0,
            elo + 50.0
        ));
    }
    std::fs::write(run.join("generations.csv"), text).unwrap();
}

fn figure<'a>(run: &'a Value, stem: &str) -> &'a Value {
    run["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["stem"] == stem)
        .unwrap_or_else(|| panic!("{stem}: {run}"))
}

#[tokio::test]
async fn the_runs_charts_follow_its_files() {
    let run = run_with_games("figures-run");
    std::fs::write(run.join("config.toml"), "[game]\nvariant = \"camelot\"\n").unwrap();
    write_generations(&run, 2);
    let other = scratch("figures-other");
    std::fs::write(other.join("config.toml"), "[game]\nvariant = \"camelot\"\n").unwrap();
    let mut opts = options(Some(&run));
    opts.compare = vec![other.clone()];
    let r = App::new(opts).unwrap().router();

    let (status, body) = get(&r, "/api/run/figures").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let runs = body["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "the served run and the compared one");
    assert_eq!(runs[0]["generations"], 2);
    let elo = figure(&runs[0], "elo_time");
    let line = &elo["series"][0];
    assert_eq!(line["points"], serde_json::json!([[0.5, 0.0], [1.0, 100.0]]));
    assert_eq!(line["band"], serde_json::json!([[0.5, -50.0, 50.0], [1.0, 50.0, 150.0]]));
    let probe = figure(&runs[0], "probe");
    let names: Vec<&str> =
        probe["series"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["two Men down", "even material", "two Men up"]);
    assert_eq!(
        figure(&runs[0], "pace")["series"][0]["points"],
        serde_json::json!([[0.5, 1.0], [1.0, 2.0]])
    );
    // A run without rows yet: each chart says why it is empty.
    assert_eq!(runs[1]["generations"], 0);
    assert!(
        figure(&runs[1], "pace")["why"].as_str().unwrap().contains("run_seconds"),
        "{}",
        runs[1]
    );

    // Strength against compute: a note until scripts/compute_curve.sh writes curve.csv.
    let compute = figure(&runs[0], "compute");
    assert_eq!(compute["x_scale"], "log2");
    assert!(compute["why"].as_str().unwrap().contains("compute_curve.sh"), "{compute}");
    assert_eq!(figure(&runs[0], "pace")["x_scale"], "linear");

    // A generation more on disk is in the next answer: nothing is cached.
    write_generations(&run, 3);
    std::fs::write(
        run.join("curve.csv"),
        "budget,model,core_minutes,score_vs_previous,elo_step,elo,vs_alphabeta:depth=2\n\
         10,gen-0002,9.5,,,0,0.5\n20,gen-0003,19,0.6,70,70,0.5\n",
    )
    .unwrap();
    let (_, body) = get(&r, "/api/run/figures").await;
    assert_eq!(body["runs"][0]["generations"], 3);
    let compute = figure(&body["runs"][0], "compute");
    assert_eq!(compute["series"][0]["points"], serde_json::json!([[9.5, 0.0], [19.0, 70.0]]));
    assert_eq!(compute["series"][1]["name"], "against alphabeta:depth=2 (0 = level)");
}

#[tokio::test]
async fn without_a_run_there_are_no_charts() {
    let (status, body) = get(&common::router(None), "/api/run/figures").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let mut opts = options(None);
    opts.compare = vec![scratch("figures-alone")];
    let error = App::new(opts).err().expect("--compare without --run is refused").to_string();
    assert!(error.contains("not a run directory") || error.contains("needs --run"), "{error}");
}
