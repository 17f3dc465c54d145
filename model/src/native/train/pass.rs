//! One training pass, natively: the forward pass in training mode (batch norms on the batch's
//! statistics), the loss of [`crate::train_step`], and the gradient of every parameter.
//!
//! The arithmetic is [`Net::forward`](crate::Net::forward)'s and [`loss_tensors`]'s; the
//! agreement tests check both against burn's autodiff.
//!
//! [`loss_tensors`]: crate::train_step::loss_tensors

use rayon::prelude::*;

use crate::error::Result;
use crate::native::forward::dense;
use crate::native::kernels::{Taps, add_bias, gather_cells, relu};
use crate::native::train::layers::{
    NormTape, add_relu, conv, conv_weight_grad, gemm, norm_backward, norm_forward, par_relu,
    relu_backward, transpose_taps, view, view_mut,
};
use crate::native::train::params::{NormConv, Params};
use crate::native::train::pool::Pool;
use crate::native::weights::Dense;
use crate::train_batch::{AuxTerm, LossStats, TrainBatch};

/// The convolution taps of one board shape: 3×3, 3×3 mirrored, and 1×1.
#[derive(Debug)]
pub(crate) struct Grids {
    three: Taps,
    three_mirrored: Taps,
    one: Taps,
}

impl Grids {
    pub fn new(height: usize, width: usize) -> Self {
        let three = Taps::new(height, width, 3);
        Grids { three_mirrored: three.mirrored(), three, one: Taps::new(height, width, 1) }
    }

    /// The taps of a `kernel × kernel` convolution and of its transpose.
    fn of(&self, kernel: usize) -> (&Taps, &Taps) {
        if kernel == 1 { (&self.one, &self.one) } else { (&self.three, &self.three_mirrored) }
    }
}

/// A batch's losses, the gradients, and each batch norm's batch statistics (mean, biased
/// variance) in [`for_each_norm`](super::params::for_each_norm)'s order.
#[derive(Debug)]
pub(crate) struct PassOutput {
    pub loss: LossStats,
    pub grads: Params,
    pub norm_stats: Vec<(Vec<f32>, Vec<f32>)>,
}

/// A convolution + batch norm layer's forward: returns the normalised output (before any skip
/// or ReLU) and the tape.
fn conv_norm(
    grids: &Grids,
    layer: &NormConv,
    x: &[f32],
    rows: usize,
    eps: f64,
    pool: &mut Pool,
) -> Result<(Vec<f32>, NormTape)> {
    let mut z = pool.take(rows * layer.c_out);
    conv(grids.of(layer.kernel).0, x, layer.c_in, &layer.weight, layer.c_out, 0.0, &mut z)?;
    let mut y = pool.take(rows * layer.c_out);
    let mut tape = NormTape::default();
    norm_forward(z, &layer.gamma, &layer.beta, eps, &mut y, &mut tape);
    Ok((y, tape))
}

/// A convolution + batch norm layer's backward: `dy` (the gradient of the normalised output)
/// is overwritten with the pre-norm gradient; the layer's gradients go to `g`, the input's
/// gradient is added to `dx` when there is one.
fn conv_norm_backward(
    grids: &Grids,
    layer: &NormConv,
    tape: &NormTape,
    x: &[f32],
    dy: &mut [f32],
    g: &mut NormConv,
    dx: Option<&mut [f32]>,
) -> Result<()> {
    norm_backward(dy, &layer.gamma, tape, &mut g.gamma, &mut g.beta);
    let (taps, mirrored) = grids.of(layer.kernel);
    conv_weight_grad(taps, x, layer.c_in, dy, layer.c_out, &mut g.weight)?;
    if let Some(dx) = dx {
        let wt = transpose_taps(&layer.weight, taps.count(), layer.c_in, layer.c_out);
        conv(mirrored, dy, layer.c_out, &wt, layer.c_in, 1.0, dx)?;
    }
    Ok(())
}

/// `out[rows, d_out] = x[rows, d_in] · W + b`, in a buffer from `pool`.
fn dense_forward(layer: &Dense, x: &[f32], rows: usize, pool: &mut Pool) -> Result<Vec<f32>> {
    let mut out = pool.take(rows * layer.d_out);
    dense(x, layer.d_in, layer, rows, &mut out)?;
    Ok(out)
}

/// A dense layer's backward: its gradients into `g` from its input `x` and the output's
/// gradient `dy` (`[rows, d_out]`); returns the input's gradient `[rows, d_in]` (in a buffer
/// from `pool`).
fn dense_backward(
    layer: &Dense,
    x: &[f32],
    dy: &[f32],
    rows: usize,
    g: &mut Dense,
    pool: &mut Pool,
) -> Result<Vec<f32>> {
    let (d_in, d_out) = (layer.d_in, layer.d_out);
    let dy_view = view(dy, rows, d_out, d_out)?;
    gemm(view(x, rows, d_in, d_in)?.t(), dy_view, 0.0, &mut view_mut(&mut g.weight, d_in, d_out)?)?;
    g.bias.fill(0.0);
    for row in dy.chunks_exact(d_out) {
        add_bias(&mut g.bias, row);
    }
    let mut dx = pool.take(rows * d_in);
    gemm(
        dy_view,
        view(&layer.weight, d_in, d_out, d_out)?.t(),
        0.0,
        &mut view_mut(&mut dx, rows, d_in)?,
    )?;
    Ok(dx)
}

/// Softmax cross-entropy of one row against `target`, over the entries `legal` allows (all
/// when `None`); the row of logits is replaced by the loss's gradient times `scale`
/// (`softmax × Σ target - target` on allowed entries, 0 elsewhere). Returns the loss.
fn cross_entropy_row(
    logits: &mut [f32],
    target: &[f32],
    legal: Option<&[bool]>,
    scale: f32,
) -> f64 {
    let allowed = |i: usize| legal.is_none_or(|l| l[i]);
    let max = (0..logits.len()).filter(|&i| allowed(i)).map(|i| logits[i]).fold(f32::MIN, f32::max);
    let mut sum = 0.0f64;
    for (i, l) in logits.iter().enumerate() {
        if allowed(i) {
            sum += f64::from(l - max).exp();
        }
    }
    let log_sum = sum.ln() + f64::from(max);
    let total: f64 = target.iter().map(|&t| f64::from(t)).sum();
    let mut loss = 0.0;
    for (i, l) in logits.iter_mut().enumerate() {
        if allowed(i) {
            let log_p = f64::from(*l) - log_sum;
            let t = f64::from(target[i]);
            loss -= t * log_p;
            *l = ((log_p.exp() * total - t) * f64::from(scale)) as f32;
        } else {
            *l = 0.0;
        }
    }
    loss
}

/// A head on the value's hidden layer that the batch trains: its layer, its target and its
/// logits `[n, K]`.
type HiddenHead<'p, 't> = (&'p Dense, &'p AuxTerm<'t>, Vec<f32>);

/// The logits of the head `layer` on the value's hidden features `hidden` (`[n, hidden]`), when
/// the net has it and the batch has its `target`.
fn hidden_head<'p, 't>(
    layer: &'p Option<Dense>,
    target: &'p Option<AuxTerm<'t>>,
    hidden: &[f32],
    n: usize,
    pool: &mut Pool,
) -> Result<Option<HiddenHead<'p, 't>>> {
    match (layer, target) {
        (Some(layer), Some(target)) => {
            Ok(Some((layer, target, dense_forward(layer, hidden, n, pool)?)))
        }
        _ => Ok(None),
    }
}

/// The forward pass in training mode, the loss and every gradient for `batch` (which the caller
/// has validated against `p.config`). The activations' and gradients' buffers come from `pool`
/// and go back to it.
pub(crate) fn train_pass(
    p: &Params,
    grids: &Grids,
    eps: f64,
    batch: &TrainBatch<'_>,
    value_weight: f32,
    pool: &mut Pool,
) -> Result<PassOutput> {
    let s = &p.config.shape;
    let grid = s.height * s.width;
    let n = batch.batch;
    let rows = n * grid;
    let c = p.config.channels;
    let cells = s.cells.len();

    // [n, planes, HW] → [n × HW, planes]
    let pl = s.planes;
    let mut x0 = pool.take(rows * pl);
    let images = batch.planes.par_chunks_exact(pl * grid).zip(x0.par_chunks_exact_mut(pl * grid));
    images.for_each(|(image, out)| {
        for (plane_index, plane) in image.chunks_exact(grid).enumerate() {
            for (g, &v) in plane.iter().enumerate() {
                out[g * pl + plane_index] = v;
            }
        }
    });

    // Trunk: trunks[i] is the input of block i (trunks[0] the input layer's output).
    let mut tapes = Vec::with_capacity(2 * p.tower.len() + 3);
    let (mut trunk, tape) = conv_norm(grids, &p.input, &x0, rows, eps, pool)?;
    par_relu(&mut trunk);
    tapes.push(tape);
    let mut trunks = vec![trunk];
    let mut mids = Vec::with_capacity(p.tower.len());
    for [first, second] in &p.tower {
        let last = trunks.last().expect("the input layer's output");
        let (mut mid, tape) = conv_norm(grids, first, last, rows, eps, pool)?;
        par_relu(&mut mid);
        tapes.push(tape);
        let (mut next, tape) = conv_norm(grids, second, &mid, rows, eps, pool)?;
        add_relu(&mut next, last);
        tapes.push(tape);
        mids.push(mid);
        trunks.push(next);
    }
    let trunk = trunks.last().expect("the input layer's output");

    // Heads' 1×1 convolutions over the whole grid (their batch norms see every grid square).
    let ph = p.policy_hidden.c_out;
    let vc = p.value_reduce.c_out;
    let (mut policy_grid, policy_tape) =
        conv_norm(grids, &p.policy_hidden, trunk, rows, eps, pool)?;
    par_relu(&mut policy_grid);
    let (mut value_grid, value_tape) = conv_norm(grids, &p.value_reduce, trunk, rows, eps, pool)?;
    par_relu(&mut value_grid);
    let mut at_cells = |src: &[f32], width: usize| {
        let mut out = pool.take(n * cells * width);
        gather_cells(src, grid, width, &s.cells, &mut out);
        out
    };
    let policy_cells = at_cells(&policy_grid, ph); // [n × N, Ph]
    let value_cells = at_cells(&value_grid, vc); // [n × N, Vc] = [n, N × Vc]

    // Policy logits [n, N × P + 1].
    let pc = p.policy_out.d_out;
    let moves = dense_forward(&p.policy_out, &policy_cells, n * cells, pool)?;
    let mut pooled = vec![0.0; n * ph];
    for (image, out) in policy_cells.chunks_exact(cells * ph).zip(pooled.chunks_exact_mut(ph)) {
        for row in image.chunks_exact(ph) {
            add_bias(out, row);
        }
        out.iter_mut().for_each(|v| *v /= cells as f32);
    }
    let end = dense_forward(&p.end_move, &pooled, n, pool)?;
    let actions = cells * pc + 1;
    let mut policy = pool.take(n * actions);
    for ((out, m), e) in
        policy.chunks_exact_mut(actions).zip(moves.chunks_exact(cells * pc)).zip(&end)
    {
        out[..cells * pc].copy_from_slice(m);
        out[cells * pc] = *e;
    }

    // Value logits [n, V].
    let mut value_hidden = dense_forward(&p.value_hidden, &value_cells, n, pool)?;
    relu(&mut value_hidden);
    let mut value = dense_forward(&p.value_out, &value_hidden, n, pool)?;
    // Moves-left logits [n, K], when the batch trains the head (validated: the net has it).
    let mut moves_left = hidden_head(&p.moves_left_out, &batch.moves_left, &value_hidden, n, pool)?;

    // Losses; the logits become their gradients.
    let v = s.value_classes;
    let inv_n = 1.0 / n as f32;
    let mut policy_loss = 0.0;
    for ((row, target), legal) in policy
        .chunks_exact_mut(actions)
        .zip(batch.policy_target.chunks_exact(actions))
        .zip(batch.legal.chunks_exact(actions))
    {
        policy_loss += cross_entropy_row(row, target, Some(legal), inv_n);
    }
    let mut value_loss = 0.0;
    for (row, target) in value.chunks_exact_mut(v).zip(batch.value_target.chunks_exact(v)) {
        value_loss += cross_entropy_row(row, target, None, inv_n * value_weight);
    }
    // The moves-left head: one class distribution per position.
    let mut moves_left_loss = 0.0;
    let mut moves_left_weight = 0.0;
    if let Some((_, target, logits)) = &mut moves_left {
        let k = p.config.moves_left_classes;
        for (row, t) in logits.chunks_exact_mut(k).zip(target.target.chunks_exact(k)) {
            moves_left_loss += cross_entropy_row(row, t, None, inv_n * target.weight);
        }
        moves_left_weight = target.weight;
    }
    let (policy_loss, value_loss, moves_left_loss) = (
        (policy_loss / n as f64) as f32,
        (value_loss / n as f64) as f32,
        (moves_left_loss / n as f64) as f32,
    );
    let loss = LossStats {
        total: policy_loss + value_weight * value_loss + moves_left_weight * moves_left_loss,
        policy: policy_loss,
        value: value_loss,
        moves_left: moves_left_loss,
    };

    let mut g = p.zeros_like();
    // A moves-left head the batch does not train gets no gradient at all (as burn's autodiff
    // leaves an unused parameter), not a zero one that an optimizer's decay or momentum would
    // still act on.
    if moves_left.is_none() {
        g.moves_left_out = None;
    }

    // Value head backward (the moves-left head's gradient joins the value's at the hidden
    // layer).
    let mut d_hidden =
        dense_backward(&p.value_out, &value_hidden, &value, n, &mut g.value_out, pool)?;
    if let (Some((layer, _, logits)), Some(g_head)) = (&moves_left, &mut g.moves_left_out) {
        let d = dense_backward(layer, &value_hidden, logits, n, g_head, pool)?;
        d_hidden.iter_mut().zip(&d).for_each(|(a, b)| *a += b);
        pool.keep([d]);
    }
    relu_backward(&mut d_hidden, &value_hidden);
    let d_value_cells =
        dense_backward(&p.value_hidden, &value_cells, &d_hidden, n, &mut g.value_hidden, pool)?;

    // Policy head backward.
    let mut d_moves = pool.take(n * cells * pc);
    let mut d_end = pool.take(n);
    for ((row, dm), de) in
        policy.chunks_exact(actions).zip(d_moves.chunks_exact_mut(cells * pc)).zip(&mut d_end)
    {
        dm.copy_from_slice(&row[..cells * pc]);
        *de = row[cells * pc];
    }
    let mut d_policy_cells =
        dense_backward(&p.policy_out, &policy_cells, &d_moves, n * cells, &mut g.policy_out, pool)?;
    let d_pooled = dense_backward(&p.end_move, &pooled, &d_end, n, &mut g.end_move, pool)?;

    for (image, dp) in d_policy_cells.chunks_exact_mut(cells * ph).zip(d_pooled.chunks_exact(ph)) {
        for row in image.chunks_exact_mut(ph) {
            for (r, d) in row.iter_mut().zip(dp) {
                *r += d / cells as f32;
            }
        }
    }

    // Back to the grid, through the heads' ReLUs, batch norms and 1×1 convolutions.
    let mut to_grid = |src: &[f32], width: usize| {
        let mut out = pool.zeros(rows * width);
        for (image, dst) in src.chunks_exact(cells * width).zip(out.chunks_exact_mut(grid * width))
        {
            for (&g, row) in s.cells.iter().zip(image.chunks_exact(width)) {
                let g = usize::from(g) * width;
                dst[g..g + width].copy_from_slice(row);
            }
        }
        out
    };
    let mut d_policy_grid = to_grid(&d_policy_cells, ph);
    let mut d_value_grid = to_grid(&d_value_cells, vc);
    let mut d_trunk = pool.zeros(rows * c);
    relu_backward(&mut d_policy_grid, &policy_grid);
    conv_norm_backward(
        grids,
        &p.policy_hidden,
        &policy_tape,
        trunk,
        &mut d_policy_grid,
        &mut g.policy_hidden,
        Some(&mut d_trunk),
    )?;
    relu_backward(&mut d_value_grid, &value_grid);
    conv_norm_backward(
        grids,
        &p.value_reduce,
        &value_tape,
        trunk,
        &mut d_value_grid,
        &mut g.value_reduce,
        Some(&mut d_trunk),
    )?;

    // The tower, last block first: trunks[i + 1] = relu(bn2(conv2(mids[i])) + trunks[i]).
    for (i, ([first, second], [g_first, g_second])) in
        p.tower.iter().zip(&mut g.tower).enumerate().rev()
    {
        relu_backward(&mut d_trunk, &trunks[i + 1]); // now the gradient of the sum, and of the skip
        let mut d_mid = pool.zeros(rows * c);
        let mut d_sum = pool.copy(&d_trunk); // overwritten below; d_trunk is the skip's
        conv_norm_backward(
            grids,
            second,
            &tapes[2 + 2 * i],
            &mids[i],
            &mut d_sum,
            g_second,
            Some(&mut d_mid),
        )?;
        relu_backward(&mut d_mid, &mids[i]);
        conv_norm_backward(
            grids,
            first,
            &tapes[1 + 2 * i],
            &trunks[i],
            &mut d_mid,
            g_first,
            Some(&mut d_trunk),
        )?;
        pool.keep([d_sum, d_mid]);
    }
    relu_backward(&mut d_trunk, &trunks[0]);
    conv_norm_backward(grids, &p.input, &tapes[0], &x0, &mut d_trunk, &mut g.input, None)?;

    tapes.push(policy_tape);
    tapes.push(value_tape);
    let mut norm_stats = Vec::with_capacity(tapes.len());
    for tape in tapes {
        pool.keep([tape.xhat]);
        norm_stats.push((tape.mean, tape.var));
    }
    pool.keep(trunks.into_iter().chain(mids));
    pool.keep([x0, policy_grid, value_grid, policy_cells, value_cells, moves, end, policy]);
    pool.keep([value_hidden, value, d_hidden, d_value_cells, d_moves, d_end]);
    pool.keep(moves_left.into_iter().map(|(_, _, logits)| logits));
    pool.keep([d_policy_cells, d_pooled, d_policy_grid, d_value_grid, d_trunk]);
    Ok(PassOutput { loss, grads: g, norm_stats })
}
