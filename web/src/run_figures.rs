//! `/api/run/figures`: the charts of the served run (and of the runs given with `--compare`) as
//! data, read afresh from the run directory at every request, so that the live run page
//! (`run.js`) follows a run while it trains. The figures are the report's own
//! (`train::run_data::figures`): the page and `report` draw the same curves.

use std::path::{Path, PathBuf};

use serde::Serialize;
use train::run_data::RunData;
use train::run_data::figures::{Figure, Series, figures};

use crate::error::ServeError;

/// One line of a chart: `points` `[x, y]`, `band` `[x, low, high]` (the 95% interval, or empty).
#[derive(Serialize, Debug, PartialEq)]
pub struct SeriesView {
    pub name: String,
    pub points: Vec<[f64; 2]>,
    pub band: Vec<[f64; 3]>,
}

/// One chart: its lines, or why it has none (`why`).
#[derive(Serialize, Debug, PartialEq)]
pub struct FigureView {
    pub stem: &'static str,
    pub title: &'static str,
    pub x_label: &'static str,
    pub y_label: &'static str,
    pub caption: String,
    pub series: Vec<SeriesView>,
    pub why: Option<String>,
}

/// One run's charts.
#[derive(Serialize, Debug)]
pub struct RunFigures {
    pub name: String,
    /// Finished generations (rows of generations.csv).
    pub generations: usize,
    pub figures: Vec<FigureView>,
}

/// Every run's charts, the served run first.
#[derive(Serialize, Debug)]
pub struct FiguresView {
    pub runs: Vec<RunFigures>,
}

fn series_view(s: &Series) -> SeriesView {
    // JSON has no infinities: points that are not finite are not drawn anyway.
    let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
    SeriesView {
        name: s.name.clone(),
        points: s.points.iter().map(|&(x, y)| [x, y]).filter(|p| finite(p)).collect(),
        band: s.band.iter().map(|&(x, l, h)| [x, l, h]).filter(|b| finite(b)).collect(),
    }
}

fn figure_view(f: Figure) -> FigureView {
    let (series, why) = match &f.content {
        Ok(series) => (series.iter().map(series_view).collect(), None),
        Err(why) => (Vec::new(), Some(why.clone())),
    };
    FigureView {
        stem: f.stem,
        title: f.title,
        x_label: f.x_label,
        y_label: f.y_label,
        caption: f.caption,
        series,
        why,
    }
}

/// The charts of the run in `dir`, read now.
pub fn run_figures(dir: &Path) -> Result<RunFigures, ServeError> {
    let run =
        RunData::read(dir).map_err(|e| ServeError::Records(format!("{}: {e}", dir.display())))?;
    let figures = figures(&run)
        .map_err(|e| ServeError::Records(format!("{}: {e}", dir.display())))?
        .into_iter()
        .map(figure_view)
        .collect();
    Ok(RunFigures { name: run.name(), generations: run.finished_generations(), figures })
}

/// The charts of every run in `dirs`.
pub fn all_figures(dirs: &[PathBuf]) -> Result<FiguresView, ServeError> {
    Ok(FiguresView { runs: dirs.iter().map(|d| run_figures(d)).collect::<Result<_, _>>()? })
}
