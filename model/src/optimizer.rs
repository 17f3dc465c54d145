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

/// Which optimizer to train with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimizerKind {
    /// Adam with decoupled weight decay.
    #[default]
    AdamW,
    /// SGD with (non-Nesterov, undampened) momentum and L2 weight decay.
    Sgd,
}

/// Optimizer settings. The learning rate is not here: it is passed to every step, so a
/// schedule lives in the training loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OptimizerConfig {
    /// Adam(W) or SGD.
    pub kind: OptimizerKind,
    /// Weight decay (decoupled for AdamW, L2 penalty for SGD).
    pub weight_decay: f32,
    /// SGD momentum (ignored by AdamW).
    pub momentum: f64,
}

impl Default for OptimizerConfig {
    fn default() -> Self {
        OptimizerConfig { kind: OptimizerKind::AdamW, weight_decay: 1e-4, momentum: 0.9 }
    }
}

impl OptimizerConfig {
    /// A fresh optimizer (no state yet).
    pub fn build(&self) -> ModuleOptimizer {
        match self.kind {
            OptimizerKind::AdamW => AdamWConfig::new().with_weight_decay(self.weight_decay).init(),
            OptimizerKind::Sgd => {
                let momentum =
                    MomentumConfig::new().with_momentum(self.momentum).with_dampening(0.0);
                SgdConfig::new()
                    .with_momentum(Some(momentum))
                    .with_weight_decay(Some(WeightDecayConfig::new(self.weight_decay)))
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
