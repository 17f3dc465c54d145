//! What both chart kinds share: the bundled font, the colours, and writing a drawing to a PNG or
//! SVG file through the matching plotters backend.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use super::{CHART_SIZE, ChartError, ChartFormat};

/// The font family every text of a chart uses (registered from the bundled bytes).
pub const FONT: &str = "sans-serif";

static DEJAVU_SANS: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

/// Line and bar colours, in the order series are given (repeating after the last).
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Something that draws itself on any plotters backend.
pub trait Drawing {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

/// Draws `drawing` into `path`, in the format of its extension, through a temporary file
/// beside it (`.<name>.tmp.<ext>`: plotters picks the encoder by extension) that is created
/// exclusively and renamed into place, so a chart is never half-written nor written through a
/// planted link.
pub fn render(path: &Path, drawing: &impl Drawing) -> Result<(), ChartError> {
    let format = ChartFormat::from_path(path)?;
    register_bundled_font();
    let draw_error = |message: String| ChartError::Draw { path: path.to_path_buf(), message };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = storage::TempFile::create_at(path, path.with_file_name(format!(".{name}.tmp.{ext}")))
        .map_err(|e| draw_error(e.to_string()))?;
    let drawn = match format {
        ChartFormat::Png => {
            draw_on(BitMapBackend::new(tmp.path(), CHART_SIZE).into_drawing_area(), drawing)
        }
        ChartFormat::Svg => {
            draw_on(SVGBackend::new(tmp.path(), CHART_SIZE).into_drawing_area(), drawing)
        }
    };
    drawn.map_err(draw_error)?;
    tmp.commit().map_err(|e| draw_error(e.to_string()))
}

fn draw_on<DB: DrawingBackend>(
    area: DrawingArea<DB, Shift>,
    drawing: &impl Drawing,
) -> Result<(), String> {
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    drawing.draw(&area)?;
    area.present().map_err(|e| e.to_string())
}

fn register_bundled_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TrueType font (checked by the tests); a failure would only
        // leave text undrawn, never abort.
        let _ = register_font(FONT, FontStyle::Normal, DEJAVU_SANS);
    });
}

/// `(low, high)` of `values`, widened by `pad` of the span on each side, and never empty.
pub fn padded_range(values: impl Iterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        let half = if lo.abs() > 1e-12 { lo.abs() * 0.1 } else { 0.5 };
        return (lo - half, hi + half);
    }
    let span = hi - lo;
    (lo - pad * span, hi + pad * span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_font_parses() {
        assert!(register_font("test-font", FontStyle::Normal, DEJAVU_SANS).is_ok());
    }

    #[test]
    fn ranges_are_padded_and_never_empty() {
        assert_eq!(padded_range([0.0, 10.0].into_iter(), 0.1), (-1.0, 11.0));
        assert_eq!(padded_range([2.0, 2.0].into_iter(), 0.1), (1.8, 2.2));
        assert_eq!(padded_range([0.0].into_iter(), 0.1), (-0.5, 0.5));
        assert_eq!(padded_range([f64::NAN].into_iter(), 0.1), (0.0, 1.0));
        assert_eq!(padded_range(std::iter::empty(), 0.1), (0.0, 1.0));
    }
}
