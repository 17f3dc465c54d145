//! From finished games to parquet shards: a [`ShardWriter`] names the record rows of each
//! [`PlayedGame`] after the session and writes every `games_per_shard` games as one shard.
//!
//! A shard is the unit a run keeps when it is interrupted: games still in flight are played again
//! from their seeds on restart (same seed, same game), and [`recorded_game_ids`] tells which ids
//! are already on disk, so nothing is lost or duplicated.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::driver::PlayedGame;
use crate::record::{
    GameRecord, RecordError, Shard, ShardPaths, list_shards, read_games, write_shard,
};

/// Collects finished games and writes them as shards of `games_per_shard` games.
pub struct ShardWriter {
    dir: PathBuf,
    run: String,
    generation: u32,
    variant: String,
    model: String,
    games_per_shard: usize,
    next_index: u32,
    buffer: Shard,
}

impl ShardWriter {
    /// A writer into `dir`, numbering new shards after the ones already there.
    ///
    /// `_num_players` is not needed any more (the driver sizes every per-seat list by the game's
    /// seats, and [`write_shard`] checks them against `variant`); it stays until the binary's
    /// callers drop it.
    pub fn new(
        dir: &Path,
        run: &str,
        generation: u32,
        variant: &str,
        model: &str,
        _num_players: usize,
        games_per_shard: usize,
    ) -> Result<Self, RecordError> {
        let next_index =
            if dir.exists() { list_shards(dir)?.last().map_or(0, |s| s.index + 1) } else { 0 };
        Ok(ShardWriter {
            dir: dir.to_path_buf(),
            run: run.to_string(),
            generation,
            variant: variant.to_string(),
            model: model.to_string(),
            games_per_shard: games_per_shard.max(1),
            next_index,
            buffer: Shard { games: Vec::new(), positions: Vec::new() },
        })
    }

    /// Adds a game under this writer's run, generation, variant and model; writes a shard when
    /// `games_per_shard` games are waiting.
    pub fn push(&mut self, game: &PlayedGame) -> Result<Option<ShardPaths>, RecordError> {
        let record = GameRecord {
            run: self.run.clone(),
            generation: self.generation,
            variant: self.variant.clone(),
            model: self.model.clone(),
            ..game.game.clone()
        };
        self.buffer.games.push(record);
        self.buffer.positions.extend_from_slice(&game.positions);
        if self.buffer.games.len() >= self.games_per_shard { self.flush() } else { Ok(None) }
    }

    /// Writes the games still waiting, if any, as a (smaller) shard.
    pub fn flush(&mut self) -> Result<Option<ShardPaths>, RecordError> {
        if self.buffer.games.is_empty() {
            return Ok(None);
        }
        let shard =
            std::mem::replace(&mut self.buffer, Shard { games: Vec::new(), positions: Vec::new() });
        let paths = write_shard(&self.dir, self.next_index, &self.run, self.generation, &shard)?;
        self.next_index += 1;
        Ok(Some(paths))
    }

    /// Games waiting to be written.
    pub fn pending(&self) -> usize {
        self.buffer.games.len()
    }
}

/// The game ids already recorded in the complete shards of `dir` (empty if it does not exist).
pub fn recorded_game_ids(dir: &Path) -> Result<BTreeSet<u64>, RecordError> {
    let mut ids = BTreeSet::new();
    if dir.exists() {
        for shard in list_shards(dir)? {
            ids.extend(read_games(&shard.games)?.into_iter().map(|g| g.game_id));
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{Session, play};
    use crate::{MctsConfig, SelfPlayConfig, UniformEvaluator};
    use games::{Camelot, Game};

    #[test]
    fn games_go_to_shards_and_ids_are_remembered() {
        let dir = std::env::temp_dir().join(format!("cz-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config =
            SelfPlayConfig { games_in_flight: 2, max_moves: 6, ..SelfPlayConfig::default() };
        let mcts = MctsConfig { simulations: 4, ..MctsConfig::default() };
        let start = |_: u64| Camelot::initial();
        let session = Session {
            config: &config,
            mcts: &mcts,
            game_ids: (0..5).collect(),
            seed: 3,
            start: &start,
            stop: None,
        };
        let mut writer = ShardWriter::new(&dir, "t", 0, "camelot", "uniform", 2, 2).unwrap();
        let mut written = 0;
        play(
            &session,
            &|_| UniformEvaluator,
            |g| {
                written += writer.push(&g).map_err(|e| e.to_string())?.is_some() as usize;
                Ok(())
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(written, 2);
        assert_eq!(writer.pending(), 1);
        writer.flush().unwrap();
        assert_eq!(recorded_game_ids(&dir).unwrap(), (0..5).collect());
        let shards = list_shards(&dir).unwrap();
        assert_eq!(shards.len(), 3);
        let again = ShardWriter::new(&dir, "t", 0, "camelot", "uniform", 2, 2).unwrap();
        assert_eq!(again.next_index, 3, "a reopened writer numbers after the existing shards");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
