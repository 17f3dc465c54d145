//! `camelot-zero`: the command-line front end. Each subcommand lives in `commands/`; this file
//! only parses arguments and maps errors to exit codes (2 for bad input, 1 for anything else).

/// `println!` that returns the write's `io::Result` instead of panicking, so a closed pipe
/// (`camelot-zero moves start | head -1`) ends the command quietly (see `main`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` that returns the write's `io::Result` (see [`outln`]).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod commands;
mod exit;
mod input;
mod interrupt;
mod progress;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// AlphaZero-style self-play trainer for Camelot and Tri-Camelot.
#[derive(Parser, Debug)]
#[command(
    name = "camelot-zero",
    // The git revision too: run-info.toml records both, and a worker refused by its learner
    // names the learner's.
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("CAMELOT_ZERO_GIT_REVISION"), ")"),
    about,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the legal moves of a position, one per line, in official notation.
    Moves(input::PositionArgs),
    /// Count legal move sequences of a given length (perft), in parallel over the first moves.
    Perft {
        #[command(flatten)]
        pos: input::PositionArgs,
        /// Number of moves (plies) to look ahead.
        depth: u32,
        /// Also print the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Search a position: the best actions with visits, prior and values, and the principal
    /// variation (`--raw`: the network's output only).
    Analyze(commands::analyze::AnalyzeArgs),
    /// Our engine on stdin/stdout for other programs: the engine protocol (docs/engine-protocol.md).
    Engine(commands::engine::EngineArgs),
    /// Play against the model in the terminal (moves in official notation; undo, save, quit).
    Play(commands::play::PlayArgs),
    /// A saved game (play's `save`, the board's Save): its moves checked and listed, and the
    /// board after one of them.
    Replay(commands::replay::ReplayArgs),
    /// The board in the browser: play the model, watch its search, replay a run's games.
    Serve(commands::serve::ServeArgs),
    /// Draw a position in the terminal.
    Show(input::PositionArgs),
    /// Train: generations of self-play and training from a random network (resumable).
    Run(commands::run::RunArgs),
    /// The learner of a run whose games come from workers (a shared folder or s3://bucket/prefix).
    Learner(commands::learner::LearnerArgs),
    /// A self-play worker: plays shards with a run's newest model and uploads them.
    Worker(commands::worker::WorkerArgs),
    /// Only the training stage: train the newest model of a run directory on its replay window.
    Train(commands::train::TrainArgs),
    /// Play self-play games and write them as parquet shards.
    Selfplay(commands::selfplay::SelfPlayArgs),
    /// Play a match between players (checkpoints, alphabeta, mcts, greedy, random) and report Elo.
    Arena(commands::arena::ArenaArgs),
    /// Rate the anchors of the absolute Elo scale by a round robin (random = 0).
    Anchors(commands::rate::AnchorsArgs),
    /// A player's Elo on the absolute scale, from games against the anchors near it.
    Rate(commands::rate::RateArgs),
    /// Charts (PNG, SVG) and a self-contained HTML page of a run's progress.
    Report(commands::report::ReportArgs),
    /// Write a checkpoint as ONNX or safetensors, with a JSON sidecar describing its use.
    Export(commands::export::ExportArgs),
    /// Statistics of recorded games: `stats openings` (opening tree), `stats summary`, `stats
    /// blunders` (tactics of models) and `stats values` (the value probe).
    Stats {
        #[command(subcommand)]
        what: commands::stats::StatsCommand,
    },
    /// The GPU: `device info` (the adapter `device = "gpu"` runs on) and `device check` (its
    /// forward pass, training step and checkpoints against the CPU's).
    Device {
        #[command(subcommand)]
        what: commands::device::DeviceCommand,
    },
    /// Measure speed: `bench rules` (perft and random playouts).
    Bench {
        #[command(subcommand)]
        what: commands::bench::BenchCommand,
    },
}

/// mimalloc instead of the system allocator: glibc's malloc hands the training step's freed
/// buffers back to the OS and faults them in again, in some processes on every step (a continued
/// `run` trained at 157-171 samples/s with 9 million page faults in two minutes, at 236-242 with
/// glibc's thresholds pinned; docs/speed.md, "Allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // A corrupt record file is reported as one line; the parquet panic behind it is not printed.
    records::install_quiet_panic_hook();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => exit::report(&e),
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Moves(pos) => commands::rules::moves(&pos),
        Command::Perft { pos, depth, divide } => commands::rules::perft(&pos, depth, divide),
        Command::Show(pos) => commands::show::show(&pos),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Play(args) => commands::play::run(args),
        Command::Replay(args) => commands::replay::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Engine(args) => commands::engine::run(args),
        Command::Run(args) => commands::run::run(args),
        Command::Selfplay(args) => commands::selfplay::run(args),
        Command::Train(args) => commands::train::run(args),
        Command::Learner(args) => commands::learner::run(args),
        Command::Worker(args) => commands::worker::run(args),
        Command::Arena(args) => commands::arena::run(args),
        Command::Anchors(args) => commands::rate::anchors(args),
        Command::Rate(args) => commands::rate::run_rate(args),
        Command::Report(args) => commands::report::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Stats { what } => commands::stats::run(what),
        Command::Device { what } => commands::device::run(what),
        Command::Bench { what } => commands::bench::run(what),
    }
}
