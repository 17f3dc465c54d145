//! Complete legal move generation (RULES.md §2-§3), written once for both variants.
//!
//! Moves are streamed into a [`MoveSink`] so that perft can count them without allocating.
//! Every legal move is produced exactly once: a pure canter once per (start, end) with its
//! canonical path, the canter part of a Charge once per (start, canter end), and every distinct
//! jump path on its own.
//!
//! Canonical canter paths come from a breadth-first search that visits the leap targets of each
//! cell in increasing cell index (`Geometry::leap_order`) with a FIFO queue: within a layer the
//! queue is then ordered by the landing sequence, so the first time a cell is reached is along
//! the shortest path whose landing sequence is smallest by cell index (RULES.md §5).

use smallvec::SmallVec;

use crate::board::{Board, EMPTY, PieceKind};
use crate::game::Player;
use crate::geometry::{Cell, Geometry, MAX_CELLS, NO_CELL};
use crate::mv::{Move, MoveKind};
use crate::options::{KnightCanter, RuleOptions};
use crate::position::{Position, Variant};
use crate::variant::Landing;

/// Receives generated moves.
pub(crate) trait MoveSink {
    /// `path` = start cell then every landing cell; `canter_legs` = leading canter legs of a Charge.
    fn push(&mut self, path: &[Cell], kind: MoveKind, canter_legs: usize);
}

/// Counts moves (perft's bulk counting).
impl MoveSink for usize {
    #[inline]
    fn push(&mut self, _: &[Cell], _: MoveKind, _: usize) {
        *self += 1;
    }
}

impl MoveSink for Vec<Move> {
    fn push(&mut self, path: &[Cell], kind: MoveKind, canter_legs: usize) {
        self.push(Move::new(path, kind, canter_legs));
    }
}

/// Forwards to another sink and counts what went through.
struct Counting<'a, S> {
    inner: &'a mut S,
    n: usize,
}

impl<S: MoveSink> MoveSink for Counting<'_, S> {
    fn push(&mut self, path: &[Cell], kind: MoveKind, canter_legs: usize) {
        self.n += 1;
        self.inner.push(path, kind, canter_legs);
    }
}

impl<V: Variant> Position<V> {
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
        generate::<V, S>(&self.board, self.to_move, self.castle_moves, self.options, sink);
    }
}

/// Generates every legal move of `me` on `board` into `sink` (`castle_moves`: castle moves used
/// by each Camelot player). Takes the parts of a position rather than the position, so that
/// `position` builds on move generation and not the other way round. Does not look at whether
/// the game is already over (callers do).
pub(crate) fn generate<V: Variant, S: MoveSink>(
    board: &Board,
    me: Player,
    castle_moves: [u8; 2],
    options: RuleOptions,
    sink: &mut S,
) {
    let t = V::tables();
    let mut mine = [false; 8];
    let mut enemy = [false; 8];
    for code in 1..=(2 * V::NUM_PLAYERS as u8) {
        mine[code as usize] = (code - 1) / 2 == me.0;
        enemy[code as usize] = !mine[code as usize];
    }
    let mut g = Gen {
        geo: &t.geometry,
        landing: &t.landing[me.index()],
        board: board.clone(),
        mine,
        enemy,
        strict: options.knight_canter == KnightCanter::Strict,
        castle_moves_left: V::CASTLE_MOVES && castle_moves[me.index()] < 2,
        path: SmallVec::new(),
        queue: [NO_CELL; MAX_CELLS],
        parent: [NO_CELL; MAX_CELLS],
        seen: [false; MAX_CELLS],
    };
    let pieces: SmallVec<[(Cell, PieceKind); 16]> = board
        .pieces(g.geo.num_cells())
        .filter(|(_, p)| p.owner == me)
        .map(|(c, p)| (c, p.kind))
        .collect();

    // A piece in its own castle must leave first (before compulsory capture elsewhere), by a
    // capture if it has a jump; if it cannot move at all, the obligation lapses.
    let in_castle: SmallVec<[(Cell, PieceKind); 2]> = pieces
        .iter()
        .copied()
        .filter(|&(c, _)| g.landing[c as usize] == Landing::OwnCastle)
        .collect();
    if !in_castle.is_empty() {
        let jumpers: SmallVec<[(Cell, PieceKind); 2]> =
            in_castle.iter().copied().filter(|&(c, _)| g.can_jump_from(c)).collect();
        if !jumpers.is_empty() {
            for (c, kind) in jumpers {
                g.captures(c, kind, sink);
            }
            return;
        }
        let mut counting = Counting { inner: sink, n: 0 };
        for &(c, kind) in &in_castle {
            g.all_moves(c, kind, &mut counting);
        }
        if counting.n > 0 {
            return;
        }
    }

    // Compulsory capture: any direct jump means the move must be a jump or a Charge.
    if pieces.iter().any(|&(c, _)| g.can_jump_from(c)) {
        for &(c, kind) in &pieces {
            g.captures(c, kind, sink);
        }
        return;
    }
    for &(c, kind) in &pieces {
        g.all_moves(c, kind, sink);
    }
}

/// Working state of one generation: a private board on which the moving piece is lifted and
/// captured pieces are removed while a jump path is explored.
struct Gen<'a> {
    geo: &'a Geometry,
    landing: &'a [Landing],
    board: Board,
    /// Indexed by piece code: whether it belongs to the mover / to an opponent.
    mine: [bool; 8],
    enemy: [bool; 8],
    strict: bool,
    castle_moves_left: bool,
    path: SmallVec<[Cell; 32]>,
    queue: [Cell; MAX_CELLS],
    parent: [Cell; MAX_CELLS],
    seen: [bool; MAX_CELLS],
}

impl Gen<'_> {
    #[inline]
    fn landing(&self, c: Cell) -> Landing {
        self.landing[c as usize]
    }

    /// Whether a piece of the mover standing (or imagined) on `c` has a legal jump. A piece in
    /// a goal cell has none: it may not leave (Camelot) or the game is over (Tri-Camelot).
    fn can_jump_from(&self, c: Cell) -> bool {
        if self.landing(c) == Landing::Goal {
            return false;
        }
        (0..self.geo.num_dirs() as u8).any(|d| {
            let land = self.geo.leap(c, d);
            land != NO_CELL
                && self.enemy[self.board.code(self.geo.step(c, d)) as usize]
                && self.board.is_empty(land)
                && self.landing(land) != Landing::Forbidden
        })
    }

    /// Every jump sequence of the piece on `s`, and every Charge if it is a Knight.
    fn captures<S: MoveSink>(&mut self, s: Cell, kind: PieceKind, sink: &mut S) {
        if self.landing(s) == Landing::Goal {
            return;
        }
        let piece = self.board.take(s).expect("a piece to move");
        self.path.clear();
        self.path.push(s);
        self.jumps(s, MoveKind::Jump, 0, sink);
        if kind == PieceKind::Knight {
            let n = self.canter_search(s, false);
            self.charges(n, sink);
        }
        self.board.put(s, piece);
    }

    /// Every move of the piece on `s` when no capture is compulsory (it has no direct jump).
    fn all_moves<S: MoveSink>(&mut self, s: Cell, kind: PieceKind, sink: &mut S) {
        let piece = self.board.take(s).expect("a piece to move");
        let geo = self.geo;
        if self.landing(s) == Landing::Goal {
            // Inside the opponent's castle: only a castle move to its other square.
            if self.castle_moves_left {
                for d in 0..geo.num_dirs() as u8 {
                    let t = geo.step(s, d);
                    if t != NO_CELL && self.board.is_empty(t) && self.landing(t) == Landing::Goal {
                        sink.push(&[s, t], MoveKind::Plain, 0);
                    }
                }
            }
            self.board.put(s, piece);
            return;
        }
        for &d in geo.leap_order() {
            let t = geo.step(s, d);
            if t != NO_CELL
                && self.board.is_empty(t)
                && matches!(self.landing(t), Landing::Normal | Landing::Goal)
            {
                sink.push(&[s, t], MoveKind::Plain, 0);
            }
        }
        let knight = kind == PieceKind::Knight;
        // A Knight's pure canter may not pass through (strict) or end on (final-square) a cell
        // from which it could jump; the canter part of a Charge has no such restriction.
        let restricted = knight && self.strict;
        let n = self.canter_search(s, restricted);
        for i in 1..n {
            let e = self.queue[i];
            if knight && !self.strict && self.can_jump_from(e) {
                continue;
            }
            self.set_path_to(e);
            sink.push(&self.path, MoveKind::Canter, 0);
        }
        if knight {
            let n = if restricted { self.canter_search(s, false) } else { n };
            self.charges(n, sink);
        }
        self.board.put(s, piece);
    }

    /// Charges from every canter end found by the last unrestricted `canter_search`.
    fn charges<S: MoveSink>(&mut self, n: usize, sink: &mut S) {
        for i in 1..n {
            let e = self.queue[i];
            if self.landing(e) == Landing::Goal || !self.can_jump_from(e) {
                continue;
            }
            self.set_path_to(e);
            let canter_legs = self.path.len() - 1;
            self.jumps(e, MoveKind::Charge, canter_legs, sink);
        }
    }

    /// Depth-first search of jump paths from `u` (the path so far is `self.path`). Jumping must
    /// go on while it can; landing on a goal cell ends the move.
    fn jumps<S: MoveSink>(&mut self, u: Cell, kind: MoveKind, canter_legs: usize, sink: &mut S) {
        let geo = self.geo;
        let mut any = false;
        for d in 0..geo.num_dirs() as u8 {
            let land = geo.leap(u, d);
            if land == NO_CELL {
                continue;
            }
            let mid = geo.step(u, d);
            if !self.enemy[self.board.code(mid) as usize]
                || !self.board.is_empty(land)
                || self.landing(land) == Landing::Forbidden
            {
                continue;
            }
            any = true;
            let captured = self.board.take(mid).expect("an enemy piece");
            self.path.push(land);
            if self.landing(land) == Landing::Goal {
                sink.push(&self.path, kind, canter_legs);
            } else {
                self.jumps(land, kind, canter_legs, sink);
            }
            self.path.pop();
            self.board.put(mid, captured);
        }
        if !any && self.path.len() > canter_legs + 1 {
            sink.push(&self.path, kind, canter_legs);
        }
    }

    /// Breadth-first search of the cells a canter from `s` (already lifted) can end on.
    /// Fills `queue[..n]` (`queue[0] = s`) and `parent`; returns `n`. Goal cells end a canter
    /// and are not searched on from. With `restricted`, cells from which the piece could jump
    /// are left out altogether.
    fn canter_search(&mut self, s: Cell, restricted: bool) -> usize {
        let geo = self.geo;
        self.queue[0] = s;
        self.seen[s as usize] = true;
        let (mut head, mut n) = (0, 1);
        while head < n {
            let u = self.queue[head];
            head += 1;
            if u != s && self.landing(u) == Landing::Goal {
                continue;
            }
            for &d in geo.leap_order() {
                let land = geo.leap(u, d);
                if land == NO_CELL
                    || self.seen[land as usize]
                    || !self.mine[self.board.code(geo.step(u, d)) as usize]
                    || self.board.code(land) != EMPTY
                    || !matches!(self.landing(land), Landing::Normal | Landing::Goal)
                    || (restricted && self.can_jump_from(land))
                {
                    continue;
                }
                self.seen[land as usize] = true;
                self.parent[land as usize] = u;
                self.queue[n] = land;
                n += 1;
            }
        }
        for &c in &self.queue[..n] {
            self.seen[c as usize] = false;
        }
        n
    }

    /// Sets `self.path` to the canonical canter path from the search's start to `e`.
    fn set_path_to(&mut self, e: Cell) {
        self.path.clear();
        let s = self.queue[0];
        let mut c = e;
        while c != s {
            self.path.push(c);
            c = self.parent[c as usize];
        }
        self.path.push(s);
        self.path.reverse();
    }
}
