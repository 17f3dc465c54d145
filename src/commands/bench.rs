//! `bench`: speed figures for docs/speed.md, measured side by side in one run.

use std::time::Instant;

use anyhow::Result;
use clap::Subcommand;
use games::testing::{random_game, random_playout};
use games::{Game, Position, State, Variant, perft};
use rand::SeedableRng;
use rand::rngs::StdRng;

use super::rules::parallel_divide;

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Network speed for both variants' real shapes: forward positions/s of the native engine
    /// and of burn side by side at several batch sizes, and training samples/s. With
    /// `--export DIR`, instead writes each variant's randomly initialised network as ONNX
    /// (`DIR/<variant>-<preset>.onnx`, symbolic batch) with a reference input/output pair
    /// (`.reference.json`) for `scripts/bench_onnxruntime.py`. With `--device gpu`, burn runs on
    /// the GPU and is measured against the native CPU engine and the CPU training step.
    Net {
        /// Where burn's forward pass and the training step run (`cpu` or `gpu`).
        #[arg(long, default_value = "cpu")]
        device: model::DeviceKind,
        /// Network preset.
        #[arg(long, default_value = "b6c64")]
        preset: String,
        /// Forward batch sizes.
        #[arg(long, value_delimiter = ',', default_value = "1,8,32,128")]
        batch: Vec<usize>,
        /// Training batch size.
        #[arg(long, default_value_t = 256)]
        train_batch: usize,
        /// Seconds per measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Write ONNX files and reference pairs into this folder instead of measuring.
        #[arg(long)]
        export: Option<std::path::PathBuf>,
    },
    /// Self-play throughput against the raw batched forward pass of the same network at the same
    /// batch size (the share of time the search, rules, encoding and records cost).
    Selfplay {
        /// Run configuration whose [net], [mcts] and [selfplay] settings are measured.
        #[arg(long)]
        config: std::path::PathBuf,
        /// Games to play (with a random network of the config's preset).
        #[arg(long, default_value_t = 16)]
        games: u64,
        /// Seconds for the raw forward measurement.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Complete moves after which each game stops (default: the config's
        /// `selfplay.max_moves`); bounds the time a measurement at 1024 games in flight takes.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        max_moves: Option<u32>,
    },
    /// Camelot perft from the start on one thread and on all threads, and random playouts per
    /// second of both variants (whole moves and leg by leg).
    Rules {
        /// perft depth for Camelot (4 = 112,061,982 leaves).
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Seconds of random playouts per variant and level.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
    },
}

pub fn run(what: BenchCommand) -> Result<()> {
    match what {
        BenchCommand::Rules { depth, seconds } => rules(depth, seconds),
        BenchCommand::Net { device, preset, batch, train_batch, seconds, export } => {
            super::bench_net::net(device, &preset, &batch, train_batch, seconds, export.as_deref())
        }
        BenchCommand::Selfplay { config, games, seconds, max_moves } => {
            super::bench_net::selfplay(&config, games, seconds, max_moves)
        }
    }
}

fn rules(depth: u32, seconds: f64) -> Result<()> {
    if depth > super::rules::MAX_PERFT_DEPTH {
        return Err(crate::input::BadInput(format!(
            "--depth {depth} is more than {} (it would never finish)",
            super::rules::MAX_PERFT_DEPTH
        ))
        .into());
    }
    let start = Position::<games::CamelotRules>::start();
    let t = Instant::now();
    let single = perft(&start, depth);
    let single_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let parallel: u64 =
        parallel_divide(&State::new(start.clone()), depth).iter().map(|(_, n)| n).sum();
    let parallel_s = t.elapsed().as_secs_f64();
    assert_eq!(single, parallel);
    outln!(
        "camelot perft({depth}) = {single}: 1 thread {single_s:.2} s ({:.1} M leaves/s); \
         {} threads {parallel_s:.2} s ({:.1} M leaves/s, {:.2}x)",
        single as f64 / single_s / 1e6,
        rayon::current_num_threads(),
        single as f64 / parallel_s / 1e6,
        single_s / parallel_s
    )?;
    playouts::<games::CamelotRules>(seconds)?;
    playouts::<games::TriCamelotRules>(seconds)
}

/// Random games to the end (or 500 moves), one thread, as whole moves and as legs.
fn playouts<V: Variant>(seconds: f64) -> Result<()> {
    let mut rng = StdRng::seed_from_u64(1);
    let start = Position::<V>::start();
    let (games, moves, s) =
        repeat_for(seconds, || random_game(&start, &mut rng, 500).len() as u64 - 1);
    outln!(
        "{}: {:.0} random games/s, {:.0} moves/s (whole moves, mean length {:.0})",
        V::NAME,
        games as f64 / s,
        moves as f64 / s,
        moves as f64 / games as f64
    )?;
    let (games, actions, s) =
        repeat_for(seconds, || random_playout(State::<V>::initial(), &mut rng, 2000).1 as u64);
    outln!(
        "{}: {:.0} random games/s, {:.0} actions/s (leg interface)",
        V::NAME,
        games as f64 / s,
        actions as f64 / s
    )?;
    Ok(())
}

/// Calls `game` until `seconds` have passed; returns (calls, sum of its results, seconds).
fn repeat_for(seconds: f64, mut game: impl FnMut() -> u64) -> (u64, u64, f64) {
    let (mut calls, mut units) = (0, 0);
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < seconds {
        units += game();
        calls += 1;
    }
    (calls, units, t.elapsed().as_secs_f64())
}
