//! Forward throughput of the native engine and burn, side by side, and training throughput,
//! on the CPU for Camelot- and Tri-Camelot-sized stand-in shapes.
//!
//! `cargo run --release -p model --example bench_net -- [preset] [seconds] [planes] [batches]`
//! (defaults: b6c64, 3 seconds per measurement, 13 planes, batches 1,8,32,128; a `train`
//! fifth argument adds the training figure). `camelot-zero bench net` prints the same for the
//! real shapes.

use model::testing::{camelot_shape, tri_camelot_shape};
use model::{DeviceKind, NetConfig, NetEngine, bench_forward_with, bench_train};

fn main() -> Result<(), model::ModelError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("b6c64", String::as_str);
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let planes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(13);
    let batches: Vec<usize> = args
        .get(3)
        .map(|s| s.split(',').filter_map(|b| b.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 8, 32, 128]);
    let train = args.get(4).is_some_and(|s| s == "train");
    for (name, shape) in
        [("camelot", camelot_shape(planes)), ("tricamelot", tri_camelot_shape(planes))]
    {
        let config = NetConfig::preset(preset, shape)?;
        println!("{preset}, {name} stand-in shape, {planes} planes, CPU");
        let native =
            bench_forward_with(&config, DeviceKind::Cpu, NetEngine::Native, &batches, seconds)?;
        let burn =
            bench_forward_with(&config, DeviceKind::Cpu, NetEngine::Burn, &batches, seconds)?;
        for (n, b) in native.iter().zip(&burn) {
            println!(
                "forward batch {:>4}: native {:>8.1}  burn {:>8.1} positions/s  ({:.2}x)",
                n.batch,
                n.positions_per_s,
                b.positions_per_s,
                n.positions_per_s / b.positions_per_s
            );
        }
        if train {
            let t = bench_train(&config, DeviceKind::Cpu, 256, seconds)?;
            println!("train   batch  256: {t:>9.1} samples/s");
        }
    }
    Ok(())
}
