//! The native gradients against burn's autodiff: the losses, the gradient of every parameter
//! and the batch norms' running statistics after a step, on both game shapes and two presets,
//! with and without the moves-left head, with pseudo-random weights moved off their initial
//! batch-norm values.
//!
//! Losses and running statistics (forward values) agree to 2e-3 of the largest; gradients to
//! 0.4% in norm and 1% of the largest per value, see [`assert_gradient_close`], on at least one
//! of three test networks ([`DRAWS`]).

use burn::module::{Module, ParamId};
use burn::optim::GradientsParams;
use burn::tensor::Device;

use super::NativeGradients;
use super::params::{for_each_norm, param_ids};
use crate::DeviceKind;
use crate::checkpoint;
use crate::config::NetConfig;
use crate::net::Net;
use crate::optimizer::OptimizerConfig;
use crate::readback::to_vec;
use crate::testing::{camelot_shape, pseudo_random, scratch_dir, tri_camelot_shape};
use crate::train_batch::{AuxTerm, TrainBatch};
use crate::train_step::{Trainer, loss_tensors};
use games::Layout;

/// A batch of `n` positions with 1-12 legal moves each, soft policy targets on some of them
/// and soft value targets, and one-hot moves-left targets of `moves_left` classes (none when
/// 0).
struct Fixture {
    planes: Vec<f32>,
    policy_target: Vec<f32>,
    legal: Vec<bool>,
    value_target: Vec<f32>,
    moves_left_target: Vec<f32>,
    n: usize,
}

/// One-hot rows of `k` classes for `n` positions, position `i` on class `(i × step) mod k`.
fn one_hot_rows(n: usize, k: usize, step: usize) -> Vec<f32> {
    let mut rows = vec![0.0; n * k];
    for (i, row) in rows.chunks_exact_mut(k.max(1)).enumerate() {
        row[(i * step) % k] = 1.0;
    }
    rows
}

impl Fixture {
    fn new(shape: &Layout, n: usize, moves_left: usize) -> Self {
        let (a, v) = (shape.num_actions(), shape.value_classes);
        let mut legal = vec![false; n * a];
        let mut policy_target = vec![0.0; n * a];
        let mut value_target = vec![0.0; n * v];
        for i in 0..n {
            let moves: Vec<usize> = (0..=(i % 12)).map(|k| (i * 97 + k * 31) % a).collect();
            for &m in &moves {
                legal[i * a + m] = true;
            }
            legal[i * a + a - 1] |= i % 3 == 0; // end-move legal in some positions
            let first = moves[0];
            let last = moves[moves.len() - 1];
            policy_target[i * a + first] += 0.75;
            policy_target[i * a + last] += 0.25;
            value_target[i * v + i % v] = 0.6;
            value_target[i * v + (i + 1) % v] += 0.4;
        }
        let moves_left_target = one_hot_rows(n, moves_left, 5);
        Fixture {
            planes: pseudo_random(n * shape.input_len(), 11),
            policy_target,
            legal,
            value_target,
            moves_left_target,
            n,
        }
    }

    fn batch(&self) -> TrainBatch<'_> {
        TrainBatch {
            batch: self.n,
            planes: &self.planes,
            policy_target: &self.policy_target,
            legal: &self.legal,
            value_target: &self.value_target,
            moves_left: (!self.moves_left_target.is_empty())
                .then(|| AuxTerm { target: &self.moves_left_target, weight: 0.4 }),
        }
    }
}

/// A network whose batch-norm scales and shifts are not 1 and 0 (a few burn training steps
/// on the fixture), saved; returns the checkpoint folder.
fn trained_checkpoint(
    config: &NetConfig,
    f: &Fixture,
    name: &str,
    seed: u64,
) -> storage::ScratchDir {
    let net = Net::seeded(config, &Device::flex(), seed).unwrap();
    let mut t = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
    for _ in 0..3 {
        t.step(&f.batch(), 0.01).unwrap();
    }
    let dir = scratch_dir(&format!("{name}-{seed}"));
    checkpoint::save(&dir, t.net(), "test").unwrap();
    dir
}

fn load_for_training(dir: &std::path::Path) -> Net {
    let device = DeviceKind::Cpu.autodiff_device().unwrap();
    checkpoint::load_on(dir, "test", &device).unwrap().net.train()
}

fn running_statistics(net: &Net) -> Vec<f32> {
    let mut all = Vec::new();
    for_each_norm(net, |bn| {
        all.extend(to_vec(bn.running_mean.value_sync()).unwrap());
        all.extend(to_vec(bn.running_var.value_sync()).unwrap());
    });
    all
}

fn grad_values(grads: &GradientsParams, (id, rank): (ParamId, usize)) -> Vec<f32> {
    let values = match rank {
        1 => grads.get::<1>(id).map(to_vec),
        2 => grads.get::<2>(id).map(to_vec),
        4 => grads.get::<4>(id).map(to_vec),
        _ => panic!("the net has no parameter of rank {rank}"),
    };
    values.expect("a gradient for the parameter").unwrap()
}

fn has_gradient(grads: &GradientsParams, (id, rank): (ParamId, usize)) -> bool {
    match rank {
        1 => grads.get::<1>(id).is_some(),
        2 => grads.get::<2>(id).is_some(),
        4 => grads.get::<4>(id).is_some(),
        _ => panic!("the net has no parameter of rank {rank}"),
    }
}

/// Every value of `native` within `tolerance` of the largest of `burn`.
fn assert_close(what: &str, native: &[f32], burn: &[f32], tolerance: f32) {
    assert_eq!(native.len(), burn.len(), "{what}: lengths");
    let scale = burn.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-3);
    for (i, (a, b)) in native.iter().zip(burn).enumerate() {
        assert!(
            (a - b).abs() <= tolerance * scale,
            "{what}[{i}]: native {a} vs burn {b} (largest |burn| {scale})"
        );
    }
}

/// A gradient agrees: the difference's norm within 0.4% of `burn`'s, every value within 1% of
/// the largest.
///
/// Looser than the forward values' 2e-3 because the gradient is not continuous: a
/// pre-activation within rounding of 0 can fall on either side of its ReLU in the two engines,
/// and then part of a gradient moves by up to ~0.1-0.35% of its norm (~0.3-1.5% of its largest
/// value). Unseeded test nets had such a unit in about one run in ten (now seeded; the tests try
/// the draws of [`DRAWS`] in turn); the other runs agree to ~2e-6. The pooled policy features'
/// gradient scaled by 1/1.05 instead of 1 moves one parameter's gradient by 0.84% and fails.
fn assert_gradient_close(what: &str, native: &[f32], burn: &[f32]) {
    let norm =
        |v: &mut dyn Iterator<Item = f32>| v.map(|x| f64::from(x).powi(2)).sum::<f64>().sqrt();
    let diff = norm(&mut native.iter().zip(burn).map(|(a, b)| a - b));
    let size = norm(&mut burn.iter().copied()).max(1e-6);
    assert!(diff <= 4e-3 * size, "{what}: |native - burn| = {diff:e}, |burn| = {size:e}");
    assert_close(what, native, burn, 1e-2);
}

/// The seeds of the test networks ([`trained_checkpoint`]), tried in turn until one agrees.
///
/// A draw with a pre-activation within rounding of 0 has its ReLU on different sides in the two
/// engines (see [`assert_gradient_close`]), and which draw that is depends on the machine's
/// floating-point paths, burn's included: with the moves-left head, seed 17 agreed to ~1e-6 on
/// one machine and by 0.26-0.34% in norm (and 1.5% of the largest in one value) in every
/// parameter on another, where seeds 18 to 21 agreed to ~8e-7. About one draw in ten is such a
/// draw; a wrong gradient (the pooled features' scaled by 1/1.05, say) fails every draw.
const DRAWS: [u64; 3] = [17, 18, 19];

/// [`agreement`] on the first of [`DRAWS`] that agrees; panics with every draw's failure when
/// none does.
fn assert_agrees(config: NetConfig, name: &str, aux_targets: bool) {
    let mut failures = Vec::new();
    for seed in DRAWS {
        let check = || agreement(config.clone(), name, aux_targets, seed);
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)) {
            Ok(()) => return,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!("seed {seed}: {message}"));
            }
        }
    }
    panic!("{name}: no draw agrees:\n{}", failures.join("\n"));
}

/// Native against burn on the network of `seed`. `aux_targets`: whether the batch trains the
/// network's moves-left head (a network with it and a batch without: neither engine gives its
/// parameters a gradient).
fn agreement(config: NetConfig, name: &str, aux_targets: bool, seed: u64) {
    let f = Fixture::new(&config.shape, 6, config.moves_left_classes);
    let dir = trained_checkpoint(&config, &f, name, seed);
    let heads = if aux_targets { config.moves_left_classes } else { 0 };
    let f = Fixture::new(&config.shape, 6, heads);
    let value_weight = 0.7;

    let burn_net = load_for_training(&dir);
    let device = DeviceKind::Cpu.autodiff_device().unwrap();
    let l = loss_tensors(&burn_net, &f.batch(), value_weight, &device).unwrap();
    let total = l.total.clone();
    let burn_losses =
        [l.total, l.policy, l.value, l.moves_left].map(|t| to_vec(t.detach()).unwrap()[0]);
    assert_eq!(burn_losses[3] > 0.0, heads > 0, "moves-left loss: {burn_losses:?}");
    let burn_grads = GradientsParams::from_grads(total.backward(), &burn_net);

    let native_net = load_for_training(&dir);
    let inner = device.clone().without_autodiff();
    let mut engine = NativeGradients::new(&native_net);
    let (loss, grads) = engine.step(&native_net, &f.batch(), value_weight, &inner).unwrap();
    let native_losses = loss.parts();
    assert_close("losses", &native_losses, &burn_losses, 2e-3);
    // The same engine on other positions, then on the first batch again with a fresh copy of
    // the net: its buffers now come from the pool holding the other step's values (not left
    // cleared: most are handed out as they are, to be overwritten), and it must not see them.
    let other = Fixture {
        planes: pseudo_random(f.planes.len(), 12),
        ..Fixture::new(&config.shape, 6, heads)
    };
    engine.step(&load_for_training(&dir), &other.batch(), value_weight, &inner).unwrap();
    let again_net = load_for_training(&dir);
    let (again_loss, again) = engine.step(&again_net, &f.batch(), value_weight, &inner).unwrap();

    let ids = param_ids(&native_net);
    assert_eq!(ids, param_ids(&burn_net), "both nets were loaded from one checkpoint");
    // The moves-left head's weight and bias go without a gradient when nothing trains them.
    let has_head = config.moves_left_classes > 0;
    let untrained = if aux_targets || !has_head { 0 } else { 2 };
    assert_eq!(grads.len(), ids.len() - untrained, "a gradient for every trained parameter");
    assert_eq!(burn_grads.len(), ids.len() - untrained);
    let ids: Vec<_> = ids.into_iter().filter(|&id| has_gradient(&burn_grads, id)).collect();
    assert_eq!(ids.len(), grads.len());
    assert_eq!(again_loss, loss, "a later step with reused buffers");
    for (k, id) in ids.into_iter().enumerate() {
        let native = grad_values(&grads, id);
        assert_gradient_close(&format!("parameter {k}"), &native, &grad_values(&burn_grads, id));
        assert_eq!(grad_values(&again, id), native, "parameter {k}: a later step");
    }
    assert_close(
        "running statistics",
        &running_statistics(&native_net),
        &running_statistics(&burn_net),
        2e-3,
    );
    let fresh = load_for_training(&dir);
    let moved = running_statistics(&fresh)
        .iter()
        .zip(running_statistics(&native_net))
        .any(|(a, b)| (a - b).abs() > 1e-4);
    assert!(moved, "the step must move the running statistics, or the check above is vacuous");
}

#[test]
fn camelot_b4c32_gradients_match_burn() {
    let config = NetConfig::preset("b4c32", camelot_shape(13)).unwrap();
    assert_agrees(config, "native-grad-camelot", false);
}

#[test]
fn the_moves_left_head_gradients_match_burn() {
    let config = NetConfig {
        moves_left_classes: crate::MOVES_LEFT_CLASSES,
        ..NetConfig::preset("b4c32", camelot_shape(13)).unwrap()
    };
    assert_agrees(config.clone(), "native-grad-moves-left", true);
    assert_agrees(config, "native-grad-moves-left-untrained", false);
}

#[test]
fn tri_camelot_b6c64_gradients_match_burn() {
    // Cell order differs from grid order, so a wrong gather or scatter shows.
    let mut shape = tri_camelot_shape(13);
    shape.cells.reverse();
    assert_agrees(NetConfig::preset("b6c64", shape).unwrap(), "native-grad-tri", false);
}
