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
    e.chain().find_map(verdict).unwrap_or(false)
}

/// What one error of the chain says of itself: `Some(bad input or not)` for the libraries'
/// classified errors and [`BadInput`], `None` for the others (io, parse errors...).
fn verdict(c: &(dyn std::error::Error + 'static)) -> Option<bool> {
    macro_rules! classified {
        ($($error:ty),+) => {
            $(if let Some(e) = c.downcast_ref::<$error>() {
                return Some(e.is_bad_input());
            })+
        };
    }
    if c.is::<BadInput>() {
        return Some(true);
    }
    classified!(
        train::RunError,
        train::TrainError,
        train::DatasetError,
        train::MetricsError,
        model::ModelError,
        records::RecordError,
        storage::StorageError
    );
    None
}
