//! `stats blunders` on a smoke run's games and checkpoint: the tactical positions found, the
//! figures of two models in range, the same prior with and without heuristic values, the table
//! without `--search`, and bad input.

use games::Termination;
use records::{GameRecord, Shard, write_shard};
use serde_json::Value;

mod common;

use common::{run, run_loop, scratch, stderr, stdout};

#[test]
fn blunders_measures_checkpoints_on_the_same_positions() {
    let dir = scratch("blunders");
    let run_dir = dir.join("smoke");
    let run_s = run_dir.to_str().unwrap();
    let o = run_loop(common::config("smoke-camelot.toml"), &run_dir, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let model = format!("{run_s}/models/gen-0002");
    let mixed = format!("{model}:sims=8,heuristic=1,judge=quiescence");
    // 40 positions: judging all of the smoke run's (the default 300 is more than it holds)
    // takes minutes, and the figures need only some.
    let args =
        ["stats", "blunders", "--games", run_s, "--model", &model, &mixed, "--positions", "40"];
    let o = run(&[&args[..], &["--search", "--format", "json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let positions = v["positions"].as_u64().unwrap();
    assert!(positions > 0 && positions <= 40, "{v}");
    assert!(v["judged"].as_u64().unwrap() >= positions, "{v}");
    assert!(v["candidates"].as_u64().unwrap() >= v["judged"].as_u64().unwrap(), "{v}");
    let uniform = v["uniform_mass"].as_f64().unwrap();
    assert!(uniform > 0.0 && uniform < 1.0, "{v}");
    let rows = v["models"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["model"], model.as_str());
    assert_eq!((rows[0]["sims"].as_u64(), rows[1]["sims"].as_u64()), (Some(64), Some(8)));
    for r in rows {
        for key in ["prior_mass", "prior_top", "search_top"] {
            let x = r[key].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&x), "{key}: {r}");
        }
    }
    // The heuristic changes the values, not the prior: the same prior figures.
    assert_eq!(rows[0]["prior_mass"], rows[1]["prior_mass"]);
    // The table without --search: no search column.
    let o = run(&args);
    let table = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        table.contains("tactical camelot positions") && !table.contains("search top"),
        "{table}"
    );

    // Bad input: exit 2 with a message naming it.
    let clocked = format!("{model}:tc=5+0.05");
    let cases: [(&[&str], &str); 7] = [
        (&["--model", &model, "--depth", "0"], "--depth must be between 1 and 4"),
        (&["--model", &clocked], "searched with sims=, not on a clock (tc=)"),
        (&["--model", &model, "--margin", "0"], "--margin must be at least 1"),
        (&["--model", &model, "--positions", "0"], "--positions must be at least 1"),
        (&["--model", "random"], "--model random: not a checkpoint folder"),
        (&["--model", &format!("{run_s}/models/gen-0099")], "gen-0099: no such directory"),
        (
            &["--model", &model, "--mover", "nobody"],
            "no positions in the 16 games where `nobody` is to move",
        ),
    ];
    for (extra, message) in cases {
        let o = run(&[&["stats", "blunders", "--games", run_s][..], extra].concat());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(message), "{extra:?}: expected {message:?} in {err}");
    }
    // A game without a position where a move loses and another does not: one move of a
    // position where the pieces are too far apart for a capture.
    let quiet = dir.join("quiet");
    let far = GameRecord {
        run: "hand".into(),
        generation: 0,
        game_id: 0,
        variant: "camelot".into(),
        seed: 0,
        start_position: "camelot W W:KA4,ME4 B:KA13,ML13 cm=0,0".into(),
        moves: vec!["E4-E5".into()],
        result: vec![0.5, 0.5],
        termination: Termination::Draw,
        plies: 1,
        model: "random".into(),
    };
    let shard = Shard { games: vec![far], positions: vec![] };
    write_shard(&quiet, 0, "hand", 0, &shard).unwrap();
    let o = run(&["stats", "blunders", "--games", quiet.to_str().unwrap(), "--model", &model]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no tactical positions in the 1 games (1 judged)"),
        "{}",
        stderr(&o)
    );
}
