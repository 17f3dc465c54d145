//! What two run directories hold, compared as the resume tests compare them (the in-process
//! loop test, the binary's random-kill test): the records of a shard folder in a fixed order,
//! the cells of a metrics CSV that do not depend on wall time, a checkpoint's weights bit for bit.

use std::path::Path;

use records::{GameRecord, PositionRow, list_shards, read_games, read_positions};

/// The columns of `metrics.csv` and `generations.csv` that depend on wall time or on how a
/// generation's self-play was split into sessions (each session's evaluation cache starts
/// empty).
pub const TIMED: [&str; 8] = [
    "samples_per_sec",
    "seconds",
    "evaluations_per_sec",
    "cache_hit_rate",
    "selfplay_seconds",
    "train_seconds",
    "selfplay_share",
    "run_seconds",
];

/// Every game and position of a shard folder (none if it does not exist), in game id (and
/// ply) order. Panics on unreadable records: a test helper.
pub fn records(dir: &Path) -> (Vec<GameRecord>, Vec<PositionRow>) {
    let (mut games, mut positions) = (Vec::new(), Vec::new());
    if dir.exists() {
        for shard in list_shards(dir).unwrap() {
            games.extend(read_games(&shard.games).unwrap());
            positions.extend(read_positions(&shard.positions).unwrap());
        }
    }
    games.sort_by_key(|g| g.game_id);
    positions.sort_by_key(|p| (p.game_id, p.ply));
    (games, positions)
}

/// The cells of a CSV file but the [`TIMED`] ones, row by row.
pub fn timeless_cells(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            l.split(',')
                .zip(&header)
                .filter(|(_, h)| !TIMED.contains(h))
                .map(|(c, _)| c.to_string())
                .collect()
        })
        .collect()
}

/// Every weight of the checkpoint in `dir` (of `variant`), bit for bit: tensor values, not file
/// bytes (burn writes random parameter ids into the file).
pub fn weights(dir: &Path, variant: &str) -> Vec<(String, Vec<u32>)> {
    let checkpoint = model::checkpoint::load(dir, variant).unwrap();
    model::named_weights::named_tensors(&checkpoint.net)
        .unwrap()
        .into_iter()
        .map(|t| (t.name, t.values.iter().map(|v| v.to_bits()).collect()))
        .collect()
}
