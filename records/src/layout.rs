//! File names of a shard and the listing of a shard directory.
//!
//! Names are canonical: `games-NNNNNN.parquet` / `positions-NNNNNN.parquet` with the index
//! zero-padded to at least six digits, and temporaries `.<name>.tmp` (hidden, so that globbing
//! `*.parquet` never picks one up). Files with any other name are not the records' business and
//! are ignored.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::RecordError;

const GAMES_PREFIX: &str = "games-";
const POSITIONS_PREFIX: &str = "positions-";
const SUFFIX: &str = ".parquet";

/// The two files of one shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardPaths {
    pub index: u32,
    pub games: PathBuf,
    pub positions: PathBuf,
}

impl ShardPaths {
    /// The paths of shard `index` in `dir` (whether or not they exist).
    pub fn new(dir: &Path, index: u32) -> Self {
        ShardPaths {
            index,
            games: dir.join(file_name(GAMES_PREFIX, index)),
            positions: dir.join(file_name(POSITIONS_PREFIX, index)),
        }
    }

    /// The paths of the shard whose games file is `games`; the name must be canonical.
    pub fn from_games_path(games: &Path) -> Result<Self, RecordError> {
        let not_a_shard = || RecordError::NotAShardName { path: games.to_path_buf() };
        let name = games.file_name().and_then(|n| n.to_str()).ok_or_else(not_a_shard)?;
        let index = parse_index(name, GAMES_PREFIX).ok_or_else(not_a_shard)?;
        let dir = games.parent().unwrap_or(Path::new(""));
        Ok(ShardPaths::new(dir, index))
    }
}

fn file_name(prefix: &str, index: u32) -> String {
    format!("{prefix}{index:06}{SUFFIX}")
}

/// The index of a canonical `<prefix>NNNNNN.parquet` name. Only the canonical spelling is
/// accepted so that one index cannot have two files (`games-3` and `games-000003`).
fn parse_index(name: &str, prefix: &str) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?.strip_suffix(SUFFIX)?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let index: u32 = digits.parse().ok()?;
    (file_name(prefix, index) == name).then_some(index)
}

/// What [`scan_shards`] found in a directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardListing {
    /// Complete shards (games file and positions file), sorted by index.
    pub shards: Vec<ShardPaths>,
    /// Positions files without a games file: interrupted writes, ignored.
    pub orphan_positions: Vec<PathBuf>,
    /// `*.tmp` files: interrupted writes, ignored.
    pub tmp_leftovers: Vec<PathBuf>,
    /// Zero-byte games files: a write cut short (renamed before its data reached the disk, or
    /// truncated since), ignored like the other leftovers; their games count as not recorded
    /// and are played again, and a new shard of the same index replaces the file.
    pub empty_games: Vec<PathBuf>,
}

impl ShardListing {
    /// Number of ignored leftovers, for a warning.
    pub fn warnings(&self) -> usize {
        self.orphan_positions.len() + self.tmp_leftovers.len() + self.empty_games.len()
    }
}

/// Lists a shard directory: complete shards, and the leftovers of interrupted writes.
///
/// A games file without its positions file cannot come from an interrupted write (positions are
/// renamed into place first), so it is an error ([`RecordError::MissingPositions`]) rather than
/// a warning. A zero-byte games file is not a shard (see [`ShardListing::empty_games`]): every
/// reader (training, statistics, the generation loop) follows this one listing.
pub fn scan_shards(dir: &Path) -> Result<ShardListing, RecordError> {
    let mut games = BTreeMap::new();
    let mut positions = BTreeMap::new();
    let mut listing = ShardListing::default();
    for entry in std::fs::read_dir(dir).map_err(|e| RecordError::io(dir, e))? {
        let entry = entry.map_err(|e| RecordError::io(dir, e))?;
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else { continue };
        if name.ends_with(".tmp") {
            listing.tmp_leftovers.push(entry.path());
        } else if let Some(index) = parse_index(&name, GAMES_PREFIX) {
            if is_empty_file(&entry.path()) {
                listing.empty_games.push(entry.path());
            } else {
                games.insert(index, entry.path());
            }
        } else if let Some(index) = parse_index(&name, POSITIONS_PREFIX) {
            positions.insert(index, entry.path());
        }
    }
    for (index, games_path) in games {
        if positions.remove(&index).is_none() {
            return Err(RecordError::MissingPositions { path: games_path });
        }
        listing.shards.push(ShardPaths::new(dir, index));
    }
    listing.orphan_positions = positions.into_values().collect();
    listing.tmp_leftovers.sort();
    listing.empty_games.sort();
    Ok(listing)
}

/// A regular file of zero bytes.
pub(crate) fn is_empty_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0)
}

/// The complete shards of `dir`, sorted by index (see [`scan_shards`] for the leftovers it
/// ignores).
pub fn list_shards(dir: &Path) -> Result<Vec<ShardPaths>, RecordError> {
    Ok(scan_shards(dir)?.shards)
}

/// The prefix of a worker's sub-folder of a generation's games folder: the shards of worker
/// `ID` are in `w-ID/` (so that workers on many machines never take each other's names).
pub const WORKER_DIR_PREFIX: &str = "w-";

/// The complete shards of a generation's games folder: its own, then those of its workers'
/// `w-*` sub-folders (by folder name), each sorted by index. A missing folder has none.
pub fn list_generation_shards(dir: &Path) -> Result<Vec<ShardPaths>, RecordError> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut shards = list_shards(dir)?;
    let mut workers = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| RecordError::io(dir, e))? {
        let entry = entry.map_err(|e| RecordError::io(dir, e))?;
        let is_worker =
            entry.file_name().to_str().is_some_and(|n| n.starts_with(WORKER_DIR_PREFIX));
        if is_worker && entry.file_type().is_ok_and(|t| t.is_dir()) {
            workers.push(entry.path());
        }
    }
    workers.sort();
    for worker in workers {
        shards.extend(list_shards(&worker)?);
    }
    Ok(shards)
}
