//! Everything a run's report shows, read from a run directory (see docs/guide.md, "Run directory"):
//! the configuration and run information as text, `metrics.csv`, `generations.csv`, the
//! parquet game records and, once measured, `curve.csv`.

use std::path::{Path, PathBuf};

mod figure;
pub mod figures;
pub mod games;
pub mod progress_figures;
pub mod table;

use games::{GamesCache, GenerationGames, read_run_games_cached};
use table::Table;

/// Why a run directory cannot be read for a report.
#[derive(Debug, thiserror::Error)]
pub enum RunDataError {
    /// The directory or a file in it is not what a run writes (a missing directory, a
    /// malformed CSV, an unreadable game record); the message names the path.
    #[error("{0}")]
    Bad(String),
    /// A file exists but could not be read.
    #[error("reading {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The columns of `metrics.csv` the report needs.
pub const STEP_COLUMNS: [&str; 5] =
    ["generation", "total_step", "loss_total", "loss_policy", "loss_value"];
/// The columns of `generations.csv` the report needs.
pub const GENERATION_COLUMNS: [&str; 2] = ["generation", "evaluations_per_sec"];
/// The strength-against-compute table `scripts/compute_curve.sh` writes into a run directory
/// (docs/scaling.md): a row per budget of core-minutes.
pub const CURVE_FILE: &str = "curve.csv";
/// The columns of `curve.csv` the report needs (the anchors' `vs_<anchor>` columns are drawn
/// when present).
pub const CURVE_COLUMNS: [&str; 2] = ["core_minutes", "elo"];

/// A run directory, read.
#[derive(Clone, Debug)]
pub struct RunData {
    pub dir: PathBuf,
    /// `config.toml` as written by `run`.
    pub config_text: String,
    /// `game.variant` of the configuration, if it names one.
    pub variant: Option<String>,
    /// `run-info.toml`, if present.
    pub run_info_text: Option<String>,
    /// `metrics.csv`, if present.
    pub steps: Option<Table>,
    /// `generations.csv`, if present.
    pub generations: Option<Table>,
    /// `curve.csv` (strength against compute), if present.
    pub curve: Option<Table>,
    /// The game records of each generation that has any.
    pub games: Vec<GenerationGames>,
}

impl RunData {
    /// Reads the run directory `dir`. Bad input (exit status 2), with a message naming the path:
    /// a missing directory, one without `config.toml` (not a run directory), a configuration
    /// that is not TOML, a CSV file (`metrics.csv`, `generations.csv`, `curve.csv`) that is
    /// malformed or lacks a column the report needs, an unreadable game record.
    pub fn read(dir: &Path) -> Result<RunData, RunDataError> {
        RunData::read_cached(dir, &mut GamesCache::default())
    }

    /// [`RunData::read`], decoding only the game records that `cache` has not read yet (a
    /// reader that comes back to a run that trains: the live run page).
    pub fn read_cached(dir: &Path, cache: &mut GamesCache) -> Result<RunData, RunDataError> {
        if !dir.exists() {
            return Err(RunDataError::Bad(format!("no run directory {}", dir.display())));
        }
        if !dir.is_dir() {
            return Err(RunDataError::Bad(format!("{} is not a directory", dir.display())));
        }
        let config_path = dir.join(crate::run::CONFIG_FILE);
        if !config_path.is_file() {
            return Err(RunDataError::Bad(format!(
                "{} is not a run directory: it has no config.toml (`camelot-zero run` writes one when it starts)",
                dir.display()
            )));
        }
        let config_text = read_text(&config_path)?;
        let config: toml::Table = toml::from_str(&config_text).map_err(|e| {
            let line = e.span().map_or(1, |s| config_text[..s.start].matches('\n').count() + 1);
            RunDataError::Bad(format!(
                "{} is not valid TOML: line {line}: {}",
                config_path.display(),
                e.message()
            ))
        })?;
        let variant = config
            .get("game")
            .and_then(|g| g.get("variant"))
            .and_then(|v| v.as_str())
            .map(str::to_string);
        let info_path = dir.join(crate::run::RUN_INFO_FILE);
        let run_info_text = if info_path.is_file() { Some(read_text(&info_path)?) } else { None };
        let steps = Table::read(&dir.join(crate::STEP_METRICS_FILE))?;
        let generations = Table::read(&dir.join(crate::GENERATION_METRICS_FILE))?;
        let curve = Table::read(&dir.join(CURVE_FILE))?;
        for (table, columns) in [
            (&steps, &STEP_COLUMNS[..]),
            (&generations, &GENERATION_COLUMNS[..]),
            (&curve, &CURVE_COLUMNS[..]),
        ] {
            if let Some(t) = table {
                for c in columns {
                    t.required_numbers(c)?;
                }
            }
        }
        let games = read_run_games_cached(dir, cache)?;
        Ok(RunData {
            dir: dir.to_path_buf(),
            config_text,
            variant,
            run_info_text,
            steps,
            generations,
            curve,
            games,
        })
    }

    /// A run of the figures' tests: only the CSV texts given (`generations.csv`, `curve.csv`).
    #[cfg(test)]
    pub(crate) fn of_tables(generations: Option<&str>, curve: Option<&str>) -> RunData {
        let table = |name: &str, text: &str| Table::parse(Path::new(name), text).unwrap();
        RunData {
            dir: "r".into(),
            config_text: String::new(),
            variant: None,
            run_info_text: None,
            steps: None,
            generations: generations.map(|t| table(crate::GENERATION_METRICS_FILE, t)),
            curve: curve.map(|t| table(CURVE_FILE, t)),
            games: Vec::new(),
        }
    }

    /// The number of finished generations (rows of `generations.csv`).
    pub fn finished_generations(&self) -> usize {
        self.generations.as_ref().map_or(0, |t| t.rows.len())
    }

    /// The run's name: the directory's last component.
    pub fn name(&self) -> String {
        self.dir
            .canonicalize()
            .unwrap_or_else(|_| self.dir.clone())
            .file_name()
            .map_or_else(|| self.dir.display().to_string(), |n| n.to_string_lossy().into_owned())
    }
}

fn read_text(path: &Path) -> Result<String, RunDataError> {
    std::fs::read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => {
            RunDataError::Bad(format!("{}: not a text file", path.display()))
        }
        _ => RunDataError::Io { path: path.to_path_buf(), source: e },
    })
}
