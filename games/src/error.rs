//! Typed errors for everything a user can type: position strings, moves, actions.

use thiserror::Error;

/// Why a position string was rejected. Every message names the offending part.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("empty position string")]
    Empty,
    #[error("unknown variant `{0}` (expected `camelot` or `tricamelot`)")]
    UnknownVariant(String),
    #[error("expected a `{expected}` position, got `{got}`")]
    WrongVariant { expected: &'static str, got: String },
    #[error("missing side to move after the variant name")]
    MissingSide,
    #[error("bad side to move `{0}` (expected one of {1})")]
    BadSide(String, String),
    #[error("bad player token `{0}` (expected a player letter, `:` and comma-separated pieces)")]
    BadPlayerToken(String),
    #[error("player `{0}` is given twice")]
    DuplicatePlayer(char),
    #[error("player `{0}` is missing (write `{0}:` for a player without pieces)")]
    MissingPlayer(char),
    #[error("bad piece `{0}` (expected K or M followed by a square, e.g. KC6)")]
    BadPiece(String),
    #[error("unknown square `{0}`")]
    UnknownSquare(String),
    #[error("two pieces on {0}")]
    Occupied(String),
    #[error("{player} has {count} {kind}, at most {max} are possible")]
    TooManyPieces { player: &'static str, kind: &'static str, count: usize, max: usize },
    #[error("bad castle-move counts `{0}` (expected cm=a,b with a and b from 0 to 2)")]
    BadCastleMoves(String),
    #[error("castle-move counts `{0}` are not part of a {1} position")]
    UnexpectedCastleMoves(String, &'static str),
    #[error("unexpected token `{0}`")]
    UnexpectedToken(String),
    #[error("the side to move ({0}) has no pieces")]
    SideWithoutPieces(&'static str),
    #[error("{player} has a piece on {square}, a castle {player} may never enter")]
    ForbiddenCastle { player: &'static str, square: String },
    #[error("bad move in progress `{0}`: {1}")]
    BadPartialMove(String, String),
}

/// Why a move in official notation was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("malformed move `{0}`: {1}")]
    Malformed(String, String),
    #[error("illegal move `{0}` in this position")]
    Illegal(String),
    #[error("the game is over: no move can be played")]
    GameOver,
    #[error("move `{0}` does not continue the move in progress `{1}`")]
    NotAContinuation(String, String),
}

/// Why an action (one leg, or end-move) was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    #[error("malformed action `{0}` (expected e.g. `F5>F9` for a leg, or `end`)")]
    Malformed(String),
    #[error("illegal action `{0}` in this state")]
    Illegal(String),
}

/// A name (variant, rule option, termination) that is not one of the known spellings.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {what} `{name}` (expected {expected})")]
pub struct UnknownName {
    /// What was being named, e.g. `variant`.
    pub what: &'static str,
    /// The name as given.
    pub name: String,
    /// The known names: `a or b`, `a, b or c`.
    pub expected: String,
}

impl UnknownName {
    pub(crate) fn new<const N: usize>(what: &'static str, name: &str, known: [&str; N]) -> Self {
        let expected = match known.split_last() {
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        UnknownName { what, name: name.to_string(), expected }
    }
}
