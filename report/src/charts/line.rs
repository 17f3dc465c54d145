//! [`line_chart`]: several named series of `(x, y)` points on shared axes, with a legend.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::render::{Drawing, FONT, PALETTE, padded_range, render};
use super::{CHART_SIZE, ChartError, Series, XScale};

/// Series with at most this many points also get a dot at each point.
const MAX_MARKED_POINTS: usize = 60;

/// Draws `series` as lines (each in its own colour, named in a legend, its band, when it has
/// one, shaded around it in the same colour) into `path`, a `.png` or `.svg` file, replacing it.
///
/// The axes span every finite point of every series with a small margin; points with a
/// non-finite coordinate are left out, and a chart without any point is drawn with empty axes
/// (`0..1`). On an [`XScale::Log2`] axis points at `x <= 0` are left out too, and the ticks are
/// the powers of two in range. An extension other than `png`/`svg` is
/// [`ChartError::UnsupportedFormat`] and nothing is written.
pub fn line_chart(
    path: &Path,
    title: &str,
    (x_label, x_scale): (&str, XScale),
    y_label: &str,
    series: &[Series],
) -> Result<(), ChartError> {
    // Drawn on log2(x): each doubling the same width.
    let x_of = |x: f64| match x_scale {
        XScale::Linear => x,
        XScale::Log2 => x.log2(),
    };
    let finite: Vec<Series> = series
        .iter()
        .map(|s| {
            let points = s.points.iter().map(|&(x, y)| (x_of(x), y));
            let points = points.filter(|(x, y)| x.is_finite() && y.is_finite());
            let band = s.band.iter().map(|&(x, l, h)| (x_of(x), l, h));
            let band = band.filter(|b| [b.0, b.1, b.2].iter().all(|v| v.is_finite()));
            Series { band: band.collect(), ..Series::new(s.name.clone(), points.collect()) }
        })
        .collect();
    render(path, &LinePlot { title, x_label, x_scale, y_label, series: &finite })
}

struct LinePlot<'a> {
    title: &'a str,
    x_label: &'a str,
    x_scale: XScale,
    y_label: &'a str,
    /// With x already as drawn (log2 of the value on a log axis).
    series: &'a [Series],
}

/// A tick of a log2 axis at `v` (= log2 of the value): the value at whole `v` (8, 16, 0.5),
/// nothing between them, unless `every` (an axis narrower than one doubling).
fn log2_tick(v: f64, every: bool) -> String {
    let whole = (v - v.round()).abs() < 1e-9;
    if !whole && !every {
        return String::new();
    }
    let value = 2f64.powf(if whole { v.round() } else { v });
    if value >= 10.0 || value.fract() == 0.0 {
        format!("{}", value.round())
    } else {
        format!("{value:.2}")
    }
}

impl LinePlot<'_> {
    /// Every point to fit on the axes: the lines' and their bands' ends.
    fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let bands =
            self.series.iter().flat_map(|s| &s.band).flat_map(|&(x, l, h)| [(x, l), (x, h)]);
        self.series.iter().flat_map(|s| s.points.iter().copied()).chain(bands)
    }

    /// The y range with room above the data for the legend (drawn at the top right), so that
    /// the legend never covers a point: a band of the plot's height for each legend line.
    fn y_range_with_legend(&self, y: (f64, f64)) -> (f64, f64) {
        if self.series.is_empty() {
            return y;
        }
        // Plot height in pixels (the chart less the caption, the x labels and the margins),
        // and the legend's: one line per series, plus its border.
        let plot = f64::from(CHART_SIZE.1) - 26.0 - 48.0 - 2.0 * 16.0 - 16.0;
        let legend = (LEGEND_LINE * self.series.len() as f64 + 16.0).min(0.8 * plot);
        let share = legend / plot;
        (y.0, y.1 + (y.1 - y.0) * share / (1.0 - share))
    }
}

/// Pixels per legend line (15-point text).
const LEGEND_LINE: f64 = 21.0;

impl Drawing for LinePlot<'_> {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let x = padded_range(self.points().map(|p| p.0), 0.02);
        // A log axis spans whole doublings, a quarter of one beyond the outer points, so that
        // every power of two in range gets its tick.
        let x = match self.x_scale {
            XScale::Linear => x,
            XScale::Log2 => (x.0.floor() - 0.25, x.1.ceil() + 0.25),
        };
        let y = self.y_range_with_legend(padded_range(self.points().map(|p| p.1), 0.06));
        let mut chart = ChartBuilder::on(area)
            .caption(self.title, (FONT, 26))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(x.0..x.1, y.0..y.1)
            .map_err(err)?;
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(self.x_label)
            .y_desc(self.y_label)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .light_line_style(WHITE.mix(0.0));
        // Generations and steps are whole numbers: no "2.5" between them.
        let whole = |x: &f64| {
            if (x - x.round()).abs() < 1e-9 { format!("{}", x.round()) } else { String::new() }
        };
        // On a log2 axis the values, at the powers of two when at least two are in range.
        let doublings = (x.0.ceil() as i64..=x.1.floor() as i64).count();
        let log2 = |v: &f64| log2_tick(*v, doublings < 2);
        match self.x_scale {
            XScale::Log2 => {
                // Ticks at most a quarter apart: a step that divides a whole doubling.
                mesh.x_labels((4.0 * (x.1 - x.0)).ceil() as usize + 1).x_label_formatter(&log2);
            }
            XScale::Linear if self.points().all(|p| p.0.fract() == 0.0) => {
                mesh.x_label_formatter(&whole);
            }
            XScale::Linear => {}
        }
        mesh.draw().map_err(err)?;
        // The bands first, under every line: the upper ends forward, the lower ends back.
        for (i, series) in self.series.iter().enumerate().filter(|(_, s)| !s.band.is_empty()) {
            let color = PALETTE[i % PALETTE.len()];
            let upper = series.band.iter().map(|&(x, _, high)| (x, high));
            let outline: Vec<(f64, f64)> =
                upper.chain(series.band.iter().rev().map(|&(x, low, _)| (x, low))).collect();
            chart.draw_series([Polygon::new(outline, color.mix(0.18).filled())]).map_err(err)?;
        }
        for (i, series) in self.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let line = LineSeries::new(series.points.iter().copied(), color.stroke_width(2));
            chart.draw_series(line).map_err(err)?.label(series.name.as_str()).legend(
                move |(lx, ly)| PathElement::new([(lx, ly), (lx + 24, ly)], color.stroke_width(3)),
            );
            if series.points.len() <= MAX_MARKED_POINTS {
                let dots = series.points.iter().map(|&p| Circle::new(p, 3, color.filled()));
                chart.draw_series(dots).map_err(err)?;
            }
        }
        if !self.series.is_empty() {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .label_font((FONT, 15))
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.4))
                .draw()
                .map_err(err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::testing::png_and_svg;

    /// A scratch folder for one test, removed when the guard is dropped.
    fn scratch() -> storage::ScratchDir {
        storage::ScratchDir::new("charts-line").unwrap()
    }

    #[test]
    fn writes_png_and_svg_with_the_legend() {
        let series = [
            Series::new("policy loss", vec![(0.0, 2.0), (1.0, 1.5), (2.0, f64::NAN), (3.0, 1.1)]),
            Series::new("value loss", vec![(0.0, 0.9), (1.0, 0.8), (3.0, 0.6)]),
        ];
        let draw = |path: &Path| {
            line_chart(path, "Losses", ("generation", XScale::Linear), "nats", &series)
        };
        let text = png_and_svg("charts-line", draw);
        assert!(
            text.contains("<svg") && text.contains("policy loss") && text.contains("value loss")
        );
    }

    /// Issue 15, defect 16: the legend covered the last points of a chart (one rising to the
    /// top right corner, as an Elo curve does). No marked point lies inside the legend's box.
    #[test]
    fn d16_the_legend_never_covers_a_point() {
        let dir = scratch();
        let rising: Vec<(f64, f64)> = (0..20).map(|i| (f64::from(i), f64::from(i * i))).collect();
        let flat: Vec<(f64, f64)> = (0..20).map(|i| (f64::from(i), 361.0)).collect();
        let mut series = vec![Series::new("rising", rising), Series::new("top", flat)];
        for k in 0..4 {
            series.push(Series::new(format!("extra {k}"), vec![(19.0, 300.0 + f64::from(k))]));
        }
        let svg = dir.join("legend.svg");
        line_chart(&svg, "Legend", ("x", XScale::Linear), "y", &series).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        let attr = |tag: &str, name: &str| -> f64 {
            let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            tag[start..].split('"').next().unwrap().parse().unwrap()
        };
        // The legend's box: the last rectangle drawn, with a border.
        let boxes: Vec<&str> =
            text.split("<rect").skip(1).filter(|t| t.contains("stroke=")).collect();
        let b = boxes.last().expect("a legend box");
        let (x, y, w, h) = (attr(b, "x"), attr(b, "y"), attr(b, "width"), attr(b, "height"));
        let points: Vec<(f64, f64)> =
            text.split("<circle").skip(1).map(|c| (attr(c, "cx"), attr(c, "cy"))).collect();
        assert!(points.len() >= 40, "{} points", points.len());
        for (cx, cy) in points {
            let inside = cx >= x && cx <= x + w && cy >= y && cy <= y + h;
            assert!(!inside, "point ({cx}, {cy}) under the legend ({x}, {y}, {w}, {h})");
        }
    }

    /// The x tick labels of an SVG chart: the `<text>` contents that are numbers.
    fn numeric_labels(svg: &str) -> Vec<String> {
        svg.split("</text>")
            .filter_map(|t| t.rsplit('>').next().map(str::trim))
            .filter(|t| !t.is_empty() && t.parse::<f64>().is_ok())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn whole_number_x_values_get_whole_number_ticks() {
        let dir = scratch();
        let svg = dir.join("ticks.svg");
        let series = [Series::new("rating", vec![(2.0, 10.0), (3.0, 40.0), (4.0, 35.0)])];
        line_chart(&svg, "Elo", ("model generation", XScale::Linear), "Elo", &series).unwrap();
        let labels = numeric_labels(&std::fs::read_to_string(&svg).unwrap());
        assert!(labels.iter().any(|l| l == "3"), "{labels:?}");
        assert!(
            labels.iter().all(|l| !l.contains(".5")),
            "no tick between generations: {labels:?}"
        );
        // Fractional x values keep fractional ticks.
        let series = [Series::new("loss", vec![(0.0, 1.0), (0.5, 0.8), (1.0, 0.7)])];
        line_chart(&svg, "Loss", ("x", XScale::Linear), "y", &series).unwrap();
        let labels = numeric_labels(&std::fs::read_to_string(&svg).unwrap());
        assert!(labels.iter().any(|l| l.contains('.')), "{labels:?}");
    }

    #[test]
    fn a_band_is_shaded_around_its_line_and_only_the_line_is_in_the_legend() {
        let dir = scratch();
        let svg = dir.join("band.svg");
        let line = Series::new("Elo (band: 95% interval)", vec![(1.0, 10.0), (2.0, 40.0)]);
        let band = vec![(1.0, -30.0, 50.0), (1.5, f64::NEG_INFINITY, 60.0), (2.0, 0.0, 70.0)];
        let banded = Series { band, ..line };
        line_chart(
            &svg,
            "Elo",
            ("model generation", XScale::Linear),
            "Elo",
            std::slice::from_ref(&banded),
        )
        .unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert_eq!(text.matches("<polygon").count(), 1, "one band");
        assert_eq!(text.matches("band: 95% interval").count(), 1, "one legend entry");
        // The band's low end is on the axes: ticks below the line's lowest point (10).
        let ticks: Vec<f64> = numeric_labels(&text).iter().map(|t| t.parse().unwrap()).collect();
        assert!(ticks.iter().any(|&t| t < 0.0), "{ticks:?}");
        let plain = Series { band: Vec::new(), ..banded };
        line_chart(&svg, "Elo", ("model generation", XScale::Linear), "Elo", &[plain]).unwrap();
        assert!(!std::fs::read_to_string(&svg).unwrap().contains("<polygon"));
    }

    #[test]
    fn a_log2_axis_spaces_doublings_evenly_and_labels_the_powers_of_two() {
        let dir = scratch();
        let svg = dir.join("log2.svg");
        let chain = Series::new("chain", vec![(8.0, 0.0), (16.0, 60.0), (32.0, 120.0), (0.0, 5.0)]);
        line_chart(&svg, "Compute", ("core-minutes", XScale::Log2), "Elo", &[chain]).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        let labels = numeric_labels(&text);
        for tick in ["8", "16", "32"] {
            assert!(labels.iter().any(|l| l == tick), "{tick} in {labels:?}");
        }
        // The x = 0 point has no place on the axis: three dots, evenly spaced.
        let cx: Vec<f64> = text
            .split("<circle")
            .skip(1)
            .map(|c| {
                let start = c.find(" cx=\"").unwrap() + 5;
                c[start..].split('"').next().unwrap().parse().unwrap()
            })
            .collect();
        assert_eq!(cx.len(), 3, "{cx:?}");
        assert!(((cx[1] - cx[0]) - (cx[2] - cx[1])).abs() < 1.5, "{cx:?}");
        assert_eq!(log2_tick(3.0, false), "8");
        assert_eq!(log2_tick(-1.0, false), "0.50");
        assert_eq!(log2_tick(3.5, false), "");
        assert_eq!(log2_tick(3.5, true), "11");
    }

    #[test]
    fn empty_series_and_other_extensions() {
        let dir = scratch();
        line_chart(&dir.join("empty.svg"), "Nothing", ("x", XScale::Linear), "y", &[]).unwrap();
        let jpg = dir.join("chart.jpg");
        let e = line_chart(&jpg, "t", ("x", XScale::Linear), "y", &[]).unwrap_err();
        assert!(matches!(e, ChartError::UnsupportedFormat { .. }), "{e}");
        assert!(!jpg.exists());
    }
}
