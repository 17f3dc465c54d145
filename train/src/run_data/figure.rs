//! [`Figure`] and [`Series`]: one chart of a run's report (and of the live run page), with the
//! helpers every figure's builder uses.

use super::RunDataError;
use super::table::Table;

/// One named line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Shown in the legend.
    pub name: String,
    /// `(x, y)` points, drawn in the given order; points with a non-finite coordinate are left
    /// out (a NaN loss does not spoil the chart).
    pub points: Vec<(f64, f64)>,
    /// An interval around the line, `(x, low, high)` in `x` order, drawn as a shaded band in the
    /// line's colour (none when empty).
    pub band: Vec<(f64, f64, f64)>,
}

impl Series {
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { name: name.into(), points, band: Vec::new() }
    }

    /// This line with the 95% interval `band` around it, named so in the legend.
    pub(super) fn with_interval(mut self, band: Vec<(f64, f64, f64)>) -> Self {
        if !band.is_empty() {
            self.name.push_str(" (band: 95% interval)");
        }
        self.band = band;
        self
    }
}

/// One chart of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The file name without extension (`<stem>.png`, `<stem>.svg`) and the page anchor.
    pub stem: &'static str,
    pub title: &'static str,
    pub x_label: &'static str,
    pub y_label: &'static str,
    /// What the chart shows, in a sentence under it.
    pub caption: String,
    /// The lines, or why there are none (then no files are written).
    pub content: Result<Vec<Series>, String>,
}

/// The non-empty series among `series`, or `why` if there is none.
pub(super) fn non_empty(series: Vec<Series>, why: &str) -> Result<Vec<Series>, String> {
    let kept: Vec<Series> = series.into_iter().filter(|s| !s.points.is_empty()).collect();
    if kept.is_empty() { Err(why.to_string()) } else { Ok(kept) }
}

/// The `(x, y)` points of columns `x` and `y` of `table`, leaving out rows where either is empty.
pub(super) fn points(table: &Table, x: &str, y: &str) -> Result<Vec<(f64, f64)>, RunDataError> {
    let xs = table.numbers(x)?;
    let ys = table.numbers(y)?;
    Ok(xs.into_iter().zip(ys).filter_map(|(x, y)| Some((x?, y?))).collect())
}
