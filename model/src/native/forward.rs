//! The native forward pass over a chunk of positions, in reusable scratch buffers.
//!
//! Same arithmetic as [`Net::forward`](crate::Net::forward), with batch norms folded into the
//! convolutions and activations kept channels-last (`[positions × H × W, C]`).

use crate::error::Result;
use crate::moves_left::expected_moves_left;
use crate::native::kernels::{
    Taps, add_bias, fill_bias, gather_cells, gemm_acc, relu, softmax_in_place, take,
};
use crate::native::weights::{Dense, FoldedConv, Weights};

/// Per-call working memory. Buffers only grow, so after the first call at the largest chunk
/// size nothing is allocated.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// The input transposed to channels-last, `[n × HW, planes]`.
    input: Vec<f32>,
    /// im2col of the current layer's input, `[n × HW, 9 × max(planes, C)]`.
    cols: Vec<f32>,
    /// The trunk activation, `[n × HW, C]`.
    trunk: Vec<f32>,
    /// The residual blocks' middle activation, `[n × HW, C]`.
    mid: Vec<f32>,
    /// The trunk at the board cells, `[n × N, C]`.
    cells: Vec<f32>,
    /// Both heads' 1×1 features at the cells, `[n × N, Ph + Vc]`.
    heads: Vec<f32>,
    /// Policy logits per cell, `[n × N, P]`.
    moves: Vec<f32>,
    /// Value head input, `[n, N × Vc]`.
    value_in: Vec<f32>,
    /// Value hidden layer, `[n, hidden]`.
    value_hidden: Vec<f32>,
    /// Moves-left logits, `[n, K]`.
    moves_left: Vec<f32>,
}

/// `out[rows, d_out] = x[rows, d_in] (row stride lda) · W + b`.
pub(crate) fn dense(
    x: &[f32],
    lda: usize,
    layer: &Dense,
    rows: usize,
    out: &mut [f32],
) -> Result<()> {
    fill_bias(out, &layer.bias);
    gemm_acc(x, lda, &layer.weight, out, (rows, layer.d_in, layer.d_out))
}

/// One "same" convolution accumulated onto `out` (which holds the bias, and the skip
/// connection where there is one): `out += im2col(x) · W`.
fn conv_acc(
    x: &[f32],
    layer: &FoldedConv,
    taps: &Taps,
    rows: usize,
    cols: &mut Vec<f32>,
    out: &mut [f32],
) -> Result<()> {
    let k = layer.kernel * layer.kernel * layer.c_in;
    let cols = take(cols, rows * k);
    taps.im2col(x, layer.c_in, cols);
    gemm_acc(cols, k, &layer.weight, out, (rows, k, layer.c_out))
}

/// Where [`forward_chunk`] writes the outputs of `n` positions (the caller checks the lengths).
pub(crate) struct Outputs<'a> {
    /// `[n, N × P + 1]` policy logits.
    pub policy: &'a mut [f32],
    /// `[n, V]` value logits (not softmaxed).
    pub value: &'a mut [f32],
    /// `[n]`, the moves-left head's expected moves left, written when the network has the head
    /// (left alone otherwise).
    pub moves_left: &'a mut [f32],
}

/// Evaluates `n` positions given as `planes`, `[n, planes, H, W]` (the input layout, channels
/// first), into `out`. The caller checks the slice lengths.
pub(crate) fn forward_chunk(
    w: &Weights,
    taps: &Taps,
    s: &mut Scratch,
    planes: &[f32],
    n: usize,
    out: Outputs<'_>,
) -> Result<()> {
    let shape = &w.config.shape;
    let grid = shape.height * shape.width;
    let rows = n * grid;
    let c = w.config.channels;

    // [n, planes, HW] → [n × HW, planes]
    let pl = shape.planes;
    let input = take(&mut s.input, rows * pl);
    for (image, out) in planes.chunks_exact(pl * grid).zip(input.chunks_exact_mut(pl * grid)) {
        for (p, plane) in image.chunks_exact(grid).enumerate() {
            for (g, &v) in plane.iter().enumerate() {
                out[g * pl + p] = v;
            }
        }
    }

    let trunk = take(&mut s.trunk, rows * c);
    fill_bias(trunk, &w.input.bias);
    conv_acc(input, &w.input, taps, rows, &mut s.cols, trunk)?;
    relu(trunk);

    let mid = take(&mut s.mid, rows * c);
    for [first, second] in &w.tower {
        fill_bias(mid, &first.bias);
        conv_acc(trunk, first, taps, rows, &mut s.cols, mid)?;
        relu(mid);
        add_bias(trunk, &second.bias); // trunk now holds skip + bias
        conv_acc(mid, second, taps, rows, &mut s.cols, trunk)?;
        relu(trunk);
    }

    heads(w, s, n, out)
}

/// The policy, value and moves-left heads on the trunk in `s.trunk`.
fn heads(w: &Weights, s: &mut Scratch, n: usize, out: Outputs<'_>) -> Result<()> {
    let Outputs { policy, value, moves_left } = out;
    let shape = &w.config.shape;
    let grid = shape.height * shape.width;
    let c = w.config.channels;
    let cells = shape.cells.len();
    let rows = n * cells;

    // Gather the board cells: [n × HW, C] → [n × N, C].
    let at_cells = take(&mut s.cells, rows * c);
    gather_cells(&s.trunk[..n * grid * c], grid, c, &shape.cells, at_cells);

    // Both heads' 1×1 conv + folded batch norm + ReLU: [n × N, Ph + Vc].
    let hc = w.heads.c_out;
    let heads = take(&mut s.heads, rows * hc);
    fill_bias(heads, &w.heads.bias);
    gemm_acc(at_cells, c, &w.heads.weight, heads, (rows, c, hc))?;
    relu(heads);

    // Policy: per-cell logits, then the end-move logit from the cell-averaged features.
    let ph = w.end_move.d_in;
    let p = w.policy_out.d_out;
    let moves = take(&mut s.moves, rows * p);
    dense(heads, hc, &w.policy_out, rows, moves)?;
    let actions = cells * p + 1;
    let scale = 1.0 / cells as f32;
    for ((out, image_moves), image_heads) in policy
        .chunks_exact_mut(actions)
        .zip(moves.chunks_exact(cells * p))
        .zip(heads.chunks_exact(cells * hc))
    {
        out[..cells * p].copy_from_slice(image_moves);
        let mut end = w.end_move.bias[0];
        for j in 0..ph {
            let sum: f32 = image_heads.chunks_exact(hc).map(|row| row[j]).sum();
            end += sum * scale * w.end_move.weight[j];
        }
        out[cells * p] = end;
    }

    // Value: [n, N × Vc] → hidden (ReLU) → logits.
    let vc = hc - ph;
    let value_in = take(&mut s.value_in, rows * vc);
    for (row, out) in heads.chunks_exact(hc).zip(value_in.chunks_exact_mut(vc)) {
        out.copy_from_slice(&row[ph..]);
    }
    let hidden = w.value_hidden.d_out;
    let value_hidden = take(&mut s.value_hidden, n * hidden);
    dense(value_in, cells * vc, &w.value_hidden, n, value_hidden)?;
    relu(value_hidden);
    dense(value_hidden, hidden, &w.value_out, n, value)?;

    // Moves left: logits → softmax → the expectation.
    if let Some(layer) = &w.moves_left_out {
        let k = layer.d_out;
        let logits = take(&mut s.moves_left, n * k);
        dense(value_hidden, hidden, layer, n, logits)?;
        for (row, out) in logits.chunks_exact_mut(k).zip(moves_left.iter_mut()) {
            softmax_in_place(row);
            *out = expected_moves_left(row);
        }
    }
    Ok(())
}
