//! Counting outcomes: the winner of a recorded result, the 95% Wilson interval of a score, and
//! the length distribution of a set of games.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The seat that won a game with per-seat result `result`: the unique highest share, if it is
/// above one half (a win scores 1). Anything else (every seat `1 / players`) is a draw: `None`.
pub fn winner(result: &[f32]) -> Option<usize> {
    let best = result.iter().copied().fold(f32::MIN, f32::max);
    let mut top = result.iter().enumerate().filter(|(_, r)| **r == best);
    match (top.next(), top.next()) {
        (Some((seat, _)), None) if best > 0.5 => Some(seat),
        _ => None,
    }
}

/// Wins per seat and draws of a set of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcomes {
    pub wins: Vec<usize>,
    pub draws: usize,
}

impl Outcomes {
    pub fn new(seats: usize) -> Self {
        Outcomes { wins: vec![0; seats], draws: 0 }
    }

    pub fn add(&mut self, result: &[f32]) {
        match winner(result) {
            Some(seat) if seat < self.wins.len() => self.wins[seat] += 1,
            _ => self.draws += 1,
        }
    }
}

/// The Wilson score interval at confidence `z` for a mean score `score` in `[0, 1]` over `n`
/// games: `(centre ± half) / (1 + z²/n)` with centre `score + z²/2n` and half
/// `z·sqrt(score(1−score)/n + z²/4n²)`.
///
/// Applied to a mean of shares (a draw counts `1 / players`) rather than of 0/1 outcomes it is
/// conservative: a share in `[0, 1]` with mean `p` has variance at most `p(1−p)`. `n = 0` gives
/// `(0, 1)`.
pub fn wilson(score: f64, n: usize, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = score + z2 / (2.0 * n);
    let half = z * (score * (1.0 - score) / n + z2 / (4.0 * n * n)).sqrt();
    (((centre - half) / denom).max(0.0), ((centre + half) / denom).min(1.0))
}

/// Minimum, median, mean, 90th percentile and maximum of game lengths (complete moves).
///
/// The median of an even count is the mean of the two middle lengths; the 90th percentile is the
/// nearest rank: the `⌈0.9·n⌉`-th smallest length. All are 0 for no games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lengths {
    pub min: u32,
    pub median: f64,
    pub mean: f64,
    pub p90: u32,
    pub max: u32,
}

impl Lengths {
    pub fn of(lengths: &[u32]) -> Self {
        let mut sorted = lengths.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        if n == 0 {
            return Lengths::default();
        }
        let median = if n % 2 == 1 {
            f64::from(sorted[n / 2])
        } else {
            (f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0
        };
        let rank = (9 * n).div_ceil(10);
        Lengths {
            min: sorted[0],
            median,
            mean: sorted.iter().map(|&l| f64::from(l)).sum::<f64>() / n as f64,
            p90: sorted[rank - 1],
            max: sorted[n - 1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_and_draws() {
        assert_eq!(winner(&[1.0, 0.0]), Some(0));
        assert_eq!(winner(&[0.0, 0.0, 1.0]), Some(2));
        assert_eq!(winner(&[0.5, 0.5]), None);
        assert_eq!(winner(&[1.0 / 3.0; 3]), None);
        let mut o = Outcomes::new(2);
        for r in [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.0, 0.0]] {
            o.add(&r);
        }
        assert_eq!(o, Outcomes { wins: vec![2, 1], draws: 1 });
    }

    #[test]
    fn wilson_matches_hand_computed_bounds() {
        // 3 of 4: centre 0.75 + 1.92/8, half 1.96·sqrt(0.1875/4 + 3.8415/64).
        let (lo, hi) = wilson(0.75, 4, Z95);
        assert!((lo - 0.300_642).abs() < 1e-6 && (hi - 0.954_413).abs() < 1e-6, "{lo} {hi}");
        let (lo, hi) = wilson(0.0, 10, Z95);
        assert!(lo.abs() < 1e-12 && (hi - 0.277_533).abs() < 1e-6, "{hi}");
        assert_eq!(wilson(0.5, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn length_distribution() {
        let l = Lengths::of(&[10, 2, 7, 4]);
        assert_eq!((l.min, l.median, l.mean, l.p90, l.max), (2, 5.5, 5.75, 10, 10));
        let l = Lengths::of(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!((l.median, l.p90), (6.0, 10));
        assert_eq!(Lengths::of(&[]), Lengths::default());
    }
}
