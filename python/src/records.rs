//! The game records: which shards a path holds, and a run's positions as training arrays (the
//! samples the trainer draws, in the network's encoding).

use std::path::PathBuf;

use games::{Encode, Encoding, Game, RuleOptions, State, Variant, VariantKind};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use records::collection::{StatsError, games_files};
use records::sample::{Record, SampleSlot, encode_record};
use records::{RecordError, ShardPaths, read_games, read_positions};

fn record_error(e: RecordError) -> PyErr {
    if e.is_bad_input() {
        PyValueError::new_err(e.to_string())
    } else {
        PyOSError::new_err(e.to_string())
    }
}

fn stats_error(e: StatsError) -> PyErr {
    match e {
        StatsError::Record(e) => record_error(e),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// The complete shards under `paths` (run directories, games folders searched recursively, or
/// games files), as `(games file, positions file)` pairs in path order. Leftovers of
/// interrupted writes (temporaries, zero-byte files) are not shards.
#[pyfunction]
pub fn list_shards(paths: Vec<PathBuf>) -> PyResult<Vec<(PathBuf, PathBuf)>> {
    let files = games_files(&paths).map_err(stats_error)?;
    files
        .iter()
        .map(|g| {
            let s = ShardPaths::from_games_path(g).map_err(record_error)?;
            Ok((s.games, s.positions))
        })
        .collect()
}

/// Every searched position of the shards under `paths`, encoded as the trainer encodes it
/// (no symmetry; the value target is the game's outcome): a dict of `count`, `variant`, and
/// for each array its little-endian bytes and its shape (`planes` float32 `[N, C, H, W]`,
/// `policy` float32 `[N, A]` (the visit distribution), `legal` uint8 `[N, A]`, `value` float32
/// `[N, V]` (the value head's classes: each seat winning, mover first, then draw), `result`
/// float32 `[N, seats]`, `mover` uint8 `[N]`, `full_search` uint8 `[N]`, `generation` uint32
/// `[N]`, `game_id` uint64 `[N]`, `ply` uint32 `[N]`). `limit` keeps the first N positions.
#[pyfunction]
#[pyo3(signature = (paths, knight_canter = "strict", limit = None, encoding = "basic"))]
pub fn training_arrays<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    knight_canter: &str,
    limit: Option<usize>,
    encoding: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let options = RuleOptions { knight_canter: crate::variant::knight_canter(knight_canter)? };
    let encoding = crate::variant::encoding(encoding)?;
    let shards = list_shards(paths)?;
    if shards.is_empty() {
        return Err(PyValueError::new_err("no shards found"));
    }
    let variant = shard_variant(&shards)?;
    games::with_variant!(variant, V => arrays::<V>(py, &shards, options, limit, encoding))
}

/// The one variant of the shards' games (a ValueError when they mix two).
fn shard_variant(shards: &[(PathBuf, PathBuf)]) -> PyResult<VariantKind> {
    let mut found: Option<(VariantKind, PathBuf)> = None;
    for (games, _) in shards {
        for g in read_games(games).map_err(record_error)? {
            let kind: VariantKind = g
                .variant
                .parse()
                .map_err(|e: games::UnknownName| PyValueError::new_err(e.to_string()))?;
            match &found {
                Some((k, first)) if *k != kind => {
                    return Err(PyValueError::new_err(format!(
                        "the records mix {k} ({}) and {kind} ({}): read them apart",
                        first.display(),
                        games.display()
                    )));
                }
                Some(_) => {}
                None => found = Some((kind, games.clone())),
            }
        }
    }
    found.map(|(k, _)| k).ok_or_else(|| PyValueError::new_err("the shards hold no games"))
}

fn arrays<'py, V: Variant>(
    py: Python<'py>,
    shards: &[(PathBuf, PathBuf)],
    options: RuleOptions,
    limit: Option<usize>,
    encoding: Encoding,
) -> PyResult<Bound<'py, PyDict>> {
    let layout = State::<V>::layout(encoding);
    let (input, actions, classes, seats) =
        (layout.input_len(), State::<V>::NUM_ACTIONS, layout.value_classes, V::NUM_PLAYERS);
    let mut planes = Vec::new();
    let mut policy = Vec::new();
    let mut legal = Vec::new();
    let mut value = Vec::new();
    let mut result = Vec::new();
    let (mut mover, mut full, mut generation, mut game_id, mut ply) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let limit = limit.unwrap_or(usize::MAX);
    let mut count = 0usize;
    'shards: for (games, positions) in shards {
        let gen_of_game = read_games(games).map_err(record_error)?;
        let shard_generation = gen_of_game.first().map_or(0, |g| g.generation);
        for (row_index, row) in
            read_positions(positions).map_err(record_error)?.into_iter().enumerate()
        {
            if count >= limit {
                break 'shards;
            }
            let (id, row_ply, row_mover, row_full) =
                (row.game_id, row.ply, row.mover, row.full_search);
            result.extend_from_slice(&row.result);
            let record = Record::from(row);
            let n = count;
            planes.resize((n + 1) * input, 0.0f32);
            policy.resize((n + 1) * actions, 0.0f32);
            legal.resize((n + 1) * actions, false);
            value.resize((n + 1) * classes, 0.0f32);
            let slot = SampleSlot {
                encoding,
                planes: &mut planes[n * input..],
                policy: &mut policy[n * actions..],
                legal: &mut legal[n * actions..],
                value: &mut value[n * classes..],
            };
            encode_record::<State<V>>(&record, 0, options, 0.0, slot).map_err(|e| {
                PyValueError::new_err(format!("{} row {row_index}: {e}", positions.display()))
            })?;
            mover.push(row_mover);
            full.push(u8::from(row_full));
            generation.push(shard_generation);
            game_id.push(id);
            ply.push(row_ply);
            count += 1;
        }
    }
    let d = PyDict::new(py);
    d.set_item("variant", V::NAME)?;
    d.set_item("count", count)?;
    let put = |name: &str, bytes: Vec<u8>, shape: Vec<usize>| -> PyResult<()> {
        d.set_item(name, (PyBytes::new(py, &bytes), shape))
    };
    let le32 = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    put("planes", le32(&planes), vec![count, layout.planes, layout.height, layout.width])?;
    put("policy", le32(&policy), vec![count, actions])?;
    put("legal", legal.iter().map(|&b| u8::from(b)).collect(), vec![count, actions])?;
    put("value", le32(&value), vec![count, classes])?;
    put("result", le32(&result), vec![count, seats])?;
    put("mover", mover, vec![count])?;
    put("full_search", full, vec![count])?;
    put("generation", generation.iter().flat_map(|g| g.to_le_bytes()).collect(), vec![count])?;
    put("game_id", game_id.iter().flat_map(|g| g.to_le_bytes()).collect(), vec![count])?;
    put("ply", ply.iter().flat_map(|p| p.to_le_bytes()).collect(), vec![count])?;
    Ok(d)
}
