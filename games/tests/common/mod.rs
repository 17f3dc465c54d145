//! Helpers shared by the rule tests (`rules_camelot.rs`, `rules_tricamelot.rs`).
//!
//! Every expected value in those tests is derived by hand from RULES.md; these helpers only turn
//! positions and moves into sorted lists of strings so that they can be compared.

#![allow(dead_code)]

use std::collections::BTreeSet;

use games::{
    CamelotPosition, Game, GameOver, KnightCanter, Position, RuleOptions, State,
    TriCamelotPosition, Variant,
};

/// Parses a Camelot position string with the default options (`knight_canter = strict`).
pub fn camelot(s: &str) -> CamelotPosition {
    s.parse().unwrap_or_else(|e| panic!("`{s}` does not parse: {e}"))
}

/// Parses a Camelot position string with the given `knight_canter` option.
pub fn camelot_with(s: &str, knight_canter: KnightCanter) -> CamelotPosition {
    CamelotPosition::parse_with(s, RuleOptions { knight_canter })
        .unwrap_or_else(|e| panic!("`{s}` does not parse: {e}"))
}

/// Parses a Tri-Camelot position string.
pub fn tri(s: &str) -> TriCamelotPosition {
    s.parse().unwrap_or_else(|e| panic!("`{s}` does not parse: {e}"))
}

/// The sorted notations of every legal move.
pub fn notations<V: Variant>(pos: &Position<V>) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| pos.notation(m)).collect();
    v.sort();
    v
}

/// The sorted notations of the legal moves of the piece on `square`.
pub fn notations_from<V: Variant>(pos: &Position<V>, square: &str) -> Vec<String> {
    notations(pos)
        .into_iter()
        .filter(|n| {
            n.strip_prefix(square)
                .is_some_and(|rest| rest.starts_with('-') || rest.starts_with('x'))
        })
        .collect()
}

/// A sorted list of owned strings.
pub fn list(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Asserts that the legal moves of `pos` are exactly `expected` (in any order).
#[track_caller]
pub fn assert_moves<V: Variant>(pos: &Position<V>, expected: &[&str]) {
    assert_eq!(notations(pos), list(expected), "legal moves of `{pos}`");
}

/// Asserts that the legal moves of the piece on `square` are exactly `expected`.
#[track_caller]
pub fn assert_moves_from<V: Variant>(pos: &Position<V>, square: &str, expected: &[&str]) {
    assert_eq!(notations_from(pos, square), list(expected), "legal moves from {square} in `{pos}`");
}

/// Plays the move written `notation`, which must be legal.
#[track_caller]
pub fn play<V: Variant>(pos: &mut Position<V>, notation: &str) {
    let m = pos.parse_move(notation).unwrap_or_else(|e| panic!("{notation} in `{pos}`: {e}"));
    pos.play(&m);
}

/// Plays the move written `notation`, which must be legal, and asserts that the position string
/// after it is `after`.
#[track_caller]
pub fn assert_play<V: Variant>(pos: &mut Position<V>, notation: &str, after: &str) {
    play(pos, notation);
    assert_eq!(pos.to_string(), after, "position after {notation}");
}

/// Plays the move written `notation` from `pos`, which must not be over yet, and asserts that
/// the outcome after it is `expected`.
#[track_caller]
pub fn assert_outcome_after<V: Variant>(
    pos: &mut Position<V>,
    notation: &str,
    expected: Option<GameOver>,
) {
    assert_eq!(pos.outcome(), None, "`{pos}` is over before {notation}");
    play(pos, notation);
    assert_eq!(pos.outcome(), expected, "outcome after {notation}: `{pos}`");
}

/// A position whose legal moves were derived by hand from one rule of RULES.md.
pub struct MoveCase {
    /// The rule the case checks, printed when it fails.
    pub rule: &'static str,
    /// The position string.
    pub position: &'static str,
    /// Every legal move of the position, in any order.
    pub moves: &'static [&'static str],
}

/// Asserts every case of `cases` on positions of variant `V`, reporting all failing cases at
/// once (each with its rule, position, and the expected and actual moves).
#[track_caller]
pub fn assert_move_cases<V: Variant>(cases: &[MoveCase]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let pos: Position<V> = case.position.parse().unwrap_or_else(|e| {
                panic!("`{}` does not parse: {e}", case.position);
            });
            let (got, expected) = (notations(&pos), list(case.moves));
            let rule = case.rule;
            (got != expected).then(|| {
                format!("{rule}\n  legal moves of `{pos}`: expected {expected:?}, got {got:?}")
            })
        })
        .collect();
    let (failed, all) = (failures.len(), cases.len());
    assert!(failures.is_empty(), "{failed} of {all} cases fail:\n{}", failures.join("\n"));
}

/// Walks `games` pseudo-random games of `V` from the start, at most `plies` moves each, and
/// calls `check` on every position reached. The moves are picked by a fixed formula of the game
/// number, the ply and `salt`, so the games are the same on every run.
pub fn walk_games<V: Variant>(
    games: usize,
    plies: usize,
    salt: usize,
    mut check: impl FnMut(&Position<V>),
) {
    for seed in 0..games {
        let mut pos = Position::<V>::start();
        for ply in 0..plies {
            check(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = &moves[(ply * 7919 + seed * 104_729 + salt) % moves.len()];
            pos.play(m);
        }
    }
}

/// The sorted legal actions of a leg-interface state, written `F5>F9` or `end`.
pub fn actions<V: Variant>(state: &State<V>) -> Vec<String> {
    let mut v = Vec::new();
    state.legal_actions(&mut v);
    let mut s: Vec<String> = v.into_iter().map(|a| state.action_to_string(a)).collect();
    s.sort();
    s
}

/// Plays one action written `F5>F9` or `end`, which must be legal.
#[track_caller]
pub fn act<V: Variant>(state: &mut State<V>, action: &str) {
    let a = state.parse_action(action).unwrap_or_else(|e| panic!("{action} in `{state}`: {e}"));
    state.play(a);
}

/// The names of the cells landed on during the move in progress (start first).
pub fn landed<V: Variant>(state: &State<V>) -> Vec<String> {
    let geo = &V::tables().geometry;
    state.landed().iter().map(|&c| geo.name(c).to_string()).collect()
}

/// Splits a move's notation into its squares and its separators (`-` or `x`).
pub fn split_notation(n: &str) -> (Vec<String>, Vec<char>) {
    let mut squares = Vec::new();
    let mut seps = Vec::new();
    let mut cur = String::new();
    for ch in n.chars() {
        if ch == '-' || ch == 'x' {
            squares.push(std::mem::take(&mut cur));
            seps.push(ch);
        } else {
            cur.push(ch);
        }
    }
    squares.push(cur);
    (squares, seps)
}

/// A key naming a move independently of the canonical choice of canter path: the canter part
/// (all `-` legs) is reduced to its start and end, the jump part is kept in full. Under a board
/// symmetry the square-index order changes, and so may the canonical path; the key does not.
pub fn move_key(n: &str, map: impl Fn(&str) -> String) -> String {
    let (squares, seps) = split_notation(n);
    let canter_legs = seps.iter().take_while(|&&c| c == '-').count();
    let mut key = map(&squares[0]);
    if canter_legs > 0 {
        key.push('-');
        key.push_str(&map(&squares[canter_legs]));
    }
    for sq in &squares[canter_legs + 1..] {
        key.push('x');
        key.push_str(&map(sq));
    }
    key
}

/// The set of move keys of a position, squares mapped by `map`.
pub fn move_keys<V: Variant>(pos: &Position<V>, map: impl Fn(&str) -> String) -> BTreeSet<String> {
    notations(pos).iter().map(|n| move_key(n, &map)).collect()
}

/// `(file, rank)` of a square name, file 0 = A.
pub fn coords(square: &str) -> (i32, i32) {
    let f = (square.as_bytes()[0] - b'A') as i32;
    let r: i32 = square[1..].parse().expect("rank");
    (f, r)
}

/// The name of `(file, rank)`.
pub fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'A' + f as u8) as char, r)
}

/// The default rule options with the given `knight_canter`.
pub fn options(knight_canter: KnightCanter) -> RuleOptions {
    RuleOptions { knight_canter }
}

/// Every piece of a position string, as `(player letter, piece letter, square)`.
pub fn pieces_of(s: &str) -> Vec<(char, char, String)> {
    let mut out = Vec::new();
    for tok in s.split_whitespace().skip(2) {
        let Some((p, pieces)) = tok.split_once(':') else { continue };
        let player = p.chars().next().expect("player letter");
        for piece in pieces.split(',').filter(|x| !x.is_empty()) {
            out.push((player, piece.chars().next().expect("kind"), piece[1..].to_string()));
        }
    }
    out
}

/// Builds a position string from pieces, in the given player order.
pub fn position_string(
    variant: &str,
    side: char,
    players: &[char],
    pieces: &[(char, char, String)],
    tail: &str,
) -> String {
    let mut s = format!("{variant} {side}");
    for &p in players {
        let mine: Vec<String> =
            pieces.iter().filter(|x| x.0 == p).map(|x| format!("{}{}", x.1, x.2)).collect();
        s.push_str(&format!(" {p}:{}", mine.join(",")));
    }
    if !tail.is_empty() {
        s.push(' ');
        s.push_str(tail);
    }
    s
}

/// Checks that the legal moves are unique by notation, and that the non-captures (plain moves
/// and pure canters) are unique by (start, end).
#[track_caller]
pub fn assert_unique_moves<V: Variant>(pos: &Position<V>) {
    let all = notations(pos);
    let set: BTreeSet<&String> = all.iter().collect();
    assert_eq!(set.len(), all.len(), "duplicate notations in `{pos}`");
    let mut ends = BTreeSet::new();
    for n in all.iter().filter(|n| !n.contains('x')) {
        let (squares, _) = split_notation(n);
        let key = (squares[0].clone(), squares[squares.len() - 1].clone());
        assert!(
            ends.insert(key.clone()),
            "two non-captures from {} to {} in `{pos}`",
            key.0,
            key.1
        );
    }
}

/// The set of `KnightCanter` options.
pub const BOTH_OPTIONS: [KnightCanter; 2] = [KnightCanter::Strict, KnightCanter::FinalSquare];

/// Keeps `Game` in scope for `legal_actions` on states (used by the tests through `actions`).
pub fn outcome_of<G: Game>(g: &G) -> Option<games::GameOver> {
    g.outcome()
}
