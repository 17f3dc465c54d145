//! The network's weights read out of the burn module, with every batch norm folded into the
//! convolution before it, laid out for the native forward pass.
//!
//! Layouts (all row-major `f32`):
//! * convolutions: `[kernel × kernel × c_in, c_out]`, row `(ky × kernel + kx) × c_in + ci`, so
//!   that an im2col row `[kernel × kernel × c_in]` of a channels-last activation times this
//!   matrix is the output row `[c_out]`;
//! * linear layers: `[d_in, d_out]` (burn's own layout), bias `[d_out]`.

use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::tensor::Tensor;

use crate::config::NetConfig;
use crate::error::{ModelError, Result};
use crate::heads::ConvBn;
use crate::net::Net;
use crate::readback::to_vec;

/// A stride-1, "same"-padded convolution with its batch norm folded in.
#[derive(Clone)]
pub(crate) struct FoldedConv {
    /// `[kernel × kernel × c_in, c_out]`.
    pub weight: Vec<f32>,
    /// `[c_out]`.
    pub bias: Vec<f32>,
    /// Input channels.
    pub c_in: usize,
    /// Output channels.
    pub c_out: usize,
    /// Kernel side (1 or 3).
    pub kernel: usize,
}

/// A fully connected layer: `y = x · weight + bias`.
#[derive(Clone, Debug)]
pub(crate) struct Dense {
    /// `[d_in, d_out]`.
    pub weight: Vec<f32>,
    /// `[d_out]`.
    pub bias: Vec<f32>,
    /// Input width.
    pub d_in: usize,
    /// Output width.
    pub d_out: usize,
}

/// Every weight of the network, ready for the native forward pass.
#[derive(Clone)]
pub(crate) struct Weights {
    /// The network's config (shape and sizes).
    pub config: NetConfig,
    /// Input convolution, `planes → channels`, 3×3.
    pub input: FoldedConv,
    /// Residual blocks: two 3×3 `channels → channels` convolutions each.
    pub tower: Vec<[FoldedConv; 2]>,
    /// Both heads' 1×1 convolutions side by side, `channels → Ph + Vc`: output columns
    /// `0..Ph` are the policy head's hidden features, `Ph..Ph + Vc` the value head's.
    pub heads: FoldedConv,
    /// Policy logits per cell, `[Ph, P]`.
    pub policy_out: Dense,
    /// End-move logit from the cell-averaged policy features, `[Ph, 1]`.
    pub end_move: Dense,
    /// Value hidden layer, `[N × Vc, hidden]`, rows reordered to `n × Vc + vc` (burn flattens
    /// `vc × N + n`) so that the channels-last cell rows can be used as they are.
    pub value_hidden: Dense,
    /// Value logits, `[hidden, V]`.
    pub value_out: Dense,
    /// Moves-left logits, `[hidden, K]`, when the network has the head.
    pub moves_left_out: Option<Dense>,
}

impl Weights {
    /// Reads and folds the weights of `net` (which should be in inference mode: call
    /// [`Module::valid`](burn::module::Module::valid) first so running statistics are current).
    pub fn from_net(net: &Net) -> Result<Self> {
        let config = net.config().clone();
        config.validate()?;
        let input = fold(&net.input)?;
        let tower = net
            .tower
            .iter()
            .map(|block| Ok([fold(&block.first)?, fold(&block.second)?]))
            .collect::<Result<Vec<_>>>()?;
        let policy_hidden = fold(&net.policy.hidden)?;
        let value_reduce = fold(&net.value.reduce)?;
        let heads = side_by_side(&policy_hidden, &value_reduce)?;
        let policy_out = conv_as_dense(&net.policy.out)?;
        let end_move = dense(&net.policy.end_move)?;
        let value_hidden =
            cell_major(dense(&net.value.hidden)?, value_reduce.c_out, config.shape.cells.len())?;
        let value_out = dense(&net.value.out)?;
        let moves_left_out = net.value.moves_left.as_ref().map(dense).transpose()?;
        let weights = Weights {
            config,
            input,
            tower,
            heads,
            policy_out,
            end_move,
            value_hidden,
            value_out,
            moves_left_out,
        };
        weights.check()?;
        Ok(weights)
    }

    /// Checks that the layer sizes chain together as the config says.
    fn check(&self) -> Result<()> {
        let c = &self.config;
        let s = &c.shape;
        let (ph, vc) = (c.policy_head_channels, c.value_head_channels);
        let convs = std::iter::once((&self.input, s.planes, c.channels, 3))
            .chain(self.tower.iter().flatten().map(|l| (l, c.channels, c.channels, 3)))
            .chain(std::iter::once((&self.heads, c.channels, ph + vc, 1)));
        for (layer, c_in, c_out, kernel) in convs {
            if (layer.c_in, layer.c_out, layer.kernel) != (c_in, c_out, kernel) {
                return Err(mismatch(format!(
                    "convolution {}→{} ({}×{}), expected {c_in}→{c_out} ({kernel}×{kernel})",
                    layer.c_in, layer.c_out, layer.kernel, layer.kernel
                )));
            }
        }
        let dense = [
            (&self.policy_out, ph, s.policy_channels),
            (&self.end_move, ph, 1),
            (&self.value_hidden, vc * s.cells.len(), c.value_hidden),
            (&self.value_out, c.value_hidden, s.value_classes),
        ];
        let moves_left =
            self.moves_left_out.iter().map(|l| (l, c.value_hidden, c.moves_left_classes));
        for (layer, d_in, d_out) in dense.into_iter().chain(moves_left) {
            if (layer.d_in, layer.d_out) != (d_in, d_out) {
                return Err(mismatch(format!(
                    "linear layer {}→{}, expected {d_in}→{d_out}",
                    layer.d_in, layer.d_out
                )));
            }
        }
        Ok(())
    }
}

fn mismatch(message: String) -> ModelError {
    ModelError::InvalidConfig(format!("native engine: {message}"))
}

/// Reads a float tensor of known rank into (dims, values).
fn read<const D: usize>(t: Tensor<D>) -> Result<([usize; D], Vec<f32>)> {
    let dims = t.dims();
    Ok((dims, to_vec(t)?))
}

/// Checks a convolution is one the native engine runs: square odd kernel, stride 1,
/// dilation 1, one group (padding is "same" by construction in [`ConvBn::new`]).
fn check_conv(conv: &Conv2d) -> Result<()> {
    let [kh, kw] = conv.kernel_size;
    if kh != kw || kh % 2 == 0 || conv.stride != [1, 1] || conv.dilation != [1, 1] {
        return Err(mismatch(format!(
            "unsupported convolution: kernel {kh}×{kw}, stride {:?}, dilation {:?}",
            conv.stride, conv.dilation
        )));
    }
    if conv.groups != 1 {
        return Err(mismatch(format!("unsupported convolution groups {}", conv.groups)));
    }
    Ok(())
}

/// Conv + batch norm → one convolution with bias.
///
/// `bn(y) = (y - mean) / sqrt(var + eps) × gamma + beta`, so with `s = gamma / sqrt(var + eps)`
/// the folded weight is `w × s` (per output channel) and the bias `(b - mean) × s + beta`.
fn fold(unit: &ConvBn) -> Result<FoldedConv> {
    let conv = &unit.conv;
    let FoldedConv { mut weight, c_in, c_out, kernel, .. } = conv_matrix(conv)?;
    let conv_bias = match &conv.bias {
        Some(b) => to_vec(b.val())?,
        None => vec![0.0; c_out],
    };
    let (scale, shift) = bn_affine(&unit.bn, c_out)?;
    for row in weight.chunks_exact_mut(c_out) {
        for (v, s) in row.iter_mut().zip(&scale) {
            *v = (f64::from(*v) * s) as f32;
        }
    }
    let bias = (0..c_out)
        .map(|co| {
            (f64::from(conv_bias.get(co).copied().unwrap_or(0.0)) * scale[co] + shift[co]) as f32
        })
        .collect();
    Ok(FoldedConv { weight, bias, c_in, c_out, kernel })
}

/// A convolution's weight as it is (no batch norm), in the native layout
/// `[kernel × kernel × c_in, c_out]`; the bias is left empty.
pub(crate) fn conv_matrix(conv: &Conv2d) -> Result<FoldedConv> {
    check_conv(conv)?;
    let ([c_out, c_in, kernel, _], w) = read(conv.weight.val())?;
    let kk = kernel * kernel;
    let mut weight = vec![0.0; kk * c_in * c_out];
    for co in 0..c_out {
        for ci in 0..c_in {
            for k in 0..kk {
                weight[(k * c_in + ci) * c_out + co] = w[(co * c_in + ci) * kk + k];
            }
        }
    }
    Ok(FoldedConv { weight, bias: Vec::new(), c_in, c_out, kernel })
}

/// The inverse of [`conv_matrix`]'s reordering: `[kernel × kernel × c_in, c_out]` back to
/// burn's `[c_out, c_in, kernel, kernel]`.
pub(crate) fn conv_matrix_to_burn(m: &[f32], c_in: usize, c_out: usize, kernel: usize) -> Vec<f32> {
    let kk = kernel * kernel;
    let mut w = vec![0.0; m.len()];
    for co in 0..c_out {
        for ci in 0..c_in {
            for k in 0..kk {
                w[(co * c_in + ci) * kk + k] = m[(k * c_in + ci) * c_out + co];
            }
        }
    }
    w
}

/// The batch norm as `y × scale + shift` per channel (in `f64`).
fn bn_affine(bn: &BatchNorm, channels: usize) -> Result<(Vec<f64>, Vec<f64>)> {
    let gamma = to_vec(bn.gamma.val())?;
    let beta = to_vec(bn.beta.val())?;
    let mean = to_vec(bn.running_mean.value())?;
    let var = to_vec(bn.running_var.value())?;
    if [gamma.len(), beta.len(), mean.len(), var.len()].iter().any(|&n| n != channels) {
        return Err(mismatch(format!("batch norm size differs from {channels} channels")));
    }
    let scale: Vec<f64> = gamma
        .iter()
        .zip(&var)
        .map(|(&g, &v)| f64::from(g) / (f64::from(v) + bn.epsilon).sqrt())
        .collect();
    let shift = (0..channels).map(|c| f64::from(beta[c]) - f64::from(mean[c]) * scale[c]).collect();
    Ok((scale, shift))
}

/// Two 1×1 convolutions over the same input as one with their outputs side by side.
fn side_by_side(a: &FoldedConv, b: &FoldedConv) -> Result<FoldedConv> {
    if a.kernel != 1 || b.kernel != 1 || a.c_in != b.c_in {
        return Err(mismatch("head convolutions must be 1×1 over the trunk".into()));
    }
    let c_out = a.c_out + b.c_out;
    let mut weight = Vec::with_capacity(a.c_in * c_out);
    for ci in 0..a.c_in {
        weight.extend_from_slice(&a.weight[ci * a.c_out..(ci + 1) * a.c_out]);
        weight.extend_from_slice(&b.weight[ci * b.c_out..(ci + 1) * b.c_out]);
    }
    let bias = a.bias.iter().chain(&b.bias).copied().collect();
    Ok(FoldedConv { weight, bias, c_in: a.c_in, c_out, kernel: 1 })
}

/// A 1×1 convolution with bias (no batch norm) as a dense layer `[c_in, c_out]`.
pub(crate) fn conv_as_dense(conv: &Conv2d) -> Result<Dense> {
    check_conv(conv)?;
    let ([c_out, c_in, kernel, _], w) = read(conv.weight.val())?;
    if kernel != 1 {
        return Err(mismatch(format!("policy output convolution is {kernel}×{kernel}, not 1×1")));
    }
    let mut weight = vec![0.0; c_in * c_out];
    for co in 0..c_out {
        for ci in 0..c_in {
            weight[ci * c_out + co] = w[co * c_in + ci];
        }
    }
    let bias = match &conv.bias {
        Some(b) => to_vec(b.val())?,
        None => vec![0.0; c_out],
    };
    Ok(Dense { weight, bias, d_in: c_in, d_out: c_out })
}

/// A burn linear layer (`[d_in, d_out]` weight) as it is.
pub(crate) fn dense(linear: &Linear) -> Result<Dense> {
    let ([d_in, d_out], weight) = read(linear.weight.val())?;
    let bias = match &linear.bias {
        Some(b) => to_vec(b.val())?,
        None => vec![0.0; d_out],
    };
    if bias.len() != d_out {
        return Err(mismatch(format!("linear bias has {} values for {d_out} outputs", bias.len())));
    }
    Ok(Dense { weight, bias, d_in, d_out })
}

/// Reorders the input rows of a layer fed `[Vc, N]`-flattened features (`vc × N + n`) to take
/// `[N, Vc]`-flattened ones (`n × Vc + vc`).
pub(crate) fn cell_major(layer: Dense, channels: usize, cells: usize) -> Result<Dense> {
    if layer.d_in != channels * cells {
        return Err(mismatch(format!(
            "value hidden layer takes {} inputs, expected {channels} × {cells}",
            layer.d_in
        )));
    }
    let d_out = layer.d_out;
    let mut weight = vec![0.0; layer.weight.len()];
    for vc in 0..channels {
        for n in 0..cells {
            let from = (vc * cells + n) * d_out;
            let to = (n * channels + vc) * d_out;
            weight[to..to + d_out].copy_from_slice(&layer.weight[from..from + d_out]);
        }
    }
    Ok(Dense { weight, ..layer })
}
