//! The network's trainable parameters read out of the burn module in the native layouts (no
//! batch-norm folding), and gradients in the same layouts handed back to burn.
//!
//! One type, [`Params`], holds either the parameters or their gradients: a gradient has the
//! parameter's shape. Layouts (row-major `f32`) are those of the inference weights
//! ([`crate::native::weights`]): convolutions `[kernel × kernel × c_in, c_out]`, dense layers
//! `[d_in, d_out]`, the value hidden layer's rows cell-major (`n × Vc + vc`).

use burn::module::Param;
use burn::nn::BatchNorm;
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor, TensorData};

use crate::config::NetConfig;
use crate::error::{ModelError, Result};
use crate::heads::ConvBn;
use crate::native::weights::{
    Dense, cell_major, conv_as_dense, conv_matrix, conv_matrix_to_burn, dense,
};
use crate::net::Net;
use crate::readback::to_vec;

/// A convolution without bias followed by a batch norm's affine part.
#[derive(Clone, Debug)]
pub(crate) struct NormConv {
    /// `[kernel × kernel × c_in, c_out]`.
    pub weight: Vec<f32>,
    /// Batch-norm scale, `[c_out]`.
    pub gamma: Vec<f32>,
    /// Batch-norm shift, `[c_out]`.
    pub beta: Vec<f32>,
    pub c_in: usize,
    pub c_out: usize,
    /// Kernel side (1 or 3).
    pub kernel: usize,
}

impl NormConv {
    fn read(unit: &ConvBn) -> Result<Self> {
        let conv = conv_matrix(&unit.conv)?;
        if unit.conv.bias.is_some() {
            return Err(ModelError::InvalidConfig(
                "native training: a convolution before a batch norm has a bias".into(),
            ));
        }
        let gamma = to_vec(unit.bn.gamma.val())?;
        let beta = to_vec(unit.bn.beta.val())?;
        if gamma.len() != conv.c_out || beta.len() != conv.c_out {
            return Err(ModelError::InvalidConfig(format!(
                "native training: batch norm of {} channels after a {}-channel convolution",
                gamma.len(),
                conv.c_out
            )));
        }
        Ok(NormConv {
            weight: conv.weight,
            gamma,
            beta,
            c_in: conv.c_in,
            c_out: conv.c_out,
            kernel: conv.kernel,
        })
    }

    /// Zeros of the same shape (a gradient to accumulate into).
    fn zeros_like(&self) -> Self {
        NormConv {
            weight: vec![0.0; self.weight.len()],
            gamma: vec![0.0; self.c_out],
            beta: vec![0.0; self.c_out],
            ..*self
        }
    }
}

impl Dense {
    fn zeros_like(&self) -> Self {
        Dense { weight: vec![0.0; self.weight.len()], bias: vec![0.0; self.bias.len()], ..*self }
    }
}

/// Every trainable parameter of a [`Net`] (or its gradient), native layouts.
#[derive(Clone, Debug)]
pub(crate) struct Params {
    pub config: NetConfig,
    /// Input convolution, `planes → channels`, 3×3.
    pub input: NormConv,
    /// Residual blocks, two 3×3 convolutions each.
    pub tower: Vec<[NormConv; 2]>,
    /// Policy head's 1×1 convolution, `channels → Ph`.
    pub policy_hidden: NormConv,
    /// Value head's 1×1 convolution, `channels → Vc`.
    pub value_reduce: NormConv,
    /// Policy logits per cell, `[Ph, P]`.
    pub policy_out: Dense,
    /// End-move logit from the cell-averaged policy features, `[Ph, 1]`.
    pub end_move: Dense,
    /// Value hidden layer, `[N × Vc, hidden]`, rows cell-major.
    pub value_hidden: Dense,
    /// Value logits, `[hidden, V]`.
    pub value_out: Dense,
    /// Moves-left logits, `[hidden, K]`, when the network has the head.
    pub moves_left_out: Option<Dense>,
}

impl Params {
    /// Reads the current parameters of `net` (any device).
    pub fn from_net(net: &Net) -> Result<Self> {
        let config = net.config().clone();
        config.validate()?;
        let value_reduce = NormConv::read(&net.value.reduce)?;
        let value_hidden =
            cell_major(dense(&net.value.hidden)?, value_reduce.c_out, config.shape.cells.len())?;
        Ok(Params {
            input: NormConv::read(&net.input)?,
            tower: net
                .tower
                .iter()
                .map(|b| Ok([NormConv::read(&b.first)?, NormConv::read(&b.second)?]))
                .collect::<Result<_>>()?,
            policy_hidden: NormConv::read(&net.policy.hidden)?,
            value_reduce,
            policy_out: conv_as_dense(&net.policy.out)?,
            end_move: dense(&net.policy.end_move)?,
            value_hidden,
            value_out: dense(&net.value.out)?,
            moves_left_out: net.value.moves_left.as_ref().map(dense).transpose()?,
            config,
        })
    }

    /// Zeros of the same shapes.
    pub fn zeros_like(&self) -> Self {
        Params {
            config: self.config.clone(),
            input: self.input.zeros_like(),
            tower: self.tower.iter().map(|[a, b]| [a.zeros_like(), b.zeros_like()]).collect(),
            policy_hidden: self.policy_hidden.zeros_like(),
            value_reduce: self.value_reduce.zeros_like(),
            policy_out: self.policy_out.zeros_like(),
            end_move: self.end_move.zeros_like(),
            value_hidden: self.value_hidden.zeros_like(),
            value_out: self.value_out.zeros_like(),
            moves_left_out: self.moves_left_out.as_ref().map(Dense::zeros_like),
        }
    }

    /// These values (gradients) as burn's gradients of `net`'s parameters, on `device` (the
    /// inner device of `net`'s autodiff device).
    pub fn to_burn_gradients(&self, net: &Net, device: &Device) -> Result<GradientsParams> {
        let mut grads = GradientsParams::new();
        let mut conv_bn = |unit: &ConvBn, g: &NormConv| {
            let weight = conv_matrix_to_burn(&g.weight, g.c_in, g.c_out, g.kernel);
            let dims = [g.c_out, g.c_in, g.kernel, g.kernel];
            register(&mut grads, &unit.conv.weight, weight, dims, device);
            register(&mut grads, &unit.bn.gamma, g.gamma.clone(), [g.c_out], device);
            register(&mut grads, &unit.bn.beta, g.beta.clone(), [g.c_out], device);
        };
        conv_bn(&net.input, &self.input);
        for (block, [first, second]) in net.tower.iter().zip(&self.tower) {
            conv_bn(&block.first, first);
            conv_bn(&block.second, second);
        }
        conv_bn(&net.policy.hidden, &self.policy_hidden);
        conv_bn(&net.value.reduce, &self.value_reduce);

        // The policy's 1×1 output convolution: [Ph, P] → burn's [P, Ph, 1, 1].
        let out = &net.policy.out;
        let p = &self.policy_out;
        let weight = conv_matrix_to_burn(&p.weight, p.d_in, p.d_out, 1);
        register(&mut grads, &out.weight, weight, [p.d_out, p.d_in, 1, 1], device);
        if let Some(bias) = &out.bias {
            register(&mut grads, bias, p.bias.clone(), [p.d_out], device);
        }
        let cells = self.config.shape.cells.len();
        let moves_left = net.value.moves_left.as_ref().zip(self.moves_left_out.clone());
        let linears = [
            (&net.policy.end_move, self.end_move.clone()),
            // Back to burn's rows `vc × N + n`: the same regrouping with the roles swapped.
            (
                &net.value.hidden,
                cell_major(self.value_hidden.clone(), cells, self.value_reduce.c_out)?,
            ),
            (&net.value.out, self.value_out.clone()),
        ];
        for (linear, g) in linears.into_iter().chain(moves_left) {
            register(&mut grads, &linear.weight, g.weight, [g.d_in, g.d_out], device);
            if let Some(bias) = &linear.bias {
                register(&mut grads, bias, g.bias, [g.d_out], device);
            }
        }
        Ok(grads)
    }
}

/// `net`'s batch norms: the input's, the tower's in order, the policy head's, the value head's.
pub(crate) fn for_each_norm(net: &Net, mut f: impl FnMut(&BatchNorm)) {
    f(&net.input.bn);
    for block in &net.tower {
        f(&block.first.bn);
        f(&block.second.bn);
    }
    f(&net.policy.hidden.bn);
    f(&net.value.reduce.bn);
}

/// Registers `values` (with `dims`) as the gradient of `param`.
fn register<const D: usize>(
    grads: &mut GradientsParams,
    param: &Param<Tensor<D>>,
    values: Vec<f32>,
    dims: [usize; D],
    device: &Device,
) {
    grads.register(param.id, Tensor::<D>::from_data(TensorData::new(values, dims), device));
}

/// The id and rank of every trained parameter of `net` (those
/// [`Params::to_burn_gradients`] registers), for tests.
#[cfg(test)]
pub(crate) fn param_ids(net: &Net) -> Vec<(burn::module::ParamId, usize)> {
    use burn::module::{Module, ModuleVisitor, ParamId};
    struct Ids(Vec<(ParamId, usize)>);
    impl ModuleVisitor for Ids {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            // Running statistics are visited too, under fresh ids: only the trained ones.
            if param.is_require_grad() {
                self.0.push((param.id, D));
            }
        }
    }
    let mut ids = Ids(Vec::new());
    net.visit(&mut ids);
    ids.0
}
