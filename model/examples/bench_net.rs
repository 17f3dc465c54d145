//! Forward and training throughput on the CPU for a Camelot-sized stand-in shape.
//!
//! `cargo run --release -p model --example bench_net -- [preset] [seconds] [planes]`
//! (defaults: b6c64, 3 seconds per measurement, 18 planes). The real CLI will call the same
//! functions as `camelot-zero bench net`.

use model::testing::camelot_shape;
use model::{DeviceKind, NetConfig, bench_forward, bench_train};

fn main() -> Result<(), model::ModelError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset = args.first().map_or("b6c64", String::as_str);
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let planes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(18);
    let config = NetConfig::preset(preset, camelot_shape(planes))?;
    println!("{preset}, Camelot stand-in shape, {planes} planes, CPU (flex)");
    for r in bench_forward(&config, DeviceKind::Cpu, &[1, 8, 32, 128], seconds)? {
        println!(
            "forward batch {:>4}: {:>9.1} positions/s ({} calls)",
            r.batch, r.positions_per_s, r.calls
        );
    }
    let train = bench_train(&config, DeviceKind::Cpu, 256, seconds)?;
    println!("train   batch  256: {train:>9.1} samples/s");
    Ok(())
}
