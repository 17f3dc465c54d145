//! Game records: the `games` and `positions` tables of self-play, stored as parquet **shards**.
//!
//! A shard with index `N` is two files in one directory (e.g. `data/<run>/games/gen-0003/`):
//! `games-NNNNNN.parquet` (one row per game, [`GameRecord`]) and `positions-NNNNNN.parquet`
//! (one row per searched decision, [`PositionRow`]). Both are plain parquet files with the Arrow
//! schemas of [`games_schema`] and [`positions_schema`] (snappy-compressed), readable as they are
//! by pyarrow, polars and DuckDB. `run`, `generation` and `variant` are repeated on every position
//! row so that a query over positions alone can filter on them.
//!
//! # Atomic-rename protocol
//!
//! [`write_shard`] never lets a reader see half a shard:
//! 1. each file is written to a hidden temporary name in the same directory
//!    (`.positions-NNNNNN.parquet.tmp`, `.games-NNNNNN.parquet.tmp`), flushed and fsynced;
//! 2. the positions file is renamed into place first, the games file last, and the directory is
//!    fsynced after each rename.
//!
//! So **a shard is complete exactly when its games file exists**. A positions file without its
//! games file is the leftover of an interrupted write: [`scan_shards`] reports it (and `*.tmp`
//! leftovers) as warnings, [`list_shards`] leaves it out, and a later [`write_shard`] of the same
//! index replaces it. A shard whose games file exists is never overwritten: writing it again is
//! [`RecordError::ShardExists`]. Two processes writing the *same* index at once is not supported.
//!
//! # Reading
//!
//! The readers check the file's schema against the expected one before reading any row (extra
//! columns are ignored), then the `schema_version` of every row, then every value
//! ([`RecordError::InvalidValue`]); nothing is skipped silently and no input makes them panic.
//!
//! ```
//! use games::Termination;
//! use records::{GameRecord, Shard, list_shards, read_shard, write_shard};
//!
//! let dir = std::env::temp_dir().join(format!("record-doc-{}", std::process::id()));
//! let game = GameRecord {
//!     run: "demo".into(), generation: 0, game_id: 1, variant: "camelot".into(), seed: 7,
//!     start_position: "start".into(), moves: vec![], result: vec![0.5, 0.5],
//!     termination: Termination::MoveLimit, plies: 0, model: "random".into(),
//! };
//! let shard = Shard { games: vec![game], positions: vec![] };
//! let paths = write_shard(&dir, 0, "demo", 0, &shard).unwrap();
//! assert_eq!(list_shards(&dir).unwrap(), vec![paths.clone()]);
//! assert_eq!(read_shard(&paths.games).unwrap(), shard);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod batch;
pub mod collection;
mod columns;
mod error;
mod layout;
mod quiet_panics;
mod read;
pub mod sample;
mod schema;
mod source;
mod thrift_check;
mod validate;
mod write;

#[cfg(test)]
mod tests;

use games::Termination;

pub use error::RecordError;
pub use layout::{
    ShardListing, ShardPaths, WORKER_DIR_PREFIX, list_generation_shards, list_shards, scan_shards,
};
pub use quiet_panics::install_quiet_panic_hook;
pub use read::{read_games, read_positions, read_shard};
pub use schema::{games_schema, positions_schema};
pub use write::write_shard;

/// Version of the two table schemas, stored in the `schema_version` column of every row (and in
/// the file's key-value metadata). Bump it with any change to a schema; readers reject other
/// versions.
pub const SCHEMA_VERSION: u16 = 1;

/// One finished (or adjudicated) game.
///
/// Contract (checked on write and on read): `variant` is a [`games::VariantKind`] name, `result` has one
/// finite entry per seat of the variant, and `plies == moves.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub run: String,
    pub generation: u32,
    /// Unique within the shard; positions refer to it.
    pub game_id: u64,
    /// `"camelot"` or `"tricamelot"`.
    pub variant: String,
    pub seed: u64,
    /// The position string the game started from.
    pub start_position: String,
    /// Complete moves in official notation, in order.
    pub moves: Vec<String>,
    /// Final score share per seat.
    pub result: Vec<f32>,
    pub termination: Termination,
    /// Number of complete moves played.
    pub plies: u32,
    /// Checkpoint name, or `"random"`/`"uniform"` for games without a network; a game whose
    /// seats had different players names them in seat order joined by ` vs `
    /// ([`seated_players`]), e.g. `gen-0012 vs alphabeta:depth=2`.
    pub model: String,
}

/// The `model` of a game whose seats had different players: their names in seat order, joined
/// by ` vs `.
pub fn seated_players<S: AsRef<str>>(names: &[S]) -> String {
    names.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(" vs ")
}

/// The players a game's `model` names, in seat order: one for a game with one player at every
/// seat (a model's self-play game, a teacher's game), else one per seat ([`seated_players`]).
pub fn model_players(model: &str) -> impl Iterator<Item = &str> {
    model.split(" vs ")
}

/// One searched decision (one action) of a game.
///
/// Contract (checked on write and on read): `policy_actions` and `policy_target` have the same
/// length (at least 1), the targets are finite, non-negative and sum to 1 (within 1e-3); `mover`,
/// `root_values`, `net_values` and `result` fit the seats of the game's variant (values finite);
/// `game_id` names a game of the same shard.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRow {
    pub game_id: u64,
    /// Index of the decision (action) within the game.
    pub ply: u32,
    /// Complete moves played before this decision.
    pub move_number: u32,
    /// The state's `Display` string; it may end in ` move=...` for a move in progress.
    pub position: String,
    /// Seat of the player to move.
    pub mover: u8,
    /// Action indices, in the mover's frame.
    pub policy_actions: Vec<u16>,
    /// Visit fractions of `policy_actions`, same length, summing to 1.
    pub policy_target: Vec<f32>,
    /// Search value of the root, per seat.
    pub root_values: Vec<f32>,
    /// Network value of the root, per seat.
    pub net_values: Vec<f32>,
    /// Final result of the game, per seat.
    pub result: Vec<f32>,
    /// Whether this decision got a full search (as opposed to a cheap one under playout cap
    /// randomisation); only full searches are policy training targets.
    pub full_search: bool,
}

impl PositionRow {
    /// The first decision (game 0, ply 0) of a game at `state`, whose search spread its target
    /// evenly over every legal action, with `result` as its root, network and final values: a
    /// row for tests of what reads rows (the trainer's targets, the teacher's filters).
    pub fn uniform<G: games::Game>(state: &G, result: Vec<f32>, full_search: bool) -> Self {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let policy_actions: Vec<u16> =
            legal.iter().map(|&a| state.action_index(a) as u16).collect();
        let n = policy_actions.len();
        PositionRow {
            game_id: 0,
            ply: 0,
            move_number: 0,
            position: state.to_string(),
            mover: state.to_move().0,
            policy_actions,
            policy_target: vec![1.0 / n as f32; n],
            root_values: result.clone(),
            net_values: result.clone(),
            result,
            full_search,
        }
    }
}

/// The games and positions of one shard.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shard {
    pub games: Vec<GameRecord>,
    pub positions: Vec<PositionRow>,
}

/// Number of seats of a variant name, `None` for an unknown name.
pub fn variant_seats(variant: &str) -> Option<usize> {
    variant.parse::<games::VariantKind>().ok().map(games::VariantKind::num_players)
}
