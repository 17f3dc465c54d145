//! What each chart of a run's report shows, taken from the run's data: the series of every figure,
//! or the reason it has none (shown in the page instead of the chart).

use games::Termination;

pub use super::figure::{Figure, Series, XScale};
use super::figure::{non_empty, points};
use super::games::GenerationGames;
use super::table::Table;
use super::{RunData, RunDataError};

/// The text shown instead of the generation table (and the speed chart) of a run without a
/// finished generation.
pub const NO_GENERATIONS: &str = "no generations yet";

/// The `generations.csv` columns of the ladder that the Elo chart shows, with their legend
/// names and whether their 95% interval (`<column>_low`, `<column>_high`) is drawn too when
/// present: `abs_elo` (the absolute Elo, `random` = 0, when the baseline is an anchor),
/// `rating` (the chained Elo, `gen-0000` = 0), the Elo against the config's baseline and
/// against the previous model. Empty cells (generations without a ladder) are skipped.
pub const ELO_COLUMNS: [(&str, &str, bool); 4] = [
    ("abs_elo", "absolute Elo (anchors, random = 0)", true),
    ("rating", "rating (chained Elo)", false),
    ("elo_vs_baseline", "Elo vs baseline", true),
    ("elo_vs_opponent", "Elo vs previous model", false),
];

/// The text shown instead of the Elo chart when no generation has an Elo.
pub const NO_ELO: &str = "no Elo recorded for this run";

/// Every figure of the report, in page order.
pub fn figures(run: &RunData) -> Result<Vec<Figure>, RunDataError> {
    Ok(vec![
        losses(run.steps.as_ref())?,
        entropy(run.steps.as_ref())?,
        elo(run)?,
        elo_time(run)?,
        lengths(run),
        terminations(run),
        speed(run)?,
        super::progress_figures::probe(run)?,
        super::progress_figures::pace(run)?,
        super::progress_figures::compute(run)?,
    ])
}

const NO_STEPS: &str = "no training steps yet";

fn losses(steps: Option<&Table>) -> Result<Figure, RunDataError> {
    let content = match steps {
        None => Err(NO_STEPS.to_string()),
        Some(t) => {
            let mut series = Vec::new();
            for (column, name) in
                [("loss_total", "total"), ("loss_policy", "policy"), ("loss_value", "value")]
            {
                series.push(Series::new(name, points(t, "total_step", column)?));
            }
            non_empty(series, NO_STEPS)
        }
    };
    Ok(Figure {
        stem: "losses",
        title: "Training losses",
        x_label: "training step",
        y_label: "loss (nats)",
        x_scale: XScale::Linear,
        caption:
            "Losses of every training step (metrics.csv), measured on the batch before the step: \
                  policy cross-entropy, value loss and their weighted total."
                .into(),
        content,
    })
}

fn entropy(steps: Option<&Table>) -> Result<Figure, RunDataError> {
    let content = match steps {
        None => Err(NO_STEPS.to_string()),
        Some(t) => {
            let mut series = Vec::new();
            for (column, name) in [
                ("target_entropy", "search policy (training targets)"),
                ("net_entropy", "network policy"),
            ] {
                if t.column(column).is_some() {
                    series.push(Series::new(name, points(t, "total_step", column)?));
                }
            }
            non_empty(series, "no policy entropy in metrics.csv")
        }
    };
    Ok(Figure {
        stem: "entropy",
        title: "Policy entropy",
        x_label: "training step",
        y_label: "entropy (nats)",
        x_scale: XScale::Linear,
        caption: "Mean entropy of the search policies the batch trains on (every step) and of the \
                  network's policy over the legal actions (every train.probe_every steps)."
            .into(),
        content,
    })
}

fn elo(run: &RunData) -> Result<Figure, RunDataError> {
    // Row `g` of generations.csv holds the ladder of the model it trained, `gen-(g+1)`: plot
    // against the model's own number, as the arena and the checkpoints name it.
    let by_model = |t: &Table, column: &str| -> Result<Vec<(f64, f64)>, RunDataError> {
        Ok(points(t, "generation", column)?.into_iter().map(|(g, y)| (g + 1.0, y)).collect())
    };
    let mut series = Vec::new();
    // Bounds of a match won or lost outright are infinite: not drawable, but said.
    let mut infinite: Vec<(u32, String)> = Vec::new();
    if let Some(t) = &run.generations {
        for (column, name, interval) in ELO_COLUMNS {
            if t.column(column).is_none() {
                continue;
            }
            let line = Series::new(name, by_model(t, column)?);
            if !interval {
                series.push(line);
                continue;
            }
            let (band, outright) = interval_of(t, column, by_model)?;
            series.push(line.with_interval(band));
            for (g, which, y) in outright {
                let sign = if y > 0.0 { "+inf" } else { "-inf" };
                infinite.push((g as u32, format!("gen-{g} {which} {sign}")));
            }
        }
    }
    infinite.sort_by_key(|(g, _)| *g);
    Ok(Figure {
        stem: "elo",
        title: "Elo per model",
        x_label: "model generation (gen-N)",
        y_label: "Elo",
        x_scale: XScale::Linear,
        caption: format!(
            "The ladder's figures for each model gen-N, from generations.csv row N - 1 (columns \
             {}; the baseline's with its 95% interval).{}",
            ELO_COLUMNS.map(|(c, _, _)| c).join(", "),
            if infinite.is_empty() {
                String::new()
            } else {
                format!(
                    " Not drawn: {} infinite interval bounds (a match won or lost outright): {}.",
                    infinite.len(),
                    infinite.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join(", ")
                )
            }
        ),
        content: non_empty(series, NO_ELO),
    })
}

/// The 95% interval of `column` that `t` has (`<column>_low` and `<column>_high`, the points
/// of each from `points_of(t, bound)`) as a band `(x, low, high)` over the `x` that have both
/// bounds finite; and the infinite bounds, `(x, "95% low" | "95% high", y)`: a match won or lost
/// outright, not drawable, to be said in the caption.
#[allow(clippy::type_complexity)]
fn interval_of(
    t: &Table,
    column: &str,
    points_of: impl Fn(&Table, &str) -> Result<Vec<(f64, f64)>, RunDataError>,
) -> Result<(Vec<(f64, f64, f64)>, Vec<(f64, &'static str, f64)>), RunDataError> {
    let mut infinite = Vec::new();
    let mut ends = Vec::new();
    for (end, which) in [("low", "95% low"), ("high", "95% high")] {
        let bound = format!("{column}_{end}");
        let points = if t.column(&bound).is_some() { points_of(t, &bound)? } else { Vec::new() };
        infinite
            .extend(points.iter().filter(|(_, y)| y.is_infinite()).map(|&(x, y)| (x, which, y)));
        ends.push(points);
    }
    let band = ends[0]
        .iter()
        .filter_map(|&(x, low)| ends[1].iter().find(|h| h.0 == x).map(|&(_, high)| (x, low, high)))
        .filter(|(_, low, high)| low.is_finite() && high.is_finite())
        .collect();
    Ok((band, infinite))
}

/// The text shown instead of the Elo-against-time chart when no row has both an absolute Elo
/// and a run time.
pub const NO_ELO_TIME: &str = "no model with both an absolute Elo and a run time (abs_elo needs \
     the ladder against the anchors; run_seconds is recorded for models trained by a version \
     that draws this chart)";

/// Elo per CPU-hour (issue #16, item 3): each measured model's absolute Elo with its 95%
/// interval against the run's wall time when the model was saved (`run_seconds`, in minutes).
fn elo_time(run: &RunData) -> Result<Figure, RunDataError> {
    let mut series = Vec::new();
    let mut infinite = 0;
    if let Some(t) = &run.generations
        && t.column("run_seconds").is_some()
        && t.column("abs_elo").is_some()
    {
        let minutes = |t: &Table, column: &str| -> Result<Vec<(f64, f64)>, RunDataError> {
            Ok(points(t, "run_seconds", column)?.into_iter().map(|(s, y)| (s / 60.0, y)).collect())
        };
        let (band, outright) = interval_of(t, "abs_elo", minutes)?;
        series.push(Series::new("absolute Elo", minutes(t, "abs_elo")?).with_interval(band));
        infinite = outright.len();
    }
    Ok(Figure {
        stem: "elo_time",
        title: "Absolute Elo against run time",
        x_label: "run time (minutes)",
        y_label: "Elo (random = 0)",
        x_scale: XScale::Linear,
        caption: format!(
            "Each measured model's absolute Elo (generations.csv, abs_elo with its 95% interval) \
             against the wall time the run had used when the model was saved (run_seconds, over \
             all the invocations that trained it): Elo per CPU-hour.{}",
            if infinite == 0 {
                String::new()
            } else {
                format!(
                    " Not drawn: {infinite} infinite interval bounds (a match won or lost outright)."
                )
            }
        ),
        content: non_empty(series, NO_ELO_TIME),
    })
}

const NO_GAMES: &str = "no games recorded yet";

fn lengths(run: &RunData) -> Figure {
    let per_gen = |f: &dyn Fn(&GenerationGames) -> f64| {
        run.games.iter().map(|g| (f64::from(g.generation), f(g))).collect::<Vec<_>>()
    };
    let series = vec![
        Series::new("mean", per_gen(&|g| g.mean_length())),
        Series::new("median", per_gen(&|g| g.length_quantile(0.5))),
        Series::new("10th percentile", per_gen(&|g| g.length_quantile(0.1))),
        Series::new("90th percentile", per_gen(&|g| g.length_quantile(0.9))),
    ];
    Figure {
        stem: "game_length",
        title: "Self-play game length",
        x_label: "generation",
        y_label: "complete moves",
        x_scale: XScale::Linear,
        caption: "Length of the self-play games of each generation (parquet game records).".into(),
        content: non_empty(series, NO_GAMES),
    }
}

fn terminations(run: &RunData) -> Figure {
    let series = Termination::ALL
        .iter()
        .map(|t| t.as_str())
        .filter(|t| run.games.iter().any(|g| g.terminations.get(*t).copied().unwrap_or(0) > 0))
        .map(|t| {
            let points =
                run.games.iter().map(|g| (f64::from(g.generation), 100.0 * g.share(t))).collect();
            Series::new(t, points)
        })
        .collect();
    Figure {
        stem: "terminations",
        title: "How self-play games ended",
        x_label: "generation",
        y_label: "% of the generation's games",
        x_scale: XScale::Linear,
        caption: "Share of each termination among the self-play games of each generation (parquet \
                  game records); terminations that never occurred are left out."
            .into(),
        content: non_empty(series, NO_GAMES),
    }
}

fn speed(run: &RunData) -> Result<Figure, RunDataError> {
    let content = match &run.generations {
        None => Err(NO_GENERATIONS.to_string()),
        Some(t) => non_empty(
            vec![Series::new("evaluations/s", points(t, "generation", "evaluations_per_sec")?)],
            NO_GENERATIONS,
        ),
    };
    Ok(Figure {
        stem: "speed",
        title: "Self-play speed",
        x_label: "generation",
        y_label: "network evaluations / s",
        x_scale: XScale::Linear,
        caption:
            "Positions evaluated per second of self-play in each generation (generations.csv)."
                .into(),
        content,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(generations: &str) -> RunData {
        RunData::of_tables(Some(generations), None)
    }

    fn elo_of(generations: &str) -> Result<Vec<Series>, String> {
        figures(&run(generations)).unwrap().into_iter().find(|f| f.stem == "elo").unwrap().content
    }

    /// Issue 15, defect 16: an infinite interval bound (a match won outright) was dropped
    /// from the Elo chart without a word; the caption now names it.
    #[test]
    fn d16_infinite_elo_bounds_are_named_in_the_caption() {
        let elo = figures(&run(
            "generation,evaluations_per_sec,elo_vs_baseline,elo_vs_baseline_low,elo_vs_baseline_high\n\
             0,5,300,120,inf\n1,5,40,-inf,90\n",
        ))
        .unwrap()
        .into_iter()
        .find(|f| f.stem == "elo")
        .unwrap();
        assert!(
            elo.caption.contains(
                "Not drawn: 2 infinite interval bounds (a match won or lost outright): \
                 gen-1 95% high +inf, gen-2 95% low -inf."
            ),
            "{}",
            elo.caption
        );
    }

    #[test]
    fn elo_comes_from_the_ladder_columns_when_they_have_values() {
        let series = elo_of(
            "generation,evaluations_per_sec,rating,elo_vs_baseline,elo_vs_baseline_low,elo_vs_baseline_high,elo_vs_opponent_low\n\
             0,5,,,,,\n1,5,12.5,30,-10,70,3\n2,5,20,35,0,80,4\n",
        )
        .unwrap();
        let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
        // One series a line: the interval is a band around its line, not two more lines.
        assert_eq!(names, ["rating (chained Elo)", "Elo vs baseline (band: 95% interval)"]);
        // Rows 1 and 2 hold the ladders of gen-0002 and gen-0003; empty cells are skipped.
        assert_eq!(series[0].points, [(2.0, 12.5), (3.0, 20.0)]);
        assert!(series[0].band.is_empty());
        assert_eq!(series[1].band, [(2.0, -10.0, 70.0), (3.0, 0.0, 80.0)]);
    }

    #[test]
    fn without_elo_values_the_chart_is_a_note() {
        assert_eq!(elo_of("generation,evaluations_per_sec\n0,5\n"), Err(NO_ELO.to_string()));
        assert_eq!(
            elo_of("generation,evaluations_per_sec,rating\n0,5,\n"),
            Err(NO_ELO.to_string())
        );
        let figs = figures(&run("generation,evaluations_per_sec\n")).unwrap();
        let missing: Vec<&str> =
            figs.iter().filter(|f| f.content.is_err()).map(|f| f.stem).collect();
        assert_eq!(
            missing,
            [
                "losses",
                "entropy",
                "elo",
                "elo_time",
                "game_length",
                "terminations",
                "speed",
                "probe",
                "pace",
                "compute"
            ]
        );
    }

    #[test]
    fn elo_against_time_takes_the_rows_with_both_a_time_and_an_absolute_elo() {
        let chart = |generations: &str| {
            figures(&run(generations)).unwrap().into_iter().find(|f| f.stem == "elo_time").unwrap()
        };
        let f = chart(
            "generation,evaluations_per_sec,abs_elo,abs_elo_low,abs_elo_high,run_seconds\n\
             0,5,,,,90\n1,5,120,60,180,150\n2,5,300,250,inf,\n3,5,410,350,470,600\n",
        );
        let series = f.content.unwrap();
        let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["absolute Elo (band: 95% interval)"]);
        // Minutes; the row without a time (an older version's) and the one without an Elo
        // are left out.
        assert_eq!(series[0].points, [(2.5, 120.0), (10.0, 410.0)]);
        assert_eq!(series[0].band, [(2.5, 60.0, 180.0), (10.0, 350.0, 470.0)]);
        assert!(!f.caption.contains("Not drawn"), "{}", f.caption);
        let f = chart(
            "generation,evaluations_per_sec,abs_elo,abs_elo_high,run_seconds\n0,5,300,inf,60\n",
        );
        assert!(f.caption.contains("Not drawn: 1 infinite"), "{}", f.caption);
        // Without either column: the note.
        let note = Err(NO_ELO_TIME.to_string());
        for generations in [
            "generation,evaluations_per_sec,abs_elo\n0,5,300\n",
            "generation,evaluations_per_sec,run_seconds\n0,5,60\n",
            "generation,evaluations_per_sec,abs_elo,run_seconds\n0,5,,60\n",
        ] {
            assert_eq!(chart(generations).content, note, "{generations}");
        }
    }

    #[test]
    fn a_bad_elo_cell_is_bad_input() {
        let e = figures(&run("generation,evaluations_per_sec,rating\n0,5,high\n")).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("column `rating` is \"high\""), "{e}");
    }
}
