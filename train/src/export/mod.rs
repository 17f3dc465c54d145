//! A checkpoint exported for other programs: the network as ONNX or its weights as
//! safetensors ([`export_model`]), with a JSON sidecar beside it ([`sidecar`], laid out by
//! [`json`]) that describes everything needed to use it without this code, the game half of
//! which comes from the engine's own tables ([`tables`]).

pub mod json;
pub mod sidecar;
pub mod tables;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use games::{Encode, State, Variant};
use model::{ModelError, Net};

use json::pretty;
use sidecar::{ExportInfo, sidecar};

/// The exported file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The network with its weights (input `planes`, outputs `policy_logits` and
    /// `value_logits`).
    Onnx,
    /// The weights only, by name.
    Safetensors,
}

impl ExportFormat {
    pub const ALL: [ExportFormat; 2] = [ExportFormat::Onnx, ExportFormat::Safetensors];

    /// The format named `name` (as [`ExportFormat::name`] writes it).
    pub fn from_name(name: &str) -> Option<ExportFormat> {
        ExportFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The name the sidecar records and the command line takes (`onnx`, `safetensors`).
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Onnx => "onnx",
            ExportFormat::Safetensors => "safetensors",
        }
    }
}

/// Why a checkpoint could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The checkpoint is missing, corrupt, or of another variant or encoding.
    #[error("{0}")]
    Checkpoint(ModelError),
    /// The checkpoint's network does not take this variant's encoding.
    #[error("checkpoint {}: the network's shape is not {variant}'s encoding", dir.display())]
    WrongShape { dir: PathBuf, variant: &'static str },
    /// Writing the model or its sidecar failed.
    #[error(transparent)]
    Write(ModelError),
    /// Building the model's bytes failed.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The sidecar could not be serialised (a bug).
    #[error("sidecar: {0}")]
    Json(#[from] serde_json::Error),
}

/// The sidecar's path: `<out>.json` (`net.onnx` → `net.onnx.json`).
pub fn sidecar_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_os_string();
    name.push(".json");
    PathBuf::from(name)
}

/// Exports the checkpoint in `model_dir` (of variant `V`) to `out` as `format` (ONNX with a
/// fixed `batch` size, or a symbolic batch axis when `None`), and writes its sidecar to
/// [`sidecar_path`]`(out)`; both atomically. Returns the sidecar's path.
pub fn export_model<V: Variant>(
    model_dir: &Path,
    format: ExportFormat,
    out: &Path,
    batch: Option<usize>,
) -> Result<PathBuf, ExportError> {
    let checkpoint =
        model::checkpoint::load(model_dir, V::NAME).map_err(ExportError::Checkpoint)?;
    let net = &checkpoint.net;
    if net.config().shape != *State::<V>::layout(net.config().shape.encoding) {
        return Err(ExportError::WrongShape { dir: model_dir.to_path_buf(), variant: V::NAME });
    }
    let tensors = match format {
        ExportFormat::Onnx => {
            let bytes = match batch {
                Some(b) => model::onnx::export_bytes(net, b)?,
                None => model::onnx::export_dynamic_bytes(net)?,
            };
            model::write_atomic(out, &bytes).map_err(ExportError::Write)?;
            None
        }
        ExportFormat::Safetensors => {
            let metadata = HashMap::from([
                ("format".to_string(), "camelot-zero".to_string()),
                ("variant".to_string(), V::NAME.to_string()),
                ("encoding_version".to_string(), net.config().shape.encoding.version().to_string()),
                ("net_config".to_string(), serde_json::to_string(net.config())?),
            ]);
            model::named_weights::export_safetensors(net, out, metadata)
                .map_err(ExportError::Write)?;
            Some(tensor_list(net)?)
        }
    };
    let info = ExportInfo {
        model_format: format.name(),
        model_file: out.file_name().map_or_else(String::new, |n| n.to_string_lossy().into()),
        checkpoint_dir: model_dir.display().to_string(),
        meta: &checkpoint.meta,
        batch,
        batch_norm_epsilon: model::named_weights::batch_norm_epsilon(net),
        tensors,
    };
    let text = pretty(&serde_json::to_string(&sidecar::<V>(info))?);
    let side = sidecar_path(out);
    model::write_atomic(&side, text.as_bytes()).map_err(ExportError::Write)?;
    Ok(side)
}

/// Names and shapes of the weights, in the order the sidecar lists them.
fn tensor_list(net: &Net) -> Result<Vec<(String, Vec<usize>)>, ModelError> {
    let tensors = model::named_weights::named_tensors(net)?;
    Ok(tensors.into_iter().map(|t| (t.name, t.shape)).collect())
}
