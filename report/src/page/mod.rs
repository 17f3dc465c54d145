//! The run report: charts of a run directory's metrics and game records, as PNG and SVG files,
//! and one self-contained page, `index.html`, that inlines the SVGs and shows the generation
//! table, the games per generation, `config.toml` and `run-info.toml`.
//!
//! ```text
//! <out>/
//!   index.html                      the page (needs nothing else to display)
//!   losses.{png,svg}                policy, value and total loss per training step
//!   entropy.{png,svg}               entropy of the search policy targets and of the network
//!   elo.{png,svg}                   the ladder's Elo per model (if the run has one)
//!   game_length.{png,svg}           self-play game length per generation
//!   terminations.{png,svg}          how self-play games ended, per generation
//!   speed.{png,svg}                 self-play evaluations per second, per generation
//! ```
//!
//! A chart without data (no Elo, no generation finished yet) has no files; the page shows why
//! in its place. Every file is written under a temporary name and renamed into place.

mod document;
mod html;

use std::path::{Path, PathBuf};

use train::run_data::figures::{Figure, figures};
use train::run_data::{RunData, RunDataError};

use crate::charts::{ChartError, line_chart};

use document::{DrawnFigure, page};

/// The report's page in its output folder.
pub const PAGE_FILE: &str = "index.html";

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The run directory is not what a run writes, or `out` is not a directory (bad input).
    #[error("{0}")]
    BadInput(String),
    /// Reading the run directory failed for another reason.
    #[error(transparent)]
    RunData(RunDataError),
    #[error(transparent)]
    Chart(#[from] ChartError),
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Write(#[from] storage::StorageError),
}

impl From<RunDataError> for ReportError {
    /// A run directory that is not what a run writes is bad input.
    fn from(e: RunDataError) -> Self {
        match e {
            RunDataError::Bad(message) => ReportError::BadInput(message),
            e => ReportError::RunData(e),
        }
    }
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> ReportError {
    let path = path.to_path_buf();
    move |source| ReportError::Io { what, path, source }
}

/// What [`write_report`] wrote.
#[derive(Debug)]
pub struct ReportSummary {
    pub page: PathBuf,
    /// The chart files (PNG and SVG of every chart with data).
    pub charts: Vec<PathBuf>,
    /// Charts left out, with the reason.
    pub missing: Vec<(String, String)>,
    pub generations: usize,
}

/// Reads the run directory `run_dir` and writes its report into `out` (created if needed;
/// files of an earlier report are replaced, and chart files of charts that now have no data
/// are removed). [`ReportError::BadInput`]: see [`RunData::read`]; also an `out` that is not a
/// directory.
pub fn write_report(run_dir: &Path, out: &Path) -> Result<ReportSummary, ReportError> {
    let run = RunData::read(run_dir)?;
    let figures = figures(&run)?;
    if out.exists() && !out.is_dir() {
        return Err(ReportError::BadInput(format!(
            "--out {} exists and is not a directory",
            out.display()
        )));
    }
    std::fs::create_dir_all(out).map_err(io("creating", out))?;
    let mut charts = Vec::new();
    let mut missing = Vec::new();
    let mut drawn = Vec::new();
    for figure in &figures {
        let svg = match &figure.content {
            Ok(_) => {
                charts.push(draw(figure, out, "png")?);
                let svg_path = draw(figure, out, "svg")?;
                let text = std::fs::read_to_string(&svg_path).map_err(io("reading", &svg_path))?;
                charts.push(svg_path);
                Some(text)
            }
            Err(why) => {
                missing.push((figure.stem.to_string(), why.clone()));
                for ext in ["png", "svg"] {
                    remove_stale(&out.join(format!("{}.{ext}", figure.stem)))?;
                }
                None
            }
        };
        drawn.push(DrawnFigure { figure, svg });
    }
    let page_path = out.join(PAGE_FILE);
    storage::write_atomic(&page_path, page(&run, &drawn).as_bytes())?;
    Ok(ReportSummary { page: page_path, charts, missing, generations: run.finished_generations() })
}

/// Draws `figure` as `<out>/<stem>.<ext>`, through a temporary file in the same folder.
fn draw(figure: &Figure, out: &Path, ext: &str) -> Result<PathBuf, ReportError> {
    let series = figure.content.as_deref().unwrap_or_default();
    let path = out.join(format!("{}.{ext}", figure.stem));
    line_chart(&path, figure.title, (figure.x_label, figure.x_scale), figure.y_label, series)?;
    Ok(path)
}

fn remove_stale(path: &Path) -> Result<(), ReportError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io("removing", path)(e)),
        _ => Ok(()),
    }
}
