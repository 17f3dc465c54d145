//! Progress bars (indicatif), one style for every stage, and the view of a run's events.
//!
//! Every bar of the process is drawn by one `MultiProgress` ([`bars`]), and every line printed
//! while bars are shown goes through it ([`notice`], [`RunView`]), so a bar never overwrites
//! another, lines appear above the bars, and no stale copy of a bar is left on the terminal
//! (not even when Ctrl-C's notice arrives from the signal handler's thread).

use std::sync::OnceLock;

use games::Variant;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use selfplay::SelfPlayStats;
use train::RunEvent;
use train::run::Stage;
use train::trainer::losses_text;

/// The process's bars.
fn bars() -> &'static MultiProgress {
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    BARS.get_or_init(MultiProgress::new)
}

/// Prints `line` on stderr above the bars (from any thread).
pub fn notice(line: &str) {
    bars().suspend(|| eprintln!("{line}"));
}

/// A bar of `len` steps named `what`, with the rate and a free-text message, drawn with the
/// process's other bars.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    // Hidden until added: a bar drawn before joining the others would leave a stale line.
    let bar = ProgressBar::hidden();
    bar.set_length(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>10} [{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} ({eta}) {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bars().add(bar)
}

/// Removes a finished bar from the screen and from the process's bars.
pub fn clear(bar: &ProgressBar) {
    bar.finish_and_clear();
    bars().remove(bar);
}

/// A bar over `games` self-play games named `label`, and the progress callback that moves it
/// (for [`train::run::play_games`]).
pub fn selfplay_bar(
    games: u64,
    label: &str,
    num_players: usize,
) -> (ProgressBar, impl FnMut(&SelfPlayStats)) {
    let shown = bar(games, label);
    let moved = shown.clone();
    (shown, move |s: &SelfPlayStats| {
        moved.set_position(s.games);
        moved.set_message(selfplay_message(s, num_players));
    })
}

/// Self-play's running totals as a bar message.
pub fn selfplay_message(s: &SelfPlayStats, num_players: usize) -> String {
    let secs = s.wall_time.as_secs_f64().max(1e-9);
    let wins: Vec<String> = s.wins[..num_players].iter().map(|w| w.to_string()).collect();
    format!(
        "{:.0} moves/s, {:.0} evals/s, cache {:.0}%, mean {:.0} moves, wins {} draws {}",
        s.moves as f64 / secs,
        s.evaluations_per_second(),
        100.0 * s.cache_hit_rate(),
        s.mean_moves(),
        wins.join("/"),
        s.draws
    )
}

/// Draws a run's events: an overall bar of generations, a bar per stage, and a line per
/// generation (and ladder) on stdout, above the bars; closing the view clears every bar.
pub struct RunView {
    label: String,
    num_players: usize,
    overall: Option<ProgressBar>,
    stage: Option<ProgressBar>,
}

impl RunView {
    /// The view of a run of variant `V`, named `label` in its messages (the run directory).
    pub fn new<V: Variant>(label: String) -> Self {
        RunView { label, num_players: V::NUM_PLAYERS, overall: None, stage: None }
    }

    /// Prints `line` on stdout above the bars. A closed stdout (`run | head`) is not a reason to
    /// stop a run: the line is dropped, the run goes on writing its files.
    fn print(&self, line: &str) {
        bars().suspend(|| {
            let _ = outln!("{line}");
        });
    }

    /// Draws one event.
    pub fn show(&mut self, event: RunEvent<'_>) {
        match event {
            RunEvent::Started { generation, generations } => {
                notice(&format!("{}: generation {generation} of {generations}", self.label));
                let overall = bar(u64::from(generations), "run");
                overall.set_position(u64::from(generation));
                self.overall = Some(overall);
            }
            RunEvent::AlreadyDone { .. } => {}
            RunEvent::BudgetSpent { generation, used, budget } => notice(&format!(
                "{}: time budget {budget} spent ({:.1} minutes used; generation {generation} would \
                 end past it): stopping after generation {}",
                self.label,
                used.as_secs_f64() / 60.0,
                generation.saturating_sub(1),
            )),
            RunEvent::GenerationStarted { generation } => {
                if let Some(o) = &self.overall {
                    o.set_message(format!("generation {generation}"));
                }
            }
            RunEvent::StageStarted { stage, len } => {
                let name = match stage {
                    Stage::SelfPlay => "selfplay",
                    Stage::Training => "train",
                    Stage::Ladder => "ladder",
                };
                // (The learner's bar of workers' games ends when training starts.)
                if let Some(b) = self.stage.replace(bar(len, name)) {
                    clear(&b);
                }
            }
            RunEvent::SelfPlay(s) => {
                if let Some(b) = &self.stage {
                    b.set_position(s.games);
                    b.set_message(selfplay_message(s, self.num_players));
                }
            }
            RunEvent::TrainStep(m) => {
                if let Some(b) = &self.stage {
                    b.set_position(u64::from(m.step));
                    let losses = losses_text(&m.losses);
                    b.set_message(format!("{losses}, {:.0} samples/s", m.samples_per_sec));
                }
            }
            RunEvent::LadderGame => {
                if let Some(b) = &self.stage {
                    b.inc(1);
                }
            }
            RunEvent::StageEnded { .. } => {
                if let Some(b) = self.stage.take() {
                    clear(&b);
                }
            }
            RunEvent::Waiting { games, needed, .. } => {
                // The learner waits for workers: a bar of the generation's games.
                let b = self.stage.get_or_insert_with(|| bar(needed, "workers"));
                b.set_position(games);
                b.set_message("games uploaded by workers".to_string());
            }
            RunEvent::ShardRejected { key, why } => {
                notice(&format!("rejected shard {key}: {why}"));
            }
            RunEvent::LadderReplayed(result) => self.print(&result.line()),
            RunEvent::RowRestored { generation } => self.print(&format!(
                "gen {generation}: its generations.csv row, lost when the run was stopped, was written again from the run's files"
            )),
            RunEvent::GenerationDone { generation, num_players, row, summary, ladder, probe } => {
                self.print(&row.line(generation, num_players, summary));
                if let Some(l) = ladder {
                    self.print(&l.line());
                }
                if let Some(p) = probe {
                    self.print(&p.line(generation + 1));
                }
                if let Some(o) = &self.overall {
                    o.inc(1);
                }
            }
        }
    }

    /// Clears every bar (the run's outcome is printed after this).
    pub fn close(&mut self) {
        for b in [self.stage.take(), self.overall.take()].into_iter().flatten() {
            clear(&b);
        }
    }
}
