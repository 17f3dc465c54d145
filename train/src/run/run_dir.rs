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
//!   run.lock            while a process works in the directory: who (see [`prepare`])
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use games::Termination;
use records::{list_generation_shards, read_games};
use selfplay::SessionFigures;

use super::error::{RunError, io};
use super::probe::ProbeResult;
use crate::ladder::LadderResult;
use crate::metrics::aux_loss_cell;
use crate::trainer::losses_text;
use crate::{GenerationSummary, RunConfig, generation_games_dir};

/// The program that starts a run, as recorded in `run-info.toml`.
#[derive(Clone, Copy, Debug)]
pub struct ProgramInfo<'a> {
    /// The program's version (`CARGO_PKG_VERSION` of the front end).
    pub version: &'a str,
    /// The git revision it was built from (or "unknown").
    pub git_revision: &'a str,
}

/// `version (git revision)`, as `camelot-zero --version` prints it.
impl std::fmt::Display for ProgramInfo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.version, self.git_revision)
    }
}

/// The lock file of a run directory.
pub const LOCK_FILE: &str = "run.lock";

/// The run's configuration in a run folder (written when the run starts).
pub const CONFIG_FILE: &str = "config.toml";
/// The run's name and the programs that worked on it, in a run folder.
pub const RUN_INFO_FILE: &str = "run-info.toml";

/// Creates the run directory, or checks that an existing one is a run directory (unless
/// `any_dir`: a non-empty directory without `config.toml` is refused, so a mistyped
/// `--run-dir` does not fill an unrelated folder) started with the same configuration
/// (`run.generations` may differ: it is the total a run is extended to); takes the directory's
/// lock ([`LOCK_FILE`], held until the returned lock is dropped; a second process is refused
/// with the holder's name, a lock left by a killed process is taken over); and records the
/// program that starts it in `run-info.toml`, with the run's name.
pub fn prepare(
    run_dir: &Path,
    config: &RunConfig,
    program: ProgramInfo<'_>,
    any_dir: bool,
) -> Result<PreparedRun, RunError> {
    let config_path = run_dir.join(CONFIG_FILE);
    // A directory holding a run's lock is a run being started (the lock is taken before
    // config.toml is written) or one whose start was killed: the lock decides, naming its holder.
    let starting = run_dir.join(LOCK_FILE).exists();
    if !any_dir && run_dir.is_dir() && !config_path.exists() && !starting {
        // The learner's lease (taken before the directory is prepared) is the run's own.
        let mut entries = std::fs::read_dir(run_dir).map_err(io("reading", run_dir))?.filter(|e| {
            e.as_ref().map_or(true, |e| e.file_name() != crate::distributed::lease::LEASE_KEY)
        });
        if entries.next().is_some() {
            return Err(RunError::NotARunDir { dir: run_dir.to_path_buf() });
        }
    }
    std::fs::create_dir_all(run_dir).map_err(io("creating", run_dir))?;
    let lock = storage::DirLock::acquire(run_dir, LOCK_FILE, "camelot-zero run")?;
    // How long a run goes (generations, time) may change from call to call.
    let mut normalised = config.clone();
    normalised.run.generations = 0;
    normalised.run.time_budget = None;
    if config_path.exists() {
        let text = std::fs::read_to_string(&config_path).map_err(io("reading", &config_path))?;
        let mut saved = RunConfig::from_toml(&text).map_err(|source| RunError::BadFile {
            path: config_path.clone(),
            what: "a valid run configuration",
            source: Box::new(source),
        })?;
        saved.run.generations = 0;
        saved.run.time_budget = None;
        if saved != normalised {
            let sections: Vec<&'static str> = [
                ("game", saved.game != normalised.game),
                ("net", saved.net != normalised.net),
                ("mcts", saved.mcts != normalised.mcts),
                ("play", saved.play != normalised.play),
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
    let info_path = run_dir.join(RUN_INFO_FILE);
    let name = run_name(run_dir, &info_path);
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let info = format!(
        "# Written at every start of `camelot-zero run` on this directory.\n\
         # name: the run's name in its records, kept when the directory is renamed.\n\
         name = {name:?}\nversion = \"{}\"\ngit_revision = \"{}\"\nstarted_unix = {started}\n",
        program.version, program.git_revision,
    );
    model::write_atomic(&info_path, info.as_bytes())?;
    Ok(PreparedRun { lock, name })
}

/// A run directory ready for the loop: its lock (held while the value lives) and the run's
/// name, which its records carry.
#[derive(Debug)]
pub struct PreparedRun {
    pub lock: storage::DirLock,
    pub name: String,
}

/// The run's name: the one `run-info.toml` recorded, else the one generation 0's records carry
/// (a directory from before the name was recorded), else the directory's name. So a renamed
/// directory keeps the name its records carry.
fn run_name(run_dir: &Path, info_path: &Path) -> String {
    let recorded = std::fs::read_to_string(info_path)
        .ok()
        .and_then(|text| text.parse::<toml::Table>().ok())
        .and_then(|t| t.get("name")?.as_str().map(str::to_string));
    let in_records = || {
        let first = list_generation_shards(&generation_games_dir(run_dir, 0)).ok()?;
        read_games(&first.first()?.games).ok()?.first().map(|g| g.run.clone())
    };
    recorded.or_else(in_records).unwrap_or_else(|| {
        run_dir.file_name().map_or("run".into(), |n| n.to_string_lossy().into_owned())
    })
}

/// Self-play figures of one generation and the time split, all read from the run directory's
/// files, so a generation played or trained in several sessions (after a kill, a Ctrl-C) is
/// counted whole and a row lost with a killed process can be written again: the counts from its
/// recorded games, the rates and self-play time from its [`SessionFigures`] (empty cells for a
/// folder without them), the training time from the new model's [`GenerationSummary`].
#[derive(Clone, Debug)]
pub struct GenerationRow {
    games: usize,
    mean_moves: f64,
    wins: [usize; 3],
    draws: usize,
    terminations: BTreeMap<String, usize>,
    selfplay: Option<SessionFigures>,
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
        // Added columns go last, so that a file of the version before them gets them (empty in
        // the rows already written) when its run is resumed.
        h.push("run_seconds".into());
        // The retired material and ownership heads' columns (levers AU, AV), kept empty.
        h.push("loss_material".into());
        h.push("loss_ownership".into());
        h.push("loss_moves_left".into());
        h.extend(ProbeResult::CSV_HEADER.map(String::from));
        h
    }

    /// Generation `g`'s row from its games folder, with `summary`, the training that made
    /// `models/gen-(g+1)`.
    pub fn new(run_dir: &Path, g: u32, summary: &GenerationSummary) -> Result<Self, RunError> {
        let games_dir = generation_games_dir(run_dir, g);
        let mut row = GenerationRow {
            games: 0,
            mean_moves: 0.0,
            wins: [0; 3],
            draws: 0,
            terminations: BTreeMap::new(),
            selfplay: SessionFigures::read(&games_dir)?,
            train_secs: summary.seconds + summary.window_seconds,
        };
        let mut moves = 0usize;
        for shard in list_generation_shards(&games_dir)? {
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

    /// The row; the ladder (probe) cells are empty for a generation whose model was not
    /// measured (probed).
    pub fn csv_row(
        &self,
        summary: &GenerationSummary,
        ladder: Option<&LadderResult>,
        probe: Option<&ProbeResult>,
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
        match &self.selfplay {
            Some(f) => r.extend([
                format!("{:.1}", f.evaluations_per_second()),
                format!("{:.4}", f.cache_hit_rate()),
                format!("{:.2}", f.seconds),
            ]),
            None => r.extend([String::new(), String::new(), String::new()]),
        }
        r.push(format!("{:.2}", self.train_secs));
        r.push(self.selfplay_share().map_or(String::new(), |s| format!("{s:.3}")));
        r.extend(training.into_iter().skip(1));
        r.extend(LadderResult::csv_cells(ladder));
        r.push(summary.run_seconds.map_or(String::new(), |t| format!("{t:.1}")));
        r.extend([String::new(), String::new()]);
        r.push(aux_loss_cell(summary.loss_moves_left));
        r.extend(ProbeResult::csv_cells(probe));
        r
    }

    fn selfplay_share(&self) -> Option<f64> {
        let selfplay = self.selfplay.as_ref()?.seconds;
        Some(selfplay / (selfplay + self.train_secs).max(1e-9))
    }

    /// The generation's summary line.
    pub fn line(&self, g: u32, num_players: usize, s: &GenerationSummary) -> String {
        let wins: Vec<String> = self.wins[..num_players].iter().map(|w| w.to_string()).collect();
        let terms: Vec<String> =
            self.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let (rate, split) = match (&self.selfplay, self.selfplay_share()) {
            (Some(f), Some(share)) => (
                format!("{:.0} evals/s", f.evaluations_per_second()),
                format!(
                    "self-play {:.0} s, training {:.0} s ({:.0}% self-play)",
                    f.seconds,
                    self.train_secs,
                    100.0 * share
                ),
            ),
            _ => ("evals/s unknown".into(), format!("training {:.0} s", self.train_secs)),
        };
        let losses = losses_text(&s.losses());
        format!(
            "gen {g}: {} games, mean {:.1} moves, wins {} draws {} ({}), {rate} | {losses}, \
             {:.0} samples/s | {split}",
            self.games,
            self.mean_moves,
            wins.join("/"),
            self.draws,
            terms.join(", "),
            s.samples_per_sec,
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

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: ProgramInfo<'static> = ProgramInfo { version: "test", git_revision: "test" };

    fn smoke() -> RunConfig {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/smoke-camelot.toml");
        RunConfig::load(&path).unwrap()
    }

    /// A second run arriving while the first holds the lock but has not yet written config.toml
    /// is told who holds the directory, not that it is a stranger's folder.
    #[test]
    fn a_run_being_started_is_refused_by_its_lock_and_a_stranger_folder_by_its_contents() {
        let dir = crate::testutil::scratch_dir("run-dir-prepare");
        let starting = dir.join("starting");
        std::fs::create_dir_all(&starting).unwrap();
        let held = storage::DirLock::acquire(&starting, LOCK_FILE, "camelot-zero run").unwrap();
        let err = prepare(&starting, &smoke(), PROGRAM, false).err().unwrap();
        assert!(!matches!(err, RunError::NotARunDir { .. }), "{err}");
        assert!(err.to_string().contains(&format!("pid {}", std::process::id())), "{err}");
        drop(held);
        let stranger = dir.join("stranger");
        std::fs::create_dir_all(&stranger).unwrap();
        std::fs::write(stranger.join("notes.txt"), "mine").unwrap();
        let err = prepare(&stranger, &smoke(), PROGRAM, false).err().unwrap();
        assert!(matches!(err, RunError::NotARunDir { .. }), "{err}");
        assert!(!stranger.join(LOCK_FILE).exists() && !stranger.join(CONFIG_FILE).exists());
    }
}
