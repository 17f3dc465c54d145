//! Training-mode layers on channels-last activations (`[positions × H × W, C]`, row
//! `b × H × W + y × W + x`): a "same" convolution forward and both its backward products, and
//! batch norm with batch statistics forward and backward.
//!
//! The convolutions run im2col + SGEMM over chunks of [`CHUNK`] positions spread over rayon's
//! threads (as the inference engine does, so the im2col buffer stays near the cache); the
//! weight gradient is summed over the chunks. The element-wise passes (batch norm, ReLU) run
//! over pieces of [`PIECE_ROWS`] rows on rayon's threads too; their sums are taken per piece
//! and added in piece order, so results do not depend on the thread count or the scheduling.

use std::cell::RefCell;

use ndarray::{ArrayView2, ArrayViewMut2, ShapeBuilder, linalg::general_mat_mul};
use rayon::prelude::*;

use crate::error::{ModelError, Result};
use crate::native::kernels::{Taps, relu, take};

/// Positions per chunk of a convolution.
const CHUNK: usize = 4;

/// Rows (grid squares) per piece of an element-wise pass: 32K values at 32 channels, so a
/// Camelot batch of 128 is ~24 pieces to share between the threads.
const PIECE_ROWS: usize = 1024;

/// Values per piece of a pass that does not know the channel count.
const PIECE_VALUES: usize = PIECE_ROWS * 32;

thread_local! {
    /// Each thread's im2col buffer, kept between the convolutions and the steps: a fresh one
    /// per rayon job was a page-faulted allocation each time.
    static COLUMNS: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// `f` with this thread's im2col buffer, `len` values long (contents unspecified).
fn with_columns<T>(len: usize, f: impl FnOnce(&mut [f32]) -> T) -> T {
    COLUMNS.with(|cols| f(take(&mut cols.borrow_mut(), len)))
}

/// A row-major `[rows, cols]` view of `data` with row stride `ld` (≥ `cols`).
pub(crate) fn view(
    data: &[f32],
    rows: usize,
    cols: usize,
    ld: usize,
) -> Result<ArrayView2<'_, f32>> {
    let len = if rows == 0 { 0 } else { (rows - 1) * ld + cols };
    let data = data.get(..len).ok_or_else(|| short("input", data.len(), len))?;
    ArrayView2::from_shape((rows, cols).strides((ld, 1)), data).map_err(shape_error)
}

/// A row-major `[rows, cols]` mutable view of `data` (contiguous rows).
pub(crate) fn view_mut(
    data: &mut [f32],
    rows: usize,
    cols: usize,
) -> Result<ArrayViewMut2<'_, f32>> {
    let have = data.len();
    let data = data.get_mut(..rows * cols).ok_or_else(|| short("output", have, rows * cols))?;
    ArrayViewMut2::from_shape((rows, cols), data).map_err(shape_error)
}

fn short(what: &str, have: usize, need: usize) -> ModelError {
    ModelError::InvalidShape(format!("native training: {what} holds {have} values, needs {need}"))
}

fn shape_error(e: ndarray::ShapeError) -> ModelError {
    ModelError::InvalidShape(format!("native training: {e}"))
}

/// `c (+)= a · b` where each operand may be transposed: `c` is `[m, n]`; `beta` 0 overwrites.
pub(crate) fn gemm(
    a: ArrayView2<'_, f32>,
    b: ArrayView2<'_, f32>,
    beta: f32,
    c: &mut ArrayViewMut2<'_, f32>,
) -> Result<()> {
    if a.ncols() != b.nrows() || c.nrows() != a.nrows() || c.ncols() != b.ncols() {
        return Err(ModelError::InvalidShape(format!(
            "native training: product {:?} · {:?} into {:?}",
            a.dim(),
            b.dim(),
            c.dim()
        )));
    }
    general_mat_mul(1.0, &a, &b, beta, c);
    Ok(())
}

/// The rows of `x` per chunk of positions.
fn chunk_rows(taps: &Taps) -> usize {
    CHUNK * taps.grid()
}

/// `out = beta · out + im2col(x) · w`: `x` `[rows, c_in]`, `w` `[k² c_in, c_out]`, `out`
/// `[rows, c_out]`.
///
/// The forward pass is `beta = 0` (overwritten). The input gradient is the same convolution of
/// `dz` with the mirrored kernel, added to `dx` (`beta = 1`): `taps` is then `taps.mirrored()`
/// and `w` the weight regrouped by [`transpose_taps`] (`[k² c_out, c_in]`), so there is no
/// scatter.
pub(crate) fn conv(
    taps: &Taps,
    x: &[f32],
    c_in: usize,
    w: &[f32],
    c_out: usize,
    beta: f32,
    out: &mut [f32],
) -> Result<()> {
    let k = taps.count() * c_in;
    let w = view(w, k, c_out, c_out)?;
    let step = chunk_rows(taps);
    out.par_chunks_mut(step * c_out).zip(x.par_chunks(step * c_in)).try_for_each(|(out, x)| {
        let rows = x.len() / c_in;
        with_columns(rows * k, |cols| {
            taps.im2col(x, c_in, cols);
            gemm(view(cols, rows, k, k)?, w, beta, &mut view_mut(out, rows, c_out)?)
        })
    })
}

/// `dw = im2col(x)ᵀ · dz` (overwritten): `dw` `[k² c_in, c_out]`.
///
/// Each chunk's product is computed apart and the products are summed in chunk order, so the
/// result does not depend on how rayon spread the chunks (training stays reproducible).
pub(crate) fn conv_weight_grad(
    taps: &Taps,
    x: &[f32],
    c_in: usize,
    dz: &[f32],
    c_out: usize,
    dw: &mut [f32],
) -> Result<()> {
    let k = taps.count() * c_in;
    let step = chunk_rows(taps);
    let partials = x
        .par_chunks(step * c_in)
        .zip(dz.par_chunks(step * c_out))
        .map(|(x, dz)| {
            let rows = x.len() / c_in;
            let mut part = vec![0.0f32; k * c_out];
            with_columns(rows * k, |cols| {
                taps.im2col(x, c_in, cols);
                let a = view(cols, rows, k, k)?;
                gemm(a.t(), view(dz, rows, c_out, c_out)?, 0.0, &mut view_mut(&mut part, k, c_out)?)
            })?;
            Ok(part)
        })
        .collect::<Result<Vec<_>>>()?;
    let have = dw.len();
    let dw = dw.get_mut(..k * c_out).ok_or_else(|| short("weight gradient", have, k * c_out))?;
    dw.fill(0.0);
    for part in &partials {
        dw.iter_mut().zip(part).for_each(|(a, b)| *a += b);
    }
    Ok(())
}

/// Regroups a convolution weight `[taps × c_in, c_out]` into `[taps × c_out, c_in]` (each
/// tap's block transposed), the weight of the input gradient
/// ([`conv`] with the mirrored taps).
pub(crate) fn transpose_taps(w: &[f32], taps: usize, c_in: usize, c_out: usize) -> Vec<f32> {
    let mut t = vec![0.0; w.len()];
    for tap in 0..taps {
        for ci in 0..c_in {
            for co in 0..c_out {
                t[(tap * c_out + co) * c_in + ci] = w[(tap * c_in + ci) * c_out + co];
            }
        }
    }
    t
}

/// What a batch norm's forward pass keeps for the backward one.
#[derive(Debug, Default)]
pub(crate) struct NormTape {
    /// The normalised input, `[rows, c]`.
    pub xhat: Vec<f32>,
    /// `1 / sqrt(var + eps)` per channel.
    pub inv_std: Vec<f32>,
    /// The batch mean and biased variance per channel (for the running statistics).
    pub mean: Vec<f32>,
    pub var: Vec<f32>,
}

/// Batch norm with the batch's statistics: `z` `[rows, c]` is normalised in place into
/// `tape.xhat` and `y = gamma × xhat + beta` written to `y`.
pub(crate) fn norm_forward(
    z: Vec<f32>,
    gamma: &[f32],
    beta: &[f32],
    eps: f64,
    y: &mut [f32],
    tape: &mut NormTape,
) {
    let c = gamma.len();
    let rows = z.len() / c;
    let [sum, sq] = channel_sums(
        c,
        z.par_chunks(PIECE_ROWS * c).map(|piece| {
            let (mut sum, mut sq) = (vec![0.0f64; c], vec![0.0f64; c]);
            for row in piece.chunks_exact(c) {
                for ((s, q), &v) in sum.iter_mut().zip(sq.iter_mut()).zip(row) {
                    let v = f64::from(v);
                    *s += v;
                    *q += v * v;
                }
            }
            [sum, sq]
        }),
    );
    let n = rows.max(1) as f64;
    let mean: Vec<f64> = sum.iter().map(|s| s / n).collect();
    let var: Vec<f64> = sq.iter().zip(&mean).map(|(q, m)| (q / n - m * m).max(0.0)).collect();
    let inv_std: Vec<f32> = var.iter().map(|v| (1.0 / (v + eps).sqrt()) as f32).collect();
    let mean32: Vec<f32> = mean.iter().map(|&m| m as f32).collect();
    let mut xhat = z;
    xhat.par_chunks_mut(PIECE_ROWS * c).zip(y.par_chunks_mut(PIECE_ROWS * c)).for_each(
        |(xhat, y)| {
            for (row, out) in xhat.chunks_exact_mut(c).zip(y.chunks_exact_mut(c)) {
                // Zipped rather than indexed, so that the loop vectorises.
                let per_channel = mean32.iter().zip(&inv_std).zip(gamma.iter().zip(beta));
                for ((v, o), ((m, s), (g, b))) in row.iter_mut().zip(out).zip(per_channel) {
                    let h = (*v - m) * s;
                    *v = h;
                    *o = g * h + b;
                }
            }
        },
    );
    tape.xhat = xhat;
    tape.inv_std = inv_std;
    tape.mean = mean32;
    tape.var = var.iter().map(|&v| v as f32).collect();
}

/// Two per-channel sums over all pieces: each piece's sums (`[2][c]`, in f64), added in piece
/// order.
fn channel_sums(
    c: usize,
    pieces: impl IndexedParallelIterator<Item = [Vec<f64>; 2]>,
) -> [Vec<f64>; 2] {
    let pieces: Vec<[Vec<f64>; 2]> = pieces.collect();
    let mut total = [vec![0.0f64; c], vec![0.0f64; c]];
    for piece in &pieces {
        for (t, p) in total.iter_mut().zip(piece) {
            t.iter_mut().zip(p).for_each(|(a, b)| *a += b);
        }
    }
    total
}

/// Batch norm backward, in place: `dy` (the gradient of the output) becomes the gradient of the
/// input; the gradients of `gamma` and `beta` are written to `dgamma` and `dbeta`.
pub(crate) fn norm_backward(
    dy: &mut [f32],
    gamma: &[f32],
    tape: &NormTape,
    dgamma: &mut [f32],
    dbeta: &mut [f32],
) {
    let c = gamma.len();
    let rows = dy.len() / c;
    let piece = PIECE_ROWS * c;
    let [dg, db] = channel_sums(
        c,
        dy.par_chunks(piece).zip(tape.xhat.par_chunks(piece)).map(|(dy, xhat)| {
            let (mut dg, mut db) = (vec![0.0f64; c], vec![0.0f64; c]);
            for (d, h) in dy.chunks_exact(c).zip(xhat.chunks_exact(c)) {
                for (((g, b), &d), &h) in dg.iter_mut().zip(db.iter_mut()).zip(d).zip(h) {
                    *g += f64::from(d) * f64::from(h);
                    *b += f64::from(d);
                }
            }
            [dg, db]
        }),
    );
    let n = rows.max(1) as f64;
    let scale: Vec<f32> = (0..c).map(|ch| gamma[ch] * tape.inv_std[ch]).collect();
    let mean_db: Vec<f32> = db.iter().map(|&v| (v / n) as f32).collect();
    let mean_dg: Vec<f32> = dg.iter().map(|&v| (v / n) as f32).collect();
    dy.par_chunks_mut(piece).zip(tape.xhat.par_chunks(piece)).for_each(|(dy, xhat)| {
        for (d, h) in dy.chunks_exact_mut(c).zip(xhat.chunks_exact(c)) {
            let per_channel = scale.iter().zip(&mean_db).zip(&mean_dg);
            for ((d, &h), ((s, mdb), mdg)) in d.iter_mut().zip(h).zip(per_channel) {
                *d = s * (*d - mdb - h * mdg);
            }
        }
    });
    for ch in 0..c {
        dgamma[ch] = dg[ch] as f32;
        dbeta[ch] = db[ch] as f32;
    }
}

/// `d = 0` wherever the ReLU's output `y` is not positive (on rayon's threads).
pub(crate) fn relu_backward(d: &mut [f32], y: &[f32]) {
    let piece = PIECE_VALUES;
    d.par_chunks_mut(piece).zip(y.par_chunks(piece)).for_each(|(d, y)| {
        // A select rather than a branch, so that the loop vectorises.
        for (d, &y) in d.iter_mut().zip(y) {
            *d = if y > 0.0 { *d } else { 0.0 };
        }
    });
}

/// `x = max(x, 0)` in place, on rayon's threads.
pub(crate) fn par_relu(x: &mut [f32]) {
    x.par_chunks_mut(PIECE_VALUES).for_each(relu);
}

/// `x = max(x + skip, 0)` in place (a residual block's output), on rayon's threads.
pub(crate) fn add_relu(x: &mut [f32], skip: &[f32]) {
    let piece = PIECE_VALUES;
    x.par_chunks_mut(piece).zip(skip.par_chunks(piece)).for_each(|(x, skip)| {
        for (x, s) in x.iter_mut().zip(skip) {
            *x = (*x + s).max(0.0);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The convolution as a sum over taps, the definition the layers must match.
    fn naive_conv(taps: &Taps, x: &[f32], c_in: usize, w: &[f32], c_out: usize) -> Vec<f32> {
        let k = taps.count() * c_in;
        let rows = x.len() / c_in;
        let mut cols = vec![0.0; rows * k];
        taps.im2col(x, c_in, &mut cols);
        let mut z = vec![0.0; rows * c_out];
        for r in 0..rows {
            for co in 0..c_out {
                z[r * c_out + co] = (0..k).map(|j| cols[r * k + j] * w[j * c_out + co]).sum();
            }
        }
        z
    }

    fn data(len: usize, seed: usize) -> Vec<f32> {
        (0..len).map(|i| (((i * 7 + seed * 13) % 23) as f32 - 11.0) / 8.0).collect()
    }

    #[test]
    fn convolution_gradients_match_finite_differences_of_a_linear_form() {
        // loss = Σ g ⊙ conv(x, w) is linear, so its gradients are exact: dL/dw = im2col(x)ᵀ g
        // and dL/dx[i] = loss(x + e_i) - loss(x) for a unit step e_i.
        let (h, w_, c_in, c_out, n) = (3, 4, 2, 3, 5);
        let taps = Taps::new(h, w_, 3);
        let rows = n * h * w_;
        let x = data(rows * c_in, 1);
        let w = data(9 * c_in * c_out, 2);
        let g = data(rows * c_out, 3);
        let loss = |x: &[f32], w: &[f32]| -> f64 {
            let z = naive_conv(&taps, x, c_in, w, c_out);
            z.iter().zip(&g).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum()
        };
        let mut z = vec![0.0; rows * c_out];
        conv(&taps, &x, c_in, &w, c_out, 0.0, &mut z).unwrap();
        assert_eq!(z, naive_conv(&taps, &x, c_in, &w, c_out));

        let mut dw = vec![0.0; w.len()];
        conv_weight_grad(&taps, &x, c_in, &g, c_out, &mut dw).unwrap();
        let mut dx = vec![0.0; x.len()];
        let wt = transpose_taps(&w, 9, c_in, c_out);
        conv(&taps.mirrored(), &g, c_out, &wt, c_in, 1.0, &mut dx).unwrap();
        let base = loss(&x, &w);
        for i in 0..w.len() {
            let mut bumped = w.clone();
            bumped[i] += 1.0;
            assert!((loss(&x, &bumped) - base - f64::from(dw[i])).abs() < 1e-3, "dw[{i}]");
        }
        for i in 0..x.len() {
            let mut bumped = x.clone();
            bumped[i] += 1.0;
            assert!((loss(&bumped, &w) - base - f64::from(dx[i])).abs() < 1e-3, "dx[{i}]");
        }
    }

    #[test]
    fn batch_norm_backward_matches_finite_differences() {
        let (rows, c) = (10, 3);
        let z = data(rows * c, 4);
        let gamma = [0.5, -1.5, 2.0];
        let beta = [0.1, 0.2, -0.3];
        let g = data(rows * c, 5);
        let loss = |z: &[f32], gamma: &[f32], beta: &[f32]| -> f64 {
            let mut y = vec![0.0; z.len()];
            norm_forward(z.to_vec(), gamma, beta, 1e-5, &mut y, &mut NormTape::default());
            y.iter().zip(&g).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum()
        };
        let mut y = vec![0.0; z.len()];
        let mut tape = NormTape::default();
        norm_forward(z.clone(), &gamma, &beta, 1e-5, &mut y, &mut tape);
        let mut dz = g.clone();
        let (mut dgamma, mut dbeta) = ([0.0; 3], [0.0; 3]);
        norm_backward(&mut dz, &gamma, &tape, &mut dgamma, &mut dbeta);
        let eps = 1e-2;
        let numeric = |f: &dyn Fn(f32) -> f64| (f(eps) - f(-eps)) / (2.0 * f64::from(eps));
        for i in 0..z.len() {
            let d = numeric(&|e| {
                let mut b = z.clone();
                b[i] += e;
                loss(&b, &gamma, &beta)
            });
            assert!(
                (d - f64::from(dz[i])).abs() < 2e-2 * (1.0 + d.abs()),
                "dz[{i}] {d} vs {}",
                dz[i]
            );
        }
        for ch in 0..c {
            let d = numeric(&|e| {
                let mut b = gamma;
                b[ch] += e;
                loss(&z, &b, &beta)
            });
            assert!((d - f64::from(dgamma[ch])).abs() < 1e-2 * (1.0 + d.abs()), "dgamma[{ch}]");
            let d = numeric(&|e| {
                let mut b = beta;
                b[ch] += e;
                loss(&z, &gamma, &b)
            });
            assert!((d - f64::from(dbeta[ch])).abs() < 1e-2 * (1.0 + d.abs()), "dbeta[{ch}]");
        }
    }
}
