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

mod html;
mod page;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use train::run_data::figures::{Figure, figures};
use train::run_data::{RunData, RunDataError};

use crate::charts::line_chart;
use crate::input::BadInput;

use page::{DrawnFigure, page};

/// The report's page in its output folder.
pub const PAGE_FILE: &str = "index.html";

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
/// are removed). Bad input (exit status 2): see [`RunData::read`]; also an `out` that is not a
/// directory.
pub fn write_report(run_dir: &Path, out: &Path) -> Result<ReportSummary> {
    let run = RunData::read(run_dir).map_err(bad_run_data)?;
    let figures = figures(&run).map_err(bad_run_data)?;
    if out.exists() && !out.is_dir() {
        return Err(
            BadInput(format!("--out {} exists and is not a directory", out.display())).into()
        );
    }
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut charts = Vec::new();
    let mut missing = Vec::new();
    let mut drawn = Vec::new();
    for figure in &figures {
        let svg = match &figure.content {
            Ok(_) => {
                charts.push(draw(figure, out, "png")?);
                let svg_path = draw(figure, out, "svg")?;
                let text = std::fs::read_to_string(&svg_path)
                    .with_context(|| format!("reading {}", svg_path.display()))?;
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
    model::write_atomic(&page_path, page(&run, &drawn).as_bytes())?;
    Ok(ReportSummary { page: page_path, charts, missing, generations: run.finished_generations() })
}

/// Draws `figure` as `<out>/<stem>.<ext>`, through a temporary file in the same folder.
fn draw(figure: &Figure, out: &Path, ext: &str) -> Result<PathBuf> {
    let series = figure.content.as_deref().unwrap_or_default();
    let path = out.join(format!("{}.{ext}", figure.stem));
    let tmp = out.join(format!(".{}.tmp.{ext}", figure.stem));
    line_chart(&tmp, figure.title, figure.x_label, figure.y_label, series)?;
    std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

fn remove_stale(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(anyhow::Error::new(e).context(format!("removing {}", path.display())))
        }
        _ => Ok(()),
    }
}

/// A run directory that is not what a run writes is bad input (exit status 2).
fn bad_run_data(e: RunDataError) -> anyhow::Error {
    match e {
        RunDataError::Bad(message) => BadInput(message).into(),
        e => e.into(),
    }
}
