//! A position between complete moves ([`Position`]): the board, the player to move, castle-move
//! counts and the rule options; playing a move, and the end of the game. What differs between
//! Camelot and Tri-Camelot is behind one trait ([`Variant`]), so that move generation, notation,
//! perft and the leg interface are written once. Parsing and writing position strings are
//! `fen`'s part of `Position`, its legal moves `movegen`'s.

use std::fmt::{self, Debug};
use std::hash::Hash;
use std::marker::PhantomData;

use crate::board::Board;
use crate::error::MoveError;
use crate::game::{GameOver, Player};
use crate::geometry::Mirror;
use crate::mv::{Move, MoveKind};
use crate::options::RuleOptions;
use crate::variant::{Landing, Tables};
use crate::zobrist;

/// A set of rules: Camelot or Tri-Camelot.
pub trait Variant:
    Copy + Clone + Debug + Default + PartialEq + Eq + Hash + Send + Sync + 'static
{
    /// `camelot` or `tricamelot`, the first word of a position string.
    const NAME: &'static str;
    const NUM_PLAYERS: usize;
    /// Cells and directions of the board (checked against the geometry by the tests).
    const NUM_CELLS: usize;
    const NUM_DIRS: usize;
    /// Seat letters in turn order, as in position strings.
    const PLAYER_LETTERS: &'static [char];
    /// Player names in turn order.
    const PLAYER_NAMES: &'static [&'static str];
    /// The start position string.
    const START: &'static str;
    /// Knights and Men each player starts with (and can never exceed).
    const KNIGHTS: usize;
    const MEN: usize;
    /// Whether castle moves exist (Camelot) and the position string carries `cm=`.
    const CASTLE_MOVES: bool;

    /// Rows and columns of the grid the board is laid on for the network.
    const GRID: (usize, usize);

    fn tables() -> &'static Tables;

    /// The (row, column) of the cell at (file, rank) on that grid.
    fn grid_pos(file: i8, rank: i8) -> (usize, usize);

    /// The left-right mirror when it is a symmetry of the rules, used to augment training data
    /// ([`crate::Encode::symmetries`]); it must reverse each row of the grid. `None` (the
    /// default) where there is none: Tri-Camelot's mirror swaps the two opponents, who play
    /// different roles.
    fn mirror() -> Option<&'static Mirror> {
        None
    }

    /// Passes the turn after `mover` completed a move (None: a position was just parsed, and
    /// the side to move stays) and records the end of the game if it is over. Camelot leaves the
    /// "no legal move" rule to [`Variant::no_move`], which needs move generation; Tri-Camelot
    /// must eliminate players without moves here, so it may generate moves.
    fn settle(pos: &mut Position<Self>, mover: Option<Player>);

    /// The result when the player to move has no legal move (only reached for Camelot).
    fn no_move(pos: &Position<Self>) -> GameOver;

    /// The seat after `p` in turn order (eliminated players included).
    fn next_seat(p: Player) -> Player {
        Player((p.0 + 1) % Self::NUM_PLAYERS as u8)
    }
}

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

    /// `board` with `seat` to move as if at the start of its turn (the castle-move counts and
    /// rule options given, no ending looked for): what the tactical planes' second walk of the
    /// rules asks of a seat that is not the one to move.
    #[cfg(test)]
    pub(crate) fn with_mover(
        board: &Board,
        seat: Player,
        castle_moves: [u8; 2],
        options: RuleOptions,
    ) -> Self {
        Position {
            board: board.clone(),
            to_move: seat,
            castle_moves,
            options,
            over: None,
            _variant: PhantomData,
        }
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

impl<V: Variant> fmt::Debug for Position<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
