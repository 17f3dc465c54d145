//! [`AlphaBeta`]: the `alphabeta` player, a classical search over complete moves.
//!
//! - **Iterative deepening** to [`AlphaBetaLimits::depth`] plies (a ply is one player's complete
//!   move), stopping early at the time limit, if any (the deepest finished iteration decides; the
//!   first is always finished, so there is always a move).
//! - **Alpha-beta** in the *paranoid* form: the player to choose maximises its own
//!   [`Heuristic::score_for`], every other seat minimises it. For Camelot that is plain minimax;
//!   for Tri-Camelot the two opponents are assumed to play together against it.
//! - A **transposition table** (position hash → depth, bound, score, best move), replaced when the
//!   new entry is at least as deep.
//! - **Move ordering**: the table's move, then captures (most pieces first), castle entries,
//!   the two killer moves of the ply, and the history counter of the move's (from, to).
//! - **Quiescence** at the horizon: while the side to move can capture or enter its goal castle,
//!   those moves are searched (at most [`QUIESCENCE_PLIES`] more plies); it may stand on the
//!   static score only when no capture is compulsory.
//!
//! Wins are scored [`WIN`] minus the plies to them, so the quickest win (and the slowest loss)
//! is preferred.

use std::time::{Duration, Instant};

use games::{MAX_PLAYERS, Move, Player, Position, State, Variant};

use crate::heuristic::Heuristic;
pub use crate::heuristic::{FORCED, WIN};
/// Plies of captures and castle entries searched past the horizon.
pub const QUIESCENCE_PLIES: i32 = 8;
/// Entries of the transposition table (a power of two; 24 bytes each).
const TABLE_SIZE: usize = 1 << 16;
/// Deepest iteration when only a time limit is given.
pub const MAX_DEPTH: u32 = 64;

/// How far an [`AlphaBeta`] searches each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaLimits {
    /// Deepest iteration, in plies (at least 1).
    pub depth: u32,
    /// Stop after this long (the iteration in progress is dropped).
    pub time: Option<Duration>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best: Move,
    /// Its score for the player to move (from `-WIN` to `WIN`).
    pub score: i32,
    /// The deepest finished iteration.
    pub depth: u32,
    /// Positions visited, quiescence included.
    pub nodes: u64,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    best: u32,
    score: i32,
    depth: i16,
    bound: Bound,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Exact,
    /// The true score is at most this.
    Upper,
    /// The true score is at least this.
    Lower,
}

/// The search ran out of time.
struct Timeout;

/// A classical searcher for variant `V`; keep one per player and game (the table and the move
/// ordering statistics carry over from move to move).
pub struct AlphaBeta<V: Variant> {
    heuristic: Heuristic,
    limits: AlphaBetaLimits,
    table: Vec<Entry>,
    killers: Vec<[u32; 2]>,
    /// `history[from * cells + to]`: how often the move caused a cut-off, weighted by depth².
    history: Vec<u32>,
    /// The seat the current search plays for.
    root: Player,
    deadline: Option<Instant>,
    /// The search stops (as at the deadline) after this many positions.
    node_limit: u64,
    nodes: u64,
    _variant: std::marker::PhantomData<V>,
}

impl<V: Variant> AlphaBeta<V> {
    pub fn new(limits: AlphaBetaLimits) -> Self {
        Self::with_table(limits, TABLE_SIZE)
    }

    /// A searcher whose transposition table has `entries` entries (a power of two), for one
    /// kept by the thousand, as the tactics filter's: a shallow search fills few.
    pub fn with_table(limits: AlphaBetaLimits, entries: usize) -> Self {
        assert!(entries.is_power_of_two(), "table entries must be a power of two");
        let cells = V::tables().geometry.num_cells();
        AlphaBeta {
            heuristic: Heuristic::new::<V>(),
            limits,
            table: vec![Entry::default(); entries],
            killers: Vec::new(),
            history: vec![0; cells * cells],
            root: Player(0),
            deadline: None,
            node_limit: u64::MAX,
            nodes: 0,
            _variant: std::marker::PhantomData,
        }
    }

    /// Sets the time limit of the searches to come (an arena clock's share of each move).
    pub fn set_time(&mut self, time: Option<Duration>) {
        self.limits.time = time;
    }

    /// The best move for the player to move in `pos` (None when the game is over).
    pub fn search(&mut self, pos: &Position<V>) -> Option<SearchResult> {
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        self.root = pos.to_move();
        self.deadline = self.limits.time.map(|t| Instant::now() + t);
        self.nodes = 0;
        self.history.iter_mut().for_each(|h| *h /= 8);
        let mut found: Option<SearchResult> = None;
        for depth in 1..=self.limits.depth.max(1) {
            let previous = found.as_ref().map(|f| move_key(&f.best));
            self.order(pos, &mut moves, previous, 0);
            // The first iteration always finishes, so there is always a move.
            if depth == 1 {
                self.deadline = None;
            }
            let outcome = self.root_iteration(pos, &moves, depth as i32);
            if depth == 1 {
                self.deadline = self.limits.time.map(|t| Instant::now() + t);
            }
            let Ok((i, score)) = outcome else { break };
            found = Some(SearchResult { best: moves[i].clone(), score, depth, nodes: self.nodes });
            if score.abs() >= WIN - MAX_DEPTH as i32 - QUIESCENCE_PLIES {
                break; // a forced result: deeper search will not change it
            }
        }
        if let Some(f) = found.as_mut() {
            f.nodes = self.nodes;
        }
        found
    }

    /// The exact score of each of `moves` (legal moves of `pos`) for the player to move,
    /// searched to `found.depth` plies in a window from `margin` below `found.score` up: where
    /// [`AlphaBeta::search`] only bounds the moves that cannot be best, these are scores to
    /// compare (the classical teacher's soft policy targets), and a move scored more than
    /// `margin` below the best is `None` (the window lets its search stop at the first reply
    /// that proves it). `found` must be `search`'s result on `pos`, whose table this reuses; no
    /// time limit applies. Aligned with `moves`.
    pub fn root_scores(
        &mut self,
        pos: &Position<V>,
        moves: &[Move],
        found: &SearchResult,
        margin: i32,
    ) -> Vec<Option<i32>> {
        let floor = found.score.saturating_sub(margin.max(0));
        let window = (floor - 1, found.score.saturating_add(1));
        let scores = self.scores_in(pos, moves, found.depth, window);
        // `search`'s best is exact, so no move should fail high; one that did (a table entry of
        // another depth) is capped at the best rather than reported above it.
        scores.into_iter().map(|v| (v >= floor).then_some(v.min(found.score))).collect()
    }

    /// The exact score of each of `moves` (legal moves of `pos`, aligned) for the player to
    /// move, each searched to `depth` plies (at least 1) and its quiescence: the self-play
    /// [tactics filter](crate::teacher::TacticsFilter)'s judge. No time limit applies.
    pub fn move_scores(&mut self, pos: &Position<V>, moves: &[Move], depth: u32) -> Vec<i32> {
        self.scores_in(pos, moves, depth, (-WIN - 1, WIN + 1))
    }

    /// Each of `moves` searched to `depth` plies in the window `(alpha, beta)`, for the player
    /// to move in `pos`.
    fn scores_in(
        &mut self,
        pos: &Position<V>,
        moves: &[Move],
        depth: u32,
        (alpha, beta): (i32, i32),
    ) -> Vec<i32> {
        self.root = pos.to_move();
        self.deadline = None;
        let depth = depth.max(1) as i32;
        moves
            .iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play(m);
                let Ok(v) = self.alpha_beta(&child, depth - 1, alpha, beta, 1) else {
                    unreachable!("no deadline and no node limit: the search runs to its end")
                };
                v
            })
            .collect()
    }

    /// The quiescence score of `state` for its player to move (as the search scores its
    /// horizon): between moves, the captures and goal entries of its position played out; with
    /// a move in progress, the best of the moves that complete it (it cannot stand), each
    /// followed by the replies' captures and entries. None when that took more than
    /// `node_limit` positions or the game is over. Self-play's `leaf_heuristic` judges its
    /// leaves so: a static score cannot see the chain that the next reply must jump.
    pub fn quiet_score(&mut self, state: &State<V>, node_limit: u64) -> Option<i32> {
        let pos = state.position();
        if state.moves().is_empty() {
            return None;
        }
        self.root = pos.to_move();
        self.deadline = None;
        self.nodes = 0;
        self.node_limit = node_limit;
        let (alpha, beta) = (-WIN - 1, WIN + 1);
        let score = if state.landed().is_empty() {
            self.quiesce(pos, state.moves().to_vec(), alpha, beta, 0, QUIESCENCE_PLIES)
        } else {
            self.complete(pos, state.continuations(), alpha, beta)
        };
        self.node_limit = u64::MAX;
        score.ok()
    }

    /// The best of `moves` (a move in progress's completions) for the root seat, each child
    /// judged by its replies' quiescence.
    fn complete<'m>(
        &mut self,
        pos: &Position<V>,
        moves: impl Iterator<Item = &'m Move>,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, Timeout> {
        let mut best = -WIN - 1;
        for m in moves {
            self.tick()?;
            let v = self.quiet_reply(pos, m, alpha, beta, 0, QUIESCENCE_PLIES - 1)?;
            best = best.max(v);
            alpha = alpha.max(v);
        }
        Ok(best)
    }

    /// One iteration at the root: the index of the best move and its score.
    fn root_iteration(
        &mut self,
        pos: &Position<V>,
        moves: &[Move],
        depth: i32,
    ) -> Result<(usize, i32), Timeout> {
        let (mut alpha, beta) = (-WIN - 1, WIN + 1);
        let mut best = 0;
        for (i, m) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play(m);
            let v = self.alpha_beta(&child, depth - 1, alpha, beta, 1)?;
            if v > alpha {
                alpha = v;
                best = i;
            }
        }
        self.store(pos, depth, alpha, Bound::Exact, move_key(&moves[best]), 0);
        Ok((best, alpha))
    }

    fn alpha_beta(
        &mut self,
        pos: &Position<V>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
    ) -> Result<i32, Timeout> {
        self.tick()?;
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(self.terminal(pos, ply));
        }
        if depth <= 0 {
            return self.quiesce(pos, moves, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        let (alpha0, beta0) = (alpha, beta);
        let key = self.key(pos);
        let entry = self.table[key as usize & (self.table.len() - 1)];
        let mut table_move = None;
        if entry.bound != Bound::Empty && entry.key == key {
            table_move = Some(entry.best);
            if i32::from(entry.depth) >= depth {
                let score = from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return Ok(score),
                    Bound::Lower => alpha = alpha.max(score),
                    Bound::Upper => beta = beta.min(score),
                    Bound::Empty => {}
                }
                if alpha >= beta {
                    return Ok(score);
                }
            }
        }
        self.order(pos, &mut moves, table_move, ply as usize);
        let maximising = pos.to_move() == self.root;
        let mut best = if maximising { -WIN - 1 } else { WIN + 1 };
        let mut best_move = 0;
        for m in &moves {
            let mut child = pos.clone();
            child.play(m);
            let v = self.alpha_beta(&child, depth - 1, alpha, beta, ply + 1)?;
            let better = if maximising { v > best } else { v < best };
            if better {
                best = v;
                best_move = move_key(m);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.reward(m, depth, ply as usize);
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(pos, depth, best, bound, best_move, ply);
        Ok(best)
    }

    /// Captures and goal entries past the horizon (the only moves when a capture is
    /// compulsory, else searched against standing on the static score).
    fn quiesce(
        &mut self,
        pos: &Position<V>,
        mut moves: Vec<Move>,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        left: i32,
    ) -> Result<i32, Timeout> {
        let seat = pos.to_move().index();
        let goal = &V::tables().goal[seat];
        let all = moves.len();
        moves.retain(|m| m.is_capture() || goal.contains(&m.to()));
        let compulsory = moves.len() == all && moves.iter().all(Move::is_capture);
        if moves.is_empty() || left == 0 {
            return Ok(self.heuristic.score_for(pos, self.root));
        }
        let maximising = pos.to_move() == self.root;
        let mut best = if maximising { -WIN - 1 } else { WIN + 1 };
        if !compulsory {
            let stand = self.heuristic.score_for(pos, self.root);
            best = stand;
            if maximising {
                alpha = alpha.max(stand);
            } else {
                beta = beta.min(stand);
            }
            if alpha >= beta {
                return Ok(stand);
            }
        }
        self.order(pos, &mut moves, None, ply as usize);
        for m in &moves {
            self.tick()?;
            let v = self.quiet_reply(pos, m, alpha, beta, ply, left - 1)?;
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }

    /// `m` played in `pos` (at `ply`), then the replies' captures and entries searched for
    /// `left` more plies (a finished game scored as such).
    fn quiet_reply(
        &mut self,
        pos: &Position<V>,
        m: &Move,
        alpha: i32,
        beta: i32,
        ply: i32,
        left: i32,
    ) -> Result<i32, Timeout> {
        let mut child = pos.clone();
        child.play(m);
        let replies = child.legal_moves();
        if replies.is_empty() {
            return Ok(self.terminal(&child, ply + 1));
        }
        self.quiesce(&child, replies, alpha, beta, ply + 1, left)
    }

    /// The score of a finished game for the root seat, `ply` plies from the root.
    fn terminal(&self, pos: &Position<V>, ply: i32) -> i32 {
        let values = match pos.outcome() {
            Some(over) => over.outcome.values(V::NUM_PLAYERS),
            None => return self.heuristic.score_for(pos, self.root),
        };
        let mine = values.0[self.root.index()];
        if mine >= 1.0 {
            WIN - ply
        } else if mine <= 0.0 {
            -WIN + ply
        } else {
            0
        }
    }

    /// Sorts `moves` best-first for the player to move at `ply`.
    fn order(&self, pos: &Position<V>, moves: &mut [Move], first: Option<u32>, ply: usize) {
        let tables = V::tables();
        let seat = pos.to_move().index();
        let cells = tables.geometry.num_cells();
        let killers = self.killers.get(ply).copied().unwrap_or_default();
        let priority = |m: &Move| -> u64 {
            let key = move_key(m);
            if Some(key) == first {
                return u64::MAX;
            }
            let captures = m.captures(&tables.geometry).count() as u64;
            if captures > 0 {
                return (3 << 40) + (captures << 32);
            }
            if tables.goal[seat].contains(&m.to()) {
                return 2 << 40;
            }
            if killers.contains(&key) {
                return 1 << 40;
            }
            u64::from(self.history[m.from() as usize * cells + m.to() as usize])
        };
        moves.sort_by_cached_key(|m| std::cmp::Reverse(priority(m)));
    }

    /// A quiet move that caused a cut-off: a killer of its ply and a history point.
    fn reward(&mut self, m: &Move, depth: i32, ply: usize) {
        if m.is_capture() {
            return;
        }
        let key = move_key(m);
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [0; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != key {
            k[1] = k[0];
            k[0] = key;
        }
        let cells = V::tables().geometry.num_cells();
        let h = &mut self.history[m.from() as usize * cells + m.to() as usize];
        *h = h.saturating_add((depth * depth) as u32);
    }

    /// The table key of `pos` as searched for the current root seat (paranoid scores differ
    /// from seat to seat).
    fn key(&self, pos: &Position<V>) -> u64 {
        pos.hash() ^ ROOT_SALT[self.root.index()]
    }

    fn store(
        &mut self,
        pos: &Position<V>,
        depth: i32,
        score: i32,
        bound: Bound,
        best: u32,
        ply: i32,
    ) {
        let key = self.key(pos);
        let mask = self.table.len() - 1;
        let slot = &mut self.table[key as usize & mask];
        if slot.bound == Bound::Empty || slot.key == key || i32::from(slot.depth) <= depth {
            *slot = Entry { key, best, score: to_table(score, ply), depth: depth as i16, bound };
        }
    }

    /// Counts a node; past the node limit or the deadline (checked every 256 nodes) the search
    /// stops.
    fn tick(&mut self) -> Result<(), Timeout> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Timeout);
        }
        match self.deadline {
            Some(d) if self.nodes.is_multiple_of(256) && Instant::now() >= d => Err(Timeout),
            _ => Ok(()),
        }
    }
}

/// Per-root-seat salts of the table key.
const ROOT_SALT: [u64; MAX_PLAYERS] = [0, 0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f];

/// A move as a number (its path and kind hashed): the table's and the killers' move.
fn move_key(m: &Move) -> u32 {
    let mut h: u32 = 0x811c_9dc5 ^ m.kind() as u32;
    for &c in m.path() {
        h = (h ^ u32::from(c)).wrapping_mul(0x0100_0193);
    }
    h | 1 // never 0, the empty killer
}

/// Win scores are stored relative to the node, so a win found through a transposition keeps
/// its distance right.
fn to_table(score: i32, ply: i32) -> i32 {
    if score >= FORCED {
        score + ply
    } else if score <= -FORCED {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if score >= FORCED {
        score - ply
    } else if score <= -FORCED {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests;
