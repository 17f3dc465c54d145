//! Charts as PNG or SVG files: a multi-series [`line_chart`] and a [`bar_chart`] with optional
//! intervals. The format follows the output file's extension (`.png` or `.svg`, any case).
//!
//! Text is drawn with DejaVu Sans, compiled into the binary (`assets/fonts/`, Bitstream Vera
//! licence), so rendering needs no system fonts, fontconfig or freetype.
//!
//! ```ignore
//! use crate::charts::{Series, XScale, line_chart};
//! let loss = Series::new("policy loss", vec![(0.0, 2.1), (1.0, 1.7), (2.0, 1.5)]);
//! line_chart(Path::new("loss.png"), "Loss", ("generation", XScale::Linear), "nats", &[loss])?;
//! ```

mod bar;
mod line;
mod render;

use std::path::{Path, PathBuf};

pub use bar::bar_chart;
pub use line::line_chart;
pub use train::run_data::figures::{Series, XScale};

/// Width and height of every chart, in pixels (PNG) or SVG user units.
pub const CHART_SIZE: (u32, u32) = (1000, 600);

/// One bar of a [`bar_chart`].
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Written under the bar.
    pub label: String,
    /// The bar's height (written above it with two decimals).
    pub value: f64,
    /// Optional `(low, high)` interval, drawn as an error bar.
    pub interval: Option<(f64, f64)>,
}

impl Bar {
    pub fn new(label: impl Into<String>, value: f64) -> Self {
        Bar { label: label.into(), value, interval: None }
    }

    pub fn with_interval(mut self, low: f64, high: f64) -> Self {
        self.interval = Some((low, high));
        self
    }
}

/// The file formats a chart can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartFormat {
    Png,
    Svg,
}

impl ChartFormat {
    /// The format named by `path`'s extension (`png` or `svg`, case-insensitive).
    pub fn from_path(path: &Path) -> Result<Self, ChartError> {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(ChartFormat::Png),
            Some("svg") => Ok(ChartFormat::Svg),
            _ => Err(ChartError::UnsupportedFormat { path: path.to_path_buf() }),
        }
    }
}

/// Why a chart could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The file name does not end in `.png` or `.svg` (bad user input).
    #[error("{}: a chart file must end in .png or .svg", path.display())]
    UnsupportedFormat { path: PathBuf },
    /// Drawing or writing the file failed (a missing directory, a full disk).
    #[error("{}: could not draw the chart: {message}", path.display())]
    Draw { path: PathBuf, message: String },
}

/// Helpers for the charts' tests.
#[cfg(test)]
mod testing {
    use std::fs;
    use std::path::Path;

    use super::ChartError;

    /// Draws a chart with `draw` twice, into `chart.png` and `chart.svg` of a fresh scratch
    /// folder named after `name`; checks that the PNG file starts with the PNG signature and
    /// returns the SVG's text.
    pub(super) fn png_and_svg(
        name: &str,
        draw: impl Fn(&Path) -> Result<(), ChartError>,
    ) -> String {
        let dir = storage::ScratchDir::new(name).unwrap();
        let png = dir.join("chart.png");
        draw(&png).unwrap();
        let signature = &fs::read(&png).unwrap()[..8];
        assert_eq!(signature, b"\x89PNG\r\n\x1a\n", "{} is not a PNG", png.display());
        let svg = dir.join("chart.svg");
        draw(&svg).unwrap();
        fs::read_to_string(&svg).unwrap()
    }
}
