//! The crate's one error type.
//!
//! Every fallible public function returns [`ModelError`]. Checkpoint problems carry the path of
//! the file involved so that a CLI can print them as they are; callers that need to react to a
//! specific problem (say, an old encoding version) match on the variant.

use std::path::PathBuf;

/// Everything that can go wrong in the model crate.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The shape ([`games::Layout`]) is not usable (empty, cells off the grid, duplicates…).
    #[error("invalid net shape: {0}")]
    InvalidShape(String),

    /// The [`NetConfig`](crate::NetConfig) is not usable (zero blocks or channels, …).
    #[error("invalid net config: {0}")]
    InvalidConfig(String),

    /// A preset name such as `"b6c64"` that is not one of the known presets.
    #[error("unknown net preset {name:?}; known presets: {known}")]
    UnknownPreset {
        /// The name as given.
        name: String,
        /// The known names, comma-separated.
        known: String,
    },

    /// An input slice had the wrong length for the batch and shape it was given with.
    #[error("{what}: expected {expected} values, got {got}")]
    InputSize {
        /// Which input (e.g. `"planes"`, `"policy target"`).
        what: &'static str,
        /// The length the shape and batch size call for.
        expected: usize,
        /// The length that was passed.
        got: usize,
    },

    /// A batch of zero positions, or some other argument out of range.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),

    /// `DeviceKind::Gpu` was asked for, but this build has no GPU backend.
    #[error("GPU device requested, but the model crate was built without the `gpu` feature")]
    GpuNotBuilt,

    /// `DeviceKind::Gpu` was asked for, but wgpu found no adapter to run on (no Vulkan,
    /// Metal or DirectX 12 driver), or the one it found refused to start.
    #[error(
        "no GPU adapter: {reason}\n  wgpu needs a Vulkan driver on Linux: your GPU vendor's \
         (NVIDIA's driver with its Vulkan ICD; Mesa's radv/anv for AMD/Intel, package \
         mesa-vulkan-drivers), or the software device lavapipe from the same package \
         (`apt-get install mesa-vulkan-drivers`; slow, for checks only). `vulkaninfo --summary` \
         (package vulkan-tools) lists what Vulkan sees."
    )]
    NoGpuAdapter {
        /// What wgpu said.
        reason: String,
    },

    /// A checkpoint folder or one of its files does not exist.
    #[error("checkpoint file missing: {}", path.display())]
    MissingFile {
        /// The missing folder or file.
        path: PathBuf,
    },

    /// Reading or writing a checkpoint file failed for another I/O reason.
    #[error("I/O error on {}: {source}", path.display())]
    Io {
        /// The file being read or written.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// `net.json` is not valid JSON for a checkpoint description.
    #[error("bad checkpoint metadata in {}: {message}", path.display())]
    BadJson {
        /// The `net.json` file.
        path: PathBuf,
        /// What the parser said.
        message: String,
    },

    /// The checkpoint was made for another game variant.
    #[error("checkpoint {} is for variant {found:?}, expected {expected:?}", path.display())]
    WrongVariant {
        /// The `net.json` file.
        path: PathBuf,
        /// The variant the caller wanted.
        expected: String,
        /// The variant recorded in the checkpoint.
        found: String,
    },

    /// The checkpoint's encoding version is unknown to this build, or disagrees with the
    /// encoding its network's shape names.
    #[error(
        "checkpoint {} uses encoding version {found}, but {expected}",
        path.display()
    )]
    WrongEncodingVersion {
        /// The `net.json` file.
        path: PathBuf,
        /// What was expected instead, in words.
        expected: String,
        /// The version recorded in the checkpoint.
        found: u32,
    },

    /// The weights file is truncated, altered or cannot be decoded.
    #[error("corrupt weights file {}: {problem}", path.display())]
    CorruptWeights {
        /// The weights (or optimizer state) file.
        path: PathBuf,
        /// Hash mismatch, size mismatch, or the decoder's message.
        problem: String,
    },

    /// The weights decode, but do not fit the network described by `net.json`.
    #[error("weights in {} do not fit the configured network: {message}", path.display())]
    ShapeMismatch {
        /// The weights file.
        path: PathBuf,
        /// Which tensors did not fit.
        message: String,
    },

    /// Serialising weights or optimizer state failed.
    #[error("could not encode {what}: {message}")]
    Encode {
        /// What was being encoded.
        what: &'static str,
        /// The encoder's message.
        message: String,
    },

    /// Reading a result back from the device failed.
    #[error("tensor readback failed: {0}")]
    Readback(String),
}

impl ModelError {
    /// Whether the error is about what the caller gave (a missing, corrupt or mismatched
    /// checkpoint, a bad setting: bad input) rather than a failure to read or write a file or
    /// to run the network.
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            ModelError::Io { .. }
                | ModelError::Encode { .. }
                | ModelError::Readback(_)
                | ModelError::NoGpuAdapter { .. }
        )
    }
}

/// The crate's result type.
pub type Result<T, E = ModelError> = std::result::Result<T, E>;
