//! Which network a run publishes (`[train] weight_average` in a run config; issue #84's item 2,
//! lever DH): the weights as trained, or their exponential moving average over generations, as
//! KataGo and Leela Chess Zero publish an average of snapshots rather than the latest one.
//!
//! The published network self-plays, is rated, probed and exported; training continues from
//! the trained weights, kept beside it in each checkpoint ([`model::checkpoint::save_averaged`]).
//! Averaging smooths the generation-to-generation swing of a network trained on a small,
//! moving window; its price is a lag of about `decay / (1 − decay)` generations.

use serde::{Deserialize, Serialize};

/// What a run publishes.
///
/// In TOML: `weight_average = "off"` (the default) or `weight_average = { ema = { decay = 0.75 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum WeightAverage {
    /// Each generation publishes the weights its training ended with.
    #[default]
    Off,
    /// Each generation publishes `d × previous + (1 − d) × trained`, where `d` is `decay`, or
    /// `n / (n + 1)` while the average holds fewer snapshots `n` than that makes sense for
    /// (so the first generations are plain means, and the random network of generation 0 is
    /// never averaged in). The average restarts when the tower deepens or a head is added.
    Ema { decay: f32 },
}

impl WeightAverage {
    /// The previous average's share in the next one, when it holds `snapshots` trained
    /// networks (0: publish the trained weights alone); `None` when averaging is off.
    pub fn previous_share(&self, snapshots: u32) -> Option<f32> {
        match *self {
            WeightAverage::Off => None,
            WeightAverage::Ema { decay } => {
                let n = snapshots as f32;
                Some(decay.min(n / (n + 1.0)))
            }
        }
    }

    /// Range checks; the error is (key under `train.weight_average`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let WeightAverage::Ema { decay } = *self else { return Ok(()) };
        let problem = "must be at least 0 and below 1";
        (0.0..1.0).contains(&decay).then_some(()).ok_or(("ema.decay".into(), problem.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each TOML value and what it gives: the option, or `None` where the TOML is refused,
    /// and whether the option passes its range check.
    #[test]
    fn the_config_parses_and_checks_its_ranges() {
        let cases = [
            ("\"off\"", Some((WeightAverage::Off, true))),
            ("{ ema = { decay = 0.75 } }", Some((WeightAverage::Ema { decay: 0.75 }, true))),
            ("{ ema = { decay = 0 } }", Some((WeightAverage::Ema { decay: 0.0 }, true))),
            ("{ ema = { decay = 1 } }", Some((WeightAverage::Ema { decay: 1.0 }, false))),
            ("{ ema = { decay = -0.1 } }", Some((WeightAverage::Ema { decay: -0.1 }, false))),
            ("\"ema\"", None),
            ("{ ema = { decay = 0.5, x = 1 } }", None),
        ];
        crate::testutil::check_option_cases(&cases, "ema.decay", WeightAverage::validate);
        assert!(WeightAverage::Ema { decay: f32::NAN }.validate().is_err());
    }

    #[test]
    fn the_first_snapshots_are_a_plain_mean_then_the_decay_holds() {
        let ema = WeightAverage::Ema { decay: 0.75 };
        let shares: Vec<f32> = (0..6).map(|n| ema.previous_share(n).unwrap()).collect();
        assert_eq!(shares, [0.0, 0.5, 2.0 / 3.0, 0.75, 0.75, 0.75]);
        assert_eq!(WeightAverage::Off.previous_share(3), None);
    }
}
