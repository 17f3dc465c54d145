//! A native CPU inference engine for [`Net`]: the same function as `Net::forward`, computed
//! with im2col + SGEMM on plain `f32` buffers.
//!
//! * Built once from a [`Net`] ([`NativeNet::from_net`]): the weights are read out of the burn
//!   module and every batch norm is folded into the convolution before it.
//! * Activations are channels-last (`[positions × H × W, C]`), so a 3×3 convolution is one
//!   im2col copy and one GEMM `[rows, 9C] · [9C, C_out]`; biases, skip connections and ReLUs
//!   are applied in place.
//! * A batch is cut into chunks of at most [`MAX_CHUNK`] positions, spread over rayon's threads
//!   (each chunk runs the whole network on one thread, so activations stay in cache). Measured
//!   on the 2-core development machine, this is as fast as or faster than one chunk with
//!   matrixmultiply's own GEMM threading (ndarray's `matrixmultiply-threading`), which is
//!   therefore left off. Each
//!   running chunk borrows a [`Scratch`] from a pool shared by the engine's clones; buffers
//!   only grow, so after warm-up a call allocates nothing but its outputs.
//!
//! Inference only: batch norms use their running statistics, as on burn's plain device.

#[cfg(test)]
mod agreement;
mod forward;
pub(crate) mod kernels;
pub(crate) mod train;
mod weights;

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use burn::module::Module;
use rayon::prelude::*;

use crate::config::NetConfig;
use crate::error::{ModelError, Result};
use crate::net::Net;
use forward::{Outputs, Scratch, forward_chunk};
use kernels::Taps;
use weights::Weights;

/// Most positions one thread evaluates in one go. It bounds the im2col buffer (16×12 grid,
/// 64 channels, 8 positions: 3.5 MB) so a chunk's working set stays near the core's cache;
/// measured on the 2-core development machine, chunks of 2–8 positions run 1.7× faster than
/// chunks of 32.
pub const MAX_CHUNK: usize = 8;

/// The native engine: immutable folded weights plus a pool of scratch buffers, both shared by
/// clones (`Clone` is cheap; clones may run on different threads at once).
#[derive(Clone)]
pub struct NativeNet {
    weights: Arc<Weights>,
    taps: Arc<Taps>,
    pool: Arc<Mutex<Vec<Scratch>>>,
}

impl fmt::Debug for NativeNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NativeNet").field("config", &self.weights.config).finish_non_exhaustive()
    }
}

impl NativeNet {
    /// Reads `net`'s weights (in inference mode) and folds its batch norms.
    pub fn from_net(net: &Net) -> Result<Self> {
        let weights = Weights::from_net(&net.valid())?;
        let s = &weights.config.shape;
        let taps = Taps::new(s.height, s.width, weights.input.kernel);
        Ok(NativeNet {
            weights: Arc::new(weights),
            taps: Arc::new(taps),
            pool: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// The config of the network inside.
    pub fn config(&self) -> &NetConfig {
        &self.weights.config
    }

    /// x: `[batch, planes, H, W]` → (policy logits `[batch, num_actions]`, value logits
    /// `[batch, value_classes]`, and with the moves-left head the expected moves left
    /// `[batch]`), as [`Net::forward_play`] (the logits not softmaxed).
    ///
    /// Errors: [`ModelError::InvalidArgument`] for `batch == 0`, [`ModelError::InputSize`]
    /// for a wrong `planes` length.
    pub fn forward(&self, planes: &[f32], batch: usize) -> Result<NativeOutputs> {
        let shape = &self.weights.config.shape;
        let mut policy = vec![0.0; batch * shape.num_actions()];
        let mut value = vec![0.0; batch * shape.value_classes];
        let mut moves_left = vec![0.0; batch];
        self.forward_into(planes, batch, &mut policy, &mut value, &mut moves_left)?;
        let moves_left = self.weights.moves_left_out.is_some().then_some(moves_left);
        Ok((policy, value, moves_left))
    }

    /// [`forward`](Self::forward) into caller-provided outputs: `policy` `[batch,
    /// num_actions]`, `value` `[batch, value_classes]` and `moves_left` `[batch]` (written
    /// only when the network has the head) (exact lengths, else [`ModelError::InputSize`]).
    pub fn forward_into(
        &self,
        planes: &[f32],
        batch: usize,
        policy: &mut [f32],
        value: &mut [f32],
        moves_left: &mut [f32],
    ) -> Result<()> {
        let shape = &self.weights.config.shape;
        if batch == 0 {
            return Err(ModelError::InvalidArgument("batch must be at least 1".into()));
        }
        let sizes = [
            ("planes", planes.len(), shape.input_len()),
            ("policy output", policy.len(), shape.num_actions()),
            ("value output", value.len(), shape.value_classes),
            ("moves-left output", moves_left.len(), 1),
        ];
        for (what, got, per_position) in sizes {
            if got != batch * per_position {
                return Err(ModelError::InputSize { what, expected: batch * per_position, got });
            }
        }
        let chunk = chunk_size(batch, rayon::current_num_threads());
        let run = |(planes, out): (&[f32], Outputs<'_>)| {
            let n = planes.len() / shape.input_len();
            let mut scratch = self.borrow_scratch();
            let result = forward_chunk(&self.weights, &self.taps, &mut scratch, planes, n, out);
            self.return_scratch(scratch);
            result
        };
        if chunk >= batch {
            return run((planes, Outputs { policy, value, moves_left }));
        }
        planes
            .par_chunks(chunk * shape.input_len())
            .zip(policy.par_chunks_mut(chunk * shape.num_actions()))
            .zip(value.par_chunks_mut(chunk * shape.value_classes))
            .zip(moves_left.par_chunks_mut(chunk))
            .map(|(((planes, policy), value), moves_left)| {
                (planes, Outputs { policy, value, moves_left })
            })
            .try_for_each(run)
    }

    fn borrow_scratch(&self) -> Scratch {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner).pop().unwrap_or_default()
    }

    fn return_scratch(&self, scratch: Scratch) {
        self.pool.lock().unwrap_or_else(PoisonError::into_inner).push(scratch);
    }
}

/// What [`NativeNet::forward`] returns: policy logits, value logits, expected moves left.
pub type NativeOutputs = (Vec<f32>, Vec<f32>, Option<Vec<f32>>);

/// Positions per chunk: a multiple of `threads` chunks of at most [`MAX_CHUNK`] positions,
/// as even as possible.
fn chunk_size(batch: usize, threads: usize) -> usize {
    let threads = threads.max(1);
    let per_thread = batch.div_ceil(threads);
    let chunks = threads * per_thread.div_ceil(MAX_CHUNK);
    batch.div_ceil(chunks).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_spread_the_batch_evenly() {
        assert_eq!(chunk_size(1, 2), 1);
        assert_eq!(chunk_size(8, 2), 4);
        assert_eq!(chunk_size(9, 2), 5);
        assert_eq!(chunk_size(32, 2), 8);
        assert_eq!(chunk_size(40, 2), 7);
        assert_eq!(chunk_size(128, 2), 8);
        assert_eq!(chunk_size(8, 1), 8);
    }
}
