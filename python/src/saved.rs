//! Saved games (`games::SavedGame`, docs/records.md "Saved games"): the text `play`'s `save`
//! and the board page write, read into plain Python values and written back, every move checked
//! by the rules both ways.

use games::{RuleOptions, SavedGame, VariantKind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn bad(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The position strings before the first move and after each move of `game`.
fn positions(game: &SavedGame) -> PyResult<Vec<String>> {
    games::with_variant!(game.variant, V => Ok(game
        .states::<V>(RuleOptions::default())
        .map_err(bad)?
        .iter()
        .map(|s| s.to_string())
        .collect()))
}

/// The saved game in `text` as a dict: `variant`, `start`, `moves`, `comments` (the game's
/// first, then one after each move), `result` (each seat's share, or None), `termination`
/// (or None), `tags` (every other tag, as (name, value) pairs) and `positions` (before the
/// first move and after each).
#[pyfunction]
pub fn read_game<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
    let game: SavedGame = text.parse().map_err(bad)?;
    let d = PyDict::new(py);
    d.set_item("positions", positions(&game)?)?;
    d.set_item("variant", game.variant.as_str())?;
    d.set_item("start", game.start)?;
    d.set_item("moves", game.moves)?;
    d.set_item("comments", game.comments)?;
    d.set_item("result", game.result)?;
    d.set_item("termination", game.termination)?;
    d.set_item("tags", game.tags)?;
    Ok(d)
}

/// The text of a saved game; its moves are checked by the rules first (a ValueError names the
/// first illegal one).
#[pyfunction]
#[pyo3(signature = (variant, moves, start = "start", comments = None, result = None, termination = None, tags = None))]
pub fn write_game(
    variant: &str,
    moves: Vec<String>,
    start: &str,
    comments: Option<Vec<String>>,
    result: Option<Vec<f32>>,
    termination: Option<String>,
    tags: Option<Vec<(String, String)>>,
) -> PyResult<String> {
    let kind: VariantKind = variant.parse().map_err(bad)?;
    let mut game = SavedGame::new(kind, start);
    game.moves = moves;
    if let Some(c) = comments {
        game.comments = c;
    }
    game.result = result;
    game.termination = termination;
    game.tags = tags.unwrap_or_default();
    game.check().map_err(bad)?;
    positions(&game)?;
    Ok(game.to_string())
}
