//! The error of every operation of this crate: what was done, to which path, and why.

use std::path::{Path, PathBuf};

/// A file operation that failed, naming the path.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// An I/O error (`what` is a verb phrase: "creating", "renaming to", ...).
    #[error("{what} {}: {source}", path.display())]
    Io { what: &'static str, path: PathBuf, source: std::io::Error },
    /// A file longer than a reader accepts.
    #[error("{}: longer than {limit} bytes (is it the right file?)", path.display())]
    TooLarge { path: PathBuf, limit: u64 },
    /// The directory is locked by another process that is still running.
    #[error(
        "{} is in use by {holder} (lock file {}); stop that process first, or remove the lock file if it is gone",
        dir.display(),
        lock.display()
    )]
    Locked { dir: PathBuf, lock: PathBuf, holder: String },
}

impl StorageError {
    /// The I/O error behind this one, if any.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match self {
            StorageError::Io { source, .. } => Some(source),
            _ => None,
        }
    }

    /// Whether the error is about what the caller gave (a file too long, a directory in use by
    /// another process) rather than a failed read or write.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, StorageError::Io { .. })
    }

    /// The path the failed operation was on.
    pub fn path(&self) -> &Path {
        match self {
            StorageError::Io { path, .. } | StorageError::TooLarge { path, .. } => path,
            StorageError::Locked { lock, .. } => lock,
        }
    }
}

/// `map_err` helper: an I/O error of `what` on `path`.
pub(crate) fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> StorageError {
    let path = path.to_path_buf();
    move |source| StorageError::Io { what, path, source }
}
