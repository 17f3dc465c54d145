//! [`RunClock`]: the wall time a run has used, over all the invocations that trained it — the
//! x axis of Elo per CPU-hour (issue #16), recorded as `run_seconds` in each model's
//! `summary.toml` and in `generations.csv`.
//!
//! The time of an invocation counts up to its last saved model, plus the self-play of the next
//! generation that the following invocation keeps: the games a killed or stopped invocation
//! wrote after its last model are not played again, and their shard folder records the time
//! they took ([`SessionFigures`]). What else it spent after its last model (games in flight,
//! training it did not finish, the last model's ladder) is not counted, since no file records
//! it, and the pause between two invocations is not either.

use std::path::Path;
use std::time::Instant;

use selfplay::SessionFigures;

use crate::model_file::ModelFile;
use crate::trainer::TrainError;
use crate::{GenerationSummary, generation_dir_name};

/// The run's used wall time: what the newest model's summary recorded, plus this invocation's
/// time since the clock was made.
#[derive(Clone, Copy, Debug)]
pub struct RunClock {
    /// Seconds used before this invocation; `None` when unknown (the newest model was trained
    /// by a version that did not record it, or has no summary): the run's later models then
    /// record no run time either, rather than a wrong one.
    before: Option<f64>,
    started: Instant,
}

impl RunClock {
    /// The clock of a run whose newest model is `models_dir/gen-<newest>`, started now: zero
    /// before generation 0's self-play, else that model's recorded `run_seconds`.
    pub fn resume(models_dir: &Path, newest: u32) -> Result<RunClock, TrainError> {
        let before = if newest == 0 {
            Some(0.0)
        } else {
            GenerationSummary::read(&models_dir.join(generation_dir_name(newest)))?
                .and_then(|s| s.run_seconds)
        };
        Ok(RunClock { before, started: Instant::now() })
    }

    /// This clock with the self-play time of `kept` added: the figures of the next generation's
    /// shard folder as this invocation found it, the games earlier invocations played after
    /// the newest model and that this one keeps (`None`: no such games, or not played here).
    pub fn with_kept_selfplay(mut self, kept: Option<&SessionFigures>) -> RunClock {
        if let (Some(before), Some(kept)) = (self.before, kept) {
            self.before = Some(before + kept.seconds);
        }
        self
    }

    /// The run's used wall time now, in seconds (`None` when unknown, see [`RunClock::resume`]).
    pub fn now(&self) -> Option<f64> {
        self.before.map(|b| b + self.started.elapsed().as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::scratch_dir;

    fn write_summary(models: &Path, g: u32, run_seconds: Option<f64>) {
        let dir = models.join(generation_dir_name(g));
        std::fs::create_dir_all(&dir).unwrap();
        let summary = GenerationSummary {
            generation: g - 1,
            steps: 2,
            batch_size: 4,
            loss_total: 1.0,
            loss_policy: 0.5,
            loss_value: 0.5,
            loss_moves_left: 0.0,
            value_accuracy: None,
            learning_rate: 0.002,
            samples_per_sec: 10.0,
            seconds: 3.0,
            window_seconds: 0.5,
            run_seconds,
            window_positions: 8,
            window_generations: vec![g - 1],
            counters: Default::default(),
            checkpoint: dir.clone(),
        };
        let text = toml::to_string(&summary).unwrap();
        std::fs::write(dir.join(crate::trainer::SUMMARY_FILE), text).unwrap();
    }

    #[test]
    fn a_new_run_starts_at_zero_and_a_resumed_one_where_its_newest_model_ended() {
        let models = scratch_dir("run-clock");
        let fresh = RunClock::resume(&models, 0).unwrap().now().unwrap();
        assert!((0.0..5.0).contains(&fresh), "{fresh}");

        write_summary(&models, 3, Some(1234.5));
        let resumed = RunClock::resume(&models, 3).unwrap().now().unwrap();
        assert!((1234.5..1240.0).contains(&resumed), "{resumed}");

        // The games of generation 3 that an interrupted invocation wrote count too.
        let kept = SessionFigures { sessions: 2, games: 40, seconds: 61.5, ..Default::default() };
        let resumed = RunClock::resume(&models, 3).unwrap().with_kept_selfplay(Some(&kept));
        assert!((1296.0..1301.5).contains(&resumed.now().unwrap()), "{:?}", resumed.now());
        let none = RunClock::resume(&models, 3).unwrap().with_kept_selfplay(None);
        assert!((1234.5..1240.0).contains(&none.now().unwrap()));

        // A model of an older version: unknown, not zero.
        write_summary(&models, 4, None);
        assert_eq!(RunClock::resume(&models, 4).unwrap().now(), None);
        assert_eq!(
            RunClock::resume(&models, 4).unwrap().with_kept_selfplay(Some(&kept)).now(),
            None
        );
        // A model folder without a summary at all.
        std::fs::create_dir_all(models.join(generation_dir_name(5))).unwrap();
        assert_eq!(RunClock::resume(&models, 5).unwrap().now(), None);
    }
}
