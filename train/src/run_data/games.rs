//! Per-generation figures from the run's parquet game records (`games/gen-NNNN/games-*.parquet`):
//! how many games, how long they were, and how they ended.

use std::collections::BTreeMap;
use std::path::Path;

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

/// Reads the games of every generation folder `games/gen-NNNN/` of a run, in generation order.
/// Folders without complete shards are left out; a record that cannot be read is bad input
/// naming the file.
pub fn read_run_games(run_dir: &Path) -> Result<Vec<GenerationGames>, RunDataError> {
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
        let mut games = Vec::new();
        for shard in shards {
            games.extend(
                read_games(&shard.games)
                    .map_err(|e| RunDataError::Bad(format!("game records: {e}")))?,
            );
        }
        if !games.is_empty() {
            out.push(GenerationGames::new(g, &games));
        }
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

    #[test]
    fn a_run_without_games_has_no_generations() {
        let dir = std::env::temp_dir().join(format!("cz-report-games-{}", std::process::id()));
        assert!(read_run_games(&dir).unwrap().is_empty());
    }
}
