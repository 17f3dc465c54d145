//! The TOML files kept in a model's folder beside its checkpoint: the training's counters and
//! summary, and what the ladder and the value probe measured of it. One trait, [`ModelFile`],
//! reads and writes them all, with one error, [`ModelFileError`], that the trainer's and the
//! run's errors each take in.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// A TOML file of a model's folder that could not be read or written.
#[derive(Debug, Error)]
pub enum ModelFileError {
    #[error("reading {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file exists but does not hold what its name says.
    #[error("{} is not {what}", path.display())]
    Parse {
        path: PathBuf,
        what: &'static str,
        /// Boxed: the TOML error is large and the case is rare.
        #[source]
        source: Box<toml::de::Error>,
    },
    /// The value could not be written as TOML (a bug: every model file serialises).
    #[error("writing {} as TOML: {source}", path.display())]
    Serialize {
        path: PathBuf,
        #[source]
        source: toml::ser::Error,
    },
    #[error(transparent)]
    Write(#[from] model::ModelError),
}

/// A record of a model kept as `models/gen-NNNN/<FILE>`.
pub trait ModelFile: Serialize + DeserializeOwned {
    /// The file's name in the model's folder.
    const FILE: &'static str;
    /// What the file holds, as an error names it ("a ladder result").
    const WHAT: &'static str;

    /// Reads the model's file; `None` when it has none (the model was not measured); one that
    /// does not parse is [`ModelFileError::Parse`].
    fn read(model_dir: &Path) -> Result<Option<Self>, ModelFileError> {
        read_toml(&model_dir.join(Self::FILE), Self::WHAT)
    }

    /// Writes the model's file atomically (a temporary name, then a rename).
    fn write(&self, model_dir: &Path) -> Result<(), ModelFileError> {
        let path = model_dir.join(Self::FILE);
        let text = toml::to_string(self)
            .map_err(|source| ModelFileError::Serialize { path: path.clone(), source })?;
        Ok(model::write_atomic(&path, text.as_bytes())?)
    }
}

/// Reads a TOML file of the run directory: `None` when it does not exist; one that does not
/// parse is [`ModelFileError::Parse`], holding `what`.
pub(crate) fn read_toml<T: DeserializeOwned>(
    path: &Path,
    what: &'static str,
) -> Result<Option<T>, ModelFileError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(toml::from_str(&text).map_err(|source| ModelFileError::Parse {
            path: path.to_path_buf(),
            what,
            source: Box::new(source),
        })?)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ModelFileError::Io { path: path.to_path_buf(), source }),
    }
}
