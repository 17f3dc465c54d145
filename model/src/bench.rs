//! Throughput benchmarks for `camelot-zero bench net`.
//!
//! Inputs are deterministic pseudo-random planes: the timings depend only on the shape, not
//! on what the planes hold. Each measurement runs one untimed warm-up call first (the first
//! call pays for allocation and kernel setup), then repeats until `seconds` have passed.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::config::NetConfig;
use crate::device::DeviceKind;
use crate::engine::NetEngine;
use crate::error::{ModelError, Result};
use crate::net::Net;
use crate::optimizer::OptimizerConfig;
use crate::precision::Precision;
use crate::predict::Predictor;
use crate::testing::{SyntheticBatch, pseudo_random};
use crate::train_step::Trainer;

/// One forward-pass measurement.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ForwardBench {
    /// Positions per call.
    pub batch: usize,
    /// Timed calls made.
    pub calls: usize,
    /// Positions evaluated per second (including input upload and readback).
    pub positions_per_s: f64,
}

/// Forward-pass throughput of a freshly initialised `config` network on `kind` with that
/// device's default engine ([`NetEngine::default_for`]), for each batch size, spending
/// about `seconds` on each.
pub fn bench_forward(
    config: &NetConfig,
    kind: DeviceKind,
    batch_sizes: &[usize],
    seconds: f64,
) -> Result<Vec<ForwardBench>> {
    bench_forward_with(config, kind, NetEngine::default_for(kind), batch_sizes, seconds)
}

/// [`bench_forward`] with an explicit inference engine.
pub fn bench_forward_with(
    config: &NetConfig,
    kind: DeviceKind,
    engine: NetEngine,
    batch_sizes: &[usize],
    seconds: f64,
) -> Result<Vec<ForwardBench>> {
    bench_forward_at(config, kind, engine, Precision::F32, batch_sizes, seconds)
}

/// [`bench_forward_with`] at a float precision ([`crate::precision`]; `f16` needs burn's engine).
pub fn bench_forward_at(
    config: &NetConfig,
    kind: DeviceKind,
    engine: NetEngine,
    precision: Precision,
    batch_sizes: &[usize],
    seconds: f64,
) -> Result<Vec<ForwardBench>> {
    let budget = budget(seconds)?;
    let predictor = Predictor::with_engine(&Net::new(config, &kind.device()?)?, kind, engine)?
        .with_precision(precision)?;
    let per_position = config.shape.input_len();
    batch_sizes
        .iter()
        .map(|&batch| {
            let planes = pseudo_random(batch * per_position, batch as u64);
            predictor.predict(&planes, batch)?; // warm-up
            let (calls, elapsed) =
                repeat_for(budget, || predictor.predict(&planes, batch).map(drop))?;
            Ok(ForwardBench { batch, calls, positions_per_s: (calls * batch) as f64 / elapsed })
        })
        .collect()
}

/// Training throughput (samples per second) of `config` on `kind` at `batch` positions per
/// step, with the default optimizer and the device's default engine, over about `seconds`.
pub fn bench_train(
    config: &NetConfig,
    kind: DeviceKind,
    batch: usize,
    seconds: f64,
) -> Result<f64> {
    bench_train_with(config, kind, NetEngine::default_for(kind), batch, seconds)
}

/// [`bench_train`] with the gradients computed by `engine`.
pub fn bench_train_with(
    config: &NetConfig,
    kind: DeviceKind,
    engine: NetEngine,
    batch: usize,
    seconds: f64,
) -> Result<f64> {
    let budget = budget(seconds)?;
    let net = Net::new(config, &kind.device()?)?;
    let mut trainer = Trainer::with_engine(net, kind, &OptimizerConfig::default(), engine)?;
    let synthetic = SyntheticBatch::new(&config.shape, batch, 7, 0);
    let data = synthetic.as_batch();
    trainer.step(&data, 1e-4)?; // warm-up
    let (steps, elapsed) = repeat_for(budget, || trainer.step(&data, 1e-4).map(drop))?;
    Ok((steps * batch) as f64 / elapsed)
}

fn budget(seconds: f64) -> Result<Duration> {
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| ModelError::InvalidArgument(format!("benchmark seconds {seconds}")))
}

/// Calls `f` at least twice and until `budget` has passed; returns (calls, seconds taken).
fn repeat_for(budget: Duration, mut f: impl FnMut() -> Result<()>) -> Result<(usize, f64)> {
    let start = Instant::now();
    let mut calls = 0;
    while calls < 2 || start.elapsed() < budget {
        f()?;
        calls += 1;
    }
    Ok((calls, start.elapsed().as_secs_f64()))
}
