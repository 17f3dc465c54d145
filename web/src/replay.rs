//! Recorded games for the Replay view: the collections (a run's generations of self-play
//! games, the ladder's games of a model, a folder an `arena --out` wrote), the games of one,
//! and one game replayed by the rules with the values its searches recorded.

use std::path::{Path, PathBuf};

use games::{State, Variant, VariantKind};
use records::{GameRecord, PositionRow, ShardPaths, read_games, read_shard, scan_shards};
use serde::Serialize;

use crate::error::ServeError;
use crate::view::parse_game;

/// The folders of a run that hold generations of shards, and what their games are.
const COLLECTIONS: [(&str, &str); 2] = [("games", "self-play"), ("ladder", "ladder")];

/// The id prefix of the folders of shards given outside a run (`arena/0`, `arena/1`, ...).
const ARENA: &str = "arena";

/// One folder of shards: `id` is `games/gen-0003`, `ladder/gen-0012` or `arena/0` (the first
/// folder given outside the run); `generation` is `None` for those.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CollectionView {
    pub id: String,
    pub kind: &'static str,
    pub generation: Option<u32>,
    /// Where it is, for a reader: the run's sub-folder or the folder given.
    pub folder: String,
}

/// A game in a collection's list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    pub shard: u32,
    pub game_id: u64,
    pub variant: String,
    pub model: String,
    pub plies: u32,
    pub result: Vec<f32>,
    pub termination: &'static str,
}

/// One game replayed: `positions[i]` is the position before move `i` (and the last one after
/// the last move); `values[i]` and `net_values[i]` what the recorded search and the network
/// gave per seat at the start of move `i` (`None` where no decision of it was recorded).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayView {
    pub variant: String,
    pub model: String,
    pub start: String,
    pub moves: Vec<String>,
    pub positions: Vec<String>,
    pub values: Vec<Option<Vec<f32>>>,
    pub net_values: Vec<Option<Vec<f32>>>,
    pub result: Vec<f32>,
    pub termination: &'static str,
}

/// The records the server was given: a run folder, folders of shards, or both.
pub struct RunRecords {
    run: Option<PathBuf>,
    folders: Vec<PathBuf>,
}

impl RunRecords {
    /// The records of the run at `run` and of the shard folders `folders` (each must be a
    /// folder); `None` when there are none.
    pub fn open(run: Option<&Path>, folders: &[PathBuf]) -> Result<Option<RunRecords>, ServeError> {
        let missing = |what: &str, dir: &Path| {
            ServeError::Startup(format!("{what} {}: no such folder", dir.display()))
        };
        if let Some(dir) = run.filter(|d| !d.is_dir()) {
            return Err(missing("--run", dir));
        }
        if let Some(dir) = folders.iter().find(|d| !d.is_dir()) {
            return Err(missing("--games", dir));
        }
        if run.is_none() && folders.is_empty() {
            return Ok(None);
        }
        Ok(Some(RunRecords { run: run.map(Path::to_path_buf), folders: folders.to_vec() }))
    }

    /// The run's name (its folder's), or `records` without a run.
    pub fn name(&self) -> String {
        self.run.as_ref().map_or_else(
            || "records".to_string(),
            |dir| {
                dir.file_name()
                    .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned())
            },
        )
    }

    /// Every collection that holds at least one complete shard: the run's self-play by
    /// generation, its ladder's, then the folders given.
    pub fn collections(&self) -> Result<Vec<CollectionView>, ServeError> {
        let mut out = Vec::new();
        for (folder, kind) in COLLECTIONS {
            let Some(run) = &self.run else { break };
            let root = run.join(folder);
            if !root.is_dir() {
                continue;
            }
            let dirs = train::list_generation_dirs(&root)
                .map_err(|e| ServeError::Records(format!("listing {}: {e}", root.display())))?;
            for (generation, dir) in dirs {
                let listing = scan_shards(&dir).map_err(|e| ServeError::Records(e.to_string()))?;
                if !listing.shards.is_empty() {
                    let id = format!("{folder}/{}", train::generation_dir_name(generation));
                    let folder = dir.display().to_string();
                    out.push(CollectionView { id, kind, generation: Some(generation), folder });
                }
            }
        }
        for (i, dir) in self.folders.iter().enumerate() {
            out.push(CollectionView {
                id: format!("{ARENA}/{i}"),
                kind: "arena",
                generation: None,
                folder: dir.display().to_string(),
            });
        }
        Ok(out)
    }

    /// The folder of the collection `id`, which must be one [`RunRecords::collections`] lists
    /// (so no request reaches outside the run).
    fn collection_dir(&self, id: &str) -> Result<PathBuf, ServeError> {
        let unknown = || ServeError::NotFound(format!("no collection {id:?} in this run"));
        let (folder, name) = id.split_once('/').ok_or_else(unknown)?;
        if folder == ARENA {
            let i: usize = name.parse().map_err(|_| unknown())?;
            return self
                .folders
                .get(i)
                .filter(|_| name == i.to_string())
                .cloned()
                .ok_or_else(unknown);
        }
        let run = self.run.as_ref().ok_or_else(unknown)?;
        let generation = train::generations::parse_generation_dir_name(name).ok_or_else(unknown)?;
        if !COLLECTIONS.iter().any(|(f, _)| *f == folder)
            || train::generation_dir_name(generation) != name
        {
            return Err(unknown());
        }
        let dir = run.join(folder).join(name);
        if dir.is_dir() { Ok(dir) } else { Err(unknown()) }
    }

    /// The games of collection `id`, by shard and then as recorded.
    pub fn games(&self, id: &str) -> Result<Vec<GameSummary>, ServeError> {
        let dir = self.collection_dir(id)?;
        let listing = scan_shards(&dir).map_err(|e| ServeError::Records(e.to_string()))?;
        let mut out = Vec::new();
        for shard in listing.shards {
            let games = read_games(&shard.games).map_err(|e| ServeError::Records(e.to_string()))?;
            out.extend(games.into_iter().map(|g| GameSummary {
                shard: shard.index,
                game_id: g.game_id,
                variant: g.variant,
                model: g.model,
                plies: g.plies,
                result: g.result,
                termination: g.termination.as_str(),
            }));
        }
        Ok(out)
    }

    /// Game `game_id` of shard `shard` of collection `id`, replayed.
    pub fn game(&self, id: &str, shard: u32, game_id: u64) -> Result<ReplayView, ServeError> {
        let paths = ShardPaths::new(&self.collection_dir(id)?, shard);
        if !paths.games.is_file() {
            return Err(ServeError::NotFound(format!("no shard {shard} in {id}")));
        }
        let records = read_shard(&paths.games).map_err(|e| ServeError::Records(e.to_string()))?;
        let game =
            records.games.iter().find(|g| g.game_id == game_id).ok_or_else(|| {
                ServeError::NotFound(format!("no game {game_id} in shard {shard}"))
            })?;
        let rows: Vec<&PositionRow> =
            records.positions.iter().filter(|p| p.game_id == game_id).collect();
        let kind: VariantKind = parse_game(&game.variant)?;
        let positions = games::with_variant!(kind, V => positions::<V>(game))?;
        // The first recorded decision of each move is the search at its start.
        let mut values = vec![None; game.moves.len()];
        let mut net_values = vec![None; game.moves.len()];
        for row in rows.iter().rev() {
            if let Some(slot) = values.get_mut(row.move_number as usize) {
                *slot = Some(row.root_values.clone());
                net_values[row.move_number as usize] = Some(row.net_values.clone());
            }
        }
        Ok(ReplayView {
            variant: game.variant.clone(),
            model: game.model.clone(),
            start: game.start_position.clone(),
            moves: game.moves.clone(),
            positions,
            values,
            net_values,
            result: game.result.clone(),
            termination: game.termination.as_str(),
        })
    }
}

/// The position strings of `game` before each move and after the last, by the rules (under
/// either Knight's-canter rule, as the records do not say which one the game was played with).
fn positions<V: Variant>(game: &GameRecord) -> Result<Vec<String>, ServeError> {
    selfplay::stats::replay::under_either_rule(|knight_canter| {
        let start =
            selfplay::stats::replay::start_position::<V>(&game.start_position, knight_canter)?;
        let mut state = State::new(start);
        let mut out = vec![state.to_string()];
        for (i, m) in game.moves.iter().enumerate() {
            state = state
                .after_move(m)
                .map_err(|e| format!("move {} `{m}` cannot be replayed: {e}", i + 1))?;
            out.push(state.to_string());
        }
        Ok(out)
    })
    .map_err(ServeError::Records)
}
