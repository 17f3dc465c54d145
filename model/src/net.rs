//! The network: input convolution, residual tower, policy and value heads.

use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::config::NetConfig;
use crate::error::{ModelError, Result};
use crate::heads::{ConvBn, PolicyHead, ValueHead, ValueOutputs};

/// Two 3×3 conv + batch-norm layers with an identity skip: `relu(x + bn(conv(relu(bn(conv(x))))))`.
#[derive(Module, Debug)]
pub struct ResidualBlock {
    pub(crate) first: ConvBn,
    pub(crate) second: ConvBn,
}

impl ResidualBlock {
    /// A block that keeps `channels` channels.
    pub fn new(channels: usize, device: &Device) -> Self {
        ResidualBlock {
            first: ConvBn::new(channels, channels, 3, device),
            second: ConvBn::new(channels, channels, 3, device),
        }
    }

    /// A block that passes its input through unchanged: the second batch norm's scale (and
    /// shift) are zero, so it adds nothing to the skip, and `relu(x) = x` for the tower's
    /// non-negative activations. Its convolutions are random, so training moves it off the
    /// identity (the scale's gradient is not zero; a zero convolution would stay dead).
    pub fn identity(channels: usize, device: &Device) -> Self {
        let mut block = Self::new(channels, device);
        let bn = &mut block.second.bn;
        bn.gamma = bn.gamma.clone().map(|g| g.zeros_like());
        bn.beta = bn.beta.clone().map(|b| b.zeros_like());
        block
    }

    /// x: [B, C, H, W] → [B, C, H, W]
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.first.forward(x.clone()));
        relu(self.second.forward(y) + x)
    }
}

/// The AlphaZero-style network.
///
/// Batch norm follows the device: on an autodiff device (training) it uses batch statistics and
/// updates its running averages; on a plain device (inference, see [`Module::valid`]) it uses the
/// running averages.
#[derive(Module, Debug)]
pub struct Net {
    pub(crate) input: ConvBn,
    pub(crate) tower: Vec<ResidualBlock>,
    pub(crate) policy: PolicyHead,
    pub(crate) value: ValueHead,
    /// The board cells' flat grid indices, [N]. A constant: moved with the net, never saved
    /// (it is rebuilt from the config).
    pub(crate) cells: Tensor<1, Int>,
    #[module(skip)]
    config: NetConfig,
}

impl Net {
    /// A freshly initialised network on `device` (use an autodiff device to train it).
    pub fn new(config: &NetConfig, device: &Device) -> Result<Self> {
        with_generator(device, None, || Net::build(config, device).map(materialized))
    }

    /// [`new`](Self::new)'s network, its weights drawn from burn's generator as it stands: the
    /// caller holds the generator ([`with_generator`]).
    fn build(config: &NetConfig, device: &Device) -> Result<Self> {
        config.validate()?;
        let shape = &config.shape;
        let c = config.channels;
        let cells: Vec<i64> = shape.cells.iter().map(|&i| i64::from(i)).collect();
        let n = cells.len();
        Ok(Net {
            input: ConvBn::new(shape.planes, c, 3, device),
            tower: (0..config.blocks).map(|_| ResidualBlock::new(c, device)).collect(),
            policy: PolicyHead::new(c, config.policy_head_channels, shape.policy_channels, device),
            value: ValueHead::new(
                c,
                config.value_head_channels,
                n,
                config.value_hidden,
                shape.value_classes,
                config.moves_left_classes,
                device,
            ),
            cells: Tensor::from_data(TensorData::new(cells, [n]), device),
            config: config.clone(),
        })
    }

    /// [`new`](Self::new) with the random weights drawn from `seed`: the same seed gives the
    /// same network.
    pub fn seeded(config: &NetConfig, device: &Device, seed: u64) -> Result<Self> {
        with_generator(device, Some(seed), || Net::build(config, device).map(materialized))
    }

    /// This network with [`ResidualBlock::identity`] blocks appended to the tower until it has
    /// `blocks`, their random convolutions drawn from `seed`: the deeper network computes
    /// exactly what this one does, and training then uses the new depth. Existing parameters
    /// keep their ids, so optimizer state saved for them still applies. A network already
    /// deeper than `blocks` is [`ModelError::InvalidArgument`] (it cannot shrink).
    pub fn deepen(mut self, blocks: usize, seed: u64) -> Result<Self> {
        let have = self.tower.len();
        if blocks < have {
            return Err(ModelError::InvalidArgument(format!(
                "the network has {have} residual blocks and cannot shrink to {blocks}"
            )));
        }
        let device = self.cells.device();
        let c = self.config.channels;
        self.tower = with_generator(&device, Some(seed), || {
            let mut tower = self.tower;
            tower.extend((have..blocks).map(|_| ResidualBlock::identity(c, &device)));
            materialized(tower)
        });
        self.config.blocks = blocks;
        Ok(self)
    }

    /// The config this network was built from.
    pub fn config(&self) -> &NetConfig {
        &self.config
    }

    /// x: [B, planes, H, W] → (policy logits [B, num_actions], value logits [B, value_classes])
    ///
    /// Neither output is softmaxed. The input's dimensions must match the config's shape
    /// (burn panics otherwise; [`Predictor`](crate::Predictor) checks before calling).
    pub fn forward(&self, x: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let x = self.trunk(x); // [B, C, H, W]
        let policy = self.policy.forward(x.clone(), self.cells.clone());
        let value = self.value.forward(x, self.cells.clone());
        (policy, value)
    }

    /// [`forward`](Self::forward)'s outputs and the moves-left head's logits when the network
    /// has it: what training reads.
    pub fn forward_train(&self, x: Tensor<4>) -> TrainOutputs {
        let x = self.trunk(x);
        let policy = self.policy.forward(x.clone(), self.cells.clone());
        let ValueOutputs { value, moves_left } = self.value.forward_aux(x, self.cells.clone());
        TrainOutputs { policy, value, moves_left }
    }

    /// [`forward`](Self::forward)'s outputs and the moves-left head's logits ([B, K], when
    /// the network has the head): what play reads.
    pub fn forward_play(&self, x: Tensor<4>) -> (Tensor<2>, Tensor<2>, Option<Tensor<2>>) {
        let x = self.trunk(x);
        let policy = self.policy.forward(x.clone(), self.cells.clone());
        let ValueOutputs { value, moves_left, .. } = self.value.forward_aux(x, self.cells.clone());
        (policy, value, moves_left)
    }

    /// x: [B, planes, H, W] → the tower's output [B, C, H, W]
    fn trunk(&self, x: Tensor<4>) -> Tensor<4> {
        let mut x = relu(self.input.forward(x));
        for block in &self.tower {
            x = block.forward(x);
        }
        x
    }

    /// This network with a moves-left head of `classes` logits on the value head's hidden
    /// layer, its weights drawn from `seed` (the rest unchanged, keeping its parameter ids): how
    /// a run that turns the moves-left target on gives an older network the head. A network
    /// that has one keeps it; one of another width is [`ModelError::InvalidArgument`].
    pub fn with_moves_left_head(mut self, classes: usize, seed: u64) -> Result<Self> {
        if !needs_head("moves-left", self.config.moves_left_classes, classes)? {
            return Ok(self);
        }
        let device = self.cells.device();
        let hidden = self.config.value_hidden;
        self.value.moves_left = Some(with_generator(&device, Some(seed), || {
            materialized(ValueHead::aux_layer(hidden, classes, &device))
        }));
        self.config.moves_left_classes = classes;
        Ok(self)
    }
}

/// What [`Net::forward_train`] computes: none of it softmaxed.
#[derive(Debug)]
pub struct TrainOutputs {
    /// [B, num_actions]
    pub policy: Tensor<2>,
    /// [B, value_classes]
    pub value: Tensor<2>,
    /// [B, moves_left_classes], when the network has the moves-left head.
    pub moves_left: Option<Tensor<2>>,
}

/// Whether a network whose `what` head has `have` classes (0: none) needs a new one of
/// `classes`: not when it has one of that width or none is asked for; one of another width
/// cannot change ([`ModelError::InvalidArgument`]).
fn needs_head(what: &str, have: usize, classes: usize) -> Result<bool> {
    match have {
        0 => Ok(classes > 0),
        have if have == classes => Ok(false),
        have => Err(ModelError::InvalidArgument(format!(
            "the network's {what} head has {have} classes, not {classes}"
        ))),
    }
}

/// `module` with every parameter's random values drawn now: burn initialises a parameter
/// lazily, at its first use, and the draws must happen while the generator is held
/// ([`with_generator`]), in the modules' order (the order a checkpoint is saved in).
fn materialized<M: Module>(module: M) -> M {
    module.visit(&mut Materialize);
    module
}

/// Draws the value of every lazily initialised parameter it visits.
struct Materialize;

impl ModuleVisitor for Materialize {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        param.val();
    }
}

/// Runs `init` holding burn's generator on `device`, first seeded by `seed` if given. burn's
/// generator is backend-wide and initialisation draws from it in a fixed order, so no two
/// initialisations may interleave, seeded or not: every network is built through here, one
/// at a time, its parameters materialised before the generator is let go, and the same seed
/// gives the same weights whatever other threads initialise.
fn with_generator<T>(device: &Device, seed: Option<u64>, init: impl FnOnce() -> T) -> T {
    static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = INIT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(seed) = seed {
        device.seed(seed);
    }
    init()
}

#[cfg(test)]
mod tests {
    use crate::testing::{camelot_shape, pseudo_random, tri_camelot_shape};
    use crate::{DeviceKind, ModelError, NetConfig, Predictor};
    use games::Layout;

    use super::*;

    fn predict_batch_of_two(shape: Layout) -> crate::Prediction {
        let config = NetConfig::preset("b4c32", shape).unwrap();
        let net = Net::new(&config, &Device::flex()).unwrap();
        let predictor = Predictor::new(&net, DeviceKind::Cpu).unwrap();
        let planes = pseudo_random(2 * config.shape.input_len(), 1);
        predictor.predict(&planes, 2).unwrap()
    }

    fn assert_rows_are_distributions(values: &[f32], classes: usize) {
        for row in values.chunks(classes) {
            let sum: f32 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-5, "row {row:?} sums to {sum}");
            assert!(row.iter().all(|p| (0.0..=1.0).contains(p)));
        }
    }

    #[test]
    fn camelot_output_shapes() {
        let p = predict_batch_of_two(camelot_shape(18));
        assert_eq!(p.policy_logits.len(), 2 * 2561);
        assert_eq!(p.values.len(), 2 * 3);
        assert!(p.policy_logits.iter().all(|x| x.is_finite()));
        assert_rows_are_distributions(&p.values, 3);
    }

    #[test]
    fn tri_camelot_output_shapes() {
        let p = predict_batch_of_two(tri_camelot_shape(18));
        assert_eq!(p.policy_logits.len(), 2 * 877);
        assert_eq!(p.values.len(), 2 * 4);
        assert_rows_are_distributions(&p.values, 4);
        assert_eq!(p.policy_row(1).unwrap().len(), 877);
        assert!(p.policy_row(2).is_none());
    }

    #[test]
    fn policy_layout_is_cell_major_and_follows_the_cell_map() {
        // With no tower blocks, a cell's move logits see only the 3×3 input neighbourhood of its
        // grid position (the head is 1×1). Bumping the input at cell 0's position must change
        // cell 0's logits and leave a far-away cell's logits bit-identical; with a wrong layout
        // or cell map the changed values would land elsewhere.
        let mut shape = tri_camelot_shape(4);
        shape.cells.reverse(); // a non-trivial cell map: cell 0 is the last grid position used
        let mut config = NetConfig::preset("b4c32", shape).unwrap();
        config.blocks = 0;
        let net = Net::new(&config, &Device::flex()).unwrap();
        let predictor = Predictor::new(&net, DeviceKind::Cpu).unwrap();
        let s = &config.shape;
        let base = pseudo_random(s.input_len(), 3);
        let mut bumped = base.clone();
        let pos = usize::from(s.cells[0]); // grid position of cell 0
        bumped[pos] += 5.0; // plane 0 at that position
        let a = predictor.predict(&base, 1).unwrap().policy_logits;
        let b = predictor.predict(&bumped, 1).unwrap().policy_logits;
        let pc = s.policy_channels;
        let changed = |cell: usize| (0..pc).any(|c| a[cell * pc + c] != b[cell * pc + c]);
        assert!(changed(0), "cell 0's logits must see its own position");
        let far = s.cells.iter().position(|&g| usize::from(g) == 0).unwrap(); // grid (0, 0)
        assert!(!changed(far), "cell {far} at grid 0 is far from grid {pos}");
    }

    #[test]
    fn a_deepened_network_computes_what_it_did_and_cannot_shrink() {
        let mut config = NetConfig::preset("b4c32", camelot_shape(18)).unwrap();
        config.blocks = 1;
        let device = Device::flex();
        let net = Net::seeded(&config, &device, 7).unwrap();
        let planes = pseudo_random(3 * config.shape.input_len(), 2);
        let predict = |net: &Net| Predictor::new(net, DeviceKind::Cpu).unwrap().predict(&planes, 3);
        let before = predict(&net).unwrap();
        let deeper = net.clone().deepen(3, 11).unwrap();
        assert_eq!((deeper.tower.len(), deeper.config().blocks), (3, 3));
        let after = predict(&deeper).unwrap();
        let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
        assert!(close(&before.policy_logits, &after.policy_logits));
        assert!(close(&before.values, &after.values));
        // The new blocks are not the identity by construction of their convolutions: with the
        // second scale restored they change the output.
        let mut opened = deeper.clone();
        let bn = &mut opened.tower[2].second.bn;
        bn.gamma = bn.gamma.clone().map(|g| g.ones_like());
        assert!(!close(&after.policy_logits, &predict(&opened).unwrap().policy_logits));
        // The old parameters are untouched.
        let hash = crate::checkpoint::tensors_hash;
        assert_eq!(deeper.tower[0].first.conv.weight.id, net.tower[0].first.conv.weight.id);
        assert_eq!(hash(&net.clone().deepen(1, 3).unwrap()).unwrap(), hash(&net).unwrap());
        // The same seed gives the same new blocks, another seed others (the other tests of
        // this crate build networks meanwhile, unseeded: they wait for the generator).
        let same = net.clone().deepen(3, 11).unwrap();
        assert_eq!(hash(&same).unwrap(), hash(&deeper).unwrap());
        assert_ne!(hash(&net.clone().deepen(3, 12).unwrap()).unwrap(), hash(&deeper).unwrap());
        assert_eq!(hash(&Net::seeded(&config, &device, 7).unwrap()).unwrap(), hash(&net).unwrap());
        let err = deeper.deepen(2, 0).unwrap_err();
        assert!(matches!(err, ModelError::InvalidArgument(_)));
        assert!(err.to_string().contains("3 residual blocks"), "{err}");
    }

    #[test]
    fn a_moves_left_head_changes_no_policy_or_value_and_survives_a_checkpoint() {
        let config = NetConfig::preset("b4c32", camelot_shape(18)).unwrap();
        let device = Device::flex();
        let net = Net::seeded(&config, &device, 5).unwrap();
        let planes = pseudo_random(2 * config.shape.input_len(), 4);
        let predict = |net: &Net| Predictor::new(net, DeviceKind::Cpu).unwrap().predict(&planes, 2);
        let before = predict(&net).unwrap();
        assert!(before.moves_left.is_none());
        let k = crate::MOVES_LEFT_CLASSES;
        let with = net.clone().with_moves_left_head(k, 9).unwrap();
        assert_eq!(with.config().moves_left_classes, k);
        let after = predict(&with).unwrap();
        assert_eq!((&before.policy_logits, &before.values), (&after.policy_logits, &after.values));
        assert_eq!(after.moves_left.as_ref().map(Vec::len), Some(2));
        let hash = crate::checkpoint::tensors_hash;
        let err = with.clone().with_moves_left_head(3, 1).unwrap_err();
        assert!(err.to_string().contains("moves-left head has 24 classes, not 3"), "{err}");
        let dir = crate::testing::scratch_dir("moves-left-head-checkpoint");
        crate::checkpoint::save(&dir, &with, "test").unwrap();
        let loaded = crate::checkpoint::load_on(&dir, "test", &device).unwrap().net;
        assert_eq!(loaded.config().moves_left_classes, k);
        assert_eq!(hash(&loaded).unwrap(), hash(&with).unwrap());
        assert_eq!(predict(&loaded).unwrap(), after);
        let names = crate::named_weights::named_tensors(&with).unwrap();
        let head = names.iter().find(|t| t.name == "value.moves_left.weight").expect("exported");
        assert_eq!(head.shape, [k, config.value_hidden]);
        let plain = crate::named_weights::named_tensors(&net).unwrap();
        assert_eq!(names.len(), plain.len() + 2);
        let json = serde_json::to_string(net.config()).unwrap();
        assert!(!json.contains("moves_left"), "no head, no key: {json}");
    }

    #[test]
    fn predict_rejects_bad_input_lengths() {
        let config = NetConfig::preset("b4c32", tri_camelot_shape(18)).unwrap();
        let predictor =
            Predictor::new(&Net::new(&config, &Device::flex()).unwrap(), DeviceKind::Cpu).unwrap();
        let err = predictor.predict(&[0.0; 10], 1).unwrap_err();
        assert!(
            matches!(err, ModelError::InputSize { expected, got: 10, .. } if expected == 18 * 121)
        );
        assert!(matches!(predictor.predict(&[], 0), Err(ModelError::InvalidArgument(_))));
    }
}
