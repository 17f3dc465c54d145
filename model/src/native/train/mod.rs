//! Native gradients for [`Trainer`](crate::Trainer): the training step's forward and backward
//! passes on plain `f32` buffers, with burn keeping the parameters and the optimizer.
//!
//! Per step: the parameters are read out of the burn module ([`params::Params`]), the batch
//! runs forward with batch statistics and backward ([`pass::train_pass`]), the gradients are
//! registered as burn's [`GradientsParams`] for the optimizer, and the batch norms' running
//! statistics are updated as burn's `BatchNorm` updates them (momentum on the batch mean and
//! biased variance). So the optimizer state and the checkpoints are burn's, whichever computes
//! the gradients.

#[cfg(test)]
mod agreement;
mod layers;
mod params;
mod pass;
mod pool;

use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor, TensorData};

use crate::error::{ModelError, Result};
use crate::net::Net;
use crate::readback::to_vec;
use crate::train_batch::{LossStats, TrainBatch};
use params::{Params, for_each_norm};
use pass::{Grids, train_pass};
use pool::Pool;

/// The native gradient engine of one network shape.
#[derive(Debug)]
pub(crate) struct NativeGradients {
    grids: Grids,
    /// The steps' buffers, kept from one step to the next.
    pool: Pool,
}

impl NativeGradients {
    /// For networks on `net`'s board shape.
    pub fn new(net: &Net) -> Self {
        let s = &net.config().shape;
        NativeGradients { grids: Grids::new(s.height, s.width), pool: Pool::default() }
    }

    /// The losses of `batch` (validated by the caller) and the gradients of `net`'s
    /// parameters on `grad_device`; `net`'s batch norms' running statistics are updated.
    pub fn step(
        &mut self,
        net: &Net,
        batch: &TrainBatch<'_>,
        value_weight: f32,
        grad_device: &Device,
    ) -> Result<(LossStats, GradientsParams)> {
        let params = Params::from_net(net)?;
        let eps = norm_epsilon(net)?;
        let out = train_pass(&params, &self.grids, eps, batch, value_weight, &mut self.pool)?;
        update_running_statistics(net, &out.norm_stats)?;
        Ok((out.loss, out.grads.to_burn_gradients(net, grad_device)?))
    }
}

/// The batch norms' common epsilon.
fn norm_epsilon(net: &Net) -> Result<f64> {
    let mut all = Vec::new();
    for_each_norm(net, |bn| all.push(bn.epsilon));
    match all.split_first() {
        Some((&eps, rest)) if rest.iter().all(|&e| e == eps) => Ok(eps),
        _ => Err(ModelError::InvalidConfig(format!(
            "native training needs one batch-norm epsilon, the network has {all:?}"
        ))),
    }
}

/// `running ← (1 - momentum) × running + momentum × batch`, for the mean and the (biased)
/// variance of every batch norm, as burn's `BatchNorm` does in training mode.
fn update_running_statistics(net: &Net, stats: &[(Vec<f32>, Vec<f32>)]) -> Result<()> {
    let mut stats = stats.iter();
    let mut result = Ok(());
    for_each_norm(net, |bn| {
        if result.is_err() {
            return;
        }
        let Some((mean, var)) = stats.next() else {
            result =
                Err(ModelError::InvalidConfig("native training: a batch norm too many".into()));
            return;
        };
        let m = bn.momentum as f32;
        let update = |state: &burn::module::RunningState<Tensor<1>>, batch: &[f32]| -> Result<()> {
            let current = state.value_sync();
            let device = current.device();
            let old = to_vec(current)?;
            if old.len() != batch.len() {
                return Err(ModelError::InvalidConfig(format!(
                    "native training: {} running statistics for {} channels",
                    old.len(),
                    batch.len()
                )));
            }
            let new: Vec<f32> = old.iter().zip(batch).map(|(o, b)| (1.0 - m) * o + m * b).collect();
            let len = new.len();
            state.update(Tensor::from_data(TensorData::new(new, [len]), &device));
            Ok(())
        };
        result = update(&bn.running_mean, mean).and_then(|()| update(&bn.running_var, var));
    });
    result
}
