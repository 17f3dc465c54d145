//! The files the readers hand to parquet: a [`ChunkReader`] whose readers fail when asked for
//! bytes past the end of the file instead of returning none.
//!
//! Why: parquet 60 reads a page header through a [`Read`] and skips an unknown Thrift field
//! element by element; it skips a `double` by copying 8 bytes into a sink and takes "no bytes"
//! for done. A damaged header announcing a list of two billion doubles therefore spun through
//! them at the end of the file, a read call each, for the best part of an hour (found by
//! `tests/fuzz_records.rs`). An error at the end stops the skip at once, and the readers report
//! the file as corrupt. Legitimate headers end before the file does, so they never see it.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};

use bytes::Bytes;
use parquet::errors::{ParquetError, Result};
use parquet::file::reader::{ChunkReader, Length};

/// A parquet file opened for reading (see the module docs).
pub(super) struct StrictFile {
    file: File,
    len: u64,
}

impl StrictFile {
    /// Wraps an open file, taking its length now.
    pub fn new(file: File) -> io::Result<Self> {
        let len = file.metadata()?.len();
        Ok(StrictFile { file, len })
    }
}

impl Length for StrictFile {
    fn len(&self) -> u64 {
        self.len
    }
}

impl ChunkReader for StrictFile {
    type T = BufReader<EndIsError<io::Take<File>>>;

    /// A reader from `start` to the end of the file (sharing the file's cursor, as parquet's
    /// own reader of a `File` does).
    fn get_read(&self, start: u64) -> Result<Self::T> {
        if start > self.len {
            return Err(ParquetError::EOF(format!(
                "offset {start} past the end of a {}-byte file",
                self.len
            )));
        }
        let mut file = self.file.try_clone()?;
        file.seek(SeekFrom::Start(start))?;
        Ok(BufReader::new(EndIsError(file.take(self.len - start))))
    }

    fn get_bytes(&self, start: u64, length: usize) -> Result<Bytes> {
        self.file.get_bytes(start, length)
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
        let file = StrictFile::new(File::open(&path).unwrap()).unwrap();
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
        assert!(file.get_read(10).is_ok());
        assert!(file.get_read(11).is_err());
    }
}
