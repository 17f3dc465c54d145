//! Two figures of a run's progress beside the ladder's and the losses, in the report and on the
//! live run page (`serve --run`): the value probe of each measured model, and the models saved
//! against the run's wall time.

use super::figure::{Figure, Series, non_empty, points};
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
        caption: "The number of models saved against the run's wall time when each was saved \
                  (generations.csv run_seconds): the slope is the generations a minute."
            .into(),
        content: non_empty(series, NO_PACE),
    })
}
