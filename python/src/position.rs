//! `Position`: a game state of either variant, with the complete-move interface (official
//! notation), the leg interface the network plays (action indices), the encoding, and the
//! result.

use games::{Encode, Game, Outcome, RuleOptions, State, Variant, VariantKind};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::variant::{AnyState, kind};
use crate::with_state;

fn bad(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A position of Camelot or Tri-Camelot, possibly with a move in progress.
#[pyclass(module = "camelot_zero._native")]
pub struct Position {
    state: AnyState,
    options: RuleOptions,
}

impl Position {
    fn parse(text: &str, variant: Option<&str>, options: RuleOptions) -> PyResult<AnyState> {
        let text = text.trim();
        let kind = match (text, variant) {
            ("start", Some(v)) => kind(v)?,
            ("start", None) => return Err(bad("`start` needs variant='camelot' or 'tricamelot'")),
            (s, named) => {
                let first =
                    s.split_whitespace().next().ok_or_else(|| bad("empty position string"))?;
                let found = kind(first)?;
                if let Some(v) = named
                    && kind(v)? != found
                {
                    return Err(bad(format!("the position is a {found} position, not {v}")));
                }
                found
            }
        };
        let parse = |s: &str| -> PyResult<AnyState> {
            Ok(match kind {
                VariantKind::Camelot => AnyState::Camelot(
                    State::parse_with(s, options).map_err(|e| bad(format!("bad position: {e}")))?,
                ),
                VariantKind::Tricamelot => AnyState::Tricamelot(
                    State::parse_with(s, options).map_err(|e| bad(format!("bad position: {e}")))?,
                ),
            })
        };
        if text == "start" {
            Ok(match kind {
                VariantKind::Camelot => AnyState::Camelot(State::start_with(options)),
                VariantKind::Tricamelot => AnyState::Tricamelot(State::start_with(options)),
            })
        } else {
            parse(text)
        }
    }
}

/// The legal action `index` (mover's frame) of `state`, or a ValueError.
fn legal_action<V: Variant>(state: &State<V>, index: usize) -> PyResult<games::Action> {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    legal
        .into_iter()
        .find(|&a| state.action_index(a) == index)
        .ok_or_else(|| bad(format!("action {index} is not legal in {state}")))
}

fn result_of<V: Variant>(state: &State<V>) -> Option<(Vec<f32>, String, Option<String>)> {
    state.outcome().map(|over| {
        let values = over.outcome.values(V::NUM_PLAYERS);
        let winner = match over.outcome {
            Outcome::Win(p) => Some(V::PLAYER_LETTERS[p.index()].to_string()),
            Outcome::Draw => None,
        };
        (values.0[..V::NUM_PLAYERS].to_vec(), over.termination.to_string(), winner)
    })
}

fn f32_bytes<'py>(py: Python<'py>, values: &[f32]) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    PyBytes::new(py, &bytes)
}

#[pymethods]
impl Position {
    /// `Position(text="start", variant=None, knight_canter="strict")`: a position string (as
    /// printed by `str()`), or `"start"` with the variant.
    #[new]
    #[pyo3(signature = (text = "start", variant = None, knight_canter = "strict"))]
    fn new(text: &str, variant: Option<&str>, knight_canter: &str) -> PyResult<Self> {
        let options = RuleOptions { knight_canter: crate::variant::knight_canter(knight_canter)? };
        Ok(Position { state: Position::parse(text, variant, options)?, options })
    }

    fn __str__(&self) -> String {
        with_state!(&self.state, s, _V => s.to_string())
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.__str__())
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.__str__() == other.__str__() && self.options == other.options
    }

    fn __hash__(&self) -> u64 {
        with_state!(&self.state, s, _V => s.hash())
    }

    /// An independent copy.
    fn copy(&self) -> Position {
        let state = match &self.state {
            AnyState::Camelot(s) => AnyState::Camelot(s.clone()),
            AnyState::Tricamelot(s) => AnyState::Tricamelot(s.clone()),
        };
        Position { state, options: self.options }
    }

    /// `"camelot"` or `"tricamelot"`.
    #[getter]
    fn variant(&self) -> &'static str {
        with_state!(&self.state, _s, V => V::NAME)
    }

    /// The knight-canter rule option.
    #[getter]
    fn knight_canter(&self) -> &'static str {
        self.options.knight_canter.as_str()
    }

    /// The seats' letters in turn order (`["W", "B"]` or `["B", "R", "G"]`).
    #[getter]
    fn seats(&self) -> Vec<String> {
        with_state!(&self.state, _s, V => V::PLAYER_LETTERS.iter().map(|c| c.to_string()).collect())
    }

    /// The letter of the seat to move.
    #[getter]
    fn to_move(&self) -> String {
        with_state!(&self.state, s, V => V::PLAYER_LETTERS[s.to_move().index()].to_string())
    }

    /// The legs of the move in progress in official notation (`"D7-D5"`), or `None` between
    /// moves.
    #[getter]
    fn move_in_progress(&self) -> Option<String> {
        with_state!(&self.state, s, _V => (!s.landed().is_empty()).then(|| s.partial_notation()))
    }

    /// The legal complete moves in official notation, sorted (with a move in progress: the
    /// moves that continue it, its legs included).
    fn legal_moves(&self) -> Vec<String> {
        with_state!(&self.state, s, _V => {
            let pos = s.position();
            let mut moves: Vec<String> = s.continuations().map(|m| pos.notation(m)).collect();
            moves.sort();
            moves
        })
    }

    /// Plays a complete move in official notation (ValueError if it is not legal).
    #[pyo3(name = "play")]
    fn play_move(&mut self, notation: &str) -> PyResult<()> {
        match &mut self.state {
            AnyState::Camelot(s) => *s = s.after_move(notation).map_err(bad)?,
            AnyState::Tricamelot(s) => *s = s.after_move(notation).map_err(bad)?,
        }
        Ok(())
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        with_state!(&self.state, s, _V => s.outcome().is_some())
    }

    /// The final score of each seat (1 a win, the fair share a draw, 0 a loss), or `None` while
    /// the game goes on.
    fn result(&self) -> Option<Vec<f32>> {
        with_state!(&self.state, s, V => result_of::<V>(s).map(|r| r.0))
    }

    /// How the game ended (`castle`, `capture-all`, `no-move`, `draw`, ...), or `None`.
    fn termination(&self) -> Option<String> {
        with_state!(&self.state, s, V => result_of::<V>(s).map(|r| r.1))
    }

    /// The winner's letter, or `None` (a draw, or the game goes on).
    fn winner(&self) -> Option<String> {
        with_state!(&self.state, s, V => result_of::<V>(s).and_then(|r| r.2))
    }

    /// The legal actions (legs, and `end` where stopping is optional) as policy indices in the
    /// mover's frame, ascending: what the network's policy head scores.
    fn legal_actions(&self) -> Vec<usize> {
        with_state!(&self.state, s, _V => {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            legal.into_iter().map(|a| s.action_index(a)).collect()
        })
    }

    /// The legal action `index` written as a leg (`"F5>F9"`, absolute squares) or `"end"`.
    fn action_name(&self, index: usize) -> PyResult<String> {
        with_state!(&self.state, s, _V => Ok(s.action_to_string(legal_action(s, index)?)))
    }

    /// The policy index of the legal leg written `"F5>F9"` (or `"end"`).
    fn action_index(&self, name: &str) -> PyResult<usize> {
        with_state!(&self.state, s, _V => {
            let a = s.parse_action(name).map_err(bad)?;
            Ok(s.action_index(a))
        })
    }

    /// Plays the legal action `index` (one leg; the move completes when no leg can follow).
    fn play_action(&mut self, index: usize) -> PyResult<()> {
        with_state!(&mut self.state, s, _V => {
            let a = legal_action(s, index)?;
            s.play(a);
            Ok(())
        })
    }

    /// The complete move the last action completed, in official notation, or `None`.
    fn last_move(&self) -> Option<String> {
        with_state!(&self.state, s, _V => s.last_move())
    }

    /// The network input under `encoding` as little-endian float32 bytes, `[planes, height,
    /// width]` row-major, from the mover's point of view (the package wraps it as a numpy array).
    #[pyo3(signature = (encoding = "basic"))]
    fn encode_bytes<'py>(&self, py: Python<'py>, encoding: &str) -> PyResult<Bound<'py, PyBytes>> {
        let encoding = crate::variant::encoding(encoding)?;
        with_state!(&self.state, s, V => {
            let mut planes = vec![0.0f32; State::<V>::layout(encoding).input_len()];
            s.encode(encoding, &mut planes);
            Ok(f32_bytes(py, &planes))
        })
    }
}
