//! Elo differences from match scores, with a 95% confidence interval.
//!
//! The logistic Elo model: a player who scores `s` (in `[0, 1]`) against an opponent is
//! `D = -400 · log10(1/s - 1)` Elo stronger. The interval comes from the **per-game scores**
//! `x_i` (1 win, ½ draw, 0 loss): their mean `s`, their (population) variance
//! `σ² = mean(x²) - s²`, the standard error `σ / √N`, the score interval
//! `s ± 1.96 · σ / √N` clipped to `[0, 1]`, and both ends mapped through `D` (the method of
//! cutechess-cli's Elo line). So the interval halves when the number of games quadruples.
//!
//! A perfect score (or a zero one) has no finite Elo: [`Elo`] then holds `+∞` (or `-∞`), never
//! NaN, and prints as `+inf`. An empty match has no estimate at all ([`elo_interval`] is `None`).

use std::fmt;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// An Elo difference: finite, or `±∞` for a score of exactly 1 or 0 (never NaN).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Elo(pub f64);

impl Elo {
    /// The Elo difference of a score in `[0, 1]` (clamped into it; NaN counts as ½).
    pub fn from_score(score: f64) -> Elo {
        let s = if score.is_nan() { 0.5 } else { score.clamp(0.0, 1.0) };
        if s >= 1.0 {
            Elo(f64::INFINITY)
        } else if s <= 0.0 {
            Elo(f64::NEG_INFINITY)
        } else {
            Elo(-400.0 * (1.0 / s - 1.0).log10())
        }
    }

    /// Whether the difference is finite (the score was strictly between 0 and 1).
    pub fn is_finite(self) -> bool {
        self.0.is_finite()
    }
}

/// Signed, rounded to whole points: `+200`, `-35`, `0`, `+inf`, `-inf`.
impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == f64::INFINITY {
            f.write_str("+inf")
        } else if self.0 == f64::NEG_INFINITY {
            f.write_str("-inf")
        } else {
            let r = self.0.round();
            if r == 0.0 { f.write_str("0") } else { write!(f, "{r:+.0}") }
        }
    }
}

/// An Elo difference with its 95% confidence interval, from per-game scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloInterval {
    /// Games the estimate is based on.
    pub games: usize,
    /// Mean per-game score.
    pub score: f64,
    /// Standard error of the mean score, `σ / √N`.
    pub std_error: f64,
    /// The Elo difference of `score`.
    pub elo: Elo,
    /// The Elo of the lower end of the score interval.
    pub low: Elo,
    /// The Elo of the upper end of the score interval.
    pub high: Elo,
}

impl EloInterval {
    /// `± half-width` of the score interval (before clipping to `[0, 1]`).
    pub fn score_margin(&self) -> f64 {
        Z95 * self.std_error
    }
}

/// `+200 [+120, +290]`.
impl fmt::Display for EloInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}, {}]", self.elo, self.low, self.high)
    }
}

/// The Elo difference and 95% interval of a player whose games scored `scores` (each in
/// `[0, 1]`; 1 win, ½ draw, 0 loss). `None` for no games.
pub fn elo_interval(scores: &[f64]) -> Option<EloInterval> {
    if scores.is_empty() {
        return None;
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let variance = (scores.iter().map(|x| x * x).sum::<f64>() / n - mean * mean).max(0.0);
    let std_error = (variance / n).sqrt();
    Some(EloInterval {
        games: scores.len(),
        score: mean,
        std_error,
        elo: Elo::from_score(mean),
        low: Elo::from_score(mean - Z95 * std_error),
        high: Elo::from_score(mean + Z95 * std_error),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repeat(pattern: &[f64], times: usize) -> Vec<f64> {
        pattern.iter().copied().cycle().take(pattern.len() * times).collect()
    }

    #[test]
    fn known_scores_give_known_elo() {
        assert_eq!(Elo::from_score(0.5).0, 0.0);
        let e = Elo::from_score(0.76).0;
        assert!((e - 200.24).abs() < 0.01, "{e}");
        assert!((Elo::from_score(0.24).0 + 200.24).abs() < 0.01);
        // 10 to 1 odds are 400 points.
        assert!((Elo::from_score(10.0 / 11.0).0 - 400.0).abs() < 1e-9);
        assert_eq!(Elo::from_score(0.76).to_string(), "+200");
        assert_eq!(Elo::from_score(0.5).to_string(), "0");
        assert_eq!(Elo::from_score(0.2).to_string(), "-241");
    }

    #[test]
    fn perfect_and_zero_scores_are_infinite_not_nan() {
        let all = elo_interval(&[1.0; 10]).unwrap();
        assert_eq!(all.elo.0, f64::INFINITY);
        assert!(!all.elo.is_finite() && !all.low.0.is_nan() && !all.high.0.is_nan());
        assert_eq!(all.to_string(), "+inf [+inf, +inf]");
        let none = elo_interval(&[0.0; 4]).unwrap();
        assert_eq!(none.elo.0, f64::NEG_INFINITY);
        assert_eq!(none.elo.to_string(), "-inf");
        // A near-perfect score: finite estimate, the interval's top reaches +inf.
        let mut scores = vec![1.0; 9];
        scores.push(0.0);
        let near = elo_interval(&scores).unwrap();
        assert!(near.elo.is_finite() && near.low.is_finite());
        assert_eq!(near.high.0, f64::INFINITY);
        assert!(elo_interval(&[]).is_none());
        assert!(Elo::from_score(f64::NAN).0 == 0.0);
    }

    #[test]
    fn the_interval_shrinks_with_the_square_root_of_the_games() {
        let pattern = [1.0, 1.0, 0.5, 0.0, 1.0, 0.5, 1.0, 0.0];
        let small = elo_interval(&repeat(&pattern, 5)).unwrap();
        let large = elo_interval(&repeat(&pattern, 20)).unwrap();
        assert_eq!(small.score, large.score);
        let ratio = small.score_margin() / large.score_margin();
        assert!((ratio - 2.0).abs() < 1e-9, "4x the games halve the margin, got {ratio}");
        assert!(small.low.0 < large.low.0 && large.high.0 < small.high.0);
        assert!(large.low.0 < large.elo.0 && large.elo.0 < large.high.0);
    }

    #[test]
    fn the_interval_is_the_textbook_one() {
        // 76 wins, 24 losses: s = 0.76, σ² = 0.76 · 0.24, se = sqrt(0.1824 / 100).
        let scores: Vec<f64> = [1.0; 76].into_iter().chain([0.0; 24]).collect();
        let e = elo_interval(&scores).unwrap();
        assert!((e.score - 0.76).abs() < 1e-12);
        assert!((e.std_error - (0.1824f64 / 100.0).sqrt()).abs() < 1e-12);
        let lo = Elo::from_score(0.76 - Z95 * e.std_error).0;
        assert!((e.low.0 - lo).abs() < 1e-9);
        // Roughly +200, from +128 to +293.
        assert!(e.low.0 > 120.0 && e.low.0 < 135.0, "{}", e.low.0);
        assert!(e.high.0 > 285.0 && e.high.0 < 300.0, "{}", e.high.0);
        // An even match of draws only: zero Elo, zero width.
        let d = elo_interval(&[0.5; 6]).unwrap();
        assert_eq!((d.elo.0, d.low.0, d.high.0), (0.0, 0.0, 0.0));
    }
}
