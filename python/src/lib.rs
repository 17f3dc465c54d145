//! `camelot_zero._native`: the rules, the network encoding, the game records and saved games of camelot-zero
//! for Python, through PyO3. The package `camelot_zero` (python/camelot_zero/) wraps it with
//! numpy arrays, type hints and docstrings; this module hands back plain Python values and
//! little-endian `bytes` buffers with their shapes.
//!
//! Errors are Python exceptions: `ValueError` for bad input (a position string, a move, an
//! action, a variant name, a record file that is not one), `OSError` for files that cannot be
//! read. Nothing here can crash the interpreter: every error is returned, none panics.

mod position;
mod records;
mod saved;
mod variant;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::Position>()?;
    m.add_function(wrap_pyfunction!(variant::layout, m)?)?;
    m.add_function(wrap_pyfunction!(records::list_shards, m)?)?;
    m.add_function(wrap_pyfunction!(records::training_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(saved::read_game, m)?)?;
    m.add_function(wrap_pyfunction!(saved::write_game, m)?)?;
    let encodings: Vec<(&str, u32)> =
        games::Encoding::ALL.iter().map(|e| (e.as_str(), e.version())).collect();
    m.add("ENCODINGS", encodings)?;
    m.add("SCHEMA_VERSION", ::records::SCHEMA_VERSION)?;
    Ok(())
}
