//! `report`: charts (PNG and SVG) and a self-contained HTML page of a run directory's progress
//! (see the `report` crate).

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use report::{ReportError, write_report};

use crate::input::BadInput;

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The run directory (as given to `run --run-dir`, e.g. data/camelot-cpu).
    #[arg(long)]
    pub run: PathBuf,
    /// The folder for index.html and the chart files (created if needed).
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: ReportArgs) -> Result<()> {
    let summary = write_report(&args.run, &args.out).map_err(|e| match e {
        ReportError::BadInput(message) => anyhow::Error::from(BadInput(message)),
        e => e.into(),
    })?;
    for (chart, why) in &summary.missing {
        eprintln!("{chart}: {why}");
    }
    outln!(
        "{}: {} generations, {} chart files",
        summary.page.display(),
        summary.generations,
        summary.charts.len()
    )?;
    Ok(())
}
