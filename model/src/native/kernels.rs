//! The native engine's building blocks on plain channels-last `f32` buffers: the SGEMM call,
//! im2col, bias fills and ReLU.
//!
//! An activation is `[rows, C]` row-major, one row per (position, grid square):
//! row `b × H × W + y × W + x`.

use ndarray::{ArrayView2, ArrayViewMut2, ShapeBuilder, linalg::general_mat_mul};

use crate::error::{ModelError, Result};

/// `c[m, n] += a[m, k] · b[k, n]`, all row-major; `a` may have a row stride `lda ≥ k`.
///
/// The SGEMM is matrixmultiply's (through ndarray's safe views), on the calling thread.
pub(crate) fn gemm_acc(
    a: &[f32],
    lda: usize,
    b: &[f32],
    c: &mut [f32],
    (m, k, n): (usize, usize, usize),
) -> Result<()> {
    let bad = |e: ndarray::ShapeError| ModelError::InvalidShape(format!("native gemm: {e}"));
    let a_len = if m == 0 { 0 } else { (m - 1) * lda + k };
    let a = ArrayView2::from_shape((m, k).strides((lda, 1)), a.get(..a_len).unwrap_or(a))
        .map_err(bad)?;
    let b = ArrayView2::from_shape((k, n), b.get(..k * n).unwrap_or(b)).map_err(bad)?;
    let len = m * n;
    let c_len = c.len();
    let mut c = ArrayViewMut2::from_shape(
        (m, n),
        c.get_mut(..len).ok_or_else(|| {
            ModelError::InvalidShape(format!("native gemm: output holds {c_len}, needs {len}"))
        })?,
    )
    .map_err(bad)?;
    general_mat_mul(1.0, &a, &b, 1.0, &mut c);
    Ok(())
}

/// `buf[..len]`, growing `buf` if it is shorter (scratch buffers only grow).
pub(crate) fn take(buf: &mut Vec<f32>, len: usize) -> &mut [f32] {
    if buf.len() < len {
        buf.resize(len, 0.0);
    }
    &mut buf[..len]
}

/// Sets every row of `out` (`[rows, bias.len()]`) to `bias`.
pub(crate) fn fill_bias(out: &mut [f32], bias: &[f32]) {
    for row in out.chunks_exact_mut(bias.len()) {
        row.copy_from_slice(bias);
    }
}

/// Adds `bias` to every row of `out` (`[rows, bias.len()]`).
pub(crate) fn add_bias(out: &mut [f32], bias: &[f32]) {
    for row in out.chunks_exact_mut(bias.len()) {
        for (o, b) in row.iter_mut().zip(bias) {
            *o += b;
        }
    }
}

/// Gathers the board's cells of each image: `src` `[n × grid, width]` (channels last) →
/// `out` `[n × cells.len(), width]`, `cells` the flat grid index of each cell.
pub(crate) fn gather_cells(src: &[f32], grid: usize, width: usize, cells: &[u16], out: &mut [f32]) {
    let images = src.chunks_exact(grid * width).zip(out.chunks_exact_mut(cells.len() * width));
    for (image, dst) in images {
        for (&g, row) in cells.iter().zip(dst.chunks_exact_mut(width)) {
            let g = usize::from(g) * width;
            row.copy_from_slice(&image[g..g + width]);
        }
    }
}

/// `x = max(x, 0)` in place.
pub(crate) fn relu(x: &mut [f32]) {
    for v in x {
        *v = v.max(0.0);
    }
}

/// Where each tap of a `kernel × kernel` "same"-padded convolution reads from, per grid square.
#[derive(Debug, Clone)]
pub(crate) struct Taps {
    /// Kernel side.
    pub kernel: usize,
    /// `[H × W, kernel²]`: the source grid square of each tap, or `None` off the grid.
    source: Vec<Option<u32>>,
}

impl Taps {
    /// The taps of a `kernel × kernel` convolution (odd `kernel`) on a `height × width` grid.
    pub fn new(height: usize, width: usize, kernel: usize) -> Self {
        let r = (kernel / 2) as isize;
        let mut source = Vec::with_capacity(height * width * kernel * kernel);
        for y in 0..height as isize {
            for x in 0..width as isize {
                for dy in -r..=r {
                    for dx in -r..=r {
                        let (sy, sx) = (y + dy, x + dx);
                        let on =
                            (0..height as isize).contains(&sy) && (0..width as isize).contains(&sx);
                        source.push(on.then(|| (sy as usize * width + sx as usize) as u32));
                    }
                }
            }
        }
        Taps { kernel, source }
    }

    /// Taps per grid square (`kernel²`).
    pub fn count(&self) -> usize {
        self.kernel * self.kernel
    }

    /// Grid squares per position (`H × W`).
    pub fn grid(&self) -> usize {
        self.source.len() / self.count()
    }

    /// The same taps in the mirrored order (tap `t` reads where tap `kernel² - 1 - t` did):
    /// im2col through these and a convolution with the weight's taps regrouped is the
    /// convolution's transpose, its input gradient.
    pub fn mirrored(&self) -> Taps {
        let mut source = self.source.clone();
        for square in source.chunks_exact_mut(self.count()) {
            square.reverse();
        }
        Taps { kernel: self.kernel, source }
    }

    /// im2col: `x` `[batch × HW, c]` → `cols` `[batch × HW, kernel² × c]`, column
    /// `tap × c + channel`, zero where a tap falls off the grid.
    pub fn im2col(&self, x: &[f32], c: usize, cols: &mut [f32]) {
        let kk = self.kernel * self.kernel;
        let grid = self.source.len() / kk;
        let image = grid * c;
        for (image_x, image_cols) in x.chunks_exact(image).zip(cols.chunks_exact_mut(image * kk)) {
            for (taps, row) in self.source.chunks_exact(kk).zip(image_cols.chunks_exact_mut(kk * c))
            {
                for (tap, dst) in taps.iter().zip(row.chunks_exact_mut(c)) {
                    match tap {
                        Some(s) => {
                            let s = *s as usize * c;
                            dst.copy_from_slice(&image_x[s..s + c]);
                        }
                        None => dst.fill(0.0),
                    }
                }
            }
        }
    }
}

/// Softmax of one row, in place (the maximum is subtracted first).
pub(crate) fn softmax_in_place(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in row.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in row.iter_mut() {
        *x /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemm_matches_a_naive_product() {
        let (m, k, n, lda) = (5, 3, 4, 6);
        let a: Vec<f32> = (0..m * lda).map(|i| (i % 7) as f32 - 3.0).collect();
        let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 * 0.5).collect();
        let mut c = vec![1.0; m * n];
        gemm_acc(&a, lda, &b, &mut c, (m, k, n)).unwrap();
        for i in 0..m {
            for j in 0..n {
                let want: f32 = 1.0 + (0..k).map(|p| a[i * lda + p] * b[p * n + j]).sum::<f32>();
                assert_eq!(c[i * n + j], want);
            }
        }
        assert!(gemm_acc(&a, lda, &b, &mut c[..3], (m, k, n)).is_err());
    }

    #[test]
    fn im2col_pads_with_zeros() {
        // 2×2 grid, 1 channel, values 1..4: the top-left square's 3×3 window.
        let taps = Taps::new(2, 2, 3);
        let x = [1.0, 2.0, 3.0, 4.0];
        let mut cols = vec![9.0; 4 * 9];
        taps.im2col(&x, 1, &mut cols);
        assert_eq!(&cols[..9], &[0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 3.0, 4.0]);
        assert_eq!(&cols[27..], &[1.0, 2.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0]);
    }
}
