//! The loss and one optimizer step: what the training loop (another crate) calls per batch.
//!
//! Loss = policy cross-entropy + `value_weight` × value cross-entropy (+ the moves-left head's
//! weight × its cross-entropy, when the batch has its target), each averaged over the batch.
//! The policy part only sees legal moves: illegal logits are pushed to a large negative number
//! before the log-softmax, so the target distribution is compared with the network's
//! distribution over legal moves (and illegal moves get no gradient).

use std::path::Path;

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Bool, Device, Tensor, TensorData};

use crate::device::DeviceKind;
use crate::engine::NetEngine;
use crate::error::{ModelError, Result};
use crate::native::train::NativeGradients;
use crate::net::Net;
use crate::optimizer::{self, OptimizerConfig};
use crate::predict::Predictor;
use crate::readback::to_vec;
use crate::train_batch::{LossStats, TrainBatch};

/// What illegal logits are replaced with. Large enough that exp() underflows to 0 next to any
/// real logit, small enough that `0 × it` stays 0 (no infinities in the loss).
const ILLEGAL_LOGIT: f32 = -1.0e9;

/// [`LossStats`] as tensors, each [1] (the moves-left loss 0 without its target).
#[derive(Debug, Clone)]
pub struct LossTensors {
    /// On an autodiff device it can be back-propagated.
    pub total: Tensor<1>,
    pub policy: Tensor<1>,
    pub value: Tensor<1>,
    pub moves_left: Tensor<1>,
}

impl LossTensors {
    /// The four losses in [`LossStats`]' order, detached: [4].
    fn stats(self) -> Tensor<1> {
        let parts = [self.total, self.policy, self.value, self.moves_left];
        Tensor::cat(parts.map(Tensor::detach).into(), 0)
    }
}

/// The losses as tensors.
pub fn loss_tensors(
    net: &Net,
    batch: &TrainBatch<'_>,
    value_weight: f32,
    device: &Device,
) -> Result<LossTensors> {
    let cfg = net.config();
    batch.validate(cfg)?;
    let s = &cfg.shape;
    let (b, a, v) = (batch.batch, s.num_actions(), s.value_classes);
    let x = float_tensor(batch.planes, [b, s.planes, s.height, s.width], device);
    let policy_target = float_tensor(batch.policy_target, [b, a], device);
    let value_target = float_tensor(batch.value_target, [b, v], device);
    let legal = Tensor::<2, Bool>::from_data(TensorData::new(batch.legal.to_vec(), [b, a]), device);

    let out = net.forward_train(x);
    let masked = out.policy.mask_fill(legal.bool_not(), ILLEGAL_LOGIT);
    let policy = cross_entropy(masked, policy_target);
    let value = cross_entropy(out.value, value_target);
    let mut total = policy.clone() + value.clone().mul_scalar(value_weight);
    let moves_left = match batch.moves_left.zip(out.moves_left) {
        Some((m, logits)) => {
            let target = float_tensor(m.target, [b, cfg.moves_left_classes], device);
            let loss = cross_entropy(logits, target);
            total = total + loss.clone().mul_scalar(m.weight);
            loss
        }
        None => Tensor::zeros([1], device),
    };
    Ok(LossTensors { total, policy, value, moves_left })
}

/// A float tensor from a row-major slice whose length the caller has checked.
fn float_tensor<const D: usize>(data: &[f32], dims: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::from_data(TensorData::new(data.to_vec(), dims), device)
}

/// Mean over the batch of −Σ target · log_softmax(logits). logits, target: [B, K] → [1]
fn cross_entropy(logits: Tensor<2>, target: Tensor<2>) -> Tensor<1> {
    (log_softmax(logits, 1) * target).sum_dim(1).neg().mean()
}

/// A network being trained, with its optimizer, on an autodiff device.
///
/// The gradients come from burn's autodiff or, with [`NetEngine::Native`] (the CPU default),
/// from the native code ([`crate::native`]); either way burn holds the parameters, the
/// optimizer and its state, so checkpoints and optimizer files are the same.
pub struct Trainer {
    net: Net,
    optim: ModuleOptimizer,
    device: Device,
    /// The native gradient code, when the engine is native.
    native: Option<NativeGradients>,
    /// Weight of the value loss in the total.
    pub value_weight: f32,
}

// ModuleOptimizer has no Debug impl; show everything else.
impl std::fmt::Debug for Trainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trainer")
            .field("net", &self.net)
            .field("device", &self.device)
            .field("value_weight", &self.value_weight)
            .field("engine", &self.engine())
            .finish_non_exhaustive()
    }
}

impl Trainer {
    /// Takes `net` (from any device, e.g. a loaded checkpoint) to `kind`'s autodiff device with
    /// a fresh optimizer, computing gradients with the device's default engine
    /// ([`NetEngine::default_for`]: native on the CPU, burn on the GPU).
    pub fn new(net: Net, kind: DeviceKind, optimizer: &OptimizerConfig) -> Result<Self> {
        Self::with_engine(net, kind, optimizer, NetEngine::default_for(kind))
    }

    /// [`new`](Self::new) with the gradients computed by `engine` (native runs on the CPU
    /// only: [`ModelError::InvalidArgument`] with the GPU).
    pub fn with_engine(
        net: Net,
        kind: DeviceKind,
        optimizer: &OptimizerConfig,
        engine: NetEngine,
    ) -> Result<Self> {
        engine.check_device(kind, "training")?;
        let native = (engine == NetEngine::Native).then(|| NativeGradients::new(&net));
        let device = kind.autodiff_device()?;
        let net = net.fork(&device).train();
        Ok(Trainer { net, optim: optimizer.build(), device, native, value_weight: 1.0 })
    }

    /// Which code computes the gradients.
    pub fn engine(&self) -> NetEngine {
        if self.native.is_some() { NetEngine::Native } else { NetEngine::Burn }
    }

    /// The network as trained so far (on the autodiff device).
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// Gives up the network.
    pub fn into_net(self) -> Net {
        self.net
    }

    /// An inference copy of the current network on `kind`.
    pub fn predictor(&self, kind: DeviceKind) -> Result<Predictor> {
        Predictor::new(&self.net, kind)
    }

    /// One optimizer step on `batch` at learning rate `lr`; returns the losses before the step.
    ///
    /// Batch norm uses this batch's statistics and updates its running averages.
    pub fn step(&mut self, batch: &TrainBatch<'_>, lr: f64) -> Result<LossStats> {
        if !(lr.is_finite() && lr >= 0.0) {
            return Err(ModelError::InvalidArgument(format!("learning rate {lr}")));
        }
        if let Some(native) = &mut self.native {
            batch.validate(self.net.config())?;
            let inner = self.device.clone().without_autodiff();
            let (stats, grads) = native.step(&self.net, batch, self.value_weight, &inner)?;
            self.net = self.optim.step(lr, self.net.clone(), grads);
            return Ok(stats);
        }
        let losses = loss_tensors(&self.net, batch, self.value_weight, &self.device)?;
        let total = losses.total.clone();
        let stats = losses.stats();
        let grads = GradientsParams::from_grads(total.backward(), &self.net);
        // The optimizer consumes the module; the clone shares the tensors, so this is cheap.
        self.net = self.optim.step(lr, self.net.clone(), grads);
        read_stats(stats)
    }

    /// The losses on `batch` in inference mode (running batch-norm statistics, no update).
    pub fn evaluate(&self, batch: &TrainBatch<'_>) -> Result<LossStats> {
        let net = self.net.valid();
        let device = self.device.clone().without_autodiff();
        read_stats(loss_tensors(&net, batch, self.value_weight, &device)?.stats())
    }

    /// Saves the optimizer state into checkpoint folder `dir` (see [`optimizer::save_optimizer`]).
    pub fn save_optimizer(&self, dir: &Path) -> Result<()> {
        optimizer::save_optimizer(dir, &self.optim)
    }

    /// Restores optimizer state saved by [`Trainer::save_optimizer`]. The network must be the
    /// one the state was saved with (loaded from the same checkpoint): state is matched to
    /// parameters by their saved ids.
    pub fn load_optimizer(&mut self, dir: &Path) -> Result<()> {
        self.optim = optimizer::load_optimizer(dir, self.optim.clone())?;
        Ok(())
    }
}

fn read_stats(stats: Tensor<1>) -> Result<LossStats> {
    let values = to_vec(stats)?;
    let got = values.len();
    let parts = values.try_into().map_err(|_| {
        ModelError::Readback(format!("expected {} losses, got {got}", LossStats::PARTS))
    })?;
    Ok(LossStats::from_parts(parts))
}

#[cfg(test)]
mod tests;
