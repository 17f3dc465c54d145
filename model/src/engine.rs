//! Which code computes a [`Predictor`](crate::Predictor)'s forward pass.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::device::DeviceKind;
use crate::error::{ModelError, Result};

/// The inference engine behind a [`Predictor`](crate::Predictor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InferenceEngine {
    /// burn's `Net::forward` on the predictor's device (CPU or GPU).
    Burn,
    /// The native CPU engine ([`NativeNet`](crate::native::NativeNet)): im2col + SGEMM with
    /// folded batch norms. CPU only.
    Native,
}

impl InferenceEngine {
    /// The default for a device: `Native` on the CPU, `Burn` on the GPU.
    pub fn default_for(kind: DeviceKind) -> Self {
        match kind {
            DeviceKind::Cpu => InferenceEngine::Native,
            DeviceKind::Gpu => InferenceEngine::Burn,
        }
    }
}

impl fmt::Display for InferenceEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InferenceEngine::Burn => "burn",
            InferenceEngine::Native => "native",
        })
    }
}

impl FromStr for InferenceEngine {
    type Err = ModelError;

    /// Parses `"burn"` or `"native"` (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "burn" => Ok(InferenceEngine::Burn),
            "native" => Ok(InferenceEngine::Native),
            _ => Err(ModelError::InvalidArgument(format!(
                "unknown inference engine {s:?}; expected \"burn\" or \"native\""
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_defaults() {
        assert_eq!(serde_json::to_string(&InferenceEngine::Native).unwrap(), "\"native\"");
        assert_eq!(
            serde_json::from_str::<InferenceEngine>("\"burn\"").unwrap(),
            InferenceEngine::Burn
        );
        assert_eq!(" Native".parse::<InferenceEngine>().unwrap(), InferenceEngine::Native);
        assert!("onnx".parse::<InferenceEngine>().is_err());
        assert_eq!(InferenceEngine::default_for(DeviceKind::Cpu), InferenceEngine::Native);
        assert_eq!(InferenceEngine::default_for(DeviceKind::Gpu), InferenceEngine::Burn);
    }
}
