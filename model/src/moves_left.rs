//! The moves-left head's classes (Leela Chess Zero's moves-left head, issue #16's lever list).
//!
//! The head reads the value head's hidden features and answers how many complete moves the
//! game has left, as logits over [`MOVES_LEFT_CLASSES`] classes of [`MOVES_LEFT_BIN`] moves
//! each: class `k` is `k × BIN + 1 ..= (k + 1) × BIN` moves to the end, counting the move the
//! position belongs to (a decision of the game's last move has 1), and the last class is open.
//! The search reads the softmax's expectation ([`expected_moves_left`]) to prefer the shorter
//! of two wins and the longer of two losses.

/// Complete moves per class.
pub const MOVES_LEFT_BIN: u32 = 5;

/// Classes of the head: the last one holds every distance beyond `(K - 1) × BIN` moves.
pub const MOVES_LEFT_CLASSES: usize = 24;

/// The class of a decision `moves_to_end` complete moves from the end (1 on the last move;
/// 0 is read as 1).
pub fn moves_left_class(moves_to_end: u32) -> usize {
    let class = moves_to_end.saturating_sub(1) / MOVES_LEFT_BIN;
    (class as usize).min(MOVES_LEFT_CLASSES - 1)
}

/// The moves left that class `k` stands for: the middle of its range (the open last class
/// counts as its first `BIN` moves).
pub fn class_moves(class: usize) -> f32 {
    class as f32 * MOVES_LEFT_BIN as f32 + (MOVES_LEFT_BIN + 1) as f32 / 2.0
}

/// The expected moves left under class probabilities `probs` (summing to 1).
pub fn expected_moves_left(probs: &[f32]) -> f32 {
    probs.iter().enumerate().map(|(k, &p)| p * class_moves(k)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_bins_of_moves_and_the_last_is_open() {
        assert_eq!(moves_left_class(0), 0);
        assert_eq!(moves_left_class(1), 0);
        assert_eq!(moves_left_class(5), 0);
        assert_eq!(moves_left_class(6), 1);
        assert_eq!(moves_left_class(120), 23);
        assert_eq!(moves_left_class(121), 23);
        assert_eq!(moves_left_class(u32::MAX), MOVES_LEFT_CLASSES - 1);
        assert_eq!(class_moves(0), 3.0);
        assert_eq!(class_moves(1), 8.0);
    }

    #[test]
    fn the_expectation_weighs_each_class_middle() {
        let mut p = vec![0.0; MOVES_LEFT_CLASSES];
        p[0] = 1.0;
        assert_eq!(expected_moves_left(&p), 3.0);
        p[0] = 0.5;
        p[2] = 0.5;
        assert_eq!(expected_moves_left(&p), 0.5 * 3.0 + 0.5 * 13.0);
    }
}
