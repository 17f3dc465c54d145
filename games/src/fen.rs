//! Position strings (RULES.md §5): canonical printing and strict parsing.
//!
//! ```text
//! camelot W W:KC6,KD7,...,MI6 B:KC11,...,MI11 cm=0,0
//! tricamelot B B:KE4,... R:KB13,... G:KI14,...
//! ```
//!
//! This module reads and writes the parts of a position (board, side to move, castle moves) and
//! gives [`Position`] its parsing ([`Position::parse_with`], `FromStr`) and printing
//! (`Display`); `position` applies the rules, and imports nothing from here.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use crate::board::{Board, Piece, PieceKind};
use crate::error::PositionError;
use crate::game::{MAX_PLAYERS, Player};
use crate::options::RuleOptions;
use crate::position::{Position, Variant};
use crate::variant::Landing;
use crate::variant_kind::VariantKind;

/// What a position string states, checked piece by piece but not yet settled by the rules.
pub(crate) struct Setup {
    pub board: Board,
    pub to_move: Player,
    /// Castle moves used by White and Black (`[0, 0]` when the string has none).
    pub castle_moves: [u8; 2],
}

/// Parses a position string of variant `V`. Never panics.
pub(crate) fn parse<V: Variant>(s: &str) -> Result<Setup, PositionError> {
    let t = V::tables();
    let geo = &t.geometry;
    let mut tokens = s.split_whitespace();
    let name = tokens.next().ok_or(PositionError::Empty)?;
    if name != V::NAME {
        return Err(if name.parse::<VariantKind>().is_ok() {
            PositionError::WrongVariant { expected: V::NAME, got: name.to_string() }
        } else {
            PositionError::UnknownVariant(name.to_string())
        });
    }
    let letters: String =
        V::PLAYER_LETTERS.iter().map(|c| c.to_string()).collect::<Vec<_>>().join("/");
    let side = tokens.next().ok_or(PositionError::MissingSide)?;
    let to_move = player_of(V::PLAYER_LETTERS, side)
        .ok_or_else(|| PositionError::BadSide(side.to_string(), letters.clone()))?;

    let mut board = Board::default();
    let mut given = [false; MAX_PLAYERS];
    let mut castle_moves = None;
    for tok in tokens {
        if let Some(rest) = tok.strip_prefix("cm=") {
            if !V::CASTLE_MOVES {
                return Err(PositionError::UnexpectedCastleMoves(tok.to_string(), V::NAME));
            }
            if castle_moves.is_some() {
                return Err(PositionError::UnexpectedToken(tok.to_string()));
            }
            castle_moves = Some(
                parse_castle_moves(rest)
                    .ok_or_else(|| PositionError::BadCastleMoves(tok.to_string()))?,
            );
            continue;
        }
        let (letter, pieces) =
            tok.split_once(':').ok_or_else(|| PositionError::UnexpectedToken(tok.to_string()))?;
        let owner = player_of(V::PLAYER_LETTERS, letter)
            .ok_or_else(|| PositionError::BadPlayerToken(tok.to_string()))?;
        if std::mem::replace(&mut given[owner.index()], true) {
            return Err(PositionError::DuplicatePlayer(V::PLAYER_LETTERS[owner.index()]));
        }
        if pieces.is_empty() {
            continue;
        }
        for piece in pieces.split(',') {
            let kind = match piece.as_bytes().first() {
                Some(b'K') => PieceKind::Knight,
                Some(b'M') => PieceKind::Man,
                _ => return Err(PositionError::BadPiece(piece.to_string())),
            };
            let square = &piece[1..];
            if square.is_empty() {
                return Err(PositionError::BadPiece(piece.to_string()));
            }
            let cell = geo
                .parse_cell(square)
                .ok_or_else(|| PositionError::UnknownSquare(square.to_string()))?;
            if !board.is_empty(cell) {
                return Err(PositionError::Occupied(square.to_string()));
            }
            if t.landing[owner.index()][cell as usize] == Landing::Forbidden {
                return Err(PositionError::ForbiddenCastle {
                    player: V::PLAYER_NAMES[owner.index()],
                    square: square.to_string(),
                });
            }
            board.put(cell, Piece { owner, kind });
        }
    }
    if let Some(p) = (0..V::NUM_PLAYERS).find(|&p| !given[p]) {
        return Err(PositionError::MissingPlayer(V::PLAYER_LETTERS[p]));
    }
    for p in 0..V::NUM_PLAYERS {
        for (kind, max, label) in
            [(PieceKind::Knight, V::KNIGHTS, "Knights"), (PieceKind::Man, V::MEN, "Men")]
        {
            let count = board
                .pieces(geo.num_cells())
                .filter(|(_, q)| q.owner == Player(p as u8) && q.kind == kind)
                .count();
            if count > max {
                return Err(PositionError::TooManyPieces {
                    player: V::PLAYER_NAMES[p],
                    kind: label,
                    count,
                    max,
                });
            }
        }
    }
    // Tri-Camelot skips players without pieces, so one can never be the side to move.
    if V::NUM_PLAYERS > 2 && board.count(to_move) == 0 {
        return Err(PositionError::SideWithoutPieces(V::PLAYER_NAMES[to_move.index()]));
    }
    Ok(Setup { board, to_move, castle_moves: castle_moves.unwrap_or([0, 0]) })
}

fn player_of(letters: &[char], s: &str) -> Option<Player> {
    let mut chars = s.chars();
    let (c, rest) = (chars.next()?, chars.next());
    if rest.is_some() {
        return None;
    }
    letters.iter().position(|&l| l == c).map(|i| Player(i as u8))
}

fn parse_castle_moves(s: &str) -> Option<[u8; 2]> {
    let (a, b) = s.split_once(',')?;
    let n = |x: &str| -> Option<u8> {
        (x.len() == 1).then_some(())?;
        let v = x.parse::<u8>().ok()?;
        (v <= 2).then_some(v)
    };
    Some([n(a)?, n(b)?])
}

/// Writes the canonical position string: Knights then Men, each sorted by file then rank.
pub(crate) fn write<V: Variant>(
    board: &Board,
    to_move: Player,
    castle_moves: [u8; 2],
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    let geo = &V::tables().geometry;
    write!(f, "{} {}", V::NAME, V::PLAYER_LETTERS[to_move.index()])?;
    for p in 0..V::NUM_PLAYERS {
        write!(f, " {}:", V::PLAYER_LETTERS[p])?;
        let mut pieces: Vec<(PieceKind, (i8, i8), u8)> = board
            .pieces(geo.num_cells())
            .filter(|(_, q)| q.owner == Player(p as u8))
            .map(|(c, q)| (q.kind, geo.coords(c), c))
            .collect();
        pieces.sort();
        for (i, (kind, _, c)) in pieces.into_iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}{}", kind.letter(), geo.name(c))?;
        }
    }
    if V::CASTLE_MOVES {
        write!(f, " cm={},{}", castle_moves[0], castle_moves[1])?;
    }
    Ok(())
}

impl<V: Variant> Position<V> {
    /// Parses a position string (RULES.md §5) with the given rule options.
    pub fn parse_with(s: &str, options: RuleOptions) -> Result<Self, PositionError> {
        let Setup { board, to_move, castle_moves } = parse::<V>(s)?;
        let mut pos =
            Position { board, to_move, castle_moves, options, over: None, _variant: PhantomData };
        V::settle(&mut pos, None);
        Ok(pos)
    }
}

impl<V: Variant> FromStr for Position<V> {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        Self::parse_with(s, RuleOptions::default())
    }
}

impl<V: Variant> fmt::Display for Position<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write::<V>(&self.board, self.to_move, self.castle_moves, f)
    }
}
