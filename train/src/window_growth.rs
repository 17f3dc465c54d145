//! How the replay window grows with a run (`train.window_growth`, issue #84).
//!
//! A fixed window of `window_generations` generations trains a run of 400 generations on the
//! newest 4% of its games, so each generation's network is fitted to the last few dozen
//! minutes of its own play and can forget what earlier games taught. The projects that train
//! for weeks let the window grow with the data: KataGo's shuffler keeps a number of rows that
//! grows as a power (0.65-0.75) of the rows seen. Here the unit is the generation, each of
//! `run.games_per_generation` games, so the law is one of games seen:
//!
//! `window(n) = n` for the first `n ≤ base` generations, then `max(base, ⌊base × (n / base)^α⌋)`,
//! where `base` is `window_generations`, `n` the generations played so far and `α` the exponent.
//! `α = 1` keeps every generation; a small `α` stays near `base`. With `base = 16` and `α = 0.7`
//! the window is 16 generations after 16, 25 after 32, 65 after 120 and 164 after 446.

use serde::{Deserialize, Serialize};

use crate::range_check::above_zero_at_most_one;

/// Whether and how the replay window grows.
///
/// In TOML: `window_growth = "off"` (the default: always `window_generations`) or
/// `window_growth = { power = { exponent = 0.7 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum WindowGrowth {
    /// The newest `window_generations` generations, however long the run.
    #[default]
    Off,
    /// `window_generations × (n / window_generations)^exponent` generations once the run has
    /// played `n` of them (see the module doc), `exponent` in (0, 1].
    Power { exponent: f64 },
}

impl WindowGrowth {
    /// The generations the window holds once `played` generations exist (the newest of them
    /// is the one training reads last), with `base` = `window_generations` (at least 1). Never
    /// more than `played`, never fewer than `min(base, played)`, and never fewer than for
    /// `played - 1` generations.
    pub fn generations(&self, base: u32, played: u32) -> u32 {
        let base = base.max(1);
        let grown = match *self {
            WindowGrowth::Off => base,
            WindowGrowth::Power { .. } if played <= base => base,
            WindowGrowth::Power { exponent } => {
                let ratio = f64::from(played) / f64::from(base);
                // The float's rounding must not shrink the window below a whole power of an
                // exact ratio (16 × 2^1 = 32, not 31.999...): a hair of slack before the floor.
                let grown = (f64::from(base) * ratio.powf(exponent) + 1e-9).floor();
                (grown as u32).max(base)
            }
        };
        grown.min(played)
    }

    /// Range checks; the error is (key under `train.window_growth`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let WindowGrowth::Power { exponent } = *self else { return Ok(()) };
        above_zero_at_most_one("power.exponent", exponent, " (1 keeps every generation)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each TOML value and what it gives: the option, or `None` where the TOML is refused,
    /// and whether the option passes its range check.
    #[test]
    fn the_config_parses_and_checks_its_ranges() {
        let power = |exponent| WindowGrowth::Power { exponent };
        let cases = [
            ("\"off\"", Some((WindowGrowth::Off, true))),
            ("{ power = { exponent = 0.7 } }", Some((power(0.7), true))),
            ("{ power = { exponent = 1 } }", Some((power(1.0), true))),
            ("{ power = { exponent = 0 } }", Some((power(0.0), false))),
            ("{ power = { exponent = 1.5 } }", Some((power(1.5), false))),
            ("{ power = { exponent = -0.5 } }", Some((power(-0.5), false))),
            ("\"power\"", None),
            ("{ power = { exponent = 0.7, base = 3 } }", None),
            ("{ power = {} }", None),
        ];
        crate::testutil::check_option_cases(&cases, "power.exponent", WindowGrowth::validate);
        assert!(WindowGrowth::Power { exponent: f64::NAN }.validate().is_err());
    }

    /// The figures of the module doc, worked by hand and floored: 16 × 2^0.7 = 16 × 1.6245 =
    /// 25.99, 16 × 7.5^0.7 = 16 × 4.098 = 65.56, 16 × 27.875^0.7 = 16 × 10.272 = 164.35.
    #[test]
    fn the_power_law_gives_the_documented_windows() {
        let growth = WindowGrowth::Power { exponent: 0.7 };
        let got: Vec<u32> = [1, 10, 16, 17, 32, 120, 446]
            .into_iter()
            .map(|played| growth.generations(16, played))
            .collect();
        assert_eq!(got, [1, 10, 16, 16, 25, 65, 164]);
    }

    #[test]
    fn off_is_the_base_and_exponent_one_keeps_everything() {
        for played in [1, 5, 16, 17, 100, 1000] {
            assert_eq!(WindowGrowth::Off.generations(16, played), played.min(16));
            assert_eq!(WindowGrowth::Power { exponent: 1.0 }.generations(16, played), played);
        }
        assert_eq!(WindowGrowth::Power { exponent: 0.5 }.generations(16, 64), 32);
        assert_eq!(WindowGrowth::Power { exponent: 0.5 }.generations(0, 9), 3);
    }

    /// The window never shrinks as the run goes on, never holds more than was played, and
    /// never less than the base once the base was played.
    #[test]
    fn the_window_grows_monotonically_within_its_bounds() {
        for exponent in [0.05, 0.3, 0.65, 0.7, 0.75, 0.99, 1.0] {
            let growth = WindowGrowth::Power { exponent };
            for base in [1, 2, 4, 16, 100] {
                let mut previous = 0;
                for played in 1..3000 {
                    let w = growth.generations(base, played);
                    assert!(w >= previous, "{exponent} {base} {played}: {w} < {previous}");
                    assert!(w <= played && w >= base.min(played), "{exponent} {base} {played}");
                    previous = w;
                }
            }
        }
    }
}
