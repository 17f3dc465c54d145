//! The camelot-zero network: a residual tower with a convolutional policy head and an outcome
//! value head, built on burn 0.22.
//!
//! * [`NetConfig`] / [`Preset`]: what the network looks like, around the shape the games crate
//!   gives ([`games::Layout`]; games is light and has no burn).
//! * [`Net`]: the burn module. Input `[B, planes, H, W]`; outputs policy logits
//!   `[B, cells × policy_channels + 1]` (action `cell * policy_channels + channel`, last =
//!   end-move) and value logits `[B, value_classes]`.
//! * [`Predictor`] + [`masked_softmax`]: inference with plain slices in and `Vec<f32>` out; no
//!   burn type crosses that boundary. It runs on one [`NetEngine`]: burn's forward pass,
//!   or (the CPU default) the [`native`] engine, im2col + SGEMM on plain buffers with batch
//!   norms folded in. [`Trainer`] computes gradients with the same choice (native by default
//!   on the CPU).
//! * [`onnx`]: ONNX export (burn's exporter) with named inputs/outputs and a symbolic batch
//!   axis, plus a reference input/output pair for checking another runtime.
//! * [`named_weights`]: the weights under PyTorch-style names (`trunk.block3.conv1.weight`) and
//!   as a `.safetensors` file.
//! * [`DeviceKind`]: `cpu` (burn's pure-Rust `flex` backend) or `gpu` (`wgpu`, behind the
//!   `gpu` cargo feature), and [`gpu_adapter`]: which adapter the GPU runs on.
//! * [`checkpoint`]: `net.json` + `weights.bpk` folders with typed load errors.
//! * [`weight_average`]: the exponential moving average of a run's weights.
//! * [`Trainer`] / [`loss_tensors`]: the loss and one optimizer step for the training loop.
//! * [`bench_forward`] / [`bench_train`]: throughput figures for `camelot-zero bench net`
//!   (also runnable as `cargo run --release -p model --example bench_net -- b6c64`).
//! * [`testing`]: stand-in Camelot / Tri-Camelot shapes with the right sizes, any plane count
//!   and made-up cell maps, for tests and benchmarks of the network alone.

pub mod bench;
pub mod checkpoint;
pub mod config;
pub mod device;
pub mod engine;
pub mod error;
mod files;
mod heads;
pub mod moves_left;
pub mod named_weights;
mod names;
pub mod native;
pub mod net;
pub mod onnx;
pub mod optimizer;
pub mod precision;
pub mod predict;
mod readback;
pub mod testing;
pub mod train_batch;
pub mod train_step;
pub mod weight_average;

pub use bench::{
    ForwardBench, bench_forward, bench_forward_at, bench_forward_with, bench_train,
    bench_train_with,
};
pub use checkpoint::{Checkpoint, CheckpointMeta};
pub use config::{NetConfig, Preset};
pub use device::{DeviceKind, GpuAdapter, gpu_adapter};
pub use engine::NetEngine;
pub use error::{ModelError, Result};
pub use files::{FileDigest, write_atomic};
pub use moves_left::{MOVES_LEFT_CLASSES, expected_moves_left, moves_left_class};
pub use native::NativeNet;
pub use net::{Net, TrainOutputs};
pub use optimizer::OptimizerConfig;
pub use precision::Precision;
pub use predict::{Prediction, Predictor, masked_softmax};
pub use train_batch::{AuxTerm, LossStats, TrainBatch};
pub use train_step::{LossTensors, Trainer, loss_tensors};
