//! Tests of `train_step`.

use super::*;
use crate::checkpoint;
use crate::config::NetConfig;
use crate::testing::{pseudo_random, scratch_dir, tri_camelot_shape};
use crate::train_batch::AuxTerm;

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
            moves_left: None,
        }
    }
}

/// SGD with the default weight decay and momentum 0.9.
const SGD: OptimizerConfig = OptimizerConfig::Sgd { weight_decay: 1e-4, momentum: 0.9 };

fn trainer(f: &Fixture, optim: OptimizerConfig) -> Trainer {
    let net = Net::new(&f.config, &Device::flex()).unwrap();
    Trainer::new(net, DeviceKind::Cpu, &optim).unwrap()
}

#[test]
fn overfitting_one_batch_lowers_the_loss() {
    let f = fixture();
    let mut t = trainer(&f, OptimizerConfig::default());
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
    // Its own seed: weights from burn's process-wide generator would depend on the tests that
    // drew from it before, and some starting networks part the engines by more than the limit.
    let net = Net::seeded(&f.config, &Device::flex(), 11).unwrap();
    let mut t = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
    t.step(&f.batch(), 1e-3).unwrap();
    checkpoint::save(&dir, t.net(), "tri-camelot").unwrap();
    let device = DeviceKind::Cpu.device().unwrap();
    let optim = SGD;
    let mut trainers = [NetEngine::Native, NetEngine::Burn].map(|engine| {
        let net = checkpoint::load_on(&dir, "tri-camelot", &device).unwrap().net;
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
    let mut t = trainer(&f, SGD);
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
    let t = trainer(&f, OptimizerConfig::default());
    let s = &f.config.shape;
    let (a, n, v) = (s.num_actions(), s.input_len(), s.value_classes);
    let single = TrainBatch {
        batch: 1,
        planes: &f.planes[..n],
        policy_target: &f.policy_target[..a],
        legal: &f.legal[..a],
        value_target: &f.value_target[..v],
        moves_left: None,
    };
    assert!(t.evaluate(&single).unwrap().policy.abs() < 1e-6);
}

#[test]
fn bad_batches_are_errors_not_panics() {
    let f = fixture();
    let mut t = trainer(&f, OptimizerConfig::default());
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
    // A moves-left target for a network without the head, of the wrong length, or with a
    // weight that is not a finite number of at least 0.
    let k = crate::MOVES_LEFT_CLASSES;
    let moves_left = vec![1.0 / k as f32; B * k];
    let term =
        |target, weight| TrainBatch { moves_left: Some(AuxTerm { target, weight }), ..f.batch() };
    let err = t.step(&term(&moves_left, 1.0), 1e-3).unwrap_err();
    assert!(err.to_string().contains("no moves-left head"), "{err}");
    let net = t.into_net().with_moves_left_head(k, 1).unwrap();
    let mut t = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
    assert!(matches!(
        t.step(&term(&moves_left[1..], 1.0), 1e-3),
        Err(ModelError::InputSize { what: "moves-left target", .. })
    ));
    for weight in [-1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(
            t.step(&term(&moves_left, weight), 1e-3),
            Err(ModelError::InvalidArgument(_))
        ));
    }
    t.step(&term(&moves_left, 1.0), 1e-3).unwrap();
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
        let mut t =
            Trainer::with_engine(net.clone(), DeviceKind::Cpu, &OptimizerConfig::default(), engine)
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

/// A trainer with the default optimizer after 3 steps on `f`'s batch, its network saved as a
/// tri-camelot checkpoint (encoding 1) in `dir`.
fn trained_and_saved(f: &Fixture, dir: &Path) -> Trainer {
    let mut t = trainer(f, OptimizerConfig::default());
    for _ in 0..3 {
        t.step(&f.batch(), 1e-3).unwrap();
    }
    checkpoint::save(dir, t.net(), "tri-camelot").unwrap();
    t
}

#[test]
fn checkpoint_keeps_trained_batch_norm_statistics() {
    // Training moves the running statistics away from their initial 0/1, and burn keeps
    // the latest update on the side: a checkpoint must still capture it.
    let f = fixture();
    let dir = scratch_dir("trained-roundtrip");
    let t = trained_and_saved(&f, &dir);
    let loaded = checkpoint::load(&dir, "tri-camelot").unwrap().net;
    let predict = |net: &Net| {
        let p = Predictor::new(net, DeviceKind::Cpu).unwrap();
        p.predict(&f.planes, B).unwrap()
    };
    let before = predict(t.net());
    assert_eq!(predict(&loaded), before);
    let fresh = Net::new(&f.config, &Device::flex()).unwrap();
    assert_ne!(predict(&fresh), before, "a fresh net must not match: the test would be vacuous");
}

#[test]
fn optimizer_state_survives_a_checkpoint() {
    let f = fixture();
    let dir = scratch_dir("optimizer");
    let mut t = trained_and_saved(&f, &dir);
    t.save_optimizer(&dir).unwrap();

    // Resume: same weights, same optimizer moments → the same next step.
    let device = DeviceKind::Cpu.device().unwrap();
    let net = checkpoint::load_on(&dir, "tri-camelot", &device).unwrap().net;
    let mut resumed = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
    resumed.load_optimizer(&dir).unwrap();
    let expected = t.step(&f.batch(), 1e-3).unwrap();
    let got = resumed.step(&f.batch(), 1e-3).unwrap();
    assert!((expected.total - got.total).abs() < 1e-4, "{expected:?} vs {got:?}");
    let after_a = t.evaluate(&f.batch()).unwrap();
    let after_b = resumed.evaluate(&f.batch()).unwrap();
    assert!((after_a.total - after_b.total).abs() < 1e-3, "{after_a:?} vs {after_b:?}");

    // A fresh optimizer (no moments) takes a different step.
    let net = checkpoint::load_on(&dir, "tri-camelot", &device).unwrap().net;
    let mut fresh = Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap();
    fresh.step(&f.batch(), 1e-3).unwrap();
    let after_c = fresh.evaluate(&f.batch()).unwrap();
    assert!((after_a.total - after_c.total).abs() > 1e-6, "moments made no difference");

    std::fs::write(dir.join(crate::optimizer::OPTIMIZER_FILE), b"garbage").unwrap();
    assert!(matches!(resumed.load_optimizer(&dir), Err(ModelError::CorruptWeights { .. })));
}
