//! Seed mixing: the one splitmix64 used wherever a seed is derived from another (Zobrist keys,
//! cache keys, per-game and per-generation seeds), so that nearby inputs give unrelated outputs.
//!
//! Every caller's arithmetic is fixed: records, caches and seeded runs rely on the same seed
//! giving the same games, so these functions must never change.

/// splitmix64's increment, the odd integer closest to 2^64 / φ.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// splitmix64's output function (Stafford's "Mix13"): a bijection that spreads every input bit.
const fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The next output of a splitmix64 generator whose state is `x`: `finalize(x + GOLDEN_GAMMA)`.
pub const fn splitmix64(x: u64) -> u64 {
    finalize(x.wrapping_add(GOLDEN_GAMMA))
}

/// A seed from `seed` and a number `n` (a game id, a generation):
/// `finalize(seed ^ n·GOLDEN_GAMMA)`. Further inputs are folded into `seed` by the caller
/// (e.g. `seed ^ salt.wrapping_mul(K)`).
pub const fn mix(seed: u64, n: u64) -> u64 {
    finalize(seed ^ n.wrapping_mul(GOLDEN_GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference outputs of splitmix64 seeded 0 (Vigna's `splitmix64.c`), so the arithmetic
    /// can never drift.
    #[test]
    fn matches_the_reference_stream() {
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(GOLDEN_GAMMA), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn mix_is_splitmix_of_the_scaled_number() {
        assert_eq!(mix(GOLDEN_GAMMA, 1), finalize(0));
        assert_eq!(mix(0, 1), splitmix64(0));
        assert_ne!(mix(1, 2), mix(2, 1));
    }
}
