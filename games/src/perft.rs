//! perft: the number of legal move sequences of a given length (RULES.md §6).

use crate::mv::Move;
use crate::position::Position;
use crate::position::Variant;

/// The number of legal move sequences of length `depth` from `pos` (a finished game has none).
/// Counts the last ply without playing it (bulk counting).
pub fn perft<V: Variant>(pos: &Position<V>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play(m);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// perft split by first move: each legal move with the count below it.
pub fn perft_divide<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(&m);
            let n = perft(&next, depth.saturating_sub(1));
            (m, n)
        })
        .collect()
}
