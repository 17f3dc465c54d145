//! [`bar_chart`]: one labelled bar per category, with its value written above it and an optional
//! interval drawn as an error bar.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::render::{Drawing, FONT, PALETTE, padded_range, render};
use super::{Bar, ChartError};

/// Draws `bars`, left to right in the given order, into `path`, a `.png` or `.svg` file,
/// replacing it.
///
/// The y axis starts at 0 (or below, for negative values) and reaches past the highest value
/// or interval end. Non-finite values are drawn as empty bars. An extension other than
/// `png`/`svg` is [`ChartError::UnsupportedFormat`] and nothing is written.
pub fn bar_chart(path: &Path, title: &str, y_label: &str, bars: &[Bar]) -> Result<(), ChartError> {
    render(path, &BarPlot { title, y_label, bars })
}

struct BarPlot<'a> {
    title: &'a str,
    y_label: &'a str,
    bars: &'a [Bar],
}

impl BarPlot<'_> {
    fn y_range(&self) -> (f64, f64) {
        let ends = self.bars.iter().flat_map(|b| {
            let (lo, hi) = b.interval.unwrap_or((b.value, b.value));
            [0.0, b.value, lo, hi]
        });
        let lowest = ends.clone().fold(0.0, |m: f64, v| if v.is_finite() { m.min(v) } else { m });
        let (lo, hi) = padded_range(ends, 0.08);
        (if lowest < 0.0 { lo } else { 0.0 }, hi)
    }
}

impl Drawing for BarPlot<'_> {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let n = self.bars.len().max(1) as u32;
        let (y0, y1) = self.y_range();
        let mut chart = ChartBuilder::on(area)
            .caption(self.title, (FONT, 26))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d((0..n - 1).into_segmented(), y0..y1)
            .map_err(err)?;
        let label = |v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) => {
                self.bars.get(*i as usize).map(|b| b.label.clone()).unwrap_or_default()
            }
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n as usize + 1)
            .x_label_formatter(&label)
            .y_desc(self.y_label)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        let color = PALETTE[0];
        let rects =
            self.bars.iter().enumerate().filter(|(_, b)| b.value.is_finite()).map(|(i, b)| {
                let i = i as u32;
                let mut r = Rectangle::new(
                    [(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), b.value)],
                    color.mix(0.75).filled(),
                );
                r.set_margin(0, 0, 12, 12);
                r
            });
        chart.draw_series(rects).map_err(err)?;
        for (i, bar) in self.bars.iter().enumerate() {
            let x = SegmentValue::CenterOf(i as u32);
            let mut top = bar.value;
            if let Some((lo, hi)) = bar.interval {
                let whisker = |y: f64| {
                    let (px, py) = chart.backend_coord(&(x.clone(), y));
                    PathElement::new([(px - 8, py), (px + 8, py)], BLACK.stroke_width(2))
                };
                let (lo_px, hi_px) = (whisker(lo), whisker(hi));
                let stem =
                    PathElement::new([(x.clone(), lo), (x.clone(), hi)], BLACK.stroke_width(2));
                chart.draw_series([stem]).map_err(err)?;
                area.draw(&lo_px).map_err(err)?;
                area.draw(&hi_px).map_err(err)?;
                top = top.max(hi);
            }
            if bar.value.is_finite() {
                let (px, py) = chart.backend_coord(&(x, top));
                let style = TextStyle::from((FONT, 14).into_font())
                    .pos(Pos::new(HPos::Center, VPos::Bottom));
                area.draw(&Text::new(format!("{:.2}", bar.value), (px, py - 4), style))
                    .map_err(err)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::testing::png_and_svg;

    #[test]
    fn writes_png_and_svg_with_labels_and_values() {
        let bars = [
            Bar::new("D7-D5", 0.6).with_interval(0.31, 0.86),
            Bar::new("F7-F8", 0.25).with_interval(0.05, 0.69),
            Bar::new("C6-B5", 1.0),
        ];
        let text = png_and_svg("charts-bar", |path| bar_chart(path, "First moves", "score", &bars));
        for needle in ["<svg", "D7-D5", "F7-F8", "C6-B5", "0.60", "First moves"] {
            assert!(text.contains(needle), "{needle} missing");
        }
    }

    #[test]
    fn no_bars_still_draws_axes() {
        let dir = storage::ScratchDir::new("charts-bar").unwrap();
        bar_chart(&dir.join("none.png"), "None", "score", &[]).unwrap();
    }
}
