//! The files the readers hand to parquet: the whole file read once into memory, as a
//! [`ChunkReader`] whose readers fail when asked for bytes past its end instead of returning none.
//!
//! Why in memory: the footer and every page header are walked before parquet parses them
//! (`thrift_check`), and then parquet reads the same column chunks again; from one buffer both are
//! slices of it, so a file is read from disk once. The readers decode every row of the columns
//! they keep anyway, so the buffer is smaller than what they build from it.
//!
//! Why strict: parquet 60 reads a page header through a [`Read`] and skips an unknown Thrift field
//! element by element; it skips a `double` by copying 8 bytes into a sink and takes "no bytes"
//! for done. A damaged header announcing a list of two billion doubles therefore spun through
//! them at the end of the file, a read call each, for the best part of an hour (found by
//! `tests/fuzz_records.rs`). The walk now refuses such a header first; an error at the end also
//! stops any skip at once, and the readers report the file as corrupt. Legitimate headers end
//! before the file does, so they never see it.

use std::io::{self, Read};
use std::path::Path;

use bytes::{Buf, Bytes};
use parquet::errors::{ParquetError, Result};
use parquet::file::reader::{ChunkReader, Length};

/// A parquet file read into memory for reading (see the module docs).
pub(super) struct StrictFile {
    bytes: Bytes,
}

impl StrictFile {
    /// Reads the whole file at `path`.
    pub fn read(path: &Path) -> io::Result<Self> {
        Ok(StrictFile { bytes: Bytes::from(std::fs::read(path)?) })
    }

    /// The `length` bytes from `start` (`None`: to the end), a slice of the buffer (no copy);
    /// an error for a range that does not lie within the file.
    fn slice(&self, start: u64, length: Option<usize>) -> Result<Bytes> {
        let len = self.bytes.len();
        let range = usize::try_from(start).ok().and_then(|start| {
            let end = match length {
                Some(length) => start.checked_add(length)?,
                None => len,
            };
            (start <= end && end <= len).then_some(start..end)
        });
        let asked = length.map_or("the rest".to_string(), |l| format!("{l} bytes"));
        range.map(|r| self.bytes.slice(r)).ok_or_else(|| {
            ParquetError::EOF(format!("{asked} from byte {start} asked of a {len}-byte file"))
        })
    }
}

impl Length for StrictFile {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
}

impl ChunkReader for StrictFile {
    type T = EndIsError<bytes::buf::Reader<Bytes>>;

    /// A reader from `start` to the end of the file.
    fn get_read(&self, start: u64) -> Result<Self::T> {
        Ok(EndIsError(self.slice(start, None)?.reader()))
    }

    /// The `length` bytes from `start`, a slice of the buffer (no copy).
    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        self.slice(start, Some(length))
    }
}

/// A reader for which reading at the end is an error ([`io::ErrorKind::UnexpectedEof`]).
pub(super) struct EndIsError<R>(R);

impl<R: Read> Read for EndIsError<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.read(buf)? {
            0 if !buf.is_empty() => {
                Err(io::Error::new(io::ErrorKind::UnexpectedEof, "read past the end of the file"))
            }
            n => Ok(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_at_the_end_is_an_error_and_offsets_past_it_are_refused() {
        let dir = storage::ScratchDir::new("strict-file").unwrap();
        let path = dir.join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        let file = StrictFile::read(&path).unwrap();
        assert_eq!(file.len(), 10);
        let mut tail = Vec::new();
        let mut reader = file.get_read(6).unwrap();
        let mut byte = [0u8; 1];
        while let Ok(1) = reader.read(&mut byte) {
            tail.push(byte[0]);
        }
        assert_eq!(tail, b"6789");
        let err = reader.read(&mut byte).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        assert_eq!(EndIsError(&b""[..]).read(&mut []).unwrap(), 0, "an empty read is no error");
        assert_eq!(&file.get_bytes(2, 3).unwrap()[..], b"234");
        assert_eq!(&file.get_bytes(7, 3).unwrap()[..], b"789");
        assert!(file.get_bytes(8, 3).is_err(), "a range past the end is refused");
        assert!(file.get_bytes(11, 0).is_err());
        assert!(file.get_bytes(2, usize::MAX).is_err(), "no overflow");
        assert!(file.get_read(10).is_ok());
        assert!(file.get_read(11).is_err());
        assert!(file.get_read(u64::MAX).is_err());
    }
}
