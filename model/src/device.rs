//! Run-time device choice.
//!
//! Callers (config files, the CLI) say `"cpu"` or `"gpu"`; this module turns that into a burn
//! device. The CPU is burn's pure-Rust `flex` backend, always built. The GPU is burn's `wgpu`
//! backend, built only with this crate's `gpu` feature because it takes ~45 minutes to compile;
//! asking for it in a build without the feature is an error, not a panic.

use std::fmt;
use std::str::FromStr;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};

/// Where the network runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeviceKind {
    /// burn's `flex` backend: pure Rust, multi-threaded, SIMD.
    #[default]
    Cpu,
    /// burn's `wgpu` backend on the default adapter (needs the `gpu` feature).
    Gpu,
}

impl DeviceKind {
    /// Whether this build can run on this kind of device at all.
    pub fn is_built(self) -> bool {
        match self {
            DeviceKind::Cpu => true,
            DeviceKind::Gpu => cfg!(feature = "gpu"),
        }
    }

    /// The burn device for inference (no autodiff).
    pub fn device(self) -> Result<Device> {
        match self {
            DeviceKind::Cpu => Ok(Device::flex()),
            DeviceKind::Gpu => gpu_device(),
        }
    }

    /// The burn device for training: the inference device with autodiff enabled.
    pub fn autodiff_device(self) -> Result<Device> {
        Ok(self.device()?.autodiff())
    }
}

#[cfg(feature = "gpu")]
fn gpu_device() -> Result<Device> {
    Ok(Device::wgpu(burn::tensor::DeviceKind::DefaultDevice))
}

#[cfg(not(feature = "gpu"))]
fn gpu_device() -> Result<Device> {
    Err(ModelError::GpuNotBuilt)
}

impl fmt::Display for DeviceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Gpu => "gpu",
        })
    }
}

impl FromStr for DeviceKind {
    type Err = ModelError;

    /// Parses `"cpu"` or `"gpu"` (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cpu" => Ok(DeviceKind::Cpu),
            "gpu" => Ok(DeviceKind::Gpu),
            _ => Err(ModelError::InvalidArgument(format!(
                "unknown device {s:?}; expected \"cpu\" or \"gpu\""
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_names_are_lowercase() {
        assert_eq!(serde_json::to_string(&DeviceKind::Gpu).unwrap(), "\"gpu\"");
        assert_eq!(serde_json::from_str::<DeviceKind>("\"cpu\"").unwrap(), DeviceKind::Cpu);
        assert_eq!("GPU".parse::<DeviceKind>().unwrap(), DeviceKind::Gpu);
        assert!("tpu".parse::<DeviceKind>().is_err());
    }

    #[test]
    fn gpu_without_the_feature_is_an_error() {
        if !cfg!(feature = "gpu") {
            assert!(matches!(DeviceKind::Gpu.device(), Err(ModelError::GpuNotBuilt)));
        }
        assert!(DeviceKind::Cpu.device().is_ok());
    }
}
