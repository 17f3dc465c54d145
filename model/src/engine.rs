//! Which code computes the network: a [`Predictor`](crate::Predictor)'s forward pass and a
//! [`Trainer`](crate::Trainer)'s gradients.

use serde::{Deserialize, Serialize};

use crate::device::DeviceKind;
use crate::error::{ModelError, Result};
use crate::names::named_enum;

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

named_enum!(NetEngine, "inference engine", { Burn => "burn", Native => "native" });

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_follows_the_device() {
        assert_eq!(NetEngine::default_for(DeviceKind::Cpu), NetEngine::Native);
        assert_eq!(NetEngine::default_for(DeviceKind::Gpu), NetEngine::Burn);
    }
}
