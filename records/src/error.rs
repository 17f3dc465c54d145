//! [`RecordError`]: everything that can go wrong writing or reading records. Every variant names
//! the file concerned, so a message alone says where to look.

use std::path::{Path, PathBuf};

/// An error writing or reading a record file.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The operating system refused an operation on the file or directory.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The parquet library could not read or write the file: not a parquet file, truncated or
    /// corrupt.
    #[error("{}: not a readable parquet file: {message}", path.display())]
    Corrupt { path: PathBuf, message: String },
    /// The parquet library failed while writing the file.
    #[error("{}: could not write parquet: {message}", path.display())]
    Write { path: PathBuf, message: String },
    /// The file is parquet but its columns are not the expected ones.
    #[error("{}: schema mismatch in column `{column}`: expected {expected}, found {found}", path.display())]
    SchemaMismatch { path: PathBuf, column: String, expected: String, found: String },
    /// The file was written with another version of the schema.
    #[error("{}: schema version {found}, expected {expected}", path.display())]
    WrongSchemaVersion { path: PathBuf, found: u16, expected: u16 },
    /// A value breaks the contract of [`GameRecord`](super::GameRecord) or
    /// [`PositionRow`](super::PositionRow) (`row` is the row index in the file or shard).
    #[error("{}: invalid value in row {row}: {message}", path.display())]
    InvalidValue { path: PathBuf, row: usize, message: String },
    /// A shard with this index is already complete (its games file exists).
    #[error("{}: shard already exists", path.display())]
    ShardExists { path: PathBuf },
    /// A games file whose positions file is missing (someone deleted it: the write protocol
    /// never leaves this state).
    #[error("{}: positions file of this shard is missing", path.display())]
    MissingPositions { path: PathBuf },
    /// A path given as a games file does not have the name `games-NNNNNN.parquet`.
    #[error("{}: not a shard games file name (expected games-NNNNNN.parquet)", path.display())]
    NotAShardName { path: PathBuf },
    /// A shard folder being added to holds games of another run, generation or variant.
    #[error("{}: holds {found}, but the games to add are {expected}; write them to another folder", path.display())]
    Foreign { path: PathBuf, found: String, expected: String },
}

impl RecordError {
    /// The file or directory the error is about.
    pub fn path(&self) -> &Path {
        match self {
            RecordError::Io { path, .. }
            | RecordError::Corrupt { path, .. }
            | RecordError::Write { path, .. }
            | RecordError::SchemaMismatch { path, .. }
            | RecordError::WrongSchemaVersion { path, .. }
            | RecordError::InvalidValue { path, .. }
            | RecordError::ShardExists { path }
            | RecordError::MissingPositions { path }
            | RecordError::NotAShardName { path }
            | RecordError::Foreign { path, .. } => path,
        }
    }

    /// Whether the error is about what a file holds (corrupt, foreign, of another version:
    /// bad input) rather than about reading or writing it (a full disk, a permission).
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, RecordError::Io { .. } | RecordError::Write { .. })
    }

    pub fn io(path: &Path, source: std::io::Error) -> Self {
        RecordError::Io { path: path.to_path_buf(), source }
    }

    pub(crate) fn corrupt(path: &Path, message: impl ToString) -> Self {
        RecordError::Corrupt { path: path.to_path_buf(), message: message.to_string() }
    }

    pub(crate) fn invalid(path: &Path, row: usize, message: impl Into<String>) -> Self {
        RecordError::InvalidValue { path: path.to_path_buf(), row, message: message.into() }
    }
}
