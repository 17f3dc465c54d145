//! The leg interface: a game state that advances one leg at a time (DESIGN.md §3).
//!
//! At the start of each turn the complete legal moves are generated once. The legal actions at
//! any point are the next legs of the moves that extend the legs already played, plus
//! [`Action::EndMove`] when the legs played are themselves a complete move that could go on.
//! When no legal move extends the legs played, the move is complete and the turn passes. So no
//! partial move can dead-end, and every rule about complete moves holds by construction.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::action::{Action, LegKind};
use crate::board::Board;
use crate::error::{ActionError, MoveError, PositionError};
use crate::game::{Game, GameOver, MAX_PLAYERS, Outcome, Player};
use crate::geometry::Cell;
use crate::goal_distance::GoalDistances;
use crate::mv::{Move, MoveKind};
use crate::options::RuleOptions;
use crate::position::Position;
use crate::position::Variant;
use crate::tactical_planes::capture_worth;
use crate::variant::Landing;
use crate::zobrist;

/// A game of variant `V` as the search plays it: a position at the start of a turn, its legal
/// moves, and the legs of the move in progress.
#[derive(Clone)]
pub struct State<V: Variant> {
    pos: Position<V>,
    /// Legal moves of `pos`, shared between clones of this state.
    moves: Arc<[Move]>,
    over: Option<GameOver>,
    /// Cells landed on during the move in progress, start first; empty before its first leg.
    landed: SmallVec<[Cell; 16]>,
    /// The board with the move in progress applied (captured pieces removed).
    board: Board,
    /// The move the last `play` completed (None once a leg of the next move is played).
    last: Option<Move>,
}

/// Equal when the game goes on identically: the move that led here is not compared.
impl<V: Variant> PartialEq for State<V> {
    fn eq(&self, other: &Self) -> bool {
        self.pos == other.pos && self.landed == other.landed
    }
}

impl<V: Variant> Eq for State<V> {}

impl<V: Variant> State<V> {
    /// A state at the start of a turn in `pos`.
    pub fn new(pos: Position<V>) -> Self {
        let moves: Arc<[Move]> = pos.legal_moves().into();
        let over = pos.outcome_given(!moves.is_empty());
        let board = pos.board.clone();
        State { pos, moves, over, landed: SmallVec::new(), board, last: None }
    }

    /// The start of a game with the given rule options.
    pub fn start_with(options: RuleOptions) -> Self {
        Self::new(Position::start_with(options))
    }

    /// The position at the start of the current turn.
    pub fn position(&self) -> &Position<V> {
        &self.pos
    }

    /// The board as it stands, with the legs of the move in progress applied.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The legal complete moves of the current turn.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Cells landed on during the move in progress (start first); empty between moves.
    pub fn landed(&self) -> &[Cell] {
        &self.landed
    }

    /// The cell of the piece that is moving, if a move is in progress.
    pub fn moving_piece(&self) -> Option<Cell> {
        self.landed.last().copied()
    }

    /// Plays a whole move of the current turn (which must not have legs played yet).
    pub fn play_move(&mut self, m: &Move) {
        debug_assert!(self.landed.is_empty() && self.moves.contains(m));
        let mut pos = self.pos.clone();
        pos.play(m);
        *self = State::new(pos);
        self.last = Some(m.clone());
    }

    /// The legal complete moves that extend the legs played so far (between moves: all of the
    /// turn's moves). A position string with a move in progress (`... move=E6-E8`) offers
    /// exactly these.
    pub fn continuations(&self) -> impl Iterator<Item = &Move> + '_ {
        self.candidates()
    }

    /// The position after the complete move written `notation`, which must be one of
    /// [`State::continuations`] (the legs played so far included), as the next turn's state.
    pub fn after_move(&self, notation: &str) -> Result<State<V>, MoveError> {
        let m = self.pos.parse_move(notation)?;
        if !self.candidates().any(|c| *c == m) {
            return Err(MoveError::NotAContinuation(notation.into(), self.partial_notation()));
        }
        let mut pos = self.pos.clone();
        pos.play(&m);
        let mut next = State::new(pos);
        next.last = Some(m);
        Ok(next)
    }

    /// Moves of this turn that extend the legs played so far.
    fn candidates(&self) -> impl Iterator<Item = &Move> + '_ {
        let k = self.landed.len();
        self.moves.iter().filter(move |m| m.path().len() >= k && m.path()[..k] == self.landed[..])
    }

    /// The action that takes `m` on from the legs played so far: its next leg, or end-move
    /// when those legs already are the whole of `m` (`m` must be one of
    /// [`State::continuations`]). Playing these actions until the turn passes plays `m`.
    pub fn next_action(&self, m: &Move) -> Action {
        let k = self.landed.len();
        if m.path().len() == k { Action::EndMove } else { Self::leg_of(m, k.saturating_sub(1)) }
    }

    /// The action of leg `i` of `m`.
    fn leg_of(m: &Move, i: usize) -> Action {
        let geo = &V::tables().geometry;
        let (a, b) = (m.path()[i], m.path()[i + 1]);
        let (dir, leap) = geo.leg_between(a, b).expect("consecutive cells of a move are a leg");
        Action::Leg { from: a, dir, kind: if leap { LegKind::Leap } else { LegKind::Step } }
    }

    /// Official notation of the legs played so far (e.g. `F5-F9`), empty between moves.
    pub fn partial_notation(&self) -> String {
        let Some(m) = self.candidates().next() else { return String::new() };
        if self.landed.is_empty() {
            return String::new();
        }
        let prefix = Move::new(&self.landed, m.kind(), self.canter_legs_of(m));
        prefix.notation(&V::tables().geometry)
    }

    fn canter_legs_of(&self, m: &Move) -> usize {
        (0..m.num_legs()).take_while(|&i| !m.is_jump_leg(i)).count()
    }

    /// Parses an action written `F5>F9` (a leg from F5 landing on F9) or `end`.
    pub fn parse_action(&self, s: &str) -> Result<Action, ActionError> {
        let geo = &V::tables().geometry;
        let a = if s == "end" {
            Action::EndMove
        } else {
            let (from, to) = s.split_once('>').ok_or_else(|| ActionError::Malformed(s.into()))?;
            let (from, to) = (geo.parse_cell(from), geo.parse_cell(to));
            let (Some(from), Some(to)) = (from, to) else {
                return Err(ActionError::Malformed(s.into()));
            };
            let (dir, leap) =
                geo.leg_between(from, to).ok_or_else(|| ActionError::Malformed(s.into()))?;
            Action::Leg { from, dir, kind: if leap { LegKind::Leap } else { LegKind::Step } }
        };
        if self.is_legal(a) { Ok(a) } else { Err(ActionError::Illegal(s.into())) }
    }

    /// Plays an action, checking that it is legal.
    pub fn try_play(&mut self, a: Action) -> Result<(), ActionError> {
        if !self.is_legal(a) {
            return Err(ActionError::Illegal(self.action_to_string(a)));
        }
        self.play(a);
        Ok(())
    }

    fn complete(&mut self) {
        let m = self
            .candidates()
            .find(|m| m.path().len() == self.landed.len())
            .expect("a complete move ends here")
            .clone();
        let mut pos = self.pos.clone();
        pos.play(&m);
        *self = State::new(pos);
        self.last = Some(m);
    }
}

impl<V: Variant> Game for State<V> {
    type Action = Action;
    const NAME: &'static str = V::NAME;
    const NUM_PLAYERS: usize = V::NUM_PLAYERS;
    const NUM_ACTIONS: usize = num_actions::<V>();

    fn initial() -> Self {
        Self::new(Position::start())
    }

    fn to_move(&self) -> Player {
        self.pos.to_move
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.over.is_some() {
            return;
        }
        out.extend(self.candidates().map(|m| self.next_action(m)));
        out.sort_by_key(|&a| self.action_index(a));
        out.dedup();
    }

    fn play(&mut self, a: Action) {
        debug_assert!(self.is_legal(a), "illegal action {a:?} in {self}");
        let Action::Leg { from, dir, kind } = a else {
            self.complete();
            return;
        };
        let geo = &V::tables().geometry;
        let to = geo.leg_to(from, dir, kind);
        if self.landed.is_empty() {
            self.landed.push(from);
        }
        let piece = self.board.take(from).expect("the moving piece");
        if kind == LegKind::Leap {
            let mid = geo.step(from, dir);
            if self.board.owner(mid).is_some_and(|o| o != self.pos.to_move) {
                self.board.take(mid);
            }
        }
        self.board.put(to, piece);
        self.landed.push(to);
        self.last = None;
        let k = self.landed.len();
        if !self.candidates().any(|m| m.path().len() > k) {
            self.complete();
        }
    }

    fn outcome(&self) -> Option<GameOver> {
        self.over
    }

    fn action_index(&self, a: Action) -> usize {
        let t = V::tables();
        let seat = self.pos.to_move.index();
        let dirs = t.geometry.num_dirs();
        match a {
            Action::EndMove => num_actions::<V>() - 1,
            Action::Leg { from, dir, kind } => {
                let cell = t.frame_cell[seat][from as usize] as usize;
                let dir = t.frame_dir[seat][dir as usize] as usize;
                (cell * dirs + dir) * 2 + (kind == LegKind::Leap) as usize
            }
        }
    }

    fn action_from_index(&self, index: usize) -> Option<Action> {
        let t = V::tables();
        let n = num_actions::<V>();
        if index + 1 == n {
            return Some(Action::EndMove);
        }
        if index >= n {
            return None;
        }
        let seat = self.pos.to_move.index();
        let dirs = t.geometry.num_dirs();
        let kind = if index % 2 == 1 { LegKind::Leap } else { LegKind::Step };
        let dir = t.unframe_dir[seat][(index / 2) % dirs];
        let from = t.unframe_cell[seat][index / 2 / dirs];
        Some(Action::Leg { from, dir, kind })
    }

    fn hash(&self) -> u64 {
        let geo = &V::tables().geometry;
        let mut h = zobrist::side(self.pos.to_move.0);
        for (c, p) in self.board.pieces(geo.num_cells()) {
            h ^= zobrist::PIECE[c as usize][p.code() as usize];
        }
        for (p, &n) in self.pos.castle_moves.iter().enumerate() {
            h ^= zobrist::castle_moves(p, n);
        }
        for (i, &c) in self.landed.iter().enumerate() {
            h ^= zobrist::leg(i, c);
        }
        h
    }

    fn last_move(&self) -> Option<String> {
        self.last.as_ref().map(|m| m.notation(&V::tables().geometry))
    }

    /// Every move that continues the legs played so far captures (a jump sequence or a
    /// Charge); false when the game is over.
    fn must_capture(&self) -> bool {
        let mut moves = self.continuations().peekable();
        moves.peek().is_some() && moves.all(Move::is_capture)
    }

    /// Each action's best capture from here on: the largest material, over the moves that
    /// continue the legs played and whose next action it is, of the pieces their remaining
    /// jump legs take (a Man 1, a Knight [`KNIGHT_IN_MEN`](crate::KNIGHT_IN_MEN)).
    fn capture_gains(&self, legal: &[Action], gains: &mut Vec<f32>) {
        gains.clear();
        gains.resize(legal.len(), 0.0);
        let geo = &V::tables().geometry;
        // The index of the next leg: 0 before the first, then one less than the cells landed.
        let next_leg = self.landed.len().saturating_sub(1);
        for m in self.candidates() {
            let first_jump = match m.kind() {
                MoveKind::Jump => 0,
                MoveKind::Charge => self.canter_legs_of(m),
                MoveKind::Plain | MoveKind::Canter => continue,
            };
            let gain = capture_worth(geo, &self.pos.board, m.path(), first_jump.max(next_leg));
            if gain > 0.0 {
                let a = self.next_action(m);
                if let Some(i) = legal.iter().position(|&b| b == a) {
                    gains[i] = gains[i].max(gain);
                }
            }
        }
    }

    /// The next action of a move (continuing the legs played) that ends the game at once with
    /// the mover winning: into the goal castle (Camelot: its last empty square) or capturing
    /// every opposing piece. A win because the opponent is left without a legal move is not
    /// looked for (it needs the opponent's move generation).
    fn winning_action(&self) -> Option<Action> {
        if self.over.is_some() {
            return None;
        }
        let t = V::tables();
        let me = self.pos.to_move;
        let opposing: usize = (0..V::NUM_PLAYERS as u8)
            .filter(|&p| p != me.0)
            .map(|p| self.pos.board.count(Player(p)))
            .sum();
        // Only a move into the goal or one that takes as many pieces as are left can win, so
        // the others are not played out.
        let may_win = |m: &&Move| {
            t.landing[me.index()][m.to() as usize] == Landing::Goal
                || m.captures(&t.geometry).count() >= opposing
        };
        let wins = |m: &&Move| {
            let mut pos = self.pos.clone();
            pos.play(m);
            matches!(pos.outcome_given(true), Some(GameOver { outcome: Outcome::Win(w), .. }) if w == me)
        };
        self.candidates().filter(may_win).find(wins).map(|m| self.next_action(m))
    }

    /// Pieces on the board per seat (Knights and Men alike, as the end-of-game rules count them),
    /// including captures made so far by a move in progress.
    fn material(&self) -> Option<[u32; MAX_PLAYERS]> {
        let mut m = [0; MAX_PLAYERS];
        for (seat, n) in m.iter_mut().enumerate().take(V::NUM_PLAYERS) {
            *n = self.board.count(Player(seat as u8)) as u32;
        }
        Some(m)
    }

    /// Pieces per seat, each weighted `1 + closeness` to the seat's goal castle
    /// ([`GoalDistances::closeness`], 0 to 1).
    fn progress(&self) -> Option<[f32; MAX_PLAYERS]> {
        let distances = GoalDistances::new::<V>();
        let mut p = [0.0; MAX_PLAYERS];
        for (cell, piece) in self.board.pieces(V::tables().geometry.num_cells()) {
            let seat = piece.owner.index();
            p[seat] += 1.0 + distances.closeness(seat, cell);
        }
        Some(p)
    }

    fn random_endgame(
        &self,
        rng: &mut dyn rand::RngCore,
        pieces: std::ops::RangeInclusive<u32>,
    ) -> Option<Self> {
        Position::<V>::random_endgame(rng, pieces, self.pos.options).map(State::new)
    }

    fn action_to_string(&self, a: Action) -> String {
        let geo = &V::tables().geometry;
        match a {
            Action::EndMove => "end".to_string(),
            Action::Leg { from, dir, kind } => {
                let to = geo.leg_to(from, dir, kind);
                if to == crate::geometry::NO_CELL {
                    format!("{}>?", geo.name(from))
                } else {
                    format!("{}>{}", geo.name(from), geo.name(to))
                }
            }
        }
    }
}

/// `cells × directions × {step, leap} + 1` (the last index is end-move).
pub const fn num_actions<V: Variant>() -> usize {
    V::NUM_CELLS * V::NUM_DIRS * 2 + 1
}

/// Position string of the turn start, plus `move=<legs so far>` while a move is in progress.
impl<V: Variant> fmt::Display for State<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pos)?;
        if !self.landed.is_empty() {
            write!(f, " move={}", self.partial_notation())?;
        }
        Ok(())
    }
}

impl<V: Variant> fmt::Debug for State<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "State({self})")
    }
}

impl<V: Variant> State<V> {
    /// Parses what `Display` prints (a position string, optionally with `move=<legs>`).
    pub fn parse_with(s: &str, options: RuleOptions) -> Result<Self, PositionError> {
        let (base, partial) = match s.split_whitespace().last() {
            Some(last) if last.starts_with("move=") => {
                (&s[..s.rfind("move=").expect("found")], Some(&last["move=".len()..]))
            }
            _ => (s, None),
        };
        let mut state = State::new(Position::parse_with(base, options)?);
        if let Some(legs) = partial {
            let bad = |why: String| PositionError::BadPartialMove(legs.to_string(), why);
            let cells: Vec<&str> = legs.split(['-', 'x']).collect();
            if cells.len() < 2 {
                return Err(bad("expected at least one leg".into()));
            }
            for pair in cells.windows(2) {
                let action = format!("{}>{}", pair[0], pair[1]);
                let a = state.parse_action(&action).map_err(|e| bad(e.to_string()))?;
                state.play(a);
                if state.landed.is_empty() {
                    return Err(bad("those legs complete a move".into()));
                }
            }
            if state.partial_notation() != legs {
                return Err(bad("the separators do not match the legs".into()));
            }
        }
        Ok(state)
    }
}

impl<V: Variant> FromStr for State<V> {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, PositionError> {
        Self::parse_with(s, RuleOptions::default())
    }
}
