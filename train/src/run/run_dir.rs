//! The run directory: the configuration snapshot, run information, and the per-generation rows
//! of `generations.csv`.
//!
//! ```text
//! data/<run>/
//!   config.toml         the resolved configuration (a restart must use the same one)
//!   run-info.toml       program version, git revision, time of the last start
//!   games/gen-NNNN/     self-play shards of generation NNNN (parquet: games-*, positions-*)
//!   models/gen-NNNN/    the network trained after generation NNNN-1 (gen-0000: random), with
//!                       optimizer state, counters and its ladder.toml (with a [ladder])
//!   ladder/gen-NNNN/    the ladder games of model gen-NNNN (parquet games records)
//!   metrics.csv         one row per training step
//!   generations.csv     one row per generation: self-play, training and ladder figures
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use games::Termination;
use selfplay::{RecordError, SelfPlayStats, list_shards, read_games};

use super::error::{RunError, io};
use crate::ladder::LadderResult;
use crate::{GenerationSummary, RunConfig};

/// The program that starts a run, as recorded in `run-info.toml`.
#[derive(Clone, Copy, Debug)]
pub struct ProgramInfo<'a> {
    /// The program's version (`CARGO_PKG_VERSION` of the front end).
    pub version: &'a str,
    /// The git revision it was built from (or "unknown").
    pub git_revision: &'a str,
}

/// Creates the run directory, or checks that an existing one was started with the same
/// configuration (`run.generations` may differ: it is the total a run is extended to), and
/// records the program that starts it in `run-info.toml`.
pub fn prepare(
    run_dir: &Path,
    config: &RunConfig,
    program: ProgramInfo<'_>,
) -> Result<(), RunError> {
    std::fs::create_dir_all(run_dir).map_err(io("creating", run_dir))?;
    let config_path = run_dir.join("config.toml");
    let mut normalised = config.clone();
    normalised.run.generations = 0;
    if config_path.exists() {
        let text = std::fs::read_to_string(&config_path).map_err(io("reading", &config_path))?;
        let mut saved: RunConfig = toml::from_str(&text).map_err(|source| RunError::BadFile {
            path: config_path.clone(),
            what: "a valid run configuration",
            source: Box::new(source),
        })?;
        saved.run.generations = 0;
        if saved != normalised {
            let sections: Vec<&'static str> = [
                ("game", saved.game != normalised.game),
                ("net", saved.net != normalised.net),
                ("mcts", saved.mcts != normalised.mcts),
                ("selfplay", saved.selfplay != normalised.selfplay),
                ("train", saved.train != normalised.train),
                ("run", saved.run != normalised.run),
                ("ladder", saved.ladder != normalised.ladder),
            ]
            .into_iter()
            .filter_map(|(name, d)| d.then_some(name))
            .collect();
            return Err(RunError::ConfigChanged { run_dir: run_dir.to_path_buf(), sections });
        }
    } else {
        model::write_atomic(&config_path, toml::to_string(config)?.as_bytes())?;
    }
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let info = format!(
        "# Written at every start of `camelot-zero run` on this directory.\nversion = \"{}\"\ngit_revision = \"{}\"\nstarted_unix = {started}\n",
        program.version, program.git_revision,
    );
    Ok(model::write_atomic(&run_dir.join("run-info.toml"), info.as_bytes())?)
}

/// Self-play figures of one generation (from all its recorded games, so a resumed generation
/// is counted whole) and the time split.
#[derive(Clone, Debug)]
pub struct GenerationRow {
    games: usize,
    mean_moves: f64,
    wins: [usize; 3],
    draws: usize,
    terminations: BTreeMap<String, usize>,
    evaluations_per_sec: f64,
    cache_hit_rate: f64,
    selfplay_secs: f64,
    train_secs: f64,
}

impl GenerationRow {
    /// The columns of `generations.csv` (generation first, for [`crate::CsvLog::open_resuming`]).
    pub fn header() -> Vec<String> {
        let mut h: Vec<String> = [
            "generation",
            "games",
            "mean_moves",
            "wins_seat0",
            "wins_seat1",
            "wins_seat2",
            "draws",
        ]
        .map(String::from)
        .into();
        h.extend(Termination::ALL.map(|t| format!("term_{}", t.as_str().replace('-', "_"))));
        let times = [
            "evaluations_per_sec",
            "cache_hit_rate",
            "selfplay_seconds",
            "train_seconds",
            "selfplay_share",
        ];
        let training = GenerationSummary::CSV_HEADER.iter().skip(1);
        h.extend(
            times.iter().chain(training).chain(&LadderResult::CSV_HEADER).map(|c| c.to_string()),
        );
        h
    }

    pub fn new(
        games_dir: &Path,
        stats: &SelfPlayStats,
        selfplay_secs: f64,
        train_secs: f64,
    ) -> Result<Self, RecordError> {
        let mut row = GenerationRow {
            games: 0,
            mean_moves: 0.0,
            wins: [0; 3],
            draws: 0,
            terminations: BTreeMap::new(),
            evaluations_per_sec: stats.evaluations_per_second(),
            cache_hit_rate: stats.cache_hit_rate(),
            selfplay_secs,
            train_secs,
        };
        let mut moves = 0usize;
        for shard in list_shards(games_dir)? {
            for g in read_games(&shard.games)? {
                row.games += 1;
                moves += g.moves.len();
                *row.terminations.entry(g.termination.as_str().to_string()).or_default() += 1;
                let best = g.result.iter().cloned().fold(f32::MIN, f32::max);
                let winners: Vec<usize> =
                    (0..g.result.len()).filter(|&i| g.result[i] == best).collect();
                match winners.as_slice() {
                    [w] if best > 0.5 => row.wins[*w] += 1,
                    _ => row.draws += 1,
                }
            }
        }
        row.mean_moves = if row.games == 0 { 0.0 } else { moves as f64 / row.games as f64 };
        Ok(row)
    }

    /// The row; the ladder cells are empty for a generation whose model was not measured.
    pub fn csv_row(
        &self,
        summary: &GenerationSummary,
        ladder: Option<&LadderResult>,
    ) -> Vec<String> {
        let training = summary.csv_row();
        let mut r = vec![
            training[0].clone(),
            self.games.to_string(),
            format!("{:.2}", self.mean_moves),
            self.wins[0].to_string(),
            self.wins[1].to_string(),
            self.wins[2].to_string(),
            self.draws.to_string(),
        ];
        r.extend(
            Termination::ALL
                .iter()
                .map(|t| self.terminations.get(t.as_str()).copied().unwrap_or(0).to_string()),
        );
        r.extend([
            format!("{:.1}", self.evaluations_per_sec),
            format!("{:.4}", self.cache_hit_rate),
            format!("{:.2}", self.selfplay_secs),
            format!("{:.2}", self.train_secs),
            format!("{:.3}", self.selfplay_share()),
        ]);
        r.extend(training.into_iter().skip(1));
        r.extend(LadderResult::csv_cells(ladder));
        r
    }

    fn selfplay_share(&self) -> f64 {
        self.selfplay_secs / (self.selfplay_secs + self.train_secs).max(1e-9)
    }

    /// The generation's summary line.
    pub fn line(&self, g: u32, num_players: usize, s: &GenerationSummary) -> String {
        let wins: Vec<String> = self.wins[..num_players].iter().map(|w| w.to_string()).collect();
        let terms: Vec<String> =
            self.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
        format!(
            "gen {g}: {} games, mean {:.1} moves, wins {} draws {} ({}), {:.0} evals/s | loss {:.3} (policy {:.3}, value {:.3}), \
             {:.0} samples/s | self-play {:.0} s, training {:.0} s ({:.0}% self-play)",
            self.games,
            self.mean_moves,
            wins.join("/"),
            self.draws,
            terms.join(", "),
            self.evaluations_per_sec,
            s.loss_total,
            s.loss_policy,
            s.loss_value,
            s.samples_per_sec,
            self.selfplay_secs,
            self.train_secs,
            100.0 * self.selfplay_share()
        )
    }
}

/// What a finished (or re-run) run reports: where things are and its last generations.
pub fn report(run_dir: &Path, generations: u32) -> String {
    let path = run_dir.join(crate::GENERATION_METRICS_FILE);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let mut out = format!(
        "run {} has {generations} generations: newest model {}, {} generation rows in {}",
        run_dir.display(),
        run_dir.join("models").join(crate::generation_dir_name(generations)).display(),
        rows.len(),
        path.display()
    );
    if let Some(last) = rows.last() {
        out.push_str(&format!("\nlast row: {last}"));
    }
    out
}
