//! Syntax of the official move notation: squares joined by `-` (plain move, canter) and `x`
//! (jump), a Charge being `-` legs then `x` legs (RULES.md §5).

use crate::error::MoveError;
use crate::geometry::Geometry;

/// Checks that `s` is well-formed notation on this board: at least two known squares, joined by
/// separators that are all `-`, all `x`, or `-` then `x`. Says what is wrong otherwise.
pub(crate) fn check_syntax(geo: &Geometry, s: &str) -> Result<(), MoveError> {
    let bad = |why: &str| Err(MoveError::Malformed(s.to_string(), why.to_string()));
    if s.is_empty() {
        return bad("empty");
    }
    let mut squares = 0;
    let mut seen_x = false;
    let mut rest = s;
    loop {
        let end = rest.find(['-', 'x']).unwrap_or(rest.len());
        let square = &rest[..end];
        if square.is_empty() {
            return bad("expected a square");
        }
        if geo.parse_cell(square).is_none() {
            return Err(MoveError::Malformed(s.to_string(), format!("unknown square `{square}`")));
        }
        squares += 1;
        if end == rest.len() {
            break;
        }
        let sep = rest.as_bytes()[end];
        if sep == b'x' {
            seen_x = true;
        } else if seen_x {
            return bad("a `-` leg after an `x` leg (a Charge cantering after jumping)");
        }
        rest = &rest[end + 1..];
    }
    if squares < 2 {
        return bad("a move needs at least two squares");
    }
    Ok(())
}
