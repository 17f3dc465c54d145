//! Reading burn tensors back into plain vectors: the one way out of burn for inference, the
//! native engine's weight folding, exports and training statistics.

use burn::tensor::Tensor;

use crate::error::{ModelError, Result};

/// Reads a float tensor back into a `Vec<f32>` (row-major, the tensor's own element order).
pub(crate) fn to_vec<const D: usize>(t: Tensor<D>) -> Result<Vec<f32>> {
    t.into_data().try_into_vec_as::<f32>().map_err(|e| ModelError::Readback(format!("{e:?}")))
}
