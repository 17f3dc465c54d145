//! The policy and value heads (with the value's auxiliary material and moves-left heads), the
//! auxiliary ownership head, and the conv + batch-norm unit everything is built from.
//!
//! Both heads read only the board's cells: the grid is a rectangle padded around a board that
//! is not (Camelot's short end ranks, Tri-Camelot's hexagon), so off-board positions are
//! gathered away with the `cells` index tensor before anything is pooled, flattened or emitted.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor};

/// A square convolution followed by batch norm, no activation.
///
/// The convolution has no bias: the batch norm's shift does that job.
#[derive(Module, Debug)]
pub struct ConvBn {
    pub(crate) conv: Conv2d,
    pub(crate) bn: BatchNorm,
}

impl ConvBn {
    /// `kernel` is 1 or 3; padding keeps the grid size either way.
    pub fn new(channels_in: usize, channels_out: usize, kernel: usize, device: &Device) -> Self {
        let conv = Conv2dConfig::new([channels_in, channels_out], [kernel, kernel])
            .with_padding(PaddingConfig2d::Same)
            .with_bias(false)
            .init(device);
        let bn = BatchNormConfig::new(channels_out).init(device);
        ConvBn { conv, bn }
    }

    /// x: [B, C_in, H, W] → [B, C_out, H, W]
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.bn.forward(self.conv.forward(x))
    }
}

/// Gathers the board cells out of a grid-shaped tensor.
///
/// x: [B, C, H, W], cells: [N] flat grid indices → [B, C, N]
pub(crate) fn gather_cells(x: Tensor<4>, cells: Tensor<1, Int>) -> Tensor<3> {
    let [b, c, h, w] = x.dims();
    x.reshape([b, c, h * w]).select(2, cells)
}

/// The convolutional policy head: one logit per (cell, channel), plus an end-move logit.
#[derive(Module, Debug)]
pub struct PolicyHead {
    pub(crate) hidden: ConvBn,
    pub(crate) out: Conv2d,
    pub(crate) end_move: Linear,
}

impl PolicyHead {
    /// `hidden` channels of 1×1 features, then `policy_channels` logits per grid position.
    pub fn new(trunk: usize, hidden: usize, policy_channels: usize, device: &Device) -> Self {
        PolicyHead {
            hidden: ConvBn::new(trunk, hidden, 1, device),
            out: Conv2dConfig::new([hidden, policy_channels], [1, 1]).init(device),
            end_move: LinearConfig::new(hidden, 1).init(device),
        }
    }

    /// trunk: [B, C, H, W], cells: [N] → logits [B, N * P + 1]
    ///
    /// Index `cell * P + channel` is that cell's channel (P = policy channels); the last index
    /// is end-move, scored from the hidden features averaged over the board's cells.
    pub fn forward(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> Tensor<2> {
        let x = relu(self.hidden.forward(trunk)); // [B, Ph, H, W]
        let [b, ph, _, _] = x.dims();

        let pooled = gather_cells(x.clone(), cells.clone()).mean_dim(2).reshape([b, ph]);
        let end_move = self.end_move.forward(pooled); // [B, 1]

        let per_cell = gather_cells(self.out.forward(x), cells); // [B, P, N]
        let [_, p, n] = per_cell.dims();
        // Cell-major layout: [B, N, P] flattened, so action = cell * P + channel.
        let moves = per_cell.swap_dims(1, 2).reshape([b, n * p]); // [B, N * P]
        Tensor::cat(vec![moves, end_move], 1)
    }
}

/// The auxiliary ownership head: per board cell, logits from the tower's features at that cell
/// for what stands there some moves later (see
/// [`NetConfig::ownership_classes`](crate::NetConfig::ownership_classes)). A training target
/// only: play, export and the native inference engine do not read it.
#[derive(Module, Debug)]
pub struct OwnershipHead {
    /// `[C] → [classes]`, the same at every cell (a 1×1 convolution).
    pub(crate) out: Linear,
}

impl OwnershipHead {
    pub fn new(trunk: usize, classes: usize, device: &Device) -> Self {
        OwnershipHead { out: LinearConfig::new(trunk, classes).init(device) }
    }

    /// trunk: [B, C, H, W], cells: [N] → logits [B, N, K] (cells in cell order)
    pub fn forward(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> Tensor<3> {
        self.out.forward(gather_cells(trunk, cells).swap_dims(1, 2))
    }
}

/// The classes of the auxiliary heads on the value head's hidden layer (0: no head).
#[derive(Clone, Copy, Debug, Default)]
pub struct AuxClasses {
    pub material: usize,
    pub moves_left: usize,
}

/// What [`ValueHead::forward_aux`] computes, none of it softmaxed.
#[derive(Debug)]
pub struct ValueOutputs {
    /// [B, value_classes]
    pub value: Tensor<2>,
    /// [B, material classes], with the head.
    pub material: Option<Tensor<2>>,
    /// [B, moves-left classes], with the head.
    pub moves_left: Option<Tensor<2>>,
}

/// The value head: outcome-class logits from the board's cells, and optionally the auxiliary
/// material head's and the moves-left head's logits from the same hidden layer.
#[derive(Module, Debug)]
pub struct ValueHead {
    pub(crate) reduce: ConvBn,
    pub(crate) hidden: Linear,
    pub(crate) out: Linear,
    /// `[hidden] → [material classes]`: a training target only (see
    /// [`NetConfig::material_classes`](crate::NetConfig::material_classes)); play, export and
    /// the native inference engine read the value alone.
    pub(crate) material: Option<Linear>,
    /// `[hidden] → [moves-left classes]` (see
    /// [`NetConfig::moves_left_classes`](crate::NetConfig::moves_left_classes)): read by the
    /// native engine and the [`Predictor`](crate::Predictor) for the search; not exported.
    pub(crate) moves_left: Option<Linear>,
}

impl ValueHead {
    /// `reduce` 1×1 channels flattened over `cells` positions, a `hidden`-wide ReLU layer, then
    /// `classes` logits (and `aux.material` and `aux.moves_left` logits when not 0).
    pub fn new(
        trunk: usize,
        reduce: usize,
        cells: usize,
        hidden: usize,
        classes: usize,
        aux: AuxClasses,
        device: &Device,
    ) -> Self {
        let layer = |k: usize| (k > 0).then(|| Self::aux_layer(hidden, k, device));
        ValueHead {
            reduce: ConvBn::new(trunk, reduce, 1, device),
            hidden: LinearConfig::new(reduce * cells, hidden).init(device),
            out: LinearConfig::new(hidden, classes).init(device),
            material: layer(aux.material),
            moves_left: layer(aux.moves_left),
        }
    }

    /// An auxiliary head's layer on the hidden features (material, moves left),
    /// `hidden → classes`.
    pub(crate) fn aux_layer(hidden: usize, classes: usize, device: &Device) -> Linear {
        LinearConfig::new(hidden, classes).init(device)
    }

    /// trunk: [B, C, H, W], cells: [N] → logits [B, V] (not softmaxed)
    pub fn forward(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> Tensor<2> {
        self.out.forward(self.hidden_features(trunk, cells))
    }

    /// [`forward`](Self::forward)'s logits and the auxiliary heads' (each [B, K], when there
    /// is one), from one pass through the shared layers.
    pub fn forward_aux(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> ValueOutputs {
        let x = self.hidden_features(trunk, cells);
        let material = self.material.as_ref().map(|m| m.forward(x.clone()));
        let moves_left = self.moves_left.as_ref().map(|m| m.forward(x.clone()));
        ValueOutputs { value: self.out.forward(x), material, moves_left }
    }

    /// trunk: [B, C, H, W] → the hidden layer's activations [B, hidden]
    fn hidden_features(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> Tensor<2> {
        let x = relu(self.reduce.forward(trunk)); // [B, Vc, H, W]
        let x = gather_cells(x, cells); // [B, Vc, N]
        let [b, vc, n] = x.dims();
        relu(self.hidden.forward(x.reshape([b, vc * n]))) // [B, hidden]
    }
}
