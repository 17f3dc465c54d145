//! The two games by name, and what the network needs to know of each: its tensor layout and its
//! action map.

use games::{
    CamelotRules, Encode, Encoding, Game, KnightCanter, State, TriCamelotRules, Variant,
    VariantKind,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A variant name (`camelot`, `tricamelot`).
pub fn kind(name: &str) -> PyResult<VariantKind> {
    name.parse::<VariantKind>().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A knight-canter rule name (`strict`, `final-square`).
pub fn knight_canter(name: &str) -> PyResult<KnightCanter> {
    name.parse::<KnightCanter>().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An encoding name (`basic`, `tactical`).
pub fn encoding(name: &str) -> PyResult<Encoding> {
    name.parse::<Encoding>().map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The network's tensor layout of `variant` under `encoding`: planes, height, width, the
/// number of actions, the value classes, the seats (letters in turn order) and the grid index
/// of every cell.
#[pyfunction]
#[pyo3(signature = (variant, encoding = "basic"))]
pub fn layout<'py>(py: Python<'py>, variant: &str, encoding: &str) -> PyResult<Bound<'py, PyDict>> {
    let encoding = self::encoding(encoding)?;
    games::with_variant!(kind(variant)?, V => layout_of::<V>(py, encoding))
}

fn layout_of<V: Variant>(py: Python<'_>, encoding: Encoding) -> PyResult<Bound<'_, PyDict>> {
    let l = State::<V>::layout(encoding);
    let d = PyDict::new(py);
    d.set_item("variant", V::NAME)?;
    d.set_item("encoding", encoding.as_str())?;
    d.set_item("encoding_version", encoding.version())?;
    d.set_item("planes", l.planes)?;
    d.set_item("height", l.height)?;
    d.set_item("width", l.width)?;
    d.set_item("num_actions", State::<V>::NUM_ACTIONS)?;
    d.set_item("value_classes", l.value_classes)?;
    d.set_item("seats", V::PLAYER_LETTERS.iter().map(|c| c.to_string()).collect::<Vec<_>>())?;
    d.set_item("cells", l.cells.clone())?;
    Ok(d)
}

/// Both games' rules, so `Position` can hold either.
pub enum AnyState {
    Camelot(State<CamelotRules>),
    Tricamelot(State<TriCamelotRules>),
}

/// Runs `$body` with `$s` bound to the state inside an [`AnyState`] and `V` its variant.
#[macro_export]
macro_rules! with_state {
    ($any:expr, $s:ident, $V:ident => $body:expr) => {
        match $any {
            $crate::variant::AnyState::Camelot($s) => {
                type $V = games::CamelotRules;
                $body
            }
            $crate::variant::AnyState::Tricamelot($s) => {
                type $V = games::TriCamelotRules;
                $body
            }
        }
    };
}
