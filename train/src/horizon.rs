//! Where the auxiliary targets look ahead ([`crate::material`], [`crate::ownership`]): for each
//! decision of a replay window, the first decision of the same game some moves on.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::targets::Record;

/// How far an auxiliary target looks and how much its loss weighs: the `moves = H, weight = W`
/// of its TOML table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lookahead {
    /// The horizon, in moves (every leg of a move counts as that move).
    pub moves: u32,
    /// The weight of the head's cross-entropy in the loss.
    pub weight: f32,
}

impl Lookahead {
    /// Range checks; the error is (key, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        if !(1..=1000).contains(&self.moves) {
            return Err(("moves".into(), "must be between 1 and 1000".into()));
        }
        if !(0.0..=100.0).contains(&self.weight) {
            return Err(("weight".into(), "must be a number from 0 to 100".into()));
        }
        Ok(())
    }
}

/// The games of a window: `records` in (generation, game id, ply) order, so that each game's
/// decisions are contiguous, with `generation(i)` the generation of record `i` (game ids are
/// unique within a generation only).
pub fn game_ranges(records: &[Record], generation: impl Fn(usize) -> u32) -> Vec<Range<usize>> {
    let same_game = |a: usize, b: usize| {
        generation(a) == generation(b) && records[a].game_id == records[b].game_id
    };
    let mut ranges = Vec::new();
    let mut start = 0;
    for end in 1..=records.len() {
        if end == records.len() || !same_game(start, end) {
            ranges.push(start..end);
            start = end;
        }
    }
    ranges
}

/// For each decision of one game, given its move numbers in play order (every leg of a move
/// shares one), the index of the first decision at move `move_number + moves` or later: the
/// game's last decision when it ends sooner.
pub fn later_decisions(move_numbers: &[u32], moves: u32) -> Vec<usize> {
    let last = move_numbers.len().saturating_sub(1);
    let mut later = 0;
    move_numbers
        .iter()
        .enumerate()
        .map(|(i, &now)| {
            let until = now.saturating_add(moves);
            later = later.max(i);
            while later < last && move_numbers[later] < until {
                later += 1;
            }
            later
        })
        .collect()
}

/// [`later_decisions`] for every record of a window (see [`game_ranges`]), as window indices.
pub fn window_later_rows(
    records: &[Record],
    generation: impl Fn(usize) -> u32,
    moves: u32,
) -> Vec<usize> {
    let mut rows = Vec::with_capacity(records.len());
    for game in game_ranges(records, generation) {
        let numbers: Vec<u32> = records[game.clone()].iter().map(|r| r.move_number).collect();
        rows.extend(later_decisions(&numbers, moves).into_iter().map(|i| game.start + i));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_later_decision_is_the_first_at_the_horizon_or_the_last() {
        // Moves 0, 1, 2, 3 (two legs), 4, 5.
        let numbers = [0, 1, 2, 3, 3, 4, 5];
        assert_eq!(later_decisions(&numbers, 2), [2, 3, 5, 6, 6, 6, 6]);
        assert_eq!(later_decisions(&numbers, 1), [1, 2, 3, 5, 5, 6, 6]);
        assert_eq!(later_decisions(&numbers, 100), [6; 7]);
        assert_eq!(later_decisions(&[7], 3), [0]);
        assert!(later_decisions(&[], 3).is_empty());
        // The same as looking for it by hand, decision by decision.
        for moves in 0..8 {
            let by_hand: Vec<usize> = (0..numbers.len())
                .map(|i| {
                    (i..numbers.len())
                        .find(|&j| numbers[j] >= numbers[i] + moves)
                        .unwrap_or(numbers.len() - 1)
                })
                .collect();
            assert_eq!(later_decisions(&numbers, moves), by_hand, "{moves} moves");
        }
    }
}
