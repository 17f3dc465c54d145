//! `bench net` and `bench selfplay`: network and self-play speed, measured side by side in one
//! run and reported as ratios (the machine is shared and noisy).

use std::path::Path;

use anyhow::Result;
use games::{Encode, Encoding, State, Variant, VariantKind};
use model::{
    DeviceKind, Net, NetConfig, NetEngine, Precision, bench_forward, bench_forward_at,
    bench_forward_with, bench_train, bench_train_with,
};
use selfplay::ShardWriter;
use train::run::play_games;
use train::{EvaluatorFactory, RunConfig, Source};

use super::selfplay::summary;
use crate::input::load_config;
use crate::{interrupt, progress};

/// `device` is where burn runs: on the CPU its forward pass is measured against the native
/// engine's; on the GPU against the native CPU engine, and its training step against the CPU's.
pub fn net(
    device: DeviceKind,
    preset: &str,
    batches: &[usize],
    train_batch: usize,
    seconds: f64,
    export: Option<&Path>,
) -> Result<()> {
    let shapes = VariantKind::ALL.map(|v| {
        (v.as_str(), games::with_variant!(v, V => State::<V>::layout(Encoding::LATEST).clone()))
    });
    if let Some(dir) = export {
        for (name, shape) in shapes {
            let config = NetConfig::preset(preset, shape)?;
            let net = Net::new(&config, &DeviceKind::Cpu.device()?)?;
            let stem = format!("{name}-{preset}");
            let (onnx, reference) = model::onnx::export_with_reference(&net, dir, &stem, 4)?;
            outln!("{name} {preset}: {} and {}", onnx.display(), reference.display())?;
        }
        return Ok(());
    }
    for (name, shape) in shapes {
        let config = NetConfig::preset(preset, shape)?;
        let native =
            bench_forward_with(&config, DeviceKind::Cpu, NetEngine::Native, batches, seconds)?;
        let burn = bench_forward_with(&config, device, NetEngine::Burn, batches, seconds)?;
        // On the GPU, f16 inference beside f32 (net.precision).
        let half = match device {
            DeviceKind::Cpu => None,
            DeviceKind::Gpu => Some(bench_forward_at(
                &config,
                device,
                NetEngine::Burn,
                Precision::F16,
                batches,
                seconds,
            )?),
        };
        for (i, (n, b)) in native.iter().zip(&burn).enumerate() {
            let (batch, native, burn) = (n.batch, n.positions_per_s, b.positions_per_s);
            match &half {
                None => outln!(
                    "{name} {preset} forward batch {batch}: native {native:.0}, burn {burn:.0} \
                     positions/s ({:.2}x)",
                    native / burn
                )?,
                Some(half) => {
                    let half = half[i].positions_per_s;
                    outln!(
                        "{name} {preset} forward batch {batch}: cpu (native) {native:.0}, gpu \
                         (burn) {burn:.0} f32 and {half:.0} f16 positions/s (gpu {:.3}x and \
                         {:.3}x the cpu)",
                        burn / native,
                        half / native
                    )?
                }
            }
        }
        let train = bench_train(&config, device, train_batch, seconds)?;
        if device == DeviceKind::Cpu {
            let burn = bench_train_with(&config, device, NetEngine::Burn, train_batch, seconds)?;
            outln!(
                "{name} {preset} training at batch {train_batch}: native {train:.0}, burn \
                 {burn:.0} samples/s ({:.2}x)",
                train / burn
            )?;
        } else {
            let cpu = bench_train(&config, DeviceKind::Cpu, train_batch, seconds)?;
            outln!(
                "{name} {preset} training at batch {train_batch}: cpu {cpu:.0}, {device} \
                 {train:.0} samples/s ({device} {:.3}x the cpu)",
                train / cpu
            )?;
        }
    }
    Ok(())
}

pub fn selfplay(
    config_path: &Path,
    games: u64,
    seconds: f64,
    max_moves: Option<u32>,
) -> Result<()> {
    let mut config = load_config(config_path)?;
    if let Some(moves) = max_moves {
        config.selfplay.max_moves = moves;
    }
    // The network's self-play speed: a run's teacher games use no network.
    config.selfplay.teacher = selfplay::Teacher::Off;
    games::with_variant!(config.game.variant, V => measure::<V>(&config, games, seconds))
}

fn measure<V: Variant>(config: &RunConfig, games: u64, seconds: f64) -> Result<()> {
    let batch = config.selfplay.games_in_flight;
    let net =
        NetConfig::preset(&config.net.preset, State::<V>::layout(config.net.encoding).clone())?;
    let raw = bench_forward(&net, config.net.device, &[batch], seconds)?[0].positions_per_s;

    let source = Source::Random { net: net.clone(), seed: config.run.seed };
    let factory =
        EvaluatorFactory::new::<State<V>>(&source, config.net.device, config.selfplay.eval_cache)?
            .with_precision(config.net.precision)?;
    // The games are only timed: written to a folder removed when this returns, errors included.
    let dir = storage::ScratchDir::new("camelot-zero-bench")?;
    let mut writer = ShardWriter::new(&dir, "bench", 0, V::NAME, "random", 1_000_000)?;
    let (bar, show) = progress::selfplay_bar(games, "bench", V::NUM_PLAYERS);
    let ids = (0..games).collect();
    let stop = Some(interrupt::stop_flag());
    let stats =
        play_games::<V>(config, &factory, ids, config.run.seed, &mut writer, stop, show, |_| {
            Ok(())
        })?;
    progress::clear(&bar);

    let secs = stats.wall_time.as_secs_f64();
    let network_rows = if stats.cache_hits + stats.cache_misses > 0 {
        stats.cache_misses
    } else {
        stats.evaluations
    };
    let selfplay_rate = network_rows as f64 / secs;
    outln!("{}", summary(&stats, V::NUM_PLAYERS))?;
    outln!(
        "{} {} ({} simulations, {} games in flight x {} workers): raw forward {raw:.0} positions/s at batch {batch}; \
         self-play {selfplay_rate:.0} network evaluations/s (mean batch {:.1}) = {:.2} of raw; \
         {:.0} games/hour, {:.1} training positions/s",
        V::NAME,
        config.net.preset,
        config.mcts.simulations,
        batch,
        config.selfplay.workers,
        stats.mean_batch(),
        selfplay_rate / raw,
        stats.games as f64 / secs * 3600.0,
        stats.decisions as f64 / secs,
    )?;
    Ok(())
}
