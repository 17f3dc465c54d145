//! The native engine against burn's `Net::forward`: every preset, both game shapes, random and
//! trained (non-trivial batch-norm statistics) weights, and a saved-then-loaded checkpoint.

use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};

use crate::checkpoint;
use crate::config::{NetConfig, Preset};
use crate::net::Net;
use crate::optimizer::OptimizerConfig;
use crate::readback::to_vec;
use crate::testing::{
    SyntheticBatch, camelot_shape, pseudo_random, scratch_dir, tri_camelot_shape,
};
use crate::train_step::Trainer;
use crate::{DeviceKind, ModelError, NativeNet, NetEngine, Predictor};
use games::Layout;

const TOLERANCE: f32 = 1e-4;

/// Both game shapes with the real plane count; Tri-Camelot's cell map reversed so that cell
/// order and grid order differ.
fn shapes() -> [Layout; 2] {
    let mut tri = tri_camelot_shape(13);
    tri.cells.reverse();
    [camelot_shape(13), tri]
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// Checks native against burn on `batch` pseudo-random positions.
fn assert_agrees(net: &Net, batch: usize, seed: u64) {
    let shape = net.config().shape.clone();
    let planes = pseudo_random(batch * shape.input_len(), seed);
    let device = Device::flex();
    let burn_net = net.valid();
    let dims = [batch, shape.planes, shape.height, shape.width];
    let x = Tensor::<4>::from_data(TensorData::new(planes.clone(), dims), &device);
    let (policy, value, moves_left) = burn_net.forward_play(x);
    let (policy, value) = (to_vec(policy).unwrap(), to_vec(value).unwrap());
    let (native_policy, native_value, native_moves_left) =
        NativeNet::from_net(net).unwrap().forward(&planes, batch).unwrap();
    let classes = net.config().moves_left_classes;
    let moves_left = moves_left.map(|logits| {
        let probs = to_vec(burn::tensor::activation::softmax(logits, 1)).unwrap();
        probs.chunks_exact(classes).map(crate::expected_moves_left).collect::<Vec<_>>()
    });
    assert_eq!(moves_left.is_some(), native_moves_left.is_some(), "both read the head or neither");
    if let (Some(a), Some(b)) = (&moves_left, &native_moves_left) {
        let dm = max_abs_diff(a, b);
        assert!(dm <= 1e-3, "expected moves left differ by {dm}");
    }
    let (dp, dv) = (max_abs_diff(&policy, &native_policy), max_abs_diff(&value, &native_value));
    let what = format!(
        "{} blocks × {} channels, batch {batch}",
        net.config().blocks,
        net.config().channels
    );
    assert!(dp <= TOLERANCE, "{what}: policy logits differ by {dp}");
    assert!(dv <= TOLERANCE, "{what}: value logits differ by {dv}");
}

/// A few optimizer steps so batch-norm statistics, scales and shifts are not the identity.
fn trained(config: &NetConfig) -> Net {
    let mut trainer = Trainer::new(
        Net::new(config, &DeviceKind::Cpu.autodiff_device().unwrap()).unwrap(),
        DeviceKind::Cpu,
        &OptimizerConfig::default(),
    )
    .unwrap();
    let mut data = SyntheticBatch::new(&config.shape, 4, 5, 1);
    data.planes.iter_mut().for_each(|x| *x = *x * 3.0 + 0.5);
    for _ in 0..3 {
        trainer.step(&data.as_batch(), 1e-2).unwrap();
    }
    trainer.into_net()
}

#[test]
fn native_matches_burn_for_every_preset_and_shape() {
    for shape in shapes() {
        for preset in Preset::ALL {
            let config = preset.config(shape.clone());
            let net = Net::new(&config, &Device::flex()).unwrap();
            assert_agrees(&net, if preset == Preset::B20C256 { 1 } else { 3 }, 7);
        }
    }
}

#[test]
fn native_matches_burn_on_trained_weights_and_odd_batches() {
    for shape in shapes() {
        let mut config = NetConfig::preset("b4c32", shape).unwrap();
        config.blocks = 2;
        config.value_head_channels = 3;
        let net = trained(&config);
        for batch in [1, 5, 37] {
            assert_agrees(&net, batch, batch as u64);
        }
    }
}

#[test]
fn native_matches_burn_after_a_checkpoint_round_trip() {
    let [camelot, _] = shapes();
    let config = NetConfig::preset("b4c32", camelot).unwrap();
    let net = trained(&config);
    let scratch = scratch_dir("native-checkpoint");
    let dir = scratch.join("ckpt");
    checkpoint::save(&dir, &net, "camelot").unwrap();
    let loaded = checkpoint::load(&dir, "camelot").unwrap().net;
    assert_agrees(&loaded, 9, 3);
    // And through the Predictor: both engines, same answers.
    let planes = pseudo_random(9 * config.shape.input_len(), 3);
    let native = Predictor::new(&loaded, DeviceKind::Cpu).unwrap();
    assert_eq!(native.engine(), NetEngine::Native);
    let burn = Predictor::with_engine(&loaded, DeviceKind::Cpu, NetEngine::Burn).unwrap();
    let (a, b) = (native.predict(&planes, 9).unwrap(), burn.predict(&planes, 9).unwrap());
    assert!(max_abs_diff(&a.policy_logits, &b.policy_logits) <= TOLERANCE);
    assert!(max_abs_diff(&a.values, &b.values) <= 1e-5);
}

#[test]
fn native_matches_burn_with_a_moves_left_head() {
    for shape in shapes() {
        let mut config = NetConfig::preset("b4c32", shape).unwrap();
        config.blocks = 1;
        let net = trained(&config).with_moves_left_head(crate::MOVES_LEFT_CLASSES, 4).unwrap();
        assert_agrees(&net, 5, 2);
        let planes = pseudo_random(5 * config.shape.input_len(), 2);
        let native = Predictor::new(&net, DeviceKind::Cpu).unwrap().predict(&planes, 5).unwrap();
        let burn = Predictor::with_engine(&net, DeviceKind::Cpu, NetEngine::Burn).unwrap();
        let burn = burn.predict(&planes, 5).unwrap();
        let (a, b) = (native.moves_left.unwrap(), burn.moves_left.unwrap());
        assert_eq!(a.len(), 5);
        assert!(max_abs_diff(&a, &b) <= 1e-3, "{a:?} against {b:?}");
        // Expectations over classes 3, 8, ..., 118 moves.
        assert!(a.iter().all(|&m| (3.0..=118.0).contains(&m)), "{a:?}");
        assert!(
            Predictor::new(&trained(&config), DeviceKind::Cpu)
                .unwrap()
                .predict(&planes, 5)
                .unwrap()
                .moves_left
                .is_none()
        );
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let config = NetConfig::preset("b4c32", tri_camelot_shape(13)).unwrap();
    let native = NativeNet::from_net(&Net::new(&config, &Device::flex()).unwrap()).unwrap();
    assert!(matches!(native.forward(&[], 0), Err(ModelError::InvalidArgument(_))));
    assert!(matches!(
        native.forward(&[0.0; 5], 1),
        Err(ModelError::InputSize { what: "planes", got: 5, .. })
    ));
    let planes = vec![0.0; config.shape.input_len()];
    let mut value = vec![0.0; 4];
    let err = native.forward_into(&planes, 1, &mut [0.0; 3], &mut value, &mut [0.0]).unwrap_err();
    assert!(matches!(err, ModelError::InputSize { what: "policy output", .. }));
    let mut policy = vec![0.0; config.shape.num_actions()];
    let mut value = vec![0.0; config.shape.value_classes];
    let err = native.forward_into(&planes, 1, &mut policy, &mut value, &mut []).unwrap_err();
    assert!(matches!(err, ModelError::InputSize { what: "moves-left output", .. }));
    let err = Predictor::with_engine(
        &Net::new(&config, &Device::flex()).unwrap(),
        DeviceKind::Gpu,
        NetEngine::Native,
    )
    .unwrap_err();
    assert!(matches!(err, ModelError::InvalidArgument(_)));
}

#[test]
fn clones_predict_from_many_threads_at_once() {
    let config = NetConfig::preset("b4c32", camelot_shape(13)).unwrap();
    let native = NativeNet::from_net(&Net::new(&config, &Device::flex()).unwrap()).unwrap();
    let planes = pseudo_random(6 * config.shape.input_len(), 1);
    let want = native.forward(&planes, 6).unwrap();
    std::thread::scope(|s| {
        for _ in 0..3 {
            let native = native.clone();
            let (planes, want) = (&planes, &want);
            s.spawn(move || assert_eq!(&native.forward(planes, 6).unwrap(), want));
        }
    });
}
