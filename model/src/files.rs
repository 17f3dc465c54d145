//! File plumbing for checkpoints: atomic writes, typed reads, and the weights digest.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};

/// Size and hash of a file, recorded next to it so a truncated or altered copy is caught
/// before its contents are decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// File name inside the checkpoint folder.
    pub file: String,
    /// Length in bytes.
    pub bytes: u64,
    /// 64-bit FNV-1a hash of the contents, as 16 lowercase hex digits.
    pub fnv1a64: String,
}

impl FileDigest {
    /// The digest of `contents` stored under the name `file`.
    pub fn of(file: &str, contents: &[u8]) -> Self {
        FileDigest {
            file: file.to_string(),
            bytes: contents.len() as u64,
            fnv1a64: format!("{:016x}", fnv1a64(contents)),
        }
    }

    /// Checks `contents` (read from `path`) against this digest.
    pub fn verify(&self, path: &Path, contents: &[u8]) -> Result<()> {
        let corrupt =
            |problem: String| Err(ModelError::CorruptWeights { path: path.to_path_buf(), problem });
        if contents.len() as u64 != self.bytes {
            return corrupt(format!(
                "{} bytes on disk, {} recorded (truncated or replaced?)",
                contents.len(),
                self.bytes
            ));
        }
        let found = format!("{:016x}", fnv1a64(contents));
        if found != self.fnv1a64 {
            return corrupt(format!("hash {found} does not match the recorded {}", self.fnv1a64));
        }
        Ok(())
    }
}

/// 64-bit FNV-1a. Not cryptographic: it guards against truncation and bit rot, not attackers.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

/// Writes `contents` to `path` so that readers see either the old file or the whole new one
/// ([`storage::write_atomic`]: an exclusively created hidden temporary, flushed and renamed).
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    storage::write_atomic(path, contents).map_err(ModelError::from)
}

impl From<storage::StorageError> for ModelError {
    fn from(e: storage::StorageError) -> Self {
        let path = e.path().to_path_buf();
        match e {
            storage::StorageError::Io { source, .. } => ModelError::Io { path, source },
            other => ModelError::Io { path, source: std::io::Error::other(other.to_string()) },
        }
    }
}

/// Reads a whole file; a missing file is [`ModelError::MissingFile`].
pub fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|source| match source.kind() {
        ErrorKind::NotFound => ModelError::MissingFile { path: path.to_path_buf() },
        _ => ModelError::Io { path: path.to_path_buf(), source },
    })
}

/// Creates the folder (and parents) if needed.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|source| ModelError::Io { path: dir.to_path_buf(), source })
}

/// `dir` must exist and be a folder, else [`ModelError::MissingFile`] names it.
pub fn require_dir(dir: &Path) -> Result<PathBuf> {
    if dir.is_dir() {
        Ok(dir.to_path_buf())
    } else {
        Err(ModelError::MissingFile { path: dir.to_path_buf() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_reference_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
