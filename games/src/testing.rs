//! Helpers for tests and benchmarks in every crate: random playouts, position symmetries, and
//! the invariant harness (OpenSpiel's `RandomSimTest`, board-game-rs's `board_test_main`).

use std::collections::HashMap;

use rand::Rng;
use rand::seq::IndexedRandom;

use crate::board::Piece;
use crate::game::{Game, MAX_PLAYERS, Player};
use crate::geometry::Cell;
use crate::mv::Move;
use crate::position::Position;
use crate::position::Variant;
use crate::state::State;

/// Plays uniformly random complete moves from `pos` until the game ends or `max_plies` moves
/// were played. Returns every position visited (the start first).
pub fn random_game<V: Variant>(
    pos: &Position<V>,
    rng: &mut impl Rng,
    max_plies: usize,
) -> Vec<Position<V>> {
    let mut line = vec![pos.clone()];
    let mut pos = pos.clone();
    for _ in 0..max_plies {
        let moves = pos.legal_moves();
        let Some(m) = moves.choose(rng) else { break };
        pos.play(m);
        line.push(pos.clone());
    }
    line
}

/// Plays uniformly random legal actions until the game ends or `max_actions` were played.
/// Returns the final state and the number of actions played.
pub fn random_playout<G: Game>(mut state: G, rng: &mut impl Rng, max_actions: usize) -> (G, usize) {
    let mut actions = Vec::new();
    for n in 0..max_actions {
        state.legal_actions(&mut actions);
        let Some(&a) = actions.choose(rng) else { return (state, n) };
        state.play(a);
    }
    (state, max_actions)
}

/// Leg-level states along `games` random playouts from the start, each cut at a random length
/// below `max_actions`: every state visited (many of them in mid-move) and the last one (which
/// may be over). The same seed gives the same states.
pub fn random_states<V: Variant>(games: usize, max_actions: usize, seed: u64) -> Vec<State<V>> {
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut actions = Vec::new();
    for _ in 0..games {
        let mut s = State::<V>::initial();
        for _ in 0..rng.random_range(0..max_actions.max(1)) {
            s.legal_actions(&mut actions);
            let Some(&a) = actions.choose(&mut rng) else { break };
            out.push(s.clone());
            s.play(a);
        }
        out.push(s);
    }
    out
}

/// The position with every piece moved by `cell_map` and handed to `player_map[owner]`, the
/// player to move mapped the same way (castle-move counts are kept per mapped player).
pub fn transform<V: Variant>(
    pos: &Position<V>,
    cell_map: &[Cell],
    player_map: &[u8],
) -> Position<V> {
    let geo = &V::tables().geometry;
    let mut by_player: [Vec<String>; MAX_PLAYERS] = Default::default();
    for (c, p) in pos.board().pieces(geo.num_cells()) {
        let owner = player_map[p.owner.index()];
        let Piece { kind, .. } = p;
        by_player[owner as usize].push(format!(
            "{}{}",
            kind.letter(),
            geo.name(cell_map[c as usize])
        ));
    }
    let mut s =
        format!("{} {}", V::NAME, V::PLAYER_LETTERS[player_map[pos.to_move().index()] as usize]);
    for (p, pieces) in by_player.iter().take(V::NUM_PLAYERS).enumerate() {
        s.push_str(&format!(" {}:{}", V::PLAYER_LETTERS[p], pieces.join(",")));
    }
    if V::CASTLE_MOVES {
        let mut cm = [0; 2];
        for (p, &n) in pos.castle_moves().iter().enumerate() {
            cm[player_map[p] as usize] = n;
        }
        s.push_str(&format!(" cm={},{}", cm[0], cm[1]));
    }
    Position::parse_with(&s, pos.options()).expect("a symmetric image of a valid position is valid")
}

/// Checks the invariants of one position between moves; panics with the position on failure.
///
/// - the position string round-trips, and so does its hash;
/// - notations are unique, well-formed, and `parse_move` finds the move they name;
/// - the game is over exactly when there is no legal move;
/// - with `deep`: walking the leg tree of the turn (every sequence of legal actions until the
///   move completes) reaches exactly the positions that playing each complete move reaches,
///   once each, and at every state of the walk the action indices are a bijection between the
///   legal actions and the indices whose decoded action is legal.
pub fn check_position<V: Variant>(pos: &Position<V>, rng: &mut impl Rng, deep: bool) {
    let text = pos.to_string();
    let back: Position<V> = Position::parse_with(&text, pos.options())
        .unwrap_or_else(|e| panic!("{text} does not parse back: {e}"));
    assert_eq!(&back, pos, "round trip of {text}");
    assert_eq!(back.to_string(), text);
    assert_eq!(back.hash(), pos.hash());

    let moves = pos.legal_moves();
    assert_eq!(moves.is_empty(), pos.outcome().is_some(), "over iff no move: {text}");
    assert_eq!(moves.len(), pos.count_moves());
    let mut by_notation: HashMap<String, &Move> = HashMap::new();
    for m in &moves {
        let n = pos.notation(m);
        assert!(by_notation.insert(n.clone(), m).is_none(), "two moves written {n} in {text}");
    }
    for m in moves.choose_multiple(rng, 3) {
        let n = pos.notation(m);
        assert_eq!(pos.parse_move(&n).as_ref(), Ok(m), "{n} in {text}");
    }
    if deep {
        check_leg_tree(pos, &moves);
    }
}

fn check_leg_tree<V: Variant>(pos: &Position<V>, moves: &[Move]) {
    let mut expected: HashMap<String, usize> = HashMap::new();
    for m in moves {
        let mut p = pos.clone();
        p.play(m);
        *expected.entry(p.to_string()).or_default() += 1;
    }
    let mut reached: HashMap<String, usize> = HashMap::new();
    let root = State::new(pos.clone());
    let mut stack = vec![root];
    let mut actions = Vec::new();
    while let Some(state) = stack.pop() {
        let mover = state.to_move();
        state.legal_actions(&mut actions);
        check_action_indices(&state, &actions);
        for &a in &actions {
            let mut next = state.clone();
            next.play(a);
            if next.landed().is_empty() {
                let notation = next.last_move().expect("a completed move has a notation");
                let m = pos.parse_move(&notation).expect("the completed move is legal");
                let mut whole = pos.clone();
                whole.play(&m);
                let reached_text = next.position().to_string();
                assert_eq!(whole.to_string(), reached_text, "{notation} leg by leg vs whole");
                *reached.entry(reached_text).or_default() += 1;
            } else {
                assert_eq!(next.to_move(), mover, "the same player moves on between legs");
                assert_eq!(next.last_move(), None);
                stack.push(next);
            }
        }
    }
    assert_eq!(reached, expected, "leg tree of {pos}");
}

/// `action_index` and `action_from_index` are inverse on the legal actions, and no other index
/// decodes to a legal action.
fn check_action_indices<G: Game>(state: &G, legal: &[G::Action]) {
    let mut indices: Vec<usize> = legal.iter().map(|&a| state.action_index(a)).collect();
    assert!(indices.windows(2).all(|w| w[0] < w[1]), "legal actions sorted and distinct: {state}");
    for (&a, &i) in legal.iter().zip(&indices) {
        assert!(i < G::NUM_ACTIONS);
        assert_eq!(state.action_from_index(i), Some(a), "index {i} of {state}");
    }
    let decoded_legal: Vec<usize> = (0..G::NUM_ACTIONS)
        .filter(|&i| state.action_from_index(i).is_some_and(|a| legal.contains(&a)))
        .collect();
    indices.sort();
    assert_eq!(decoded_legal, indices, "{state}");
    assert_eq!(state.action_from_index(G::NUM_ACTIONS), None);
}

/// The player a seat becomes under Tri-Camelot's 120-degree rotation (Blue -> Green -> Red).
pub fn rotated_player(p: Player) -> Player {
    Player((p.0 + 2) % 3)
}

/// A leg-level state under a board symmetry: the turn's start position transformed by
/// [`transform`], then the legs of the move in progress replayed on the mapped cells. None when
/// the mapped legs are not a move in progress there: the rules are symmetric move by move, but
/// RULES.md's canonical canter path breaks ties between equally short paths by square index,
/// which a mirror or rotation does not preserve, so now and then the image of a canter's legs
/// is not the canonical path of the image move.
pub fn transform_state<V: Variant>(
    state: &State<V>,
    cell_map: &[Cell],
    player_map: &[u8],
) -> Option<State<V>> {
    let geo = &V::tables().geometry;
    let mut out = State::new(transform(state.position(), cell_map, player_map));
    for pair in state.landed().windows(2) {
        let (a, b) = (cell_map[pair[0] as usize], cell_map[pair[1] as usize]);
        let (dir, leap) = geo.leg_between(a, b).expect("a symmetry maps legs to legs");
        let kind = if leap { crate::LegKind::Leap } else { crate::LegKind::Step };
        out.try_play(crate::Action::Leg { from: a, dir, kind }).ok()?;
        if out.landed().is_empty() {
            return None;
        }
    }
    Some(out)
}
