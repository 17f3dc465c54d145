//! `/api/run/figures`: the charts of the served run (and of the runs given with `--compare`) as
//! data, read afresh from the run directory at every request, so that the live run page
//! (`run.js`) follows a run while it trains. The figures are the report's own
//! (`train::run_data::figures`, serialized as they are): the page and `report` draw the same
//! curves. The game records' summaries are kept between requests ([`GamesCache`]): a poll
//! decodes only the games files that changed.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use train::run_data::RunData;
use train::run_data::figures::{Figure, figures};
use train::run_data::games::GamesCache;

use crate::error::ServeError;

/// One run's charts.
#[derive(Serialize, Debug)]
pub struct RunFigures {
    pub name: String,
    /// Finished generations (rows of generations.csv).
    pub generations: usize,
    pub figures: Vec<Figure>,
}

/// Every run's charts, the served run first.
#[derive(Serialize, Debug)]
pub struct FiguresView {
    pub runs: Vec<RunFigures>,
}

/// The charts of the run in `dir`, read now (its game records through `cache`).
pub fn run_figures(dir: &Path, cache: &mut GamesCache) -> Result<RunFigures, ServeError> {
    let run = RunData::read_cached(dir, cache)
        .map_err(|e| ServeError::Records(format!("{}: {e}", dir.display())))?;
    let figures =
        figures(&run).map_err(|e| ServeError::Records(format!("{}: {e}", dir.display())))?;
    Ok(RunFigures { name: run.name(), generations: run.finished_generations(), figures })
}

/// The charts of every run in `dirs`; one request at a time reads through `cache`.
pub fn all_figures(dirs: &[PathBuf], cache: &Mutex<GamesCache>) -> Result<FiguresView, ServeError> {
    // A poisoned lock only means a read panicked half-way: its entries are still each whole.
    let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let runs = dirs.iter().map(|d| run_figures(d, &mut cache)).collect::<Result<_, _>>()?;
    Ok(FiguresView { runs })
}
