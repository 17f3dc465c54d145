//! Three figures of a run's progress beside the ladder's and the losses, in the report and on
//! the live run page (`serve --run`): the value probe of each measured model, the models saved
//! against the run's wall time, and strength against compute (`curve.csv`, once measured).

use super::figure::{Figure, Series, XScale, non_empty, points};
use super::{RunData, RunDataError};

/// The probe's columns of `generations.csv` with their legend names.
pub const PROBE_COLUMNS: [(&str, &str); 3] =
    [("probe_down2", "two Men down"), ("probe_even", "even material"), ("probe_up2", "two Men up")];

/// The text shown instead of the probe chart of a run without a probe.
pub const NO_PROBE: &str = "no value probe in generations.csv (the probe measures the models the \
     ladder measures, or every model with ladder.probe = \"every_generation\")";

/// The text shown instead of the pace chart of a run without run times.
pub const NO_PACE: &str = "no run_seconds in generations.csv (recorded by the versions that \
     draw this chart)";

/// The value probe (generations.csv `probe_*`): each measured model's expected score in
/// positions two Men down, at even material and two Men up, against the model's number.
pub fn probe(run: &RunData) -> Result<Figure, RunDataError> {
    let mut series = Vec::new();
    if let Some(t) = &run.generations {
        for (column, name) in PROBE_COLUMNS {
            if t.column(column).is_some() {
                // Row g measured the model it trained, gen-(g+1), as in the Elo chart.
                let line = points(t, "generation", column)?.into_iter().map(|(g, y)| (g + 1.0, y));
                series.push(Series::new(name, line.collect()));
            }
        }
    }
    Ok(Figure {
        stem: "probe",
        title: "Value probe per model",
        x_label: "model generation (gen-N)",
        y_label: "expected score",
        x_scale: XScale::Linear,
        caption: "Each measured model's expected score by its value head in positions of its own \
                  games two Men down, at even material and two Men up (generations.csv probe_*): \
                  lines far apart judge material, flat lines judge it steadily."
            .into(),
        content: non_empty(series, NO_PROBE),
    })
}

/// The models saved against the run's wall time: the slope is the generations a minute, a flat
/// step a pause (a resumed run continues its clock).
pub fn pace(run: &RunData) -> Result<Figure, RunDataError> {
    let mut series = Vec::new();
    if let Some(t) = &run.generations
        && t.column("run_seconds").is_some()
    {
        let line =
            points(t, "run_seconds", "generation")?.into_iter().map(|(s, g)| (s / 60.0, g + 1.0));
        series.push(Series::new("models saved", line.collect()));
    }
    Ok(Figure {
        stem: "pace",
        title: "Generations over time",
        x_label: "run time (minutes)",
        y_label: "models saved",
        x_scale: XScale::Linear,
        caption: "The number of models saved against the run's wall time when each was saved \
                  (generations.csv run_seconds): the slope is the generations a minute."
            .into(),
        content: non_empty(series, NO_PACE),
    })
}

/// The text shown instead of the compute chart of a run whose curve is not measured.
pub const NO_CURVE: &str = "no curve.csv in the run directory (scripts/compute_curve.sh measures \
     the run's models at doubling budgets of core-minutes and writes it: docs/scaling.md)";

/// The Elo difference a score stands for, capped at ±800 for a pair won or lost outright, as
/// `scripts/compute_curve.sh` writes its chain.
fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        -800.0
    } else if score >= 1.0 {
        800.0
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Strength against compute (`curve.csv`), on a log2 axis of core-minutes: the chain's Elo
/// (each budget's model against the one before, the first budget's model at 0) and, for each
/// anchor column `vs_<anchor>`, the Elo its score against that anchor stands for.
pub fn compute(run: &RunData) -> Result<Figure, RunDataError> {
    let mut series = Vec::new();
    if let Some(t) = &run.curve {
        series.push(Series::new(
            "chain: head to head, first model = 0",
            points(t, "core_minutes", "elo")?,
        ));
        for name in t.header.iter().filter(|h| h.starts_with("vs_")) {
            let line = points(t, "core_minutes", name)?;
            let anchor = &name["vs_".len()..];
            let elo = line.into_iter().map(|(m, score)| (m, elo_of_score(score))).collect();
            series.push(Series::new(format!("against {anchor} (0 = level)"), elo));
        }
    }
    Ok(Figure {
        stem: "compute",
        title: "Strength against compute",
        x_label: "core-minutes (log scale)",
        y_label: "Elo",
        x_scale: XScale::Log2,
        caption: "The run's newest model within each budget of core-minutes (curve.csv, from \
                  scripts/compute_curve.sh): its Elo chained head to head from the first \
                  budget's model, and the Elo its score against each classical anchor stands \
                  for. A straight rising line buys the same strength with every doubling."
            .into(),
        content: non_empty(series, NO_CURVE),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with_curve(curve: Option<&str>) -> RunData {
        RunData::of_tables(None, curve)
    }

    #[test]
    fn the_compute_chart_draws_the_chain_and_each_anchor_as_elo_on_a_log_axis() {
        let f = compute(&run_with_curve(Some(
            "budget,model,core_minutes,score_vs_previous,elo_step,elo,vs_alphabeta:depth=2\n\
             10,gen-0027,9.8,,,0,0.25\n20,gen-0050,19.6,0.585,60,60,0.5\n40,gen-0090,39.5,0.6,70,130,1\n",
        )))
        .unwrap();
        assert_eq!(f.x_scale, XScale::Log2);
        let series = f.content.unwrap();
        assert_eq!(series.len(), 2);
        assert_eq!(series[0].points, [(9.8, 0.0), (19.6, 60.0), (39.5, 130.0)]);
        assert_eq!(series[1].name, "against alphabeta:depth=2 (0 = level)");
        let elo: Vec<f64> = series[1].points.iter().map(|p| p.1.round()).collect();
        // 0.25 is 1 to 3: -400 log10(3) = -191; level; won outright, capped.
        assert_eq!(elo, [-191.0, 0.0, 800.0]);
    }

    #[test]
    fn without_a_curve_the_compute_chart_says_how_to_measure_one() {
        assert_eq!(compute(&run_with_curve(None)).unwrap().content, Err(NO_CURVE.to_string()));
        let header_only = run_with_curve(Some("budget,model,core_minutes,elo\n"));
        assert_eq!(compute(&header_only).unwrap().content, Err(NO_CURVE.to_string()));
    }
}
