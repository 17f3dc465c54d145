//! Which code computes the network: a [`Predictor`](crate::Predictor)'s forward pass and a
//! [`Trainer`](crate::Trainer)'s gradients.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::device::DeviceKind;
use crate::error::{ModelError, Result};

/// The code behind a [`Predictor`](crate::Predictor) or a [`Trainer`](crate::Trainer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NetEngine {
    /// burn's `Net::forward` on the device (CPU or GPU), and burn's autodiff for gradients.
    Burn,
    /// The native CPU code: for inference [`NativeNet`](crate::native::NativeNet), im2col +
    /// SGEMM with folded batch norms; for training the same products forward and backward with
    /// batch statistics, burn keeping the parameters and the optimizer. CPU only.
    Native,
}

impl NetEngine {
    /// Checks the engine runs on `kind`: the native engine is CPU only
    /// ([`ModelError::InvalidArgument`] with the GPU; `what` names the use, e.g. "inference").
    pub fn check_device(self, kind: DeviceKind, what: &str) -> Result<()> {
        match (self, kind) {
            (NetEngine::Native, DeviceKind::Gpu) => Err(ModelError::InvalidArgument(format!(
                "the native engine's {what} runs on the CPU only; use the burn engine on the GPU"
            ))),
            _ => Ok(()),
        }
    }

    /// The default for a device: `Native` on the CPU, `Burn` on the GPU.
    pub fn default_for(kind: DeviceKind) -> Self {
        match kind {
            DeviceKind::Cpu => NetEngine::Native,
            DeviceKind::Gpu => NetEngine::Burn,
        }
    }
}

impl fmt::Display for NetEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NetEngine::Burn => "burn",
            NetEngine::Native => "native",
        })
    }
}

impl FromStr for NetEngine {
    type Err = ModelError;

    /// Parses `"burn"` or `"native"` (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "burn" => Ok(NetEngine::Burn),
            "native" => Ok(NetEngine::Native),
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
        assert_eq!(serde_json::to_string(&NetEngine::Native).unwrap(), "\"native\"");
        assert_eq!(serde_json::from_str::<NetEngine>("\"burn\"").unwrap(), NetEngine::Burn);
        assert_eq!(" Native".parse::<NetEngine>().unwrap(), NetEngine::Native);
        assert!("onnx".parse::<NetEngine>().is_err());
        assert_eq!(NetEngine::default_for(DeviceKind::Cpu), NetEngine::Native);
        assert_eq!(NetEngine::default_for(DeviceKind::Gpu), NetEngine::Burn);
    }
}
