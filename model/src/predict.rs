//! Inference with plain slices in and plain vectors out.
//!
//! This is the boundary the search uses: no burn type appears in it, so the self-play crate
//! does not need to know burn exists.

use burn::module::Module;
use burn::tensor::activation::softmax;
use burn::tensor::{Device, FloatDType, Tensor, TensorData};

use crate::config::NetConfig;
use crate::device::DeviceKind;
use crate::engine::NetEngine;
use crate::error::{ModelError, Result};
use crate::moves_left::expected_moves_left;
use crate::native::NativeNet;
use crate::native::kernels::softmax_in_place;
use crate::net::Net;
use crate::precision::Precision;
use crate::readback::to_vec;

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
    /// The moves-left head's expected moves to the end ([`crate::moves_left`]), [batch], when
    /// the network has the head.
    pub moves_left: Option<Vec<f32>>,
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

/// A network in inference mode on one device, behind one [`NetEngine`].
///
/// `Clone` is cheap for the native engine (the folded weights are shared through an `Arc`),
/// and clones may predict on different threads at once.
#[derive(Debug, Clone)]
pub struct Predictor {
    engine: Engine,
}

#[derive(Debug, Clone)]
enum Engine {
    Burn { net: Box<Net>, device: Device, kind: DeviceKind, precision: Precision },
    Native(NativeNet),
}

impl Predictor {
    /// Puts `net` in inference mode (running batch-norm statistics, no autodiff) on `kind`,
    /// with that device's default engine ([`NetEngine::default_for`]: native on the CPU,
    /// burn on the GPU).
    pub fn new(net: &Net, kind: DeviceKind) -> Result<Self> {
        Self::with_engine(net, kind, NetEngine::default_for(kind))
    }

    /// [`new`](Self::new) with an explicit engine. The native engine runs on the CPU only:
    /// asking for it with [`DeviceKind::Gpu`] is [`ModelError::InvalidArgument`].
    pub fn with_engine(net: &Net, kind: DeviceKind, engine: NetEngine) -> Result<Self> {
        engine.check_device(kind, "inference")?;
        let engine = match engine {
            NetEngine::Native => Engine::Native(NativeNet::from_net(net)?),
            NetEngine::Burn => {
                let device = kind.device()?;
                let net = Box::new(net.valid().to_device(&device));
                Engine::Burn { net, device, kind, precision: Precision::F32 }
            }
        };
        Ok(Predictor { engine })
    }

    /// This predictor at `precision` ([`crate::precision`]): burn's engine on the GPU casts its
    /// copy of the network; both CPU engines are `f32` only, and `f16` there is
    /// [`ModelError::InvalidArgument`].
    pub fn with_precision(self, precision: Precision) -> Result<Self> {
        let engine = match self.engine {
            // burn's CPU backend panics on some f16 kernels: f16 is the GPU's.
            Engine::Burn { kind: DeviceKind::Cpu, .. } | Engine::Native(_)
                if precision != Precision::F32 =>
            {
                return Err(ModelError::InvalidArgument(format!(
                    "{precision} inference runs on the GPU; the CPU engines (native and burn's) \
                     run f32 only"
                )));
            }
            Engine::Burn { net, device, kind, precision: had } if had != precision => {
                // A predictor is made at f32, so this is one cast from f32.
                let net = Box::new(precision.cast_net(*net));
                Engine::Burn { net, device, kind, precision }
            }
            engine => engine,
        };
        Ok(Predictor { engine })
    }

    /// The float precision of the forward pass.
    pub fn precision(&self) -> Precision {
        match self.engine {
            Engine::Burn { precision, .. } => precision,
            Engine::Native(_) => Precision::F32,
        }
    }

    /// The engine in use.
    pub fn engine(&self) -> NetEngine {
        match self.engine {
            Engine::Burn { .. } => NetEngine::Burn,
            Engine::Native(_) => NetEngine::Native,
        }
    }

    /// The config of the network inside.
    pub fn config(&self) -> &NetConfig {
        match &self.engine {
            Engine::Burn { net, .. } => net.config(),
            Engine::Native(native) => native.config(),
        }
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
        match &self.engine {
            Engine::Burn { net, device, precision, .. } => {
                let dims = [batch, shape.planes, shape.height, shape.width];
                let x = Tensor::<4>::from_data(TensorData::new(planes.to_vec(), dims), device);
                let (policy, value, moves_left) = net.forward_play(precision.cast_input(x));
                // The softmaxes in f32 whatever the forward pass ran in.
                let f32_ = FloatDType::F32;
                let moves_left = match moves_left {
                    Some(logits) => {
                        Some(expectations(to_vec(softmax(logits.cast(f32_), 1))?, batch))
                    }
                    None => None,
                };
                Ok(Prediction {
                    batch,
                    policy_logits: to_vec(policy.cast(f32_))?,
                    values: to_vec(softmax(value.cast(f32_), 1))?,
                    moves_left,
                })
            }
            Engine::Native(native) => {
                let (policy_logits, mut values, moves_left) = native.forward(planes, batch)?;
                for row in values.chunks_exact_mut(shape.value_classes) {
                    softmax_in_place(row);
                }
                Ok(Prediction { batch, policy_logits, values, moves_left })
            }
        }
    }
}

/// The expected moves left of each of `batch` rows of moves-left probabilities.
fn expectations(probs: Vec<f32>, batch: usize) -> Vec<f32> {
    probs.chunks_exact(probs.len() / batch).map(expected_moves_left).collect()
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
