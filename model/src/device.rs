//! Run-time device choice.
//!
//! Callers (config files, the CLI) say `"cpu"` or `"gpu"`; this module turns that into a burn
//! device. The CPU is burn's pure-Rust `flex` backend, always built. The GPU is burn's `wgpu`
//! backend, built only with this crate's `gpu` feature because it takes ~45 minutes to compile;
//! asking for it in a build without the feature is an error, not a panic.
//!
//! The GPU is brought up once per process, on first use, on the adapter wgpu prefers (a
//! discrete GPU over an integrated one over a software device; `CUBECL_WGPU_DEFAULT_DEVICE`
//! overrides). No adapter at all is [`ModelError::NoGpuAdapter`], naming the driver to install,
//! where burn's lazy device would panic on the first tensor. [`gpu_adapter`] says which adapter
//! it is.

use std::fmt;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};
use crate::names::named_enum;

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

named_enum!(DeviceKind, "device", { Cpu => "cpu", Gpu => "gpu" });

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

/// The adapter the GPU device runs on, as wgpu describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuAdapter {
    /// The device's name (`"NVIDIA H100 80GB HBM3"`, `"llvmpipe (LLVM 15.0.6, 256 bits)"`).
    pub name: String,
    /// The graphics API wgpu drives it through (`"Vulkan"`, `"Metal"`, `"Gl"`, …).
    pub backend: String,
    /// wgpu's device type (`"DiscreteGpu"`, `"IntegratedGpu"`, `"Cpu"`, …).
    pub device_type: String,
    /// The driver's name and version, when the driver says.
    pub driver: String,
    /// A software implementation running on the CPU (lavapipe, llvmpipe, SwiftShader).
    pub software: bool,
}

impl fmt::Display for GpuAdapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {}", self.name, self.backend, self.device_type)?;
        if !self.driver.is_empty() {
            write!(f, ", driver {}", self.driver)?;
        }
        f.write_str(if self.software { ", software device)" } else { ")" })
    }
}

/// The adapter [`DeviceKind::Gpu`] runs on; brings the GPU up if nothing has yet.
pub fn gpu_adapter() -> Result<GpuAdapter> {
    gpu().map(|(_, adapter)| adapter.clone())
}

#[cfg(feature = "gpu")]
fn gpu() -> Result<&'static (Device, GpuAdapter)> {
    use std::sync::OnceLock;
    // wgpu's runtime can be set up once per process; the outcome, failure included, is kept.
    static GPU: OnceLock<std::result::Result<(Device, GpuAdapter), String>> = OnceLock::new();
    GPU.get_or_init(|| {
        keep_autotune_cache_in_env_dir();
        let (device, setup) =
            Device::wgpu_options().init_with_setup().map_err(|e| e.to_string())?;
        let info = setup.adapter.get_info();
        let device_type = format!("{:?}", info.device_type);
        let driver = [info.driver.as_str(), info.driver_info.as_str()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let adapter = GpuAdapter {
            software: device_type == "Cpu",
            name: info.name,
            backend: format!("{:?}", info.backend),
            device_type,
            driver,
        };
        Ok((device, adapter))
    })
    .as_ref()
    .map_err(|reason| ModelError::NoGpuAdapter { reason: reason.clone() })
}

/// The environment variable naming the folder where cubecl keeps autotune's choices (the
/// kernels benchmarked on first use of each shape) so that later processes do not pay for them
/// again. Unset, cubecl's default: `target/environment` of the outermost Cargo workspace above
/// the working directory, else the user's cache folder (`~/.cache/cubecl` on Linux).
pub const GPU_CACHE_ENV: &str = "CAMELOT_GPU_CACHE";

/// Points cubecl's cache at [`GPU_CACHE_ENV`]'s folder, before the runtime first reads its
/// config. The rest of that config (a `cubecl.toml`, `CUBECL_*` variables) is kept.
#[cfg(feature = "gpu")]
fn keep_autotune_cache_in_env_dir() {
    use cubecl_runtime::config::cache::CacheConfig;
    use cubecl_runtime::config::{CubeClRuntimeConfig, RuntimeConfig};
    if let Some(dir) = std::env::var_os(GPU_CACHE_ENV).filter(|d| !d.is_empty()) {
        let mut config = CubeClRuntimeConfig::from_current_dir().override_from_env();
        config.environment.path = CacheConfig::Directory(dir.into());
        // False when something read the config first; the default location is used then.
        CubeClRuntimeConfig::try_set(config);
    }
}

#[cfg(not(feature = "gpu"))]
fn gpu() -> Result<&'static (Device, GpuAdapter)> {
    Err(ModelError::GpuNotBuilt)
}

fn gpu_device() -> Result<Device> {
    gpu().map(|(device, _)| device.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_without_the_feature_is_an_error() {
        if !cfg!(feature = "gpu") {
            assert!(matches!(DeviceKind::Gpu.device(), Err(ModelError::GpuNotBuilt)));
        }
        assert!(DeviceKind::Cpu.device().is_ok());
    }
}
