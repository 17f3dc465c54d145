//! Metrics as CSV: one row per training step (`metrics.csv`) and one per generation
//! (`generations.csv`) in the run folder. The files are the run's history: they are only ever
//! appended to, each row with a single write and a flush, so a crash loses at most the row being
//! written, and a torn last row is cut off when the file is opened again.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::trainer::{GenerationSummary, StepMetrics};

/// The per-step metrics file of a run folder.
pub const STEP_METRICS_FILE: &str = "metrics.csv";
/// The per-generation metrics file of a run folder.
pub const GENERATION_METRICS_FILE: &str = "generations.csv";

/// A metrics file that cannot be used, naming it.
#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: its header is {found:?}, expected {expected:?} (a file from another version? move it aside)", path.display())]
    Header { path: PathBuf, found: String, expected: String },
    #[error("{}: a row of {got} fields for {expected} columns", path.display())]
    RowLength { path: PathBuf, got: usize, expected: usize },
    /// A row that this program did not write (another program, a hand edit).
    #[error("{} line {line}: {problem}, so not a row this program wrote; remove the line (or move the file aside) and start again", path.display())]
    BadRow { path: PathBuf, line: usize, problem: String },
    #[error(transparent)]
    Storage(#[from] storage::StorageError),
}

impl MetricsError {
    /// Whether the file holds something this program did not write (bad input) rather than
    /// failing to be read or written.
    pub fn is_bad_input(&self) -> bool {
        match self {
            MetricsError::Io { .. } => false,
            MetricsError::Storage(e) => e.is_bad_input(),
            MetricsError::Header { .. }
            | MetricsError::RowLength { .. }
            | MetricsError::BadRow { .. } => true,
        }
    }
}

/// An append-only CSV file with a fixed header.
#[derive(Debug)]
pub struct CsvLog {
    path: PathBuf,
    file: File,
    columns: usize,
}

impl CsvLog {
    /// Opens `path` for appending, creating it with `header` if it is missing or empty. An
    /// existing file must have exactly this header; a last line without its newline (a row torn
    /// by a crash) is removed.
    pub fn open(path: &Path, header: &[&str]) -> Result<CsvLog, MetricsError> {
        Self::open_keeping(path, header, |_| Ok(true))
    }

    /// The generation (first field) of the file's last row, `None` without rows.
    pub fn last_generation(&self) -> Result<Option<u32>, MetricsError> {
        let text = std::fs::read_to_string(&self.path)
            .map_err(|source| MetricsError::Io { path: self.path.clone(), source })?;
        Ok(text.lines().skip(1).last().and_then(|l| l.split(',').next()?.parse().ok()))
    }

    /// [`CsvLog::open`], first removing the rows whose first column (the generation) is
    /// `from_generation` or later: the rows of a generation that is being trained again after
    /// an interruption, so that each step appears once. The file is rewritten atomically.
    /// Every row kept must look like one this program writes (the header's number of fields, a
    /// generation number first), else [`MetricsError::BadRow`] names the line: a foreign row
    /// would otherwise survive the resume and break the readers later.
    pub fn open_resuming(
        path: &Path,
        header: &[&str],
        from_generation: u32,
    ) -> Result<CsvLog, MetricsError> {
        let columns = header.len();
        Self::open_keeping(path, header, |row| {
            let fields = count_fields(row);
            if fields != columns {
                return Err(format!("{fields} fields for {columns} columns"));
            }
            let first = row.split(',').next().unwrap_or("");
            let g = first
                .parse::<u32>()
                .map_err(|_| format!("the first field {first:?} is not a generation number"))?;
            Ok(g < from_generation)
        })
    }

    fn open_keeping(
        path: &Path,
        header: &[&str],
        keep: impl Fn(&str) -> Result<bool, String>,
    ) -> Result<CsvLog, MetricsError> {
        let io = |source| MetricsError::Io { path: path.to_path_buf(), source };
        let expected = header.join(",");
        let mut file =
            OpenOptions::new().read(true).append(true).create(true).open(path).map_err(io)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io)?;
        let mut rewrite = false;
        if text.is_empty() {
            file.write_all(format!("{expected}\n").as_bytes()).map_err(io)?;
        } else {
            let found = text.lines().next().unwrap_or("").to_string();
            if let Some(added) = expected.strip_prefix(&format!("{found},")) {
                // A file of an older version, whose columns this one extends: the new columns
                // are added, empty in the rows already written (rewritten below).
                let empty = ",".repeat(added.split(',').count());
                // Whole lines only: a row cut short by a crash is dropped, as below.
                let mut lines = text[..text.rfind('\n').map_or(0, |i| i + 1)].lines();
                lines.next();
                text = std::iter::once(expected.clone())
                    .chain(lines.map(|l| format!("{l}{empty}")))
                    .map(|l| l + "\n")
                    .collect();
                rewrite = true;
            }
            let found = text.lines().next().unwrap_or("");
            if found != expected {
                return Err(MetricsError::Header {
                    path: path.to_path_buf(),
                    found: found.to_string(),
                    expected,
                });
            }
            let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
            let mut kept = String::with_capacity(whole.len());
            for (i, line) in whole.lines().enumerate() {
                let keep_line = i == 0
                    || keep(line).map_err(|problem| MetricsError::BadRow {
                        path: path.to_path_buf(),
                        line: i + 1,
                        problem,
                    })?;
                if keep_line {
                    kept.push_str(line);
                    kept.push('\n');
                }
            }
            if kept.len() != text.len() || rewrite {
                if kept.is_empty() {
                    kept = format!("{expected}\n");
                }
                storage::write_atomic(path, kept.as_bytes())?;
                file = OpenOptions::new().append(true).open(path).map_err(io)?;
            }
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(CsvLog { path: path.to_path_buf(), file, columns: header.len() })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one row (one field per column; fields with commas, quotes or newlines are
    /// quoted) in a single write, and flushes it.
    pub fn append(&mut self, fields: &[String]) -> Result<(), MetricsError> {
        if fields.len() != self.columns {
            return Err(MetricsError::RowLength {
                path: self.path.clone(),
                got: fields.len(),
                expected: self.columns,
            });
        }
        let mut line = fields.iter().map(|f| quote(f)).collect::<Vec<_>>().join(",");
        line.push('\n');
        let io = |source| MetricsError::Io { path: self.path.clone(), source };
        self.file.write_all(line.as_bytes()).map_err(io)?;
        self.file.flush().map_err(io)
    }
}

/// The number of fields of a CSV line written by [`CsvLog::append`] (commas inside quotes do
/// not count).
fn count_fields(line: &str) -> usize {
    let mut quoted = false;
    1 + line
        .chars()
        .filter(|&c| {
            if c == '"' {
                quoted = !quoted;
            }
            c == ',' && !quoted
        })
        .count()
}

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

fn opt(x: Option<f32>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

impl StepMetrics {
    /// The columns of `metrics.csv` (generation first, for [`CsvLog::open_resuming`]).
    pub const CSV_HEADER: &[&str] = &[
        "generation",
        "step",
        "total_step",
        "loss_total",
        "loss_policy",
        "loss_value",
        "target_entropy",
        "net_entropy",
        "value_accuracy",
        "full_search_fraction",
        "learning_rate",
        "samples_per_sec",
        // Last, so that a file of the version before it gets the column when its run resumes.
        // The material and ownership heads are gone (levers AU, AV): their columns stay, empty,
        // so that older files resume and readers find the columns they know.
        "loss_material",
        "loss_ownership",
        "loss_moves_left",
    ];

    /// This step as a row of `metrics.csv` (probe columns empty on other steps, an auxiliary
    /// loss empty when its target is off).
    pub fn csv_row(&self) -> Vec<String> {
        vec![
            self.generation.to_string(),
            self.step.to_string(),
            self.total_step.to_string(),
            self.losses.total.to_string(),
            self.losses.policy.to_string(),
            self.losses.value.to_string(),
            self.target_entropy.to_string(),
            opt(self.net_entropy),
            opt(self.value_accuracy),
            self.full_search_fraction.to_string(),
            self.learning_rate.to_string(),
            format!("{:.1}", self.samples_per_sec),
            String::new(),
            String::new(),
            aux_loss_cell(self.losses.moves_left),
        ]
    }
}

/// An auxiliary head's loss as a CSV cell: empty when the head is not trained (the loss is
/// then 0, a cross-entropy's value it never takes when trained).
pub fn aux_loss_cell(loss: f32) -> String {
    if loss > 0.0 { loss.to_string() } else { String::new() }
}

impl GenerationSummary {
    /// The columns of `generations.csv` (generation first, for [`CsvLog::open_resuming`]).
    pub const CSV_HEADER: &[&str] = &[
        "generation",
        "steps",
        "batch_size",
        "total_steps",
        "total_samples",
        "loss_total",
        "loss_policy",
        "loss_value",
        "value_accuracy",
        "learning_rate",
        "samples_per_sec",
        "seconds",
        "window_positions",
        "window_first_generation",
        "window_last_generation",
    ];

    /// This generation as a row of `generations.csv`.
    pub fn csv_row(&self) -> Vec<String> {
        let first = self.window_generations.first().map(u32::to_string).unwrap_or_default();
        let last = self.window_generations.last().map(u32::to_string).unwrap_or_default();
        vec![
            self.generation.to_string(),
            self.steps.to_string(),
            self.batch_size.to_string(),
            self.counters.total_steps.to_string(),
            self.counters.total_samples.to_string(),
            self.loss_total.to_string(),
            self.loss_policy.to_string(),
            self.loss_value.to_string(),
            opt(self.value_accuracy),
            self.learning_rate.to_string(),
            format!("{:.1}", self.samples_per_sec),
            format!("{:.3}", self.seconds),
            self.window_positions.to_string(),
            first,
            last,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::scratch_dir;
    use model::LossStats;

    fn step(generation: u32, step: u32) -> StepMetrics {
        StepMetrics {
            generation,
            step,
            total_step: u64::from(generation * 10 + step),
            losses: LossStats { total: 1.5, policy: 1.0, value: 0.5, moves_left: 0.0 },
            target_entropy: 2.0,
            net_entropy: None,
            value_accuracy: Some(0.25),
            full_search_fraction: 1.0,
            learning_rate: 1e-3,
            samples_per_sec: 100.0,
        }
    }

    #[test]
    fn rows_append_after_the_history_on_resume() {
        let scratch = scratch_dir("metrics");
        let path = scratch.join(STEP_METRICS_FILE);
        let mut log = CsvLog::open(&path, StepMetrics::CSV_HEADER).unwrap();
        log.append(&step(0, 1).csv_row()).unwrap();
        log.append(&step(0, 2).csv_row()).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert!(text.starts_with("generation,step,total_step,"));
        assert_eq!(text.lines().nth(1).unwrap(), "0,1,1,1.5,1,0.5,2,,0.25,1,0.001,100.0,,,");

        // Reopened: the header is not repeated and rows go after the old ones.
        let mut log = CsvLog::open(&path, StepMetrics::CSV_HEADER).unwrap();
        log.append(&step(1, 1).csv_row()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let gens: Vec<&str> = text.lines().skip(1).map(|l| &l[..1]).collect();
        assert_eq!(gens, ["0", "0", "1"]);

        // A torn last row is cut; resuming generation 1 drops its rows.
        std::fs::write(&path, format!("{text}1,2,12,0.")).unwrap();
        let mut log = CsvLog::open_resuming(&path, StepMetrics::CSV_HEADER, 1).unwrap();
        log.append(&step(1, 1).csv_row()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let rows: Vec<&str> = text.lines().skip(1).map(|l| &l[..3]).collect();
        assert_eq!(rows, ["0,1", "0,2", "1,1"]);
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn the_auxiliary_losses_are_the_last_cells_and_empty_when_off() {
        let off = step(0, 1).csv_row();
        let losses = LossStats { moves_left: 2.25, ..step(0, 1).losses };
        let on = StepMetrics { losses, ..step(0, 1) }.csv_row();
        let last = ["loss_material", "loss_ownership", "loss_moves_left"];
        assert!(StepMetrics::CSV_HEADER.ends_with(&last));
        assert_eq!(off[off.len() - 3..], ["", "", ""]);
        assert_eq!(on[on.len() - 3..], ["", "", "2.25"], "the retired heads' columns stay empty");
        assert_eq!(off[..off.len() - 3], on[..on.len() - 3]);
    }

    #[test]
    fn a_foreign_header_or_a_short_row_is_an_error_naming_the_file() {
        let scratch = scratch_dir("metrics-bad");
        let path = scratch.join(GENERATION_METRICS_FILE);
        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        let e = CsvLog::open(&path, GenerationSummary::CSV_HEADER).unwrap_err();
        assert!(e.to_string().contains(&path.display().to_string()), "{e}");
        std::fs::remove_file(&path).unwrap();
        let mut log = CsvLog::open(&path, &["x", "y"]).unwrap();
        assert!(matches!(log.append(&["1".into()]), Err(MetricsError::RowLength { .. })));
        log.append(&["a,b".into(), "say \"hi\"".into()]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "x,y\n\"a,b\",\"say \"\"hi\"\"\"\n");
    }

    #[test]
    fn a_file_of_an_older_version_gets_the_new_columns_empty() {
        let scratch = scratch_dir("metrics-older");
        let path = scratch.join(GENERATION_METRICS_FILE);
        // Two whole rows and one cut short by a crash, under a header that lacks two columns.
        std::fs::write(&path, "generation,a\n0,1\n1,2\n2,").unwrap();
        let mut log = CsvLog::open_resuming(&path, &["generation", "a", "b", "c"], 1).unwrap();
        log.append(&["1".into(), "5".into(), "6".into(), "7".into()]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "generation,a,b,c\n0,1,,\n1,5,6,7\n");
        // A header that is not a prefix is still refused.
        std::fs::write(&path, "generation,z\n0,1\n").unwrap();
        assert!(CsvLog::open_resuming(&path, &["generation", "a", "b"], 1).is_err());
    }

    /// Issue 15, defect 14: a garbage row appended to `metrics.csv` survived a resume and
    /// broke `report` later; it is refused on resume, naming the line.
    #[test]
    fn d14_a_foreign_row_is_refused_on_resume() {
        let scratch = scratch_dir("metrics-garbage");
        let path = scratch.join(STEP_METRICS_FILE);
        let mut log = CsvLog::open(&path, StepMetrics::CSV_HEADER).unwrap();
        log.append(&step(0, 1).csv_row()).unwrap();
        drop(log);
        let good = std::fs::read_to_string(&path).unwrap();
        for garbage in ["hello,world\n", "x,1,1,1.5,1,0.5,2,,0.25,1,0.001,100.0\n"] {
            std::fs::write(&path, format!("{good}{garbage}")).unwrap();
            let e = CsvLog::open_resuming(&path, StepMetrics::CSV_HEADER, 1).unwrap_err();
            assert!(matches!(e, MetricsError::BadRow { line: 3, .. }), "{e}");
            assert!(e.is_bad_input());
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                format!("{good}{garbage}"),
                "nothing is dropped silently"
            );
        }
        // A quoted field with a comma is one field.
        let mut row = step(0, 2).csv_row();
        row[7] = "a,b".into();
        std::fs::write(&path, &good).unwrap();
        let mut log = CsvLog::open(&path, StepMetrics::CSV_HEADER).unwrap();
        log.append(&row).unwrap();
        drop(log);
        CsvLog::open_resuming(&path, StepMetrics::CSV_HEADER, 1).unwrap();
    }
}
