//! The TOML files a run writes into a model's folder beside its checkpoint (what the ladder and
//! the value probe measured of it), read back when the run resumes or reports.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::{RunError, read_toml};

/// A record of a model kept as `models/gen-NNNN/<FILE>`.
pub trait ModelFile: Serialize + DeserializeOwned {
    /// The file's name in the model's folder.
    const FILE: &'static str;
    /// What the file holds, as an error names it ("a ladder result").
    const WHAT: &'static str;

    /// Reads the model's file; `None` when it has none (the model was not measured); one that
    /// does not parse is [`RunError::BadFile`].
    fn read(model_dir: &Path) -> Result<Option<Self>, RunError> {
        read_toml(&model_dir.join(Self::FILE), Self::WHAT)
    }

    /// Writes the model's file atomically (a temporary name, then a rename).
    fn write(&self, model_dir: &Path) -> Result<(), RunError> {
        let path = model_dir.join(Self::FILE);
        Ok(model::write_atomic(&path, toml::to_string(self)?.as_bytes())?)
    }
}
