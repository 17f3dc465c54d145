//! Test helpers: records of real positions reached by random play, shards written with the
//! record writer, scratch folders.

use std::path::{Path, PathBuf};

use games::{Game, Termination};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use records::{GameRecord, PositionRow, Shard, write_shard};

use crate::generations::generation_games_dir;
use crate::targets::Record;

/// A fresh, empty scratch folder unique to this process and `name`, removed when the guard is
/// dropped.
pub fn scratch_dir(name: &str) -> storage::ScratchDir {
    storage::ScratchDir::new(&format!("train-test-{name}")).unwrap()
}

/// A position row of `state` with a uniform policy target over its legal actions (game 1).
pub fn uniform_row<G: Game>(state: &G, result: Vec<f32>, full_search: bool) -> PositionRow {
    PositionRow { game_id: 1, ..PositionRow::uniform(state, result, full_search) }
}

/// [`uniform_row`] as a [`Record`].
pub fn uniform_record<G: Game>(state: &G, result: Vec<f32>, full_search: bool) -> Record {
    uniform_row(state, result, full_search).into()
}

/// `n` rows from one random game of `G` (seeded): every decision until the game ends or `n`
/// rows are collected; the result is a random winner, or a draw.
pub fn random_rows<G: Game>(seed: u64, n: usize) -> Vec<PositionRow> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut result = vec![0.0; G::NUM_PLAYERS];
    if rng.random_bool(0.2) {
        result.fill(1.0 / G::NUM_PLAYERS as f32);
    } else {
        result[rng.random_range(0..G::NUM_PLAYERS)] = 1.0;
    }
    let mut state = G::initial();
    let mut rows = Vec::new();
    let mut actions = Vec::new();
    while rows.len() < n {
        state.legal_actions(&mut actions);
        if actions.is_empty() {
            break;
        }
        let mut row = uniform_row(&state, result.clone(), rng.random_bool(0.7));
        row.ply = rows.len() as u32;
        rows.push(row);
        state.play(actions[rng.random_range(0..actions.len())]);
    }
    rows
}

/// [`random_rows`] as [`Record`]s.
pub fn random_records<G: Game>(seed: u64, n: usize) -> Vec<Record> {
    random_rows::<G>(seed, n).into_iter().map(Record::from).collect()
}

/// Writes shard 0 of generation `generation` under `<run>/games/gen-NNNN/` holding `rows`
/// (game id 1), with `result` as the game's result. Returns the positions file.
pub fn write_generation<G: Game>(run: &Path, generation: u32, rows: Vec<PositionRow>) -> PathBuf {
    let dir = generation_games_dir(run, generation);
    let result = rows[0].result.clone();
    let game = GameRecord {
        run: "test".into(),
        generation,
        game_id: 1,
        variant: G::NAME.into(),
        seed: 0,
        start_position: "start".into(),
        moves: vec![],
        result,
        termination: Termination::MoveLimit,
        plies: 0,
        model: "random".into(),
    };
    let shard = Shard { games: vec![game], positions: rows };
    write_shard(&dir, 0, "test", generation, &shard).unwrap().positions
}

/// `value` (a TOML value as a config file writes it: `"constant"`, `{ cosine = { ... } }`) read as
/// a `T`: the option enums' tests of their TOML forms.
pub fn from_toml<T: serde::de::DeserializeOwned>(value: &str) -> Result<T, toml::de::Error> {
    format!("v = {value}").parse::<toml::Table>().and_then(|t| t["v"].clone().try_into())
}

/// An option enum's table of TOML values: each read as a `T` ([`from_toml`]) and checked by
/// `validate`, giving the option and whether it passes, or `None` where the TOML is refused; each
/// must give what its case expects, and a range check that fails must name `key`.
pub fn check_option_cases<T>(
    cases: &[(&str, Option<(T, bool)>)],
    key: &str,
    validate: impl Fn(&T) -> Result<(), (String, String)>,
) where
    T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for (toml, expected) in cases {
        let got = from_toml::<T>(toml).ok().map(|option| {
            let check = validate(&option).map_err(|e| e.0);
            assert!(check.is_ok() || check == Err(key.to_string()), "{toml}: {check:?}");
            let passes = check.is_ok();
            (option, passes)
        });
        assert_eq!(got.as_ref(), expected.as_ref(), "{toml}");
    }
}
