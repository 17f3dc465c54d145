//! `export`: a checkpoint as a file that programs in other languages can use — `onnx` (the
//! whole network, runnable with onnxruntime) or `safetensors` (the weights by name) — plus the
//! sidecar `<out>.json` describing encoding, board, actions and outputs
//! ([`train::export`]). Both files are written under a temporary name and renamed.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use games::Variant;
use model::ModelError;
use train::export::{ExportError, ExportFormat, export_model};

use crate::input::BadInput;

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The checkpoint folder (e.g. `data/camelot-cpu/models/gen-0007`).
    #[arg(long)]
    pub model: PathBuf,
    /// `onnx`: the network with its weights (input `planes`, outputs `policy_logits` and
    /// `value_logits`); `safetensors`: the weights only, by name.
    #[arg(long, value_parser = format_parser())]
    pub format: ExportFormat,
    /// The file to write; the sidecar goes beside it as `<out>.json`.
    #[arg(long)]
    pub out: PathBuf,
    /// ONNX only: a fixed batch size (default: a symbolic `batch` axis).
    #[arg(long)]
    pub batch: Option<usize>,
}

/// `--format`: one of [`ExportFormat::ALL`] by name.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = ExportFormat> {
    PossibleValuesParser::new(ExportFormat::ALL.map(ExportFormat::name))
        .map(|name| ExportFormat::from_name(&name).expect("one of the possible values"))
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
    let kind = crate::input::checkpoint_variant(&args.model)?;
    games::with_variant!(kind, V => export::<V>(&args))
}

fn export<V: Variant>(args: &ExportArgs) -> Result<()> {
    let side =
        export_model::<V>(&args.model, args.format, &args.out, args.batch).map_err(
            |e| match e {
                ExportError::Checkpoint(e) => bad_checkpoint(e),
                e @ ExportError::WrongShape { .. } => BadInput(e.to_string()).into(),
                ExportError::Write(e) => write_error(e),
                e => e.into(),
            },
        )?;
    outln!("wrote {} and {}", args.out.display(), side.display())?;
    Ok(())
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
