//! ONNX export of the network, through burn's exporter (`burn-onnx`, experimental in 0.22).
//!
//! The file has one input, `planes` `[batch, planes, H, W]`, and two outputs, `policy_logits`
//! `[batch, num_actions]` and `value_logits` `[batch, value_classes]` (not softmaxed), the
//! same function as [`Net::forward`] in inference mode (batch norms on running statistics),
//! with the weights embedded (ONNX operator set 18). burn's exporter names graph values after
//! internal tensor ids; the three boundary names are rewritten here after export.
//!
//! The exporter lowers neither `mean_dim` nor `swap_dims`, so the traced function is
//! [`export_forward`]: `Net::forward` with the end-move pooling written as a sum divided by
//! the cell count and the policy head's `[B, P, N] → [B, N, P]` transpose written as a gather.
//!
//! [`export`] fixes the batch size; [`export_dynamic_batch`] makes the batch axis symbolic
//! (`batch`), by tracing the forward pass at two batch sizes.

use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::tensor::activation::relu;
use burn::tensor::{Device, Int, Tensor, TensorData};
use burn_onnx::export::{AxisSpec, InputSpec, OnnxExporter};
use onnx_ir::ModelProto;
use protobuf::Message;
use serde::{Deserialize, Serialize};

use crate::checkpoint::write_json;
use crate::readback::to_vec;
use crate::testing::pseudo_random;

use crate::error::{ModelError, Result};
use crate::files;
use crate::heads::gather_cells;
use crate::net::Net;

/// The input's name in exported files.
pub const INPUT_NAME: &str = "planes";
/// The policy output's name in exported files.
pub const POLICY_NAME: &str = "policy_logits";
/// The value output's name in exported files.
pub const VALUE_NAME: &str = "value_logits";

/// Writes `net` as an ONNX file at `path` with a fixed batch size `batch` (≥ 1).
pub fn export(net: &Net, path: &Path, batch: usize) -> Result<()> {
    files::write_atomic(path, &export_bytes(net, batch)?)
}

/// Writes `net` as an ONNX file at `path` whose batch axis is symbolic (`batch`).
pub fn export_dynamic_batch(net: &Net, path: &Path) -> Result<()> {
    files::write_atomic(path, &export_dynamic_bytes(net)?)
}

/// The ONNX file's bytes for a fixed batch size.
pub fn export_bytes(net: &Net, batch: usize) -> Result<Vec<u8>> {
    if batch == 0 {
        return Err(ModelError::InvalidArgument("ONNX export batch must be at least 1".into()));
    }
    let net = net.valid();
    let sample = zeros(&net, batch);
    let model = OnnxExporter::new().export(&net, sample, export_forward).map_err(export_error)?;
    rename_boundaries(model.as_bytes())
}

/// The ONNX file's bytes with a symbolic batch axis.
pub fn export_dynamic_bytes(net: &Net) -> Result<Vec<u8>> {
    let net = net.valid();
    let specs = [InputSpec::new([
        AxisSpec::dynamic("batch"),
        AxisSpec::Static,
        AxisSpec::Static,
        AxisSpec::Static,
    ])];
    let model = OnnxExporter::new()
        .export_dynamic(&net, zeros(&net, 2), zeros(&net, 3), &specs, export_forward)
        .map_err(export_error)?;
    rename_boundaries(model.as_bytes())
}

/// [`Net::forward`] in operations burn's ONNX exporter lowers.
///
/// x: [B, planes, H, W] → (policy logits [B, N × P + 1], value logits [B, V])
pub fn export_forward(net: &Net, x: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
    let mut x = relu(net.input.forward(x)); // [B, C, H, W]
    for block in &net.tower {
        x = block.forward(x);
    }
    let head = &net.policy;
    let hidden = relu(head.hidden.forward(x.clone())); // [B, Ph, H, W]
    let [b, ph, _, _] = hidden.dims();
    let at_cells = gather_cells(hidden.clone(), net.cells.clone()); // [B, Ph, N]
    let n = at_cells.dims()[2];
    let pooled = at_cells.sum_dim(2).div_scalar(n as f32).reshape([b, ph]);
    let end_move = head.end_move.forward(pooled); // [B, 1]
    let per_cell = gather_cells(head.out.forward(hidden), net.cells.clone()); // [B, P, N]
    let p = per_cell.dims()[1];
    // Flattened [B, P × N] (index c × N + cell) → cell-major [B, N × P] by a gather.
    let order: Vec<i64> = (0..n * p).map(|i| ((i % p) * n + i / p) as i64).collect();
    let order = Tensor::<1, Int>::from_data(TensorData::new(order, [n * p]), &per_cell.device());
    let moves = per_cell.reshape([b, p * n]).select(1, order);
    let policy = Tensor::cat(vec![moves, end_move], 1);
    let value = net.value.forward(x, net.cells.clone());
    (policy, value)
}

/// What [`export_with_reference`] writes beside the ONNX file: an input batch and the outputs
/// burn's [`Net::forward`] gives for it, so another runtime can check its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// The input's shape, `[batch, planes, H, W]`.
    pub input_shape: [usize; 4],
    /// The input, row-major, under the name [`INPUT_NAME`].
    pub planes: Vec<f32>,
    /// Policy logits `[batch, num_actions]`, row-major.
    pub policy_logits: Vec<f32>,
    /// Value logits `[batch, value_classes]`, row-major.
    pub value_logits: Vec<f32>,
}

/// Exports `net` with a symbolic batch axis to `dir/{stem}.onnx`, and writes a reference pair
/// for `batch` pseudo-random positions to `dir/{stem}.reference.json`. Returns both paths.
pub fn export_with_reference(
    net: &Net,
    dir: &Path,
    stem: &str,
    batch: usize,
) -> Result<(PathBuf, PathBuf)> {
    if batch == 0 {
        return Err(ModelError::InvalidArgument("reference batch must be at least 1".into()));
    }
    files::ensure_dir(dir)?;
    let onnx_path = dir.join(format!("{stem}.onnx"));
    export_dynamic_batch(net, &onnx_path)?;
    let s = &net.config().shape;
    let input_shape = [batch, s.planes, s.height, s.width];
    let planes = pseudo_random(batch * s.input_len(), 2024);
    let x = Tensor::<4>::from_data(TensorData::new(planes.clone(), input_shape), &Device::flex());
    let (policy, value) = net.valid().forward(x);
    let reference = Reference {
        input_shape,
        planes,
        policy_logits: to_vec(policy)?,
        value_logits: to_vec(value)?,
    };
    let reference_path = dir.join(format!("{stem}.reference.json"));
    write_json(&reference_path, &reference)?;
    Ok((onnx_path, reference_path))
}

/// One dimension of a graph input or output: a fixed size or a named symbolic axis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dim {
    Fixed(i64),
    Symbolic(String),
}

/// A graph input or output of an ONNX file: its name, element type (ONNX `TensorProto`
/// data type code; 1 = float32) and dimensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Boundary {
    pub name: String,
    pub elem_type: i32,
    pub dims: Vec<Dim>,
}

/// The graph inputs and outputs of the ONNX file `bytes`, in order.
pub fn boundaries(bytes: &[u8]) -> Result<(Vec<Boundary>, Vec<Boundary>)> {
    let bad = |message: String| ModelError::Encode { what: "onnx", message };
    let model = ModelProto::parse_from_bytes(bytes).map_err(|e| bad(e.to_string()))?;
    let graph = model.graph.as_ref().ok_or_else(|| bad("the model has no graph".into()))?;
    let describe = |values: &[onnx_ir::ValueInfoProto]| -> Vec<Boundary> {
        values
            .iter()
            .map(|v| {
                let tensor = v.type_.tensor_type();
                let dims = tensor
                    .shape
                    .dim
                    .iter()
                    .map(|d| {
                        if d.has_dim_param() {
                            Dim::Symbolic(d.dim_param().to_string())
                        } else {
                            Dim::Fixed(d.dim_value())
                        }
                    })
                    .collect();
                Boundary { name: v.name.clone(), elem_type: tensor.elem_type, dims }
            })
            .collect()
    };
    Ok((describe(&graph.input), describe(&graph.output)))
}

/// A zero input batch `[batch, planes, H, W]` for tracing.
fn zeros(net: &Net, batch: usize) -> Tensor<4> {
    let s = &net.config().shape;
    Tensor::zeros([batch, s.planes, s.height, s.width], &Device::flex())
}

fn export_error(e: burn_onnx::export::ExportError) -> ModelError {
    ModelError::Encode { what: "onnx", message: e.to_string() }
}

/// Renames the graph's input to [`INPUT_NAME`] and its two outputs to [`POLICY_NAME`] and
/// [`VALUE_NAME`], everywhere they are referenced.
fn rename_boundaries(bytes: &[u8]) -> Result<Vec<u8>> {
    let bad = |message: String| ModelError::Encode { what: "onnx", message };
    let mut model = ModelProto::parse_from_bytes(bytes).map_err(|e| bad(e.to_string()))?;
    let graph = model.graph.as_mut().ok_or_else(|| bad("exported model has no graph".into()))?;
    if graph.input.len() != 1 || graph.output.len() != 2 {
        return Err(bad(format!(
            "expected 1 input and 2 outputs, the exporter wrote {} and {}",
            graph.input.len(),
            graph.output.len()
        )));
    }
    let renames = [
        (graph.input[0].name.clone(), INPUT_NAME),
        (graph.output[0].name.clone(), POLICY_NAME),
        (graph.output[1].name.clone(), VALUE_NAME),
    ];
    let taken = |name: &str| {
        graph.initializer.iter().any(|t| t.name == name)
            || graph.node.iter().any(|n| n.output.iter().any(|o| o == name))
    };
    if renames.iter().any(|(old, new)| old != new && taken(new)) {
        return Err(bad("a graph value already uses one of the boundary names".into()));
    }
    let rename = |name: &mut String| {
        if let Some((_, new)) = renames.iter().find(|(old, _)| old == name) {
            *name = (*new).to_string();
        }
    };
    for value in graph.input.iter_mut().chain(graph.output.iter_mut()) {
        rename(&mut value.name);
    }
    for node in &mut graph.node {
        node.input.iter_mut().chain(node.output.iter_mut()).for_each(rename);
    }
    model.write_to_bytes().map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NetConfig;
    use crate::testing::tri_camelot_shape;

    fn boundary_names(bytes: &[u8]) -> (Vec<String>, Vec<String>) {
        let model = ModelProto::parse_from_bytes(bytes).unwrap();
        let graph = model.graph.as_ref().unwrap();
        (
            graph.input.iter().map(|v| v.name.clone()).collect(),
            graph.output.iter().map(|v| v.name.clone()).collect(),
        )
    }

    #[test]
    fn export_names_the_boundaries() {
        let mut config = NetConfig::preset("b4c32", tri_camelot_shape(13)).unwrap();
        config.blocks = 1;
        let net = Net::new(&config, &Device::flex()).unwrap();
        for bytes in [export_bytes(&net, 4).unwrap(), export_dynamic_bytes(&net).unwrap()] {
            let (inputs, outputs) = boundary_names(&bytes);
            assert_eq!(inputs, [INPUT_NAME]);
            assert_eq!(outputs, [POLICY_NAME, VALUE_NAME]);
        }
        let (inputs, outputs) = boundaries(&export_dynamic_bytes(&net).unwrap()).unwrap();
        let batch = Dim::Symbolic("batch".into());
        assert_eq!(inputs[0].dims, [batch.clone(), Dim::Fixed(13), Dim::Fixed(11), Dim::Fixed(11)]);
        assert_eq!(outputs[0].dims, [batch.clone(), Dim::Fixed(877)]);
        assert_eq!((outputs[1].elem_type, &outputs[1].dims[..]), (1, &[batch, Dim::Fixed(4)][..]));
        let (inputs, _) = boundaries(&export_bytes(&net, 4).unwrap()).unwrap();
        assert_eq!(inputs[0].dims[0], Dim::Fixed(4));
        assert!(matches!(export_bytes(&net, 0), Err(ModelError::InvalidArgument(_))));
    }

    #[test]
    fn the_exported_function_is_net_forward() {
        let mut shape = tri_camelot_shape(13);
        shape.cells.reverse();
        let mut config = NetConfig::preset("b4c32", shape).unwrap();
        config.blocks = 1;
        let net = Net::new(&config, &Device::flex()).unwrap();
        let s = &config.shape;
        let dims = [3, s.planes, s.height, s.width];
        let x = Tensor::<4>::from_data(
            TensorData::new(pseudo_random(3 * s.input_len(), 4), dims),
            &Device::flex(),
        );
        let (p, v) = net.forward(x.clone());
        let (q, w) = export_forward(&net, x);
        let diff = |a: Tensor<2>, b: Tensor<2>| {
            let (a, b) = (to_vec(a).unwrap(), to_vec(b).unwrap());
            assert_eq!(a.len(), b.len());
            a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
        };
        assert!(diff(p, q) <= 1e-5);
        assert_eq!(diff(v, w), 0.0);
    }

    #[test]
    fn reference_pairs_are_written_beside_the_file() {
        let mut config = NetConfig::preset("b4c32", tri_camelot_shape(13)).unwrap();
        config.blocks = 0;
        let net = Net::new(&config, &Device::flex()).unwrap();
        let dir = crate::testing::scratch_dir("onnx-reference");
        let (onnx, reference) = export_with_reference(&net, &dir, "tri", 2).unwrap();
        assert!(std::fs::metadata(onnx).unwrap().len() > 1000);
        let r: Reference = serde_json::from_slice(&std::fs::read(reference).unwrap()).unwrap();
        assert_eq!(r.input_shape, [2, 13, 11, 11]);
        assert_eq!(
            (r.planes.len(), r.policy_logits.len(), r.value_logits.len()),
            (2 * 13 * 121, 2 * 877, 8)
        );
    }
}
