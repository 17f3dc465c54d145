//! Inference with plain slices in and plain vectors out.
//!
//! This is the boundary the search uses: no burn type appears in it, so the self-play crate
//! does not need to know burn exists.

use burn::module::Module;
use burn::tensor::activation::softmax;
use burn::tensor::{Device, Tensor, TensorData};

use crate::config::NetConfig;
use crate::device::DeviceKind;
use crate::error::{ModelError, Result};
use crate::net::Net;

/// The network's answer for a batch of positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// Positions in the batch.
    pub batch: usize,
    /// Raw policy logits, row-major [batch × num_actions]. Mask and softmax them per position
    /// with [`masked_softmax`].
    pub policy_logits: Vec<f32>,
    /// Outcome probabilities (already softmaxed), row-major [batch × value_classes].
    pub values: Vec<f32>,
}

impl Prediction {
    /// The policy logits of position `i`, or `None` past the batch.
    pub fn policy_row(&self, i: usize) -> Option<&[f32]> {
        row(&self.policy_logits, self.batch, i)
    }

    /// The outcome probabilities of position `i`, or `None` past the batch.
    pub fn value_row(&self, i: usize) -> Option<&[f32]> {
        row(&self.values, self.batch, i)
    }
}

fn row(data: &[f32], batch: usize, i: usize) -> Option<&[f32]> {
    let width = data.len().checked_div(batch)?;
    data.get(i * width..(i + 1) * width)
}

/// A network in inference mode on one device.
#[derive(Debug, Clone)]
pub struct Predictor {
    net: Net,
    device: Device,
}

impl Predictor {
    /// Puts `net` in inference mode (running batch-norm statistics, no autodiff) on `kind`.
    pub fn new(net: &Net, kind: DeviceKind) -> Result<Self> {
        let device = kind.device()?;
        Ok(Predictor { net: net.valid().to_device(&device), device })
    }

    /// The config of the network inside.
    pub fn config(&self) -> &NetConfig {
        self.net.config()
    }

    /// Evaluates `batch` positions.
    ///
    /// `planes` is row-major [batch, planes, H, W] with `planes.len() == batch * planes * H * W`.
    /// Returns [`ModelError::InputSize`] for a wrong length and
    /// [`ModelError::InvalidArgument`] for `batch == 0`.
    pub fn predict(&self, planes: &[f32], batch: usize) -> Result<Prediction> {
        let shape = &self.config().shape;
        if batch == 0 {
            return Err(ModelError::InvalidArgument("batch must be at least 1".into()));
        }
        let expected = batch * shape.input_len();
        if planes.len() != expected {
            return Err(ModelError::InputSize { what: "planes", expected, got: planes.len() });
        }
        let dims = [batch, shape.planes, shape.height, shape.width];
        let x = Tensor::<4>::from_data(TensorData::new(planes.to_vec(), dims), &self.device);
        let (policy, value) = self.net.forward(x);
        Ok(Prediction { batch, policy_logits: to_vec(policy)?, values: to_vec(softmax(value, 1))? })
    }
}

/// Reads a float tensor back into a `Vec<f32>`.
pub(crate) fn to_vec<const D: usize>(t: Tensor<D>) -> Result<Vec<f32>> {
    t.into_data().try_into_vec_as::<f32>().map_err(|e| ModelError::Readback(format!("{e:?}")))
}

/// Softmax of `logits` restricted to the `legal` indices.
///
/// Returns one probability per entry of `legal`, in that order, summing to 1. Indices not
/// listed are ignored. Stable for large logits (the maximum is subtracted first). An index past
/// the end of `logits`, or a non-finite logit, gets probability 0; if nothing usable remains the
/// result is uniform over `legal`. An empty `legal` gives an empty vector.
pub fn masked_softmax(logits: &[f32], legal: &[usize]) -> Vec<f32> {
    let picked: Vec<f32> = legal
        .iter()
        .map(|&i| logits.get(i).copied().filter(|x| x.is_finite()).unwrap_or(f32::NEG_INFINITY))
        .collect();
    let max = picked.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    if max == f32::NEG_INFINITY {
        let n = legal.len() as f32;
        return vec![1.0 / n; legal.len()];
    }
    let exps: Vec<f32> = picked.iter().map(|&x| (x - max).exp()).collect();
    // The maximum contributes exp(0) = 1, so the sum is at least 1: no division by zero.
    let sum: f32 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(p: &[f32]) -> f32 {
        p.iter().sum()
    }

    #[test]
    fn predictor_can_be_shared_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Predictor>();
        assert_send_sync::<Prediction>();
    }

    #[test]
    fn masked_softmax_covers_only_the_legal_indices() {
        let logits = [1.0, 2.0, 100.0, 3.0];
        let p = masked_softmax(&logits, &[3, 0, 1]);
        assert_eq!(p.len(), 3);
        assert!((sum(&p) - 1.0).abs() < 1e-6);
        // Ordered as `legal`, and index 2's huge logit is ignored.
        assert!(p[0] > p[2] && p[2] > p[1]);
        let e = [3.0f32.exp(), 1.0f32.exp(), 2.0f32.exp()];
        let z: f32 = e.iter().sum();
        for (got, want) in p.iter().zip(e.iter().map(|x| x / z)) {
            assert!((got - want).abs() < 1e-6);
        }
    }

    #[test]
    fn masked_softmax_is_stable_for_large_logits() {
        let p = masked_softmax(&[1.0e30, 1.0e30 - 1.0e24, -1.0e30, 88.0], &[0, 1, 2, 3]);
        assert!(p.iter().all(|x| x.is_finite()));
        assert!((sum(&p) - 1.0).abs() < 1e-6);
        let q = masked_softmax(&[1000.0, 1000.0], &[0, 1]);
        assert_eq!(q, vec![0.5, 0.5]);
    }

    #[test]
    fn masked_softmax_edge_cases() {
        assert!(masked_softmax(&[1.0], &[]).is_empty());
        assert_eq!(masked_softmax(&[5.0], &[0]), vec![1.0]);
        // Out-of-range and non-finite entries get 0; all-unusable falls back to uniform.
        assert_eq!(masked_softmax(&[0.0, f32::NAN], &[0, 1, 7]), vec![1.0, 0.0, 0.0]);
        assert_eq!(masked_softmax(&[f32::NAN], &[0, 9]), vec![0.5, 0.5]);
    }
}
