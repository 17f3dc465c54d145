//! The one wording of a count's range in a config or an option: checked when read, so a value
//! that would fill the memory or never finish is refused at once with the key and its range.

/// The most generations a run, a replay window, a fade or a schedule's step may count.
pub const MAX_GENERATIONS: u64 = 1_000_000;
/// The most complete moves a game may last or a setting may count (self-play's and the ladder's
/// move caps, random openings, a temperature schedule's moves).
pub const MAX_MOVES: u64 = 10_000;

/// Why `value` is outside `min..=max`, or `None` when it is inside.
pub fn outside(value: u64, min: u64, max: u64) -> Option<String> {
    (value < min || value > max).then(|| format!("must be from {min} to {max}, got {value}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_ends_are_inside() {
        assert_eq!(super::outside(1, 1, 8), None);
        assert_eq!(super::outside(8, 1, 8), None);
        assert_eq!(super::outside(9, 1, 8).as_deref(), Some("must be from 1 to 8, got 9"));
        assert_eq!(super::outside(0, 1, 8).as_deref(), Some("must be from 1 to 8, got 0"));
    }
}
