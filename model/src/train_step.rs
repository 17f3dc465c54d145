//! The loss and one optimizer step: what the training loop (another crate) calls per batch.
//!
//! Loss = policy cross-entropy + `value_weight` × value cross-entropy (+ each auxiliary head's
//! weight × its cross-entropy, when the batch has its target: the material and moves-left
//! heads' over the batch, the ownership head's over the batch's cells), each averaged over the
//! batch. The policy part only sees legal moves: illegal logits are pushed to a large negative
//! number before the log-softmax, so the target distribution is compared with the network's
//! distribution over legal moves (and illegal moves get no gradient).

use std::path::Path;

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Bool, Device, Tensor, TensorData};

use crate::config::NetConfig;
use crate::device::DeviceKind;
use crate::engine::NetEngine;
use crate::error::{ModelError, Result};
use crate::heads::gather_cells;
use crate::native::train::NativeGradients;
use crate::net::Net;
use crate::optimizer::{self, OptimizerConfig};
use crate::predict::Predictor;
use crate::readback::to_vec;

/// What illegal logits are replaced with. Large enough that exp() underflows to 0 next to any
/// real logit, small enough that `0 × it` stays 0 (no infinities in the loss).
const ILLEGAL_LOGIT: f32 = -1.0e9;

/// One training batch as plain row-major slices.
#[derive(Debug, Clone, Copy)]
pub struct TrainBatch<'a> {
    /// Positions in the batch (B).
    pub batch: usize,
    /// Encoded positions, [B, planes, H, W].
    pub planes: &'a [f32],
    /// Target move distribution, [B, num_actions]; each row sums to 1 over legal moves and is 0
    /// on illegal ones.
    pub policy_target: &'a [f32],
    /// Legal-move mask, [B, num_actions]; each row needs at least one `true`.
    pub legal: &'a [bool],
    /// Target outcome distribution, [B, value_classes] (one-hot or soft).
    pub value_target: &'a [f32],
    /// The material head's target, [B, material_classes] (one-hot), and weight, when it is
    /// trained (the network must have the head, of as many classes).
    pub material: Option<AuxTerm<'a>>,
    /// The ownership head's target, [B, ownership_classes, H, W] (one-hot on each board cell,
    /// 0 off the board: planes in the input's grid), and weight, when it is trained (the network
    /// must have the head, of as many classes).
    pub ownership: Option<AuxTerm<'a>>,
    /// The moves-left head's target, [B, moves_left_classes] (one-hot), and weight, when it is
    /// trained (the network must have the head, of as many classes).
    pub moves_left: Option<AuxTerm<'a>>,
}

/// An auxiliary head's part of a batch.
#[derive(Debug, Clone, Copy)]
pub struct AuxTerm<'a> {
    /// Target class distributions, laid out as [`TrainBatch`] says for the head.
    pub target: &'a [f32],
    /// Weight of its cross-entropy in the total loss.
    pub weight: f32,
}

impl TrainBatch<'_> {
    /// Checks every slice length against `config`'s shape and `batch`.
    pub fn validate(&self, config: &NetConfig) -> Result<()> {
        let s = &config.shape;
        if self.batch == 0 {
            return Err(ModelError::InvalidArgument("batch must be at least 1".into()));
        }
        let check = |what, got: usize, per: usize| {
            let expected = self.batch * per;
            if got == expected {
                Ok(())
            } else {
                Err(ModelError::InputSize { what, expected, got })
            }
        };
        check("planes", self.planes.len(), s.input_len())?;
        check("policy target", self.policy_target.len(), s.num_actions())?;
        check("legal mask", self.legal.len(), s.num_actions())?;
        check("value target", self.value_target.len(), s.value_classes)?;
        let heads = [
            ("material", "material target", &self.material, config.material_classes, 1),
            (
                "ownership",
                "ownership target",
                &self.ownership,
                config.ownership_classes,
                s.height * s.width,
            ),
            ("moves-left", "moves-left target", &self.moves_left, config.moves_left_classes, 1),
        ];
        for (what, name, term, classes, per_class) in heads {
            let Some(term) = term else { continue };
            if classes == 0 {
                return Err(ModelError::InvalidArgument(format!(
                    "the batch has a {what} target but the network no {what} head"
                )));
            }
            check(name, term.target.len(), classes * per_class)?;
            if !(term.weight >= 0.0 && term.weight.is_finite()) {
                return Err(ModelError::InvalidArgument(format!("{what} weight {}", term.weight)));
            }
        }
        let a = s.num_actions();
        if let Some(row) = self.legal.chunks(a).position(|r| !r.contains(&true)) {
            return Err(ModelError::InvalidArgument(format!("position {row} has no legal move")));
        }
        // Target mass on a masked-out move would meet a -1e9 log-probability: a billion-sized
        // loss from a data bug, so refuse it here with a message instead.
        let misplaced =
            self.policy_target.iter().zip(self.legal).position(|(&t, &ok)| t != 0.0 && !ok);
        if let Some(i) = misplaced {
            return Err(ModelError::InvalidArgument(format!(
                "position {} puts policy target mass on illegal action {}",
                i / a,
                i % a
            )));
        }
        Ok(())
    }
}

/// Batch-mean losses, as read back after a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossStats {
    /// `policy + value_weight * value (+ each auxiliary weight * its loss)`: what was minimised.
    pub total: f32,
    /// Policy cross-entropy (nats).
    pub policy: f32,
    /// Value cross-entropy (nats).
    pub value: f32,
    /// The material head's cross-entropy (nats); 0 when the batch has no material target.
    pub material: f32,
    /// The ownership head's cross-entropy per cell (nats); 0 when the batch has no ownership
    /// target.
    pub ownership: f32,
    /// The moves-left head's cross-entropy (nats); 0 when the batch has no moves-left target.
    pub moves_left: f32,
}

impl LossStats {
    /// How many losses there are.
    pub const PARTS: usize = 6;

    /// The losses in field order: total, policy, value, material, ownership, moves left.
    pub fn parts(&self) -> [f32; Self::PARTS] {
        [self.total, self.policy, self.value, self.material, self.ownership, self.moves_left]
    }

    /// [`parts`](Self::parts) back into a `LossStats`.
    pub fn from_parts(parts: [f32; Self::PARTS]) -> Self {
        let [total, policy, value, material, ownership, moves_left] = parts;
        LossStats { total, policy, value, material, ownership, moves_left }
    }
}

/// [`LossStats`] as tensors, each [1] (an auxiliary loss 0 without its target).
#[derive(Debug, Clone)]
pub struct LossTensors {
    /// On an autodiff device it can be back-propagated.
    pub total: Tensor<1>,
    pub policy: Tensor<1>,
    pub value: Tensor<1>,
    pub material: Tensor<1>,
    pub ownership: Tensor<1>,
    pub moves_left: Tensor<1>,
}

impl LossTensors {
    /// The six losses in [`LossStats`]' order, detached: [6].
    fn stats(self) -> Tensor<1> {
        let parts =
            [self.total, self.policy, self.value, self.material, self.ownership, self.moves_left];
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
    // An auxiliary head's (weight, loss) when the batch trains it: added to the total.
    let mut auxiliary = |weighted: Option<(f32, Tensor<1>)>| match weighted {
        Some((weight, loss)) => {
            total = total.clone() + loss.clone().mul_scalar(weight);
            loss
        }
        None => Tensor::zeros([1], device),
    };
    let material = auxiliary(batch.material.zip(out.material).map(|(m, logits)| {
        let target = float_tensor(m.target, [b, cfg.material_classes], device);
        (m.weight, cross_entropy(logits, target))
    }));
    let ownership = auxiliary(batch.ownership.zip(out.ownership).map(|(o, logits)| {
        let [_, n, k] = logits.dims();
        // [B, K, H, W] → [B, K, N] → [B, N, K], as the logits: one distribution per cell.
        let grid = float_tensor(o.target, [b, k, s.height, s.width], device);
        let target = gather_cells(grid, net.cells.clone()).swap_dims(1, 2);
        (o.weight, cross_entropy(logits.reshape([b * n, k]), target.reshape([b * n, k])))
    }));
    let moves_left = auxiliary(batch.moves_left.zip(out.moves_left).map(|(m, logits)| {
        let target = float_tensor(m.target, [b, cfg.moves_left_classes], device);
        (m.weight, cross_entropy(logits, target))
    }));
    Ok(LossTensors { total, policy, value, material, ownership, moves_left })
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
mod tests {
    use super::*;
    use crate::checkpoint;
    use crate::optimizer::OptimizerKind;
    use crate::testing::{pseudo_random, scratch_dir, tri_camelot_shape};

    /// A fixed batch of 8 positions with 1–10 legal moves each and one-hot targets.
    struct Fixture {
        config: NetConfig,
        planes: Vec<f32>,
        policy_target: Vec<f32>,
        legal: Vec<bool>,
        value_target: Vec<f32>,
    }

    const B: usize = 8;

    fn fixture() -> Fixture {
        let config = NetConfig::preset("b4c32", tri_camelot_shape(8)).unwrap();
        let s = &config.shape;
        let (a, v) = (s.num_actions(), s.value_classes);
        let mut legal = vec![false; B * a];
        let mut policy_target = vec![0.0; B * a];
        let mut value_target = vec![0.0; B * v];
        for i in 0..B {
            let moves: Vec<usize> = (0..=i).map(|k| (i * 97 + k * 31) % a).collect();
            for &m in &moves {
                legal[i * a + m] = true;
            }
            policy_target[i * a + moves[i % moves.len()]] = 1.0;
            value_target[i * v + i % v] = 1.0;
        }
        Fixture {
            planes: pseudo_random(B * s.input_len(), 5),
            config,
            policy_target,
            legal,
            value_target,
        }
    }

    impl Fixture {
        fn batch(&self) -> TrainBatch<'_> {
            TrainBatch {
                batch: B,
                planes: &self.planes,
                policy_target: &self.policy_target,
                legal: &self.legal,
                value_target: &self.value_target,
                material: None,
                ownership: None,
                moves_left: None,
            }
        }
    }

    fn trainer(f: &Fixture, kind: OptimizerKind) -> Trainer {
        let net = Net::new(&f.config, &Device::flex()).unwrap();
        let optim = OptimizerConfig { kind, ..OptimizerConfig::default() };
        Trainer::new(net, DeviceKind::Cpu, &optim).unwrap()
    }

    #[test]
    fn overfitting_one_batch_lowers_the_loss() {
        let f = fixture();
        let mut t = trainer(&f, OptimizerKind::AdamW);
        let first = t.step(&f.batch(), 3e-3).unwrap();
        let mut last = first;
        for _ in 0..40 {
            last = t.step(&f.batch(), 3e-3).unwrap();
        }
        assert!(first.total.is_finite() && last.total.is_finite());
        assert!(last.total < 0.5 * first.total, "loss {first:?} → {last:?}");
        // The trained running statistics generalise to inference mode on the same batch.
        let eval = t.evaluate(&f.batch()).unwrap();
        assert!(eval.total < 0.75 * first.total, "inference loss {eval:?} vs initial {first:?}");
    }

    #[test]
    fn both_engines_take_the_same_steps() {
        // From one checkpoint, five SGD steps with native gradients and five with burn's
        // autodiff: the same losses, and the same network after (running statistics included).
        // SGD, not AdamW: Adam divides each gradient by its own magnitude, so a parameter whose
        // true gradient is ~0 steps a full learning rate in whichever direction the rounding
        // of its summation order points, and two correct engines drift apart on another CPU's
        // SIMD kernels. SGD's step is proportional to the gradient, so rounding stays rounding.
        let f = fixture();
        let dir = scratch_dir("engines");
        let mut t = trainer(&f, OptimizerKind::AdamW);
        t.step(&f.batch(), 1e-3).unwrap();
        checkpoint::save(&dir, t.net(), "tri-camelot", 1).unwrap();
        let device = DeviceKind::Cpu.device().unwrap();
        let optim = OptimizerConfig { kind: OptimizerKind::Sgd, ..OptimizerConfig::default() };
        let mut trainers = [NetEngine::Native, NetEngine::Burn].map(|engine| {
            let net = checkpoint::load_on(&dir, "tri-camelot", 1, &device).unwrap().net;
            Trainer::with_engine(net, DeviceKind::Cpu, &optim, engine).unwrap()
        });
        assert_eq!(trainers.each_ref().map(Trainer::engine), [NetEngine::Native, NetEngine::Burn]);
        for _ in 0..5 {
            let [a, b] = trainers.each_mut().map(|t| t.step(&f.batch(), 0.05).unwrap());
            assert!((a.total - b.total).abs() < 1e-3 * b.total.abs().max(1.0), "{a:?} vs {b:?}");
            assert!((a.value - b.value).abs() < 1e-3 * b.value.abs().max(1.0), "{a:?} vs {b:?}");
        }
        let [a, b] = trainers.each_ref().map(|t| t.evaluate(&f.batch()).unwrap());
        assert!((a.total - b.total).abs() < 1e-3 * b.total.abs().max(1.0), "{a:?} vs {b:?}");
        let gpu = Net::new(&f.config, &device).unwrap();
        let native_on_gpu = Trainer::with_engine(gpu, DeviceKind::Gpu, &optim, NetEngine::Native);
        assert!(matches!(native_on_gpu, Err(ModelError::InvalidArgument(_))));
    }

    #[test]
    fn sgd_with_momentum_also_learns() {
        let f = fixture();
        let mut t = trainer(&f, OptimizerKind::Sgd);
        let first = t.step(&f.batch(), 0.05).unwrap();
        let mut last = first;
        for _ in 0..30 {
            last = t.step(&f.batch(), 0.05).unwrap();
        }
        assert!(last.total < 0.7 * first.total, "loss {first:?} → {last:?}");
    }

    #[test]
    fn illegal_moves_do_not_count() {
        // Position 0 of the fixture has exactly one legal move, the target: whatever the
        // network says about the other 876 actions, its policy loss is 0.
        let f = fixture();
        let t = trainer(&f, OptimizerKind::AdamW);
        let s = &f.config.shape;
        let (a, n, v) = (s.num_actions(), s.input_len(), s.value_classes);
        let single = TrainBatch {
            batch: 1,
            planes: &f.planes[..n],
            policy_target: &f.policy_target[..a],
            legal: &f.legal[..a],
            value_target: &f.value_target[..v],
            material: None,
            ownership: None,
            moves_left: None,
        };
        assert!(t.evaluate(&single).unwrap().policy.abs() < 1e-6);
    }

    #[test]
    fn bad_batches_are_errors_not_panics() {
        let f = fixture();
        let mut t = trainer(&f, OptimizerKind::AdamW);
        let short = TrainBatch { value_target: &f.value_target[1..], ..f.batch() };
        assert!(matches!(
            t.step(&short, 1e-3),
            Err(ModelError::InputSize { what: "value target", .. })
        ));
        let none_legal = vec![false; f.legal.len()];
        let stuck = TrainBatch { legal: &none_legal, ..f.batch() };
        assert!(matches!(t.step(&stuck, 1e-3), Err(ModelError::InvalidArgument(_))));
        assert!(matches!(t.step(&f.batch(), f64::NAN), Err(ModelError::InvalidArgument(_))));
        let mut stray = f.policy_target.clone();
        let illegal = f.legal.iter().position(|&ok| !ok).unwrap();
        stray[illegal] = 0.5;
        let stray = TrainBatch { policy_target: &stray, ..f.batch() };
        assert!(matches!(t.step(&stray, 1e-3), Err(ModelError::InvalidArgument(_))));
        // A material target for a network without the head, of the wrong length, or with a
        // weight that is not a finite number of at least 0.
        let material = vec![0.2; B * 5];
        let term =
            |target, weight| TrainBatch { material: Some(AuxTerm { target, weight }), ..f.batch() };
        let err = t.step(&term(&material, 1.0), 1e-3).unwrap_err();
        assert!(err.to_string().contains("no material head"), "{err}");
        let net = t.into_net().with_material_head(5, 1).unwrap();
        let mut t = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
        assert!(matches!(
            t.step(&term(&material[1..], 1.0), 1e-3),
            Err(ModelError::InputSize { what: "material target", .. })
        ));
        for weight in [-1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(
                t.step(&term(&material, weight), 1e-3),
                Err(ModelError::InvalidArgument(_))
            ));
        }
        t.step(&term(&material, 1.0), 1e-3).unwrap();
        // The same for an ownership target, whose rows are grids.
        let s = &f.config.shape;
        let ownership = vec![0.0; B * 3 * s.height * s.width];
        let term =
            |target| TrainBatch { ownership: Some(AuxTerm { target, weight: 1.0 }), ..f.batch() };
        let err = t.step(&term(&ownership), 1e-3).unwrap_err();
        assert!(err.to_string().contains("no ownership head"), "{err}");
        let net = t.into_net().with_ownership_head(3, 1).unwrap();
        let mut t = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
        assert!(matches!(
            t.step(&term(&ownership[3..]), 1e-3),
            Err(ModelError::InputSize { what: "ownership target", .. })
        ));
        t.step(&term(&ownership), 1e-3).unwrap();
    }

    /// One-hot ownership targets of 3 classes in the input's grid: class `i % 3` on every
    /// board cell of position `i`.
    fn ownership_target(shape: &games::Layout, n: usize) -> Vec<f32> {
        let grid = shape.height * shape.width;
        let mut target = vec![0.0; n * 3 * grid];
        for (i, planes) in target.chunks_exact_mut(3 * grid).enumerate() {
            for &g in &shape.cells {
                planes[(i % 3) * grid + usize::from(g)] = 1.0;
            }
        }
        target
    }

    #[test]
    fn the_ownership_head_learns_its_target_and_counts_in_the_total() {
        let f = fixture();
        let net = Net::new(&f.config, &Device::flex()).unwrap().with_ownership_head(3, 3).unwrap();
        let target = ownership_target(&f.config.shape, B);
        let batch =
            TrainBatch { ownership: Some(AuxTerm { target: &target, weight: 0.5 }), ..f.batch() };
        for engine in [NetEngine::Native, NetEngine::Burn] {
            let net = net.clone();
            let mut t =
                Trainer::with_engine(net, DeviceKind::Cpu, &OptimizerConfig::default(), engine)
                    .unwrap();
            let first = t.step(&batch, 0.01).unwrap();
            let expected = first.policy + first.value + 0.5 * first.ownership;
            assert!((first.total - expected).abs() < 1e-4, "{engine:?}: {first:?}");
            assert!(first.ownership > 0.9, "a fresh head: about ln 3 or more, {first:?}");
            let mut last = first;
            for _ in 0..60 {
                last = t.step(&batch, 0.01).unwrap();
            }
            assert!(last.ownership < 0.5 * first.ownership, "{engine:?}: {first:?} → {last:?}");
            assert_eq!(t.evaluate(&f.batch()).unwrap().ownership, 0.0);
        }
    }

    #[test]
    fn the_moves_left_head_learns_its_target_on_both_engines() {
        let f = fixture();
        let k = crate::MOVES_LEFT_CLASSES;
        let net = Net::new(&f.config, &Device::flex()).unwrap().with_moves_left_head(k, 3).unwrap();
        let mut target = vec![0.0; B * k];
        for (i, row) in target.chunks_exact_mut(k).enumerate() {
            row[(3 * i) % k] = 1.0;
        }
        let batch =
            TrainBatch { moves_left: Some(AuxTerm { target: &target, weight: 0.5 }), ..f.batch() };
        for engine in [NetEngine::Native, NetEngine::Burn] {
            let mut t = Trainer::with_engine(
                net.clone(),
                DeviceKind::Cpu,
                &OptimizerConfig::default(),
                engine,
            )
            .unwrap();
            let first = t.step(&batch, 0.01).unwrap();
            let expected = first.policy + first.value + 0.5 * first.moves_left;
            assert!((first.total - expected).abs() < 1e-4, "{engine:?}: {first:?}");
            assert!(first.moves_left > 2.0, "24 classes from a fresh head: ~ln 24, {first:?}");
            let mut last = first;
            for _ in 0..40 {
                last = t.step(&batch, 0.01).unwrap();
            }
            assert!(last.moves_left < 0.5 * first.moves_left, "{engine:?}: {first:?} → {last:?}");
            assert_eq!(t.evaluate(&f.batch()).unwrap().moves_left, 0.0);
        }
        // A target for a network without the head is refused.
        let mut t = Trainer::new(
            Net::new(&f.config, &Device::flex()).unwrap(),
            DeviceKind::Cpu,
            &OptimizerConfig::default(),
        )
        .unwrap();
        let err = t.step(&batch, 0.01).unwrap_err();
        assert!(err.to_string().contains("no moves-left head"), "{err}");
    }

    #[test]
    fn the_material_head_learns_its_target_and_counts_in_the_total() {
        let f = fixture();
        let net = Net::new(&f.config, &Device::flex()).unwrap().with_material_head(5, 3).unwrap();
        let mut target = vec![0.0; B * 5];
        for (i, row) in target.chunks_exact_mut(5).enumerate() {
            row[i % 5] = 1.0;
        }
        let batch =
            TrainBatch { material: Some(AuxTerm { target: &target, weight: 0.5 }), ..f.batch() };
        let mut t = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
        let first = t.step(&batch, 0.01).unwrap();
        let expected = first.policy + first.value + 0.5 * first.material;
        assert!((first.total - expected).abs() < 1e-4, "{first:?}");
        assert!(first.material > 1.0, "five classes from a fresh head: ~ln 5, got {first:?}");
        let mut last = first;
        for _ in 0..40 {
            last = t.step(&batch, 0.01).unwrap();
        }
        assert!(last.material < 0.5 * first.material, "{first:?} → {last:?}");
        // Without the target the head is left alone and the loss has no material part.
        assert_eq!(t.evaluate(&f.batch()).unwrap().material, 0.0);
    }

    #[test]
    fn checkpoint_keeps_trained_batch_norm_statistics() {
        // Training moves the running statistics away from their initial 0/1, and burn keeps
        // the latest update on the side: a checkpoint must still capture it.
        let f = fixture();
        let dir = scratch_dir("trained-roundtrip");
        let mut t = trainer(&f, OptimizerKind::AdamW);
        for _ in 0..3 {
            t.step(&f.batch(), 1e-3).unwrap();
        }
        checkpoint::save(&dir, t.net(), "tri-camelot", 1).unwrap();
        let loaded = checkpoint::load(&dir, "tri-camelot", 1).unwrap().net;
        let predict = |net: &Net| {
            let p = Predictor::new(net, DeviceKind::Cpu).unwrap();
            p.predict(&f.planes, B).unwrap()
        };
        let before = predict(t.net());
        assert_eq!(predict(&loaded), before);
        let fresh = Net::new(&f.config, &Device::flex()).unwrap();
        assert_ne!(
            predict(&fresh),
            before,
            "a fresh net must not match: the test would be vacuous"
        );
    }

    #[test]
    fn optimizer_state_survives_a_checkpoint() {
        let f = fixture();
        let dir = scratch_dir("optimizer");
        let mut t = trainer(&f, OptimizerKind::AdamW);
        for _ in 0..3 {
            t.step(&f.batch(), 1e-3).unwrap();
        }
        checkpoint::save(&dir, t.net(), "tri-camelot", 1).unwrap();
        t.save_optimizer(&dir).unwrap();

        // Resume: same weights, same optimizer moments → the same next step.
        let device = DeviceKind::Cpu.device().unwrap();
        let net = checkpoint::load_on(&dir, "tri-camelot", 1, &device).unwrap().net;
        let mut resumed = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
        resumed.load_optimizer(&dir).unwrap();
        let expected = t.step(&f.batch(), 1e-3).unwrap();
        let got = resumed.step(&f.batch(), 1e-3).unwrap();
        assert!((expected.total - got.total).abs() < 1e-4, "{expected:?} vs {got:?}");
        let after_a = t.evaluate(&f.batch()).unwrap();
        let after_b = resumed.evaluate(&f.batch()).unwrap();
        assert!((after_a.total - after_b.total).abs() < 1e-3, "{after_a:?} vs {after_b:?}");

        // A fresh optimizer (no moments) takes a different step.
        let net = checkpoint::load_on(&dir, "tri-camelot", 1, &device).unwrap().net;
        let mut fresh = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
        fresh.step(&f.batch(), 1e-3).unwrap();
        let after_c = fresh.evaluate(&f.batch()).unwrap();
        assert!((after_a.total - after_c.total).abs() > 1e-6, "moments made no difference");

        std::fs::write(dir.join(crate::optimizer::OPTIMIZER_FILE), b"garbage").unwrap();
        assert!(matches!(resumed.load_optimizer(&dir), Err(ModelError::CorruptWeights { .. })));
    }
}
