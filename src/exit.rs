//! How an error ends the program: one line on stderr with the error and its causes, each said
//! once, and the exit status: 2 for bad input (what the user gave or a run directory holds:
//! a malformed position, a broken config, a corrupt checkpoint or shard, a directory in use),
//! 1 for anything else (a full disk, a permission). A closed stdout (`| head -1`) is not an
//! error: the command stops quietly with status 0, as Unix filters do.

use std::process::ExitCode;

use crate::input::BadInput;

/// Prints `e` (unless stdout was closed) and returns the exit status.
pub fn report(e: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(e) {
        return ExitCode::SUCCESS;
    }
    eprintln!("error: {}", message(e));
    if is_bad_input(e) { ExitCode::from(2) } else { ExitCode::FAILURE }
}

/// The error and its causes, each said once ([`train::error_chain`] over anyhow's chain).
fn message(e: &anyhow::Error) -> String {
    train::error_chain(AsRef::<dyn std::error::Error>::as_ref(e))
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Whether the outermost error of a library that classifies its errors says bad input (each
/// classifies everything it wraps), or a [`BadInput`] is anywhere in the chain.
fn is_bad_input(e: &anyhow::Error) -> bool {
    for c in e.chain() {
        let verdict = if c.is::<BadInput>() {
            Some(true)
        } else if let Some(e) = c.downcast_ref::<train::RunError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = c.downcast_ref::<train::TrainError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = c.downcast_ref::<train::DatasetError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = c.downcast_ref::<train::MetricsError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = c.downcast_ref::<model::ModelError>() {
            Some(e.is_bad_input())
        } else if let Some(e) = c.downcast_ref::<records::RecordError>() {
            Some(e.is_bad_input())
        } else {
            c.downcast_ref::<storage::StorageError>().map(storage::StorageError::is_bad_input)
        };
        if let Some(v) = verdict {
            return v;
        }
    }
    false
}
