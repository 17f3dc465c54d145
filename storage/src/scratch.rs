//! A folder in the system's temporary directory that lives exactly as long as its guard.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::{StorageError, io};

/// A fresh, empty folder `<temp dir>/<name>-<process id>-<n>` (`n` counts the scratch folders
/// this process has made, so two guards never share one), removed with everything in it when
/// the guard is dropped: at the end of a command that measured something, or of a test, also
/// when it returns early with an error or panics. Derefs to its path.
#[derive(Debug)]
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// Creates the folder, removing a leftover of the same name first.
    pub fn new(name: &str) -> Result<Self, StorageError> {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("{name}-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).map_err(io("creating", &path))?;
        Ok(ScratchDir(path))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        // Best effort: already removed, or a file in it held open elsewhere; either way the
        // folder is in the temporary directory and nothing depends on its going.
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_empty_and_removed_with_its_contents_on_drop() {
        let scratch = ScratchDir::new("storage-scratch").unwrap();
        let path = scratch.to_path_buf();
        assert!(path.is_dir());
        assert_eq!(fs::read_dir(&path).unwrap().count(), 0);
        fs::create_dir_all(path.join("a/b")).unwrap();
        fs::write(path.join("a/b/file"), "x").unwrap();
        drop(scratch);
        assert!(!path.exists());
    }

    #[test]
    fn two_guards_of_one_name_are_two_folders() {
        let (a, b) =
            (ScratchDir::new("storage-twice").unwrap(), ScratchDir::new("storage-twice").unwrap());
        assert_ne!(a.path(), b.path());
        fs::write(a.join("f"), "x").unwrap();
        drop(b);
        assert!(a.join("f").exists(), "dropping one leaves the other");
    }

    #[test]
    fn removed_also_when_the_holder_panics() {
        let path = std::panic::catch_unwind(|| {
            let scratch = ScratchDir::new("storage-panic").unwrap();
            fs::write(scratch.join("f"), "x").unwrap();
            std::panic::panic_any(scratch.to_path_buf());
        })
        .unwrap_err()
        .downcast::<PathBuf>()
        .unwrap();
        assert!(!path.exists());
    }
}
