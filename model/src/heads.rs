//! The policy and value heads (with the value's auxiliary moves-left head) and the conv +
//! batch-norm unit everything is built from.
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

/// What [`ValueHead::forward_aux`] computes, none of it softmaxed.
#[derive(Debug)]
pub struct ValueOutputs {
    /// [B, value_classes]
    pub value: Tensor<2>,
    /// [B, moves-left classes], with the head.
    pub moves_left: Option<Tensor<2>>,
}

/// The value head: outcome-class logits from the board's cells, and optionally the moves-left
/// head's logits from the same hidden layer.
#[derive(Module, Debug)]
pub struct ValueHead {
    pub(crate) reduce: ConvBn,
    pub(crate) hidden: Linear,
    pub(crate) out: Linear,
    /// `[hidden] → [moves-left classes]` (see
    /// [`NetConfig::moves_left_classes`](crate::NetConfig::moves_left_classes)): read by the
    /// native engine and the [`Predictor`](crate::Predictor) for the search; not exported.
    pub(crate) moves_left: Option<Linear>,
}

impl ValueHead {
    /// `reduce` 1×1 channels flattened over `cells` positions, a `hidden`-wide ReLU layer, then
    /// `classes` logits (and `moves_left_classes` moves-left logits when not 0).
    pub fn new(
        trunk: usize,
        reduce: usize,
        cells: usize,
        hidden: usize,
        classes: usize,
        moves_left_classes: usize,
        device: &Device,
    ) -> Self {
        ValueHead {
            reduce: ConvBn::new(trunk, reduce, 1, device),
            hidden: LinearConfig::new(reduce * cells, hidden).init(device),
            out: LinearConfig::new(hidden, classes).init(device),
            moves_left: (moves_left_classes > 0)
                .then(|| Self::aux_layer(hidden, moves_left_classes, device)),
        }
    }

    /// The moves-left head's layer on the hidden features, `hidden → classes`.
    pub(crate) fn aux_layer(hidden: usize, classes: usize, device: &Device) -> Linear {
        LinearConfig::new(hidden, classes).init(device)
    }

    /// trunk: [B, C, H, W], cells: [N] → logits [B, V] (not softmaxed)
    pub fn forward(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> Tensor<2> {
        self.out.forward(self.hidden_features(trunk, cells))
    }

    /// [`forward`](Self::forward)'s logits and the moves-left head's ([B, K], when there is
    /// one), from one pass through the shared layers.
    pub fn forward_aux(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> ValueOutputs {
        let x = self.hidden_features(trunk, cells);
        let moves_left = self.moves_left.as_ref().map(|m| m.forward(x.clone()));
        ValueOutputs { value: self.out.forward(x), moves_left }
    }

    /// trunk: [B, C, H, W] → the hidden layer's activations [B, hidden]
    fn hidden_features(&self, trunk: Tensor<4>, cells: Tensor<1, Int>) -> Tensor<2> {
        let x = relu(self.reduce.forward(trunk)); // [B, Vc, H, W]
        let x = gather_cells(x, cells); // [B, Vc, N]
        let [b, vc, n] = x.dims();
        relu(self.hidden.forward(x.reshape([b, vc * n]))) // [B, hidden]
    }
}
