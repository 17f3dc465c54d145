//! Per-generation figures from the run's parquet game records (`games/gen-NNNN/games-*.parquet`):
//! how many games, how long they were, and how they ended.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use games::Termination;
use records::{GameRecord, list_generation_shards, read_games};

use crate::run_data::RunDataError;

/// The games of one generation, summarised.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationGames {
    pub generation: u32,
    pub games: usize,
    /// Game lengths in complete moves, sorted.
    pub lengths: Vec<u32>,
    /// Games per termination name (every name of [`Termination::ALL`] present, possibly 0).
    pub terminations: BTreeMap<String, usize>,
}

impl GenerationGames {
    /// Summarises the games of one generation.
    pub fn new(generation: u32, games: &[GameRecord]) -> GenerationGames {
        let mut lengths: Vec<u32> = games.iter().map(|g| g.plies).collect();
        lengths.sort_unstable();
        let mut terminations: BTreeMap<String, usize> =
            Termination::ALL.iter().map(|t| (t.as_str().to_string(), 0)).collect();
        for g in games {
            *terminations.entry(g.termination.as_str().to_string()).or_default() += 1;
        }
        GenerationGames { generation, games: games.len(), lengths, terminations }
    }

    /// Mean length in moves (0 without games).
    pub fn mean_length(&self) -> f64 {
        if self.lengths.is_empty() {
            return 0.0;
        }
        self.lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / self.lengths.len() as f64
    }

    /// The length below which a fraction `q` (0..=1) of the games lie (nearest rank; 0 without
    /// games).
    pub fn length_quantile(&self, q: f64) -> f64 {
        if self.lengths.is_empty() {
            return 0.0;
        }
        let i = ((self.lengths.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
        f64::from(self.lengths[i])
    }

    /// The share (0..=1) of games that ended by `termination`.
    pub fn share(&self, termination: &str) -> f64 {
        let n = self.terminations.get(termination).copied().unwrap_or(0);
        if self.games == 0 { 0.0 } else { n as f64 / self.games as f64 }
    }
}

/// The summaries of generation folders already read, each with the files it was read from, so
/// that a reader that comes back (the live run page, every two seconds) decodes only the
/// folders whose shards changed: on a long run, the newest one.
#[derive(Debug, Default)]
pub struct GamesCache {
    folders: HashMap<PathBuf, (Vec<ShardStamp>, Option<GenerationGames>)>,
}

/// A games file as listed: its path, length and modification time.
type ShardStamp = (PathBuf, u64, Option<SystemTime>);

#[cfg(test)]
impl GamesCache {
    /// How many folders it holds.
    fn len(&self) -> usize {
        self.folders.len()
    }
}

/// Reads the games of every generation folder `games/gen-NNNN/` of a run, in generation order.
/// Folders without complete shards are left out; a record that cannot be read is bad input
/// naming the file.
pub fn read_run_games(run_dir: &Path) -> Result<Vec<GenerationGames>, RunDataError> {
    read_run_games_cached(run_dir, &mut GamesCache::default())
}

/// [`read_run_games`], reading again only the folders whose games files are not the ones
/// `cache` read (another set, length or modification time); it keeps what it reads.
pub fn read_run_games_cached(
    run_dir: &Path,
    cache: &mut GamesCache,
) -> Result<Vec<GenerationGames>, RunDataError> {
    let games_dir = run_dir.join("games");
    let entries = match std::fs::read_dir(&games_dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(RunDataError::Bad(format!("{}: {e}", games_dir.display()))),
    };
    let mut generations: Vec<(u32, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let g = name.strip_prefix("gen-")?.parse::<u32>().ok()?;
            e.path().is_dir().then_some((g, e.path()))
        })
        .collect();
    generations.sort();
    let mut out = Vec::new();
    for (g, dir) in generations {
        let shards = list_generation_shards(&dir)
            .map_err(|e| RunDataError::Bad(format!("game records: {e}")))?;
        let stamps: Vec<ShardStamp> = shards
            .iter()
            .map(|s| {
                let meta = std::fs::metadata(&s.games).ok();
                let len = meta.as_ref().map_or(0, |m| m.len());
                (s.games.clone(), len, meta.and_then(|m| m.modified().ok()))
            })
            .collect();
        if let Some((known, summary)) = cache.folders.get(&dir)
            && *known == stamps
        {
            out.extend(summary.clone());
            continue;
        }
        let mut games = Vec::new();
        for shard in shards {
            games.extend(
                read_games(&shard.games)
                    .map_err(|e| RunDataError::Bad(format!("game records: {e}")))?,
            );
        }
        let summary = (!games.is_empty()).then(|| GenerationGames::new(g, &games));
        out.extend(summary.clone());
        cache.folders.insert(dir, (stamps, summary));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Termination;

    fn game(plies: u32, termination: Termination) -> GameRecord {
        GameRecord {
            run: "t".into(),
            generation: 0,
            game_id: 0,
            variant: "camelot".into(),
            seed: 0,
            start_position: "start".into(),
            moves: vec!["A1-A2".into(); plies as usize],
            result: vec![0.5, 0.5],
            termination,
            plies,
            model: "random".into(),
        }
    }

    #[test]
    fn lengths_and_termination_shares() {
        let games = [
            game(30, Termination::MoveLimit),
            game(10, Termination::Castle),
            game(20, Termination::MoveLimit),
            game(40, Termination::MoveLimit),
        ];
        let s = GenerationGames::new(3, &games);
        assert_eq!(s.lengths, [10, 20, 30, 40]);
        assert_eq!(s.mean_length(), 25.0);
        assert_eq!(s.length_quantile(0.0), 10.0);
        assert_eq!(s.length_quantile(1.0), 40.0);
        assert_eq!(s.share("move-limit"), 0.75);
        assert_eq!(s.share("castle"), 0.25);
        assert_eq!(s.share("resign"), 0.0);
        assert_eq!(s.terminations.len(), Termination::ALL.len());
        let empty = GenerationGames::new(0, &[]);
        assert_eq!((empty.mean_length(), empty.share("castle")), (0.0, 0.0));
    }

    /// A folder is decoded again only when its games files change: a poll of an unchanged run
    /// reads what the cache holds, a new shard is read.
    #[test]
    fn the_cache_reads_a_folder_again_only_when_its_shards_change() {
        let dir = storage::ScratchDir::new("run-games-cache").unwrap();
        let folder = dir.join("games").join("gen-0000");
        std::fs::create_dir_all(&folder).unwrap();
        let write = |index: u32, games: Vec<GameRecord>| {
            let shard = records::Shard { games, positions: Vec::new() };
            records::write_shard(&folder, index, "t", 0, &shard).unwrap();
        };
        write(0, vec![game(10, Termination::Castle)]);
        let mut cache = GamesCache::default();
        let first = read_run_games_cached(&dir, &mut cache).unwrap();
        assert_eq!((first.len(), first[0].games, cache.len()), (1, 1, 1));
        // Unchanged: the same summary, from the cache.
        assert_eq!(read_run_games_cached(&dir, &mut cache).unwrap(), first);
        // A shard more: read again.
        let (mut b, mut c) = (game(20, Termination::Castle), game(30, Termination::MoveLimit));
        (b.game_id, c.game_id) = (1, 2);
        write(1, vec![b, c]);
        let second = read_run_games_cached(&dir, &mut cache).unwrap();
        assert_eq!(second[0].games, 3);
        assert_eq!(second, read_run_games(&dir).unwrap(), "as read without a cache");
    }

    #[test]
    fn a_run_without_games_has_no_generations() {
        let dir = std::env::temp_dir().join(format!("cz-report-games-{}", std::process::id()));
        assert!(read_run_games(&dir).unwrap().is_empty());
    }
}
