//! `models/latest.toml`: the model workers play with, moved by the learner after the model's
//! files are in place.

use location::Store;
use serde::{Deserialize, Serialize};

use crate::run::RunError;

/// The pointer's key.
pub const LATEST_KEY: &str = "models/latest.toml";

/// The newest published model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatestModel {
    /// The generation whose games are wanted: workers write under `games/gen-NNNN/`.
    pub generation: u32,
    /// The model that plays them, `models/gen-NNNN` (the newest promoted one: with gating it
    /// may be older than `generation`).
    pub model: u32,
    /// Its `net.json` `tensors_fnv1a64`: the weights a worker must have loaded.
    pub tensors_fnv1a64: String,
    /// Set when the run has all its generations: workers stop.
    pub finished: bool,
}

impl LatestModel {
    /// The pointer, or `None` before the learner published a model.
    pub fn read(store: &Store) -> Result<Option<LatestModel>, RunError> {
        let Some(bytes) = store.get(LATEST_KEY)? else { return Ok(None) };
        let text = String::from_utf8_lossy(&bytes);
        toml::from_str(&text).map(Some).map_err(|e| RunError::BadObject {
            location: store.location().to_string(),
            key: LATEST_KEY.into(),
            message: e.to_string(),
        })
    }

    /// Moves the pointer (one atomic write).
    pub fn write(&self, store: &Store) -> Result<(), RunError> {
        let text = toml::to_string(self)?;
        Ok(store.put(LATEST_KEY, text.into_bytes())?)
    }
}
