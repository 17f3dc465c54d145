//! Buffers kept from one training step to the next.
//!
//! A step allocates some forty activation-sized buffers (3 MB each for Camelot's b4c32 at batch
//! 128). Taken fresh from the allocator every step, their pages were faulted in and cleared by
//! the kernel each time; from the pool, the same memory comes back warm.

/// Spare `f32` buffers: [`zeros`](Pool::zeros) and [`take`](Pool::take) hand one out,
/// [`keep`](Pool::keep) takes it back.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    spare: Vec<Vec<f32>>,
}

impl Pool {
    /// `len` zeros, in the smallest spare buffer that holds them (a new one if none does).
    ///
    /// For buffers that are accumulated into or written in part.
    pub fn zeros(&mut self, len: usize) -> Vec<f32> {
        let mut buf = self.smallest_fit(len);
        buf.clear();
        buf.resize(len, 0.0);
        buf
    }

    /// `len` values left over from an earlier step (zeros where the buffer is new or grows),
    /// in the smallest spare buffer that holds them.
    ///
    /// Only for buffers the caller overwrites in full before reading: clearing them would be
    /// a pass over activation-sized memory that buys nothing.
    pub fn take(&mut self, len: usize) -> Vec<f32> {
        let mut buf = self.smallest_fit(len);
        buf.resize(len, 0.0);
        buf
    }

    /// A copy of `values` in a spare buffer.
    pub fn copy(&mut self, values: &[f32]) -> Vec<f32> {
        let mut buf = self.take(values.len());
        buf.copy_from_slice(values);
        buf
    }

    /// The smallest spare buffer with room for `len` values, or a new empty one.
    fn smallest_fit(&mut self, len: usize) -> Vec<f32> {
        let fit = self
            .spare
            .iter()
            .enumerate()
            .filter(|(_, b)| b.capacity() >= len)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, _)| i);
        fit.map_or_else(|| Vec::with_capacity(len), |i| self.spare.swap_remove(i))
    }

    /// Takes `buffers` back for later calls.
    pub fn keep(&mut self, buffers: impl IntoIterator<Item = Vec<f32>>) {
        self.spare.extend(buffers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_buffer_comes_back_zeroed_and_the_smallest_fit_is_chosen() {
        let mut pool = Pool::default();
        let mut big = pool.zeros(1000);
        big.fill(7.0);
        let big_ptr = big.as_ptr();
        let small = vec![3.0; 10];
        let small_ptr = small.as_ptr();
        pool.keep([big, small]);

        let a = pool.zeros(8);
        assert_eq!(a, vec![0.0; 8]);
        assert_eq!(a.as_ptr(), small_ptr, "the 10-value buffer fits 8 best");
        let b = pool.zeros(900);
        assert_eq!(b.as_ptr(), big_ptr);
        assert!(b.iter().all(|&v| v == 0.0));
        let c = pool.copy(&[1.0, 2.0]);
        assert_eq!(c, vec![1.0, 2.0]);
    }

    #[test]
    fn take_reuses_the_smallest_fit_without_clearing_it_and_zeroes_only_growth() {
        let mut pool = Pool::default();
        let fresh = pool.take(4);
        assert_eq!(fresh, vec![0.0; 4], "a new buffer is zeros");
        let mut short = Vec::with_capacity(10);
        short.extend([5.0; 3]);
        let short_ptr = short.as_ptr();
        pool.keep([vec![9.0; 100], short]);

        let a = pool.take(6);
        assert_eq!(a.as_ptr(), short_ptr, "the smaller buffer fits 6");
        assert_eq!(a, vec![5.0, 5.0, 5.0, 0.0, 0.0, 0.0], "old values kept, growth zeroed");
        let b = pool.take(50);
        assert_eq!(b, vec![9.0; 50], "truncated, not cleared");
    }
}
