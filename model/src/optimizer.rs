//! Optimizer choice and optimizer-state files.
//!
//! The state (Adam moments, SGD momentum) is saved as `optimizer.bpk` beside a checkpoint's
//! weights, with its own size-and-hash sidecar `optimizer.json`, so that a training run can
//! resume where it stopped instead of restarting the moments from zero.

use std::path::Path;

use burn::optim::decay::WeightDecayConfig;
use burn::optim::momentum::MomentumConfig;
use burn::optim::{AdamWConfig, ModuleOptimizer, OptimizerRecord, SgdConfig};
use burn::tensor::Bytes;
use serde::{Deserialize, Serialize};

use crate::checkpoint::write_json;
use crate::error::{ModelError, Result};
use crate::files::{self, FileDigest};

/// The optimizer-state file's name.
pub const OPTIMIZER_FILE: &str = "optimizer.bpk";
/// The optimizer-state digest file's name.
pub const OPTIMIZER_META_FILE: &str = "optimizer.json";

/// Which optimizer to train with, and its settings. The learning rate is not here: it is passed
/// to every step, so a schedule lives in the training loop.
///
/// In TOML: `optimizer = { adamw = { weight_decay = 0.0001 } }` (the default) or
/// `optimizer = { sgd = { weight_decay = 0.0001, momentum = 0.9 } }`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OptimizerConfig {
    /// Adam with decoupled weight decay.
    #[serde(rename = "adamw")]
    AdamW { weight_decay: f32 },
    /// SGD with (non-Nesterov, undampened) momentum and L2 weight decay.
    Sgd { weight_decay: f32, momentum: f64 },
}

impl Default for OptimizerConfig {
    fn default() -> Self {
        OptimizerConfig::AdamW { weight_decay: 1e-4 }
    }
}

impl OptimizerConfig {
    /// The weight decay (decoupled for AdamW, an L2 penalty for SGD).
    pub fn weight_decay(&self) -> f32 {
        match *self {
            OptimizerConfig::AdamW { weight_decay } | OptimizerConfig::Sgd { weight_decay, .. } => {
                weight_decay
            }
        }
    }

    /// A fresh optimizer (no state yet).
    pub fn build(&self) -> ModuleOptimizer {
        match *self {
            OptimizerConfig::AdamW { weight_decay } => {
                AdamWConfig::new().with_weight_decay(weight_decay).init()
            }
            OptimizerConfig::Sgd { weight_decay, momentum } => {
                let momentum = MomentumConfig::new().with_momentum(momentum).with_dampening(0.0);
                SgdConfig::new()
                    .with_momentum(Some(momentum))
                    .with_weight_decay(Some(WeightDecayConfig::new(weight_decay)))
                    .init()
            }
        }
    }
}

/// Writes `optim`'s state to `dir/optimizer.bpk` (+ digest), atomically.
pub fn save_optimizer(dir: &Path, optim: &ModuleOptimizer) -> Result<()> {
    files::ensure_dir(dir)?;
    let bytes = optim
        .into_bytes()
        .map_err(|e| ModelError::Encode { what: "optimizer state", message: e.to_string() })?
        .to_vec();
    files::write_atomic(&dir.join(OPTIMIZER_FILE), &bytes)?;
    write_json(&dir.join(OPTIMIZER_META_FILE), &FileDigest::of(OPTIMIZER_FILE, &bytes))
}

/// Loads the state saved by [`save_optimizer`] into `optim` (built with the same config).
///
/// Missing files are [`ModelError::MissingFile`]; a size/hash mismatch or undecodable state is
/// [`ModelError::CorruptWeights`] naming `optimizer.bpk`.
pub fn load_optimizer(dir: &Path, optim: ModuleOptimizer) -> Result<ModuleOptimizer> {
    let dir = files::require_dir(dir)?;
    let meta_path = dir.join(OPTIMIZER_META_FILE);
    let digest: FileDigest = serde_json::from_slice(&files::read(&meta_path)?)
        .map_err(|e| ModelError::BadJson { path: meta_path.clone(), message: e.to_string() })?;
    let path = dir.join(OPTIMIZER_FILE);
    let bytes = files::read(&path)?;
    digest.verify(&path, &bytes)?;
    let corrupt = |e: burn::store::RecordError| ModelError::CorruptWeights {
        path: path.clone(),
        problem: e.to_string(),
    };
    let record = OptimizerRecord::from_bytes(Bytes::from_bytes_vec(bytes)).map_err(corrupt)?;
    Ok(optim.load_record(record))
}
