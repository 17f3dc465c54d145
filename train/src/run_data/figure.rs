//! [`Figure`] and [`Series`]: one chart of a run's report (and of the live run page), with the
//! helpers every figure's builder uses.

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

use super::RunDataError;
use super::table::Table;

/// One named line of a chart; as JSON (the live run page's) `points` are `[x, y]` arrays and
/// `band` `[x, low, high]` arrays, a non-finite number `null`.
#[derive(Clone, Debug, PartialEq, Serialize)]
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

/// How a chart's x axis spaces its values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum XScale {
    /// Equal steps of x, equal distances.
    #[default]
    Linear,
    /// Each doubling of x the same distance (x > 0; points at x <= 0 are left out), the ticks
    /// at powers of two: strength against compute, where every doubling should buy as much.
    Log2,
}

/// One chart of the report. As JSON: `stem`, `title`, `x_label`, `y_label`, `x_scale`
/// (`"linear"` or `"log2"`), `caption`, `series` (empty when there are none) and `why` (the
/// reason there are none, else null).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The file name without extension (`<stem>.png`, `<stem>.svg`) and the page anchor.
    pub stem: &'static str,
    pub title: &'static str,
    pub x_label: &'static str,
    pub y_label: &'static str,
    pub x_scale: XScale,
    /// What the chart shows, in a sentence under it.
    pub caption: String,
    /// The lines, or why there are none (then no files are written).
    pub content: Result<Vec<Series>, String>,
}

impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (series, why) = match &self.content {
            Ok(series) => (series.as_slice(), None),
            Err(why) => (&[][..], Some(why)),
        };
        let mut f = s.serialize_struct("Figure", 8)?;
        f.serialize_field("stem", self.stem)?;
        f.serialize_field("title", self.title)?;
        f.serialize_field("x_label", self.x_label)?;
        f.serialize_field("y_label", self.y_label)?;
        f.serialize_field("x_scale", &self.x_scale)?;
        f.serialize_field("caption", &self.caption)?;
        f.serialize_field("series", series)?;
        f.serialize_field("why", &why)?;
        f.end()
    }
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
