//! What the generation loop reports while it runs. A front end turns these into progress bars
//! and lines (the command line) or anything else; the loop itself prints nothing.

use crate::ladder::LadderResult;
use crate::run::{GenerationRow, ProbeResult, Stage};
use crate::{GenerationSummary, StepMetrics};
use selfplay::SelfPlayStats;

/// One thing that happened in a run, in the order it happened. Borrowed values live only for
/// the call that receives them.
#[derive(Clone, Copy, Debug)]
pub enum RunEvent<'a> {
    /// The run starts (or resumes) at `generation`; it ends at `generations`.
    Started { generation: u32, generations: u32 },
    /// The run is already at or past `generations`: nothing is played.
    AlreadyDone { generation: u32 },
    /// A generation starts.
    GenerationStarted { generation: u32 },
    /// The time budget is spent: generation `generation` would not end within it, so the run
    /// ends before it, `used` after its start.
    BudgetSpent { generation: u32, used: std::time::Duration, budget: crate::TimeBudget },
    /// A stage of `len` units starts (games for self-play and the ladder, steps for training).
    StageStarted { stage: Stage, len: u64 },
    /// Self-play's running totals, after every game or batch.
    SelfPlay(&'a SelfPlayStats),
    /// A training step finished (its row is already in `metrics.csv`).
    TrainStep(&'a StepMetrics),
    /// A ladder game finished.
    LadderGame,
    /// The stage ended (finished, interrupted or failed).
    StageEnded { stage: Stage },
    /// On a resumed run, the ladder of the newest model had been cut short and was played
    /// again (a generation's own ladder comes with [`RunEvent::GenerationDone`]).
    LadderReplayed(&'a LadderResult),
    /// The learner waits for workers: generation `generation` has `games` of the `needed`.
    Waiting { generation: u32, games: u64, needed: u64 },
    /// A worker's shard was refused (another run, variant or model, or unreadable) and moved
    /// to the generation's `rejected/` folder.
    ShardRejected { key: &'a str, why: &'a str },
    /// On a resumed run, generation `generation`'s row of `generations.csv`, lost with the
    /// process that finished its training, was written again from the run directory's files.
    RowRestored { generation: u32 },
    /// A generation is complete and its row is in `generations.csv`.
    GenerationDone {
        generation: u32,
        num_players: usize,
        row: &'a GenerationRow,
        summary: &'a GenerationSummary,
        ladder: Option<&'a LadderResult>,
        probe: Option<&'a ProbeResult>,
    },
}
