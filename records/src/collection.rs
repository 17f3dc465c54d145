//! A collection of games: the `games` files under the paths given on the command line (files or
//! folders, searched for shards), read with the record reader, and the generation and variant
//! filters the statistics and the Python reader apply.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::{GameRecord, RecordError, read_games, scan_shards};

/// A game with the file it was read from (for error messages).
#[derive(Clone, Debug, PartialEq)]
pub struct SourcedGame {
    pub file: PathBuf,
    pub record: GameRecord,
}

/// Everything that makes the statistics refuse their input; all of it is bad user input.
#[derive(Debug, thiserror::Error)]
pub enum StatsError {
    #[error("{}: no such file or directory", path.display())]
    Missing { path: PathBuf },
    #[error(
        "{}: not a .parquet file (give a run directory, a games directory or games-NNNNNN.parquet files)",
        path.display()
    )]
    NotParquet { path: PathBuf },
    #[error("{}: no games files (games-NNNNNN.parquet) in it or below it", path.display())]
    NoGamesFiles { path: PathBuf },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("the records mix variants ({counts}); choose one with --variant camelot|tricamelot")]
    MixedVariants { counts: String },
    #[error("no games left after the filters ({filters}); the records hold {available}")]
    NoGames { filters: String, available: String },
    #[error("{}: game {game_id}: {message}", file.display())]
    BadGame { file: PathBuf, game_id: u64, message: String },
    #[error("--depth must be at least 1")]
    ZeroDepth,
}

/// The `games` files named by `paths`: files as they are (they must end in `.parquet`),
/// directories searched recursively for complete shards (see `records::scan_shards`;
/// hidden entries are skipped). A directory with a `games/` folder is a run directory and only
/// that folder is searched (self-play, not the ladder's arena games in `ladder/`). So a run
/// directory, its `games/` folder, one `gen-NNNN/` folder or an arena `--out` folder all work.
/// Sorted, without duplicates.
pub fn games_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, StatsError> {
    let mut files = BTreeSet::new();
    for path in paths {
        if path.is_file() {
            if path.extension().and_then(|e| e.to_str()) != Some("parquet") {
                return Err(StatsError::NotParquet { path: path.clone() });
            }
            files.insert(path.clone());
        } else if path.is_dir() {
            let before = files.len();
            let self_play = path.join("games");
            collect_shards(if self_play.is_dir() { &self_play } else { path }, &mut files)?;
            if files.len() == before {
                return Err(StatsError::NoGamesFiles { path: path.clone() });
            }
        } else {
            return Err(StatsError::Missing { path: path.clone() });
        }
    }
    Ok(files.into_iter().collect())
}

fn collect_shards(dir: &Path, files: &mut BTreeSet<PathBuf>) -> Result<(), StatsError> {
    files.extend(scan_shards(dir)?.shards.into_iter().map(|s| s.games));
    let entries =
        std::fs::read_dir(dir).map_err(|e| RecordError::Io { path: dir.into(), source: e })?;
    for entry in entries.flatten() {
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if !hidden && entry.file_type().is_ok_and(|t| t.is_dir()) {
            collect_shards(&entry.path(), files)?;
        }
    }
    Ok(())
}

/// Reads every game of `files`.
pub fn read_all(files: &[PathBuf]) -> Result<Vec<SourcedGame>, StatsError> {
    let mut games = Vec::new();
    for file in files {
        let records = read_games(file)?;
        games.extend(records.into_iter().map(|record| SourcedGame { file: file.clone(), record }));
    }
    Ok(games)
}

/// Generations to keep: `G`, `A-B` (inclusive) or `A-` (A and later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerationRange {
    pub first: u32,
    pub last: Option<u32>,
}

impl GenerationRange {
    pub fn contains(&self, g: u32) -> bool {
        g >= self.first && self.last.is_none_or(|last| g <= last)
    }
}

impl FromStr for GenerationRange {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("`{s}` is not a generation: expected G, A-B or A- (e.g. 3, 2-5, 4-)");
        let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
        match s.split_once('-') {
            None => number(s).map(|g| GenerationRange { first: g, last: Some(g) }),
            Some((a, "")) => number(a).map(|first| GenerationRange { first, last: None }),
            Some((a, b)) => {
                let (first, last) = (number(a)?, number(b)?);
                if first > last {
                    return Err(format!("`{s}`: the first generation is after the last"));
                }
                Ok(GenerationRange { first, last: Some(last) })
            }
        }
    }
}

impl std::fmt::Display for GenerationRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.last {
            Some(last) if last == self.first => write!(f, "{last}"),
            Some(last) => write!(f, "{}-{last}", self.first),
            None => write!(f, "{}-", self.first),
        }
    }
}

/// Keeps the games of `generations` and `variant` (when given) and returns them with their
/// variant name. Games of more than one variant without `variant` are
/// [`StatsError::MixedVariants`]; nothing left is [`StatsError::NoGames`].
pub fn filter(
    games: Vec<SourcedGame>,
    generations: Option<GenerationRange>,
    variant: Option<&str>,
) -> Result<(String, Vec<SourcedGame>), StatsError> {
    let available = describe(&games);
    let kept: Vec<SourcedGame> = games
        .into_iter()
        .filter(|g| generations.is_none_or(|r| r.contains(g.record.generation)))
        .filter(|g| variant.is_none_or(|v| g.record.variant == v))
        .collect();
    let mut variants = BTreeMap::<&str, usize>::new();
    for g in &kept {
        *variants.entry(g.record.variant.as_str()).or_default() += 1;
    }
    if variants.len() > 1 {
        let counts: Vec<String> = variants.iter().map(|(v, n)| format!("{n} {v} games")).collect();
        return Err(StatsError::MixedVariants { counts: counts.join(", ") });
    }
    let Some(name) = variants.keys().next().map(|v| v.to_string()) else {
        let mut filters = Vec::new();
        if let Some(r) = generations {
            filters.push(format!("--generation {r}"));
        }
        if let Some(v) = variant {
            filters.push(format!("--variant {v}"));
        }
        return Err(StatsError::NoGames { filters: filters.join(" "), available });
    };
    Ok((name, kept))
}

/// E.g. `12 camelot games of generations 0-3`.
fn describe(games: &[SourcedGame]) -> String {
    let mut variants = BTreeSet::new();
    let (mut lo, mut hi) = (u32::MAX, 0);
    for g in games {
        variants.insert(g.record.variant.as_str());
        lo = lo.min(g.record.generation);
        hi = hi.max(g.record.generation);
    }
    if games.is_empty() {
        return "no games".into();
    }
    let v: Vec<&str> = variants.into_iter().collect();
    let gens = if lo == hi { format!("generation {lo}") } else { format!("generations {lo}-{hi}") };
    format!("{} {} games of {gens}", games.len(), v.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_ranges_parse_and_contain() {
        let r: GenerationRange = "3".parse().unwrap();
        assert!(r.contains(3) && !r.contains(2) && !r.contains(4));
        let r: GenerationRange = "2-5".parse().unwrap();
        assert!(r.contains(2) && r.contains(5) && !r.contains(6));
        assert_eq!(r.to_string(), "2-5");
        let r: GenerationRange = "4-".parse().unwrap();
        assert!(r.contains(1000) && !r.contains(3));
        for bad in ["", "x", "5-2", "-3", "1-2-3", "1.5"] {
            assert!(bad.parse::<GenerationRange>().is_err(), "{bad}");
        }
    }
}
