//! The opening tree: every sequence of the first `depth` moves (of all players, in official
//! notation, as recorded) played from the variant's start position, with how often it was
//! played and how those games ended.
//!
//! Definitions (per line, i.e. per node of the tree):
//! - **games**: games whose move list begins with the line;
//! - **share of parent**: games / games of the line one move shorter (the parent counts every
//!   game that reached it, including games that ended there); **share of all**: games / all
//!   games from the start position;
//! - **wins** per seat and **draws** (see [`winner`](super::tally::winner));
//! - **score**: the mean result (win 1, loss 0, draw `1 / players`) of the seat that played the
//!   line's last move, with its 95% Wilson interval ([`wilson`]);
//! - **mean length**: mean number of complete moves of those games.
//!
//! Games that start from another position are left out (and counted).

use std::collections::BTreeMap;

use games::Variant;

use super::replay::{bad_game, is_standard_start, replay};
use super::tally::{Outcomes, Z95, wilson};
use records::collection::{SourcedGame, StatsError};

/// One line of the opening tree.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningLine {
    /// The moves from the start position; the last one is the move this line adds.
    pub moves: Vec<String>,
    pub games: usize,
    pub share_of_parent: f64,
    pub share_of_all: f64,
    /// Seat that played the last move (whose score `score` is).
    pub mover: usize,
    pub outcomes: Outcomes,
    pub score: f64,
    /// 95% Wilson interval of `score`.
    pub interval: (f64, f64),
    pub mean_length: f64,
}

/// The opening tree of a set of games, its lines in depth-first order (siblings by games played,
/// most first, then by notation).
#[derive(Clone, Debug, PartialEq)]
pub struct Openings {
    pub variant: &'static str,
    /// Seat names in turn order (`White`, `Black` / `Blue`, `Red`, `Green`).
    pub seats: &'static [&'static str],
    pub depth: usize,
    pub min_games: usize,
    /// Games from the start position (the tree's root).
    pub games: usize,
    /// Outcomes and mean length of all of them.
    pub outcomes: Outcomes,
    pub mean_length: f64,
    /// Games left out because they start from another position.
    pub other_starts: usize,
    /// Lines played in at least `min_games` games (with all their prefixes).
    pub lines: Vec<OpeningLine>,
}

#[derive(Default)]
struct Node {
    games: usize,
    outcomes: Option<Outcomes>,
    mover: usize,
    mover_score: f64,
    length_sum: u64,
    children: BTreeMap<String, Node>,
}

impl Node {
    fn add(&mut self, seats: usize, result: &[f32], plies: u32, mover: Option<usize>) {
        self.games += 1;
        self.outcomes.get_or_insert_with(|| Outcomes::new(seats)).add(result);
        self.length_sum += u64::from(plies);
        if let Some(seat) = mover {
            self.mover = seat;
            self.mover_score += f64::from(result.get(seat).copied().unwrap_or(0.0));
        }
    }

    fn mean_length(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.length_sum as f64 / self.games as f64 }
    }
}

/// Builds the opening tree of `games` (all of variant `V`) to `depth` moves, keeping lines of at
/// least `min_games` games. A game whose first moves cannot be replayed is an error.
pub fn openings<V: Variant>(
    games: &[SourcedGame],
    depth: usize,
    min_games: usize,
) -> Result<Openings, StatsError> {
    if depth == 0 {
        return Err(StatsError::ZeroDepth);
    }
    let mut root = Node::default();
    let mut other_starts = 0;
    for g in games {
        let r = &g.record;
        if !is_standard_start::<V>(&r.start_position) {
            other_starts += 1;
            continue;
        }
        let played = replay::<V>(&r.start_position, &r.moves, depth).map_err(bad_game(g))?;
        root.add(V::NUM_PLAYERS, &r.result, r.plies, None);
        let mut node = &mut root;
        for (mv, &seat) in r.moves.iter().zip(&played.movers) {
            node = node.children.entry(mv.clone()).or_default();
            node.add(V::NUM_PLAYERS, &r.result, r.plies, Some(usize::from(seat)));
        }
    }
    let mut lines = Vec::new();
    collect(&root, root.games, min_games.max(1), &mut Vec::new(), &mut lines);
    Ok(Openings {
        variant: V::NAME,
        seats: V::PLAYER_NAMES,
        depth,
        min_games,
        games: root.games,
        outcomes: root.outcomes.clone().unwrap_or_else(|| Outcomes::new(V::NUM_PLAYERS)),
        mean_length: root.mean_length(),
        other_starts,
        lines,
    })
}

fn collect(
    parent: &Node,
    total: usize,
    min_games: usize,
    path: &mut Vec<String>,
    out: &mut Vec<OpeningLine>,
) {
    let mut children: Vec<(&String, &Node)> =
        parent.children.iter().filter(|(_, n)| n.games >= min_games).collect();
    children.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.cmp(b.0)));
    for (mv, node) in children {
        path.push(mv.clone());
        let n = node.games as f64;
        let score = node.mover_score / n;
        out.push(OpeningLine {
            moves: path.clone(),
            games: node.games,
            share_of_parent: n / parent.games as f64,
            share_of_all: n / total as f64,
            mover: node.mover,
            outcomes: node.outcomes.clone().expect("a node with games has outcomes"),
            score,
            interval: wilson(score, node.games, Z95),
            mean_length: node.mean_length(),
        });
        collect(node, total, min_games, path, out);
        path.pop();
    }
}
