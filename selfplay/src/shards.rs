//! From finished games to parquet shards: a [`ShardWriter`] names the record rows of each
//! [`PlayedGame`] after the session and writes every `games_per_shard` games as one shard.
//!
//! A shard is the unit a run keeps when it is interrupted: games still in flight are played again
//! from their seeds on restart (same seed, same game), and [`ShardWriter::recorded`] tells which ids
//! are already on disk, so nothing is lost or duplicated. After every shard the writer also
//! rewrites the folder's [`SessionFigures`] (`selfplay.toml`), so the figures of a generation
//! played in several sessions cover all of them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::driver::{PlayedGame, SelfPlayStats};
use crate::figures::SessionFigures;
use records::{GameRecord, RecordError, Shard, ShardPaths, list_shards, read_games, write_shard};

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
    /// Game ids already recorded in `dir`.
    recorded: BTreeSet<u64>,
    /// The figures of the earlier sessions in `dir`, and this session's running totals.
    earlier: SessionFigures,
    session: SelfPlayStats,
}

impl ShardWriter {
    /// A writer into `dir`, numbering new shards after the ones already there. The games
    /// already in `dir` must be of the same run, generation and variant, else
    /// [`RecordError::Foreign`]: a folder never mixes games of two runs or games.
    pub fn new(
        dir: &Path,
        run: &str,
        generation: u32,
        variant: &str,
        model: &str,
        games_per_shard: usize,
    ) -> Result<Self, RecordError> {
        let shards = if dir.exists() { list_shards(dir)? } else { Vec::new() };
        let next_index = shards.last().map_or(0, |s| s.index + 1);
        let mut recorded = BTreeSet::new();
        let expected = format!("{variant} games of run {run:?}, generation {generation}");
        for shard in &shards {
            for game in read_games(&shard.games)? {
                if game.run != run || game.generation != generation || game.variant != variant {
                    return Err(RecordError::Foreign {
                        path: shard.games.clone(),
                        found: format!(
                            "{} games of run {:?}, generation {}",
                            game.variant, game.run, game.generation
                        ),
                        expected,
                    });
                }
                recorded.insert(game.game_id);
            }
        }
        let earlier = SessionFigures::read(dir)?.unwrap_or_default();
        Ok(ShardWriter {
            dir: dir.to_path_buf(),
            run: run.to_string(),
            generation,
            variant: variant.to_string(),
            model: model.to_string(),
            games_per_shard: games_per_shard.max(1),
            next_index,
            buffer: Shard { games: Vec::new(), positions: Vec::new() },
            recorded,
            earlier,
            session: SelfPlayStats::default(),
        })
    }

    /// Adds a game under this writer's run, generation, variant and model (a game that names its
    /// player keeps that name), with the session's running totals that count it; writes a shard
    /// when `games_per_shard` games are waiting.
    pub fn push(
        &mut self,
        game: &PlayedGame,
        session: &SelfPlayStats,
    ) -> Result<Option<ShardPaths>, RecordError> {
        self.session.clone_from(session);
        let record = GameRecord {
            run: self.run.clone(),
            generation: self.generation,
            variant: self.variant.clone(),
            model: self.model_of(game),
            ..game.game.clone()
        };
        self.buffer.games.push(record);
        self.buffer.positions.extend_from_slice(&game.positions);
        if self.buffer.games.len() >= self.games_per_shard { self.flush() } else { Ok(None) }
    }

    /// The name a game's record carries: the session's model; a game played by another player
    /// (a teacher's) keeps its name; a game with a sparring partner names the players of its
    /// seats in order (`gen-0012 vs alphabeta:depth=2`).
    fn model_of(&self, game: &PlayedGame) -> String {
        match &game.sparring {
            Some((seat, partner)) => {
                let seats = game.game.result.len();
                let names: Vec<&str> = (0..seats)
                    .map(|s| if s == usize::from(seat.0) { partner } else { &self.model })
                    .map(String::as_str)
                    .collect();
                records::seated_players(&names)
            }
            None if game.game.model.is_empty() => self.model.clone(),
            None => game.game.model.clone(),
        }
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
        self.figures().write(&self.dir)?;
        Ok(Some(paths))
    }

    /// The figures of every session in the folder, this one up to its last game pushed (a
    /// session that pushed nothing is not counted).
    pub fn figures(&self) -> SessionFigures {
        if self.session.games == 0 {
            self.earlier.clone()
        } else {
            self.earlier.plus(&self.session)
        }
    }

    /// The generation of the games this writer records.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    /// The game ids recorded in the folder when the writer was made.
    pub fn recorded(&self) -> &BTreeSet<u64> {
        &self.recorded
    }

    /// The ids `0..games` not recorded yet: what a session completing the folder plays.
    pub fn missing_ids(&self, games: u64) -> Vec<u64> {
        (0..games).filter(|id| !self.recorded.contains(id)).collect()
    }

    /// Games waiting to be written.
    pub fn pending(&self) -> usize {
        self.buffer.games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SelfPlayConfig;
    use crate::driver::{Session, play};
    use games::{Camelot, Game};
    use search::{MctsConfig, UniformEvaluator};

    #[test]
    fn games_go_to_shards_and_ids_are_remembered() {
        let dir = std::env::temp_dir().join(format!("cz-shards-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let config =
            SelfPlayConfig { games_in_flight: 2, max_moves: 6, ..SelfPlayConfig::default() };
        let mcts = MctsConfig { simulations: 4, ..MctsConfig::default() };
        let start = |_: u64| Camelot::initial();
        let session = Session::new(&config, &mcts, (0..5).collect(), 3, &start);
        let mut writer = ShardWriter::new(&dir, "t", 0, "camelot", "uniform", 2).unwrap();
        let mut written = 0;
        play(
            &session,
            &|_| UniformEvaluator,
            |g, s| {
                written += writer.push(&g, s).map_err(|e| e.to_string())?.is_some() as usize;
                Ok(())
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(written, 2);
        assert_eq!(writer.pending(), 1);
        writer.flush().unwrap();
        let shards = list_shards(&dir).unwrap();
        assert_eq!(shards.len(), 3);
        let figures = SessionFigures::read(&dir).unwrap().unwrap();
        assert_eq!((figures.sessions, figures.games), (1, 5));
        assert!(figures.evaluations > 0 && figures.seconds > 0.0, "{figures:?}");
        let again = ShardWriter::new(&dir, "t", 0, "camelot", "uniform", 2).unwrap();
        assert_eq!(again.next_index, 3, "a reopened writer numbers after the existing shards");
        assert_eq!(again.recorded(), &(0..5).collect::<BTreeSet<u64>>());
        assert_eq!(again.missing_ids(7), [5, 6]);
        assert_eq!(again.figures(), figures);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
