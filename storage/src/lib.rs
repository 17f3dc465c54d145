//! Crash-safe files, the one place every crate writes through:
//!
//! - [`TempFile`] and [`write_atomic`]: a file is written under a hidden temporary name beside
//!   its final place, flushed to disk and renamed over it, so a reader sees the old file or the
//!   whole new one, never half of one. The temporary is created exclusively (`O_EXCL`): a file
//!   or symbolic link planted at its name is removed, never written through, so no write can be
//!   redirected to another file.
//! - [`temp_dir`]: the same for a folder that is filled and then renamed into place.
//! - [`DirLock`]: the lock that keeps a second process out of a run directory, naming its
//!   holder, and taken over when its holder is gone.
//! - [`read_limited`]: reads a file of bounded size (a config from `/dev/zero` stops with an
//!   error instead of filling the memory).
//! - [`ScratchDir`]: a folder in the temporary directory removed when its guard is dropped (a
//!   measurement's throwaway files, a test's folder).

mod atomic;
mod error;
mod lock;
mod read;
mod scratch;

pub use atomic::{TempFile, sync_dir, temp_dir, temp_path, write_atomic};
pub use error::StorageError;
pub use lock::{DirLock, LockHolder, host_name, process_is_gone, process_start};
pub use read::read_limited;
pub use scratch::ScratchDir;
