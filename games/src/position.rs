//! A position between complete moves: the board, the player to move, castle-move counts and the
//! rule options; legal moves, playing a move, and the end of the game.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use crate::board::Board;
use crate::error::{MoveError, PositionError};
use crate::fen;
use crate::game::{GameOver, Player};
use crate::movegen::{self, MoveSink};
use crate::mv::{Move, MoveKind};
use crate::options::RuleOptions;
use crate::variant::{Landing, Variant};
use crate::zobrist;

/// A valid position of variant `V` (built only by parsing a position string, or by playing
/// legal moves from one). Compare [`crate::Setup`]-style validation in shakmaty.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position<V: Variant> {
    pub(crate) board: Board,
    pub(crate) to_move: Player,
    /// Camelot castle moves made by White and Black (always 0 for Tri-Camelot).
    pub(crate) castle_moves: [u8; 2],
    pub(crate) options: RuleOptions,
    /// Set by `Variant::settle` for every ending that needs no move generation.
    pub(crate) over: Option<GameOver>,
    pub(crate) _variant: PhantomData<V>,
}

impl<V: Variant> Position<V> {
    /// The start position with the given rule options.
    pub fn start_with(options: RuleOptions) -> Self {
        Self::parse_with(V::START, options).expect("the start position parses")
    }

    /// The start position with default rule options.
    pub fn start() -> Self {
        Self::start_with(RuleOptions::default())
    }

    /// Parses a position string (RULES.md §5) with the given rule options.
    pub fn parse_with(s: &str, options: RuleOptions) -> Result<Self, PositionError> {
        let fen::Setup { board, to_move, castle_moves } = fen::parse::<V>(s)?;
        let mut pos =
            Position { board, to_move, castle_moves, options, over: None, _variant: PhantomData };
        V::settle(&mut pos, None);
        Ok(pos)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Castle moves used by each Camelot player.
    pub fn castle_moves(&self) -> [u8; 2] {
        self.castle_moves
    }

    /// The rule options.
    pub fn options(&self) -> RuleOptions {
        self.options
    }

    /// Every legal move (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.over.is_none() {
            self.generate(&mut moves);
        }
        moves
    }

    /// The number of legal moves, without building them.
    pub fn count_moves(&self) -> usize {
        let mut n = 0;
        if self.over.is_none() {
            self.generate(&mut n);
        }
        n
    }

    /// Every legal move of the player to move into `sink`, whether or not the game is over.
    pub(crate) fn generate<S: MoveSink>(&self, sink: &mut S) {
        movegen::generate::<V, S>(&self.board, self.to_move, self.castle_moves, self.options, sink);
    }

    /// The end of the game, if it is over.
    pub fn outcome(&self) -> Option<GameOver> {
        self.over.or_else(|| (self.count_moves() == 0).then(|| V::no_move(self)))
    }

    /// Like [`Position::outcome`], when the caller already knows whether a legal move exists.
    pub(crate) fn outcome_given(&self, has_moves: bool) -> Option<GameOver> {
        self.over.or_else(|| (!has_moves).then(|| V::no_move(self)))
    }

    /// Plays a move returned by [`Position::legal_moves`].
    pub fn play(&mut self, m: &Move) {
        let geo = &V::tables().geometry;
        let me = self.to_move;
        let piece = self.board.take(m.from()).expect("the moving piece");
        for c in m.captures(geo) {
            self.board.take(c);
        }
        self.board.put(m.to(), piece);
        let landing = &V::tables().landing[me.index()];
        if V::CASTLE_MOVES
            && m.kind() == MoveKind::Plain
            && landing[m.from() as usize] == Landing::Goal
        {
            self.castle_moves[me.index()] += 1;
        }
        V::settle(self, Some(me));
    }

    /// The legal move written `notation` (official notation, upper-case squares).
    pub fn parse_move(&self, notation: &str) -> Result<Move, MoveError> {
        crate::notation::check_syntax(&V::tables().geometry, notation)?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let geo = &V::tables().geometry;
        self.legal_moves()
            .into_iter()
            .find(|m| m.notation(geo) == notation)
            .ok_or_else(|| MoveError::Illegal(notation.to_string()))
    }

    /// Official notation of a move in this position.
    pub fn notation(&self, m: &Move) -> String {
        m.notation(&V::tables().geometry)
    }

    /// Zobrist hash of the board, the player to move and the castle-move counts.
    pub fn hash(&self) -> u64 {
        let mut h = zobrist::side(self.to_move.0);
        for (c, p) in self.board.pieces(V::tables().geometry.num_cells()) {
            h ^= zobrist::PIECE[c as usize][p.code() as usize];
        }
        for (p, &n) in self.castle_moves.iter().enumerate() {
            h ^= zobrist::castle_moves(p, n);
        }
        h
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
        fen::write::<V>(&self.board, self.to_move, self.castle_moves, f)
    }
}

impl<V: Variant> fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
