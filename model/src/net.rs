//! The network: input convolution, residual tower, policy and value heads.

use burn::module::Module;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::config::NetConfig;
use crate::error::Result;
use crate::heads::{ConvBn, PolicyHead, ValueHead};

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
                device,
            ),
            cells: Tensor::from_data(TensorData::new(cells, [n]), device),
            config: config.clone(),
        })
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
        let mut x = relu(self.input.forward(x)); // [B, C, H, W]
        for block in &self.tower {
            x = block.forward(x);
        }
        let policy = self.policy.forward(x.clone(), self.cells.clone());
        let value = self.value.forward(x, self.cells.clone());
        (policy, value)
    }
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
