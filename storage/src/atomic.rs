//! Atomic writes: a hidden temporary beside the target, created exclusively, flushed to disk and
//! renamed over the target.
//!
//! Why exclusively: a temporary name is predictable (`.<name>.tmp`), so anyone who can write to
//! the folder could plant a symbolic link there and have the next write go through it to another
//! file. Whatever is found at the temporary name is removed first (removing a link never touches
//! its target), and the temporary is then created with `create_new` (`O_CREAT | O_EXCL`), which
//! fails rather than follow a link that appeared in between.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::{StorageError, io};

/// The hidden temporary name of `target`: `.<name>.tmp` in the same folder (hidden so that a
/// glob for the final names never picks it up; readers ignore `*.tmp`).
pub fn temp_path(target: &Path) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    target.with_file_name(format!(".{name}.tmp"))
}

/// Removes whatever is at `path` (a file, a link, a folder) without following links.
fn clear(path: &Path) -> Result<(), StorageError> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(path).map_err(io("removing", path)),
        Ok(_) => fs::remove_file(path).map_err(io("removing", path)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io("inspecting", path)(e)),
    }
}

/// A file being written under a temporary name; [`TempFile::commit`] renames it into place, and
/// dropping it uncommitted removes it.
#[derive(Debug)]
pub struct TempFile {
    tmp: PathBuf,
    target: PathBuf,
    file: Option<File>,
}

impl TempFile {
    /// Starts writing `target` under [`temp_path`]`(target)`.
    pub fn create(target: &Path) -> Result<TempFile, StorageError> {
        TempFile::create_at(target, temp_path(target))
    }

    /// Starts writing `target` under the temporary `tmp` (same folder, so the rename is atomic;
    /// for writers that need the temporary to keep an extension).
    pub fn create_at(target: &Path, tmp: PathBuf) -> Result<TempFile, StorageError> {
        clear(&tmp)?;
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(io("creating", &tmp))?;
        Ok(TempFile { tmp, target: target.to_path_buf(), file: Some(file) })
    }

    /// The temporary's path (for writers that open the file by name, after it was created here
    /// exclusively).
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// The final path.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes the temporary to disk and renames it over the target, then makes the rename
    /// durable (the folder is synced where the platform allows).
    pub fn commit(mut self) -> Result<(), StorageError> {
        let file = match self.file.take() {
            Some(f) => f,
            None => File::open(&self.tmp).map_err(io("reopening", &self.tmp))?,
        };
        file.sync_all().map_err(io("syncing", &self.tmp))?;
        drop(file);
        fs::rename(&self.tmp, &self.target).map_err(io("renaming into", &self.target))?;
        // Renamed: nothing left for Drop to remove.
        self.tmp = PathBuf::new();
        if let Some(dir) = self.target.parent() {
            sync_dir(dir)?;
        }
        Ok(())
    }

    fn file(&mut self) -> io::Result<&mut File> {
        self.file.as_mut().ok_or_else(|| io::Error::other("temporary file already closed"))
    }
}

impl Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file()?.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file()?.flush()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.tmp.as_os_str().is_empty() {
            self.file = None;
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `contents` to `path` atomically (see [`TempFile`]).
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), StorageError> {
    let mut tmp = TempFile::create(path)?;
    tmp.write_all(contents).map_err(io("writing", &temp_path(path)))?;
    tmp.commit()
}

/// Creates an empty temporary folder for `target` (`.<name>.tmp` beside it, anything already
/// there removed first, the folder itself created exclusively, its parents as needed) and
/// returns its path; the caller fills it and renames it to `target`.
pub fn temp_dir(target: &Path) -> Result<PathBuf, StorageError> {
    let tmp = temp_path(target);
    if let Some(parent) = tmp.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(io("creating", parent))?;
    }
    clear(&tmp)?;
    fs::create_dir(&tmp).map_err(io("creating", &tmp))?;
    Ok(tmp)
}

/// Syncs a folder so that renames in it survive a crash (POSIX; elsewhere a no-op). The empty
/// path (the folder of a bare file name) is the current folder.
pub fn sync_dir(dir: &Path) -> Result<(), StorageError> {
    #[cfg(unix)]
    {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        File::open(dir).and_then(|d| d.sync_all()).map_err(io("syncing", dir))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScratchDir;

    #[test]
    fn a_write_replaces_the_file_whole() {
        let dir = ScratchDir::new("storage-replace").unwrap();
        let p = dir.join("a.txt");
        write_atomic(&p, b"old").unwrap();
        write_atomic(&p, b"new contents").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new contents");
        assert!(!temp_path(&p).exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_at_the_temporary_name_is_not_followed() {
        let dir = ScratchDir::new("storage-planted").unwrap();
        let victim = dir.join("victim.txt");
        fs::write(&victim, b"precious").unwrap();
        let target = dir.join("index.html");
        std::os::unix::fs::symlink(&victim, temp_path(&target)).unwrap();
        write_atomic(&target, b"page").unwrap();
        assert_eq!(fs::read(&victim).unwrap(), b"precious", "the link's target was written");
        assert_eq!(fs::read(&target).unwrap(), b"page");
        assert!(!fs::symlink_metadata(&target).unwrap().file_type().is_symlink());
        // The same for a folder.
        let ckpt = dir.join("gen-0001");
        std::os::unix::fs::symlink(&dir, temp_path(&ckpt)).unwrap();
        let tmp = temp_dir(&ckpt).unwrap();
        assert!(fs::symlink_metadata(&tmp).unwrap().is_dir());
        assert!(victim.exists(), "clearing the link removed its target");
    }

    #[test]
    fn an_uncommitted_file_leaves_nothing() {
        let dir = ScratchDir::new("storage-dropped").unwrap();
        let target = dir.join("x.bin");
        {
            let mut t = TempFile::create(&target).unwrap();
            t.write_all(b"half").unwrap();
            assert!(t.path().exists());
        }
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_the_temporary() {
        let err = write_atomic(Path::new("/nonexistent-dir-cz/x.txt"), b"x").unwrap_err();
        assert!(err.to_string().contains("/nonexistent-dir-cz/.x.txt.tmp"), "{err}");
    }
}
