//! The network's weights under stable, framework-neutral names, and as a `.safetensors` file.
//!
//! Names and layouts follow PyTorch's conventions, so the file loads into a hand-written
//! PyTorch (or NumPy, JAX, ...) model directly (B = tower blocks, numbered from 0):
//!
//! | name | shape |
//! |---|---|
//! | `trunk.input.conv.weight` | `[C, planes, 3, 3]` |
//! | `trunk.block{b}.conv1.weight`, `…conv2.weight` | `[C, C, 3, 3]` |
//! | `policy.conv.weight` | `[Ph, C, 1, 1]` |
//! | `policy.out.weight`, `policy.out.bias` | `[P, Ph, 1, 1]`, `[P]` |
//! | `policy.end_move.weight`, `policy.end_move.bias` | `[1, Ph]`, `[1]` |
//! | `value.conv.weight` | `[Vc, C, 1, 1]` |
//! | `value.fc1.weight`, `value.fc1.bias` | `[hidden, Vc × N]`, `[hidden]` |
//! | `value.fc2.weight`, `value.fc2.bias` | `[V, hidden]`, `[V]` |
//! | `value.moves_left.weight`, `value.moves_left.bias` (with the moves-left head) | `[K, hidden]`, `[K]` |
//!
//! The moves-left head's K logits are classes of [`MOVES_LEFT_BIN`](crate::moves_left::MOVES_LEFT_BIN)
//! moves to the game's end ([`crate::moves_left`]).
//! Every convolution `X.conv` (`X.conv1`, `X.conv2` in blocks) has no bias and is followed by a
//! batch norm `X.bn` (`X.bn1`, `X.bn2`) with `weight` (γ), `bias` (β), `running_mean` and
//! `running_var`, all `[channels]`; ε is [`batch_norm_epsilon`]. Linear weights are
//! `[out, in]` (`y = x Wᵀ + b`); burn stores them `[in, out]`, so they are transposed here.

use std::collections::HashMap;
use std::path::Path;

use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::tensor::Tensor;
use safetensors::Dtype;
use safetensors::tensor::TensorView;

use crate::error::{ModelError, Result};
use crate::files;
use crate::heads::ConvBn;
use crate::net::Net;
use crate::readback::to_vec;

/// One weight tensor: its name, its shape and its values (row-major).
#[derive(Debug, Clone, PartialEq)]
pub struct NamedTensor {
    pub name: String,
    pub shape: Vec<usize>,
    pub values: Vec<f32>,
}

/// Every weight of `net` (batch-norm running statistics included), in forward order: the
/// input convolution, the blocks, the policy head, the value head.
pub fn named_tensors(net: &Net) -> Result<Vec<NamedTensor>> {
    let mut out = Vec::new();
    conv_bn(&mut out, "trunk.input", "", &net.input)?;
    for (b, block) in net.tower.iter().enumerate() {
        let prefix = format!("trunk.block{b}");
        conv_bn(&mut out, &prefix, "1", &block.first)?;
        conv_bn(&mut out, &prefix, "2", &block.second)?;
    }
    conv_bn(&mut out, "policy", "", &net.policy.hidden)?;
    conv(&mut out, "policy.out", &net.policy.out)?;
    linear(&mut out, "policy.end_move", &net.policy.end_move)?;
    conv_bn(&mut out, "value", "", &net.value.reduce)?;
    linear(&mut out, "value.fc1", &net.value.hidden)?;
    linear(&mut out, "value.fc2", &net.value.out)?;
    if let Some(layer) = &net.value.moves_left {
        linear(&mut out, "value.moves_left", layer)?;
    }
    Ok(out)
}

/// The ε every batch norm of `net` adds to the variance.
pub fn batch_norm_epsilon(net: &Net) -> f64 {
    net.input.bn.epsilon
}

/// The `.safetensors` bytes of `net`'s weights (all `F32`), with `metadata` as the header's
/// `__metadata__` (string to string).
pub fn safetensors_bytes(net: &Net, metadata: HashMap<String, String>) -> Result<Vec<u8>> {
    let tensors = named_tensors(net)?;
    let bytes: Vec<Vec<u8>> =
        tensors.iter().map(|t| t.values.iter().flat_map(|v| v.to_le_bytes()).collect()).collect();
    let bad = |e: safetensors::SafeTensorError| ModelError::Encode {
        what: "safetensors",
        message: e.to_string(),
    };
    let views = tensors
        .iter()
        .zip(&bytes)
        .map(|(t, b)| Ok((t.name.as_str(), TensorView::new(Dtype::F32, t.shape.clone(), b)?)))
        .collect::<Result<Vec<_>, safetensors::SafeTensorError>>()
        .map_err(bad)?;
    safetensors::serialize(views, Some(metadata)).map_err(bad)
}

/// Writes [`safetensors_bytes`] to `path` atomically (temporary name, then rename).
pub fn export_safetensors(net: &Net, path: &Path, metadata: HashMap<String, String>) -> Result<()> {
    files::write_atomic(path, &safetensors_bytes(net, metadata)?)
}

fn push<const D: usize>(out: &mut Vec<NamedTensor>, name: String, t: Tensor<D>) -> Result<()> {
    let shape = t.dims().to_vec();
    out.push(NamedTensor { name, shape, values: to_vec(t)? });
    Ok(())
}

/// `{prefix}.conv{n}.weight` and `{prefix}.bn{n}.*`.
fn conv_bn(out: &mut Vec<NamedTensor>, prefix: &str, n: &str, unit: &ConvBn) -> Result<()> {
    conv(out, &format!("{prefix}.conv{n}"), &unit.conv)?;
    batch_norm(out, &format!("{prefix}.bn{n}"), &unit.bn)
}

fn conv(out: &mut Vec<NamedTensor>, name: &str, conv: &Conv2d) -> Result<()> {
    push(out, format!("{name}.weight"), conv.weight.val())?;
    if let Some(bias) = &conv.bias {
        push(out, format!("{name}.bias"), bias.val())?;
    }
    Ok(())
}

fn batch_norm(out: &mut Vec<NamedTensor>, name: &str, bn: &BatchNorm) -> Result<()> {
    push(out, format!("{name}.weight"), bn.gamma.val())?;
    push(out, format!("{name}.bias"), bn.beta.val())?;
    push(out, format!("{name}.running_mean"), bn.running_mean.value())?;
    push(out, format!("{name}.running_var"), bn.running_var.value())
}

/// burn's `[in, out]` weight stored as `[out, in]`.
fn linear(out: &mut Vec<NamedTensor>, name: &str, linear: &Linear) -> Result<()> {
    push(out, format!("{name}.weight"), linear.weight.val().transpose())?;
    if let Some(bias) = &linear.bias {
        push(out, format!("{name}.bias"), bias.val())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use burn::tensor::{Device, TensorData};
    use safetensors::SafeTensors;

    use super::*;
    use crate::NetConfig;
    use crate::testing::{pseudo_random, scratch_dir, tri_camelot_shape};

    fn small_net() -> Net {
        let mut config = NetConfig::preset("b4c32", tri_camelot_shape(13)).unwrap();
        config.blocks = 2;
        Net::new(&config, &Device::flex()).unwrap()
    }

    fn floats(bytes: &[u8]) -> Vec<f32> {
        bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
    }

    #[test]
    fn the_file_holds_every_weight_under_its_name() {
        let net = small_net();
        let scratch = scratch_dir("safetensors");
        let path = scratch.join("net.safetensors");
        let meta = HashMap::from([("variant".to_string(), "tricamelot".to_string())]);
        export_safetensors(&net, &path, meta).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let file = SafeTensors::deserialize(&bytes).unwrap();
        let (_, header) = SafeTensors::read_metadata(&bytes).unwrap();
        assert_eq!(header.metadata().as_ref().unwrap()["variant"], "tricamelot");
        let tensors = named_tensors(&net).unwrap();
        // input conv+bn (5), 2 blocks × 10, policy conv+bn (5) + out (2) + end move (2),
        // value conv+bn (5) + 2 linear layers (4).
        assert_eq!(tensors.len(), 5 + 20 + 9 + 9);
        assert_eq!(file.len(), tensors.len());
        for t in &tensors {
            let view = file.tensor(&t.name).unwrap();
            assert_eq!((view.dtype(), view.shape()), (Dtype::F32, &t.shape[..]), "{}", t.name);
            assert_eq!(floats(view.data()), t.values, "{}", t.name);
        }
        let shape = |name: &str| file.tensor(name).unwrap().shape().to_vec();
        assert_eq!(shape("trunk.input.conv.weight"), [32, 13, 3, 3]);
        assert_eq!(shape("trunk.block1.bn2.running_var"), [32]);
        assert_eq!(shape("policy.out.weight"), [12, 16, 1, 1]);
        assert_eq!(shape("policy.end_move.weight"), [1, 16]);
        assert_eq!(shape("value.fc1.weight"), [32, 2 * 73]);
        assert_eq!(shape("value.fc2.weight"), [4, 32]);
    }

    /// The named weights compute the network: a linear layer applied as `x Wᵀ + b` with the
    /// exported tensors matches burn's own layer.
    #[test]
    fn linear_weights_are_out_by_in() {
        let net = small_net();
        let tensors = named_tensors(&net).unwrap();
        let get = |n: &str| tensors.iter().find(|t| t.name == n).unwrap();
        let (w, b) = (get("value.fc2.weight"), get("value.fc2.bias"));
        let (outs, ins) = (w.shape[0], w.shape[1]);
        let x = pseudo_random(ins, 5);
        let want = to_vec(net.value.out.forward(Tensor::<2>::from_data(
            TensorData::new(x.clone(), [1, ins]),
            &Device::flex(),
        )))
        .unwrap();
        assert_eq!(want.len(), outs);
        for (o, want) in want.iter().enumerate() {
            let y: f32 = (0..ins).map(|i| x[i] * w.values[o * ins + i]).sum::<f32>() + b.values[o];
            assert!((y - want).abs() < 1e-5, "output {o}: {y} vs {want}");
        }
    }
}
