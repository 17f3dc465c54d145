//! `export`: a checkpoint as a file that programs in other languages can use — `onnx` (the
//! whole network, runnable with onnxruntime) or `safetensors` (the weights by name) — plus the
//! sidecar `<out>.json` describing encoding, board, actions and outputs
//! ([`super::export_sidecar`]). Both files are written under a temporary name and renamed.

use std::collections::HashMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Args, ValueEnum};
use games::{ENCODING_VERSION, Encode, State, Variant, VariantKind};
use model::{ModelError, Net};

use super::export_json::pretty;
use super::export_sidecar::{ExportInfo, sidecar};
use crate::input::BadInput;

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The checkpoint folder (e.g. `data/camelot-cpu/models/gen-0007`).
    #[arg(long)]
    pub model: PathBuf,
    /// `onnx`: the network with its weights (input `planes`, outputs `policy_logits` and
    /// `value_logits`); `safetensors`: the weights only, by name.
    #[arg(long, value_enum)]
    pub format: ExportFormat,
    /// The file to write; the sidecar goes beside it as `<out>.json`.
    #[arg(long)]
    pub out: PathBuf,
    /// ONNX only: a fixed batch size (default: a symbolic `batch` axis).
    #[arg(long)]
    pub batch: Option<usize>,
}

/// The exported file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Onnx,
    Safetensors,
}

impl ExportFormat {
    fn name(self) -> &'static str {
        match self {
            ExportFormat::Onnx => "onnx",
            ExportFormat::Safetensors => "safetensors",
        }
    }
}

/// The sidecar's path: `<out>.json` (`net.onnx` → `net.onnx.json`).
pub fn sidecar_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_os_string();
    name.push(".json");
    PathBuf::from(name)
}

pub fn run(args: ExportArgs) -> Result<()> {
    match (args.format, args.batch) {
        (ExportFormat::Safetensors, Some(_)) => {
            return Err(BadInput("--batch applies to --format onnx only".into()).into());
        }
        (_, Some(0)) => return Err(BadInput("--batch must be at least 1".into()).into()),
        _ => {}
    }
    check_out_path(&args.out)?;
    let meta = model::checkpoint::read_meta(&args.model).map_err(bad_checkpoint)?;
    match meta.variant.parse::<VariantKind>() {
        Ok(kind) => games::with_variant!(kind, V => export::<V>(&args)),
        Err(_) => Err(BadInput(format!(
            "checkpoint {} is for unknown variant {:?}",
            args.model.display(),
            meta.variant
        ))
        .into()),
    }
}

fn export<V: Variant>(args: &ExportArgs) -> Result<()>
where
    State<V>: Encode,
{
    let checkpoint =
        model::checkpoint::load(&args.model, V::NAME, ENCODING_VERSION).map_err(bad_checkpoint)?;
    let net = &checkpoint.net;
    if net.config().shape != *State::<V>::layout() {
        return Err(BadInput(format!(
            "checkpoint {}: the network's shape is not {}'s encoding",
            args.model.display(),
            V::NAME
        ))
        .into());
    }
    let tensors = match args.format {
        ExportFormat::Onnx => {
            let bytes = match args.batch {
                Some(b) => model::onnx::export_bytes(net, b)?,
                None => model::onnx::export_dynamic_bytes(net)?,
            };
            model::write_atomic(&args.out, &bytes).map_err(write_error)?;
            None
        }
        ExportFormat::Safetensors => {
            let metadata = HashMap::from([
                ("format".to_string(), "camelot-zero".to_string()),
                ("variant".to_string(), V::NAME.to_string()),
                ("encoding_version".to_string(), ENCODING_VERSION.to_string()),
                ("net_config".to_string(), serde_json::to_string(net.config())?),
            ]);
            model::named_weights::export_safetensors(net, &args.out, metadata)
                .map_err(write_error)?;
            Some(tensor_list(net)?)
        }
    };
    let info = ExportInfo {
        model_format: args.format.name(),
        model_file: args.out.file_name().map_or_else(String::new, |n| n.to_string_lossy().into()),
        checkpoint_dir: args.model.display().to_string(),
        meta: &checkpoint.meta,
        batch: args.batch,
        batch_norm_epsilon: model::named_weights::batch_norm_epsilon(net),
        tensors,
    };
    let text = pretty(&serde_json::to_string(&sidecar::<V>(info))?);
    let side = sidecar_path(&args.out);
    model::write_atomic(&side, text.as_bytes()).map_err(write_error)?;
    println!("wrote {} and {}", args.out.display(), side.display());
    Ok(())
}

/// Names and shapes of the weights, in the order the sidecar lists them.
fn tensor_list(net: &Net) -> Result<Vec<(String, Vec<usize>)>> {
    let tensors = model::named_weights::named_tensors(net)?;
    Ok(tensors.into_iter().map(|t| (t.name, t.shape)).collect())
}

/// The output must be a file in an existing folder.
fn check_out_path(out: &Path) -> Result<(), BadInput> {
    if out.is_dir() {
        return Err(BadInput(format!("--out {} is a folder; give a file name", out.display())));
    }
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(BadInput(format!(
            "cannot write {}: folder {} does not exist",
            out.display(),
            parent.display()
        )));
    }
    Ok(())
}

fn bad_checkpoint(e: ModelError) -> anyhow::Error {
    BadInput(format!("{e}")).into()
}

/// A path the user cannot write to is bad input; other I/O failures (a full disk) are not.
fn write_error(e: ModelError) -> anyhow::Error {
    match &e {
        ModelError::Io { path, source }
            if matches!(
                source.kind(),
                ErrorKind::NotFound
                    | ErrorKind::PermissionDenied
                    | ErrorKind::IsADirectory
                    | ErrorKind::NotADirectory
                    | ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            BadInput(format!("cannot write {}: {source}", path.display())).into()
        }
        _ => e.into(),
    }
}
