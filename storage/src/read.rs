//! Reading small files (configs, position files) with a size limit.

use std::io::Read;
use std::path::Path;

use crate::error::{StorageError, io};

/// Reads the whole of `path` as UTF-8 text, refusing files longer than `limit` bytes
/// ([`StorageError::TooLarge`]). Never reads more than `limit + 1` bytes, so an endless file
/// (`/dev/zero`, a FIFO) stops at the limit.
pub fn read_limited(path: &Path, limit: u64) -> Result<String, StorageError> {
    let file = std::fs::File::open(path).map_err(io("reading", path))?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io("reading", path))?;
    if bytes.len() as u64 > limit {
        return Err(StorageError::TooLarge { path: path.to_path_buf(), limit });
    }
    String::from_utf8(bytes).map_err(|e| {
        let problem = format!("not UTF-8 text ({})", e.utf8_error());
        io("reading", path)(std::io::Error::new(std::io::ErrorKind::InvalidData, problem))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_file_stops_at_the_limit() {
        let err = read_limited(Path::new("/dev/zero"), 1 << 16).unwrap_err();
        assert!(matches!(err, StorageError::TooLarge { limit: 65536, .. }), "{err}");
    }

    #[test]
    fn a_small_file_is_read_whole() {
        let dir = std::env::temp_dir().join(format!("storage-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.toml");
        std::fs::write(&p, "x = 1\n").unwrap();
        assert_eq!(read_limited(&p, 6).unwrap(), "x = 1\n");
        assert!(matches!(read_limited(&p, 5), Err(StorageError::TooLarge { .. })));
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(read_limited(&p, 6).unwrap_err().to_string().contains("UTF-8"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
