//! Learning-rate schedules (`[train] lr_schedule` in a run config).

use serde::{Deserialize, Serialize};

use crate::range_check::above_zero_at_most_one;

/// How the learning rate moves from `train.learning_rate`.
///
/// In TOML: `lr_schedule = "constant"` (the default),
/// `lr_schedule = { step_decay = { every_generations = 10, factor = 0.5 } }`,
/// `lr_schedule = { sample_decay = { every_samples = 500000, factor = 0.5, floor = 0.25 } }`, or
/// `lr_schedule = { cosine = { final_fraction = 0.1 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum LrSchedule {
    /// `learning_rate` throughout.
    #[default]
    Constant,
    /// `learning_rate × factor^(generation / every_generations)` (integer division): the rate
    /// drops by `factor` every `every_generations` generations.
    StepDecay { every_generations: u32, factor: f64 },
    /// `learning_rate × max(floor, factor^(samples / every_samples))` (real division), where
    /// `samples` counts the training samples of the whole run before the step: a smooth decay
    /// by the data trained on, which a continued run carries on from where it stopped and which
    /// does not move when `steps_per_generation` or the batch size do; the floor keeps a long
    /// run learning.
    SampleDecay { every_samples: u64, factor: f64, floor: f64 },
    /// Within each generation's training, from `learning_rate` at the first step down a half
    /// cosine to `learning_rate × final_fraction` at the last.
    Cosine { final_fraction: f64 },
}

impl LrSchedule {
    /// The rate for step `step` (0-based) of `steps` in generation `generation`, after
    /// `samples` training samples in the whole run before that step.
    pub fn rate(&self, base: f64, generation: u32, step: u32, steps: u32, samples: u64) -> f64 {
        match *self {
            LrSchedule::Constant => base,
            LrSchedule::StepDecay { every_generations, factor } => {
                base * factor.powi((generation / every_generations.max(1)) as i32)
            }
            LrSchedule::SampleDecay { every_samples, factor, floor } => {
                let decays = samples as f64 / every_samples.max(1) as f64;
                base * factor.powf(decays).max(floor)
            }
            LrSchedule::Cosine { final_fraction } => {
                let t = if steps > 1 { f64::from(step) / f64::from(steps - 1) } else { 0.0 };
                let low = base * final_fraction;
                low + (base - low) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
            }
        }
    }

    /// Range checks; the error is (key under `train.lr_schedule`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let bad = |key: &str, problem: &str| Err((key.to_string(), problem.to_string()));
        let fraction = |key: &str, value: f64| above_zero_at_most_one(key, value, "");
        match *self {
            LrSchedule::Constant => Ok(()),
            LrSchedule::StepDecay { every_generations, factor } => {
                if !(1..=search::bounds::MAX_GENERATIONS).contains(&u64::from(every_generations)) {
                    return bad("step_decay.every_generations", "must be from 1 to 1000000");
                }
                fraction("step_decay.factor", factor)
            }
            LrSchedule::SampleDecay { every_samples, factor, floor } => {
                if every_samples == 0 {
                    return bad("sample_decay.every_samples", "must be at least 1");
                }
                fraction("sample_decay.factor", factor)?;
                fraction("sample_decay.floor", floor)
            }
            LrSchedule::Cosine { final_fraction } => {
                if !(0.0..=1.0).contains(&final_fraction) {
                    return bad("cosine.final_fraction", "must be between 0 and 1");
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules() {
        assert_eq!(LrSchedule::Constant.rate(0.1, 7, 3, 10, 999), 0.1);
        let step = LrSchedule::StepDecay { every_generations: 2, factor: 0.5 };
        let rates: Vec<f64> = (0..5).map(|g| step.rate(1.0, g, 0, 10, 0)).collect();
        assert_eq!(rates, [1.0, 1.0, 0.5, 0.5, 0.25]);
        let cos = LrSchedule::Cosine { final_fraction: 0.1 };
        assert!((cos.rate(1.0, 0, 0, 11, 0) - 1.0).abs() < 1e-12);
        assert!((cos.rate(1.0, 0, 5, 11, 0) - 0.55).abs() < 1e-12);
        assert!((cos.rate(1.0, 0, 10, 11, 0) - 0.1).abs() < 1e-12);
        assert_eq!(cos.rate(1.0, 0, 0, 1, 0), 1.0);
    }

    #[test]
    fn sample_decay_follows_the_samples_down_to_its_floor() {
        let decay = LrSchedule::SampleDecay { every_samples: 1000, factor: 0.5, floor: 0.2 };
        let at = |samples| decay.rate(0.002, 0, 0, 60, samples);
        assert_eq!(at(0), 0.002);
        assert!((at(500) - 0.002 * 0.5f64.sqrt()).abs() < 1e-15);
        assert!((at(1000) - 0.001).abs() < 1e-15);
        assert!((at(2000) - 0.0005).abs() < 1e-15);
        // 0.5^3 = 0.125 is below the floor: the rate stays at 0.2 of the base from there on.
        assert!((at(3000) - 0.0004).abs() < 1e-15);
        assert!((at(u64::MAX) - 0.0004).abs() < 1e-15);
        // The generation and the step within it do not move it: only the samples do.
        assert_eq!(decay.rate(0.002, 40, 7, 60, 1000), at(1000));
        let samples: Vec<u64> = (0..50).map(|i| i * 97).collect();
        assert!(samples.windows(2).all(|w| at(w[1]) <= at(w[0])), "never rises");
    }

    #[test]
    fn toml_forms() {
        let parse = crate::testutil::from_toml::<LrSchedule>;
        assert_eq!(parse("\"constant\"").unwrap(), LrSchedule::Constant);
        assert_eq!(
            parse("{ step_decay = { every_generations = 3, factor = 0.5 } }").unwrap(),
            LrSchedule::StepDecay { every_generations: 3, factor: 0.5 }
        );
        assert_eq!(
            parse("{ cosine = { final_fraction = 0.0 } }").unwrap(),
            LrSchedule::Cosine { final_fraction: 0.0 }
        );
        assert!(parse("{ cosine = { final_fraction = 0.1, typo = 1 } }").is_err());
        assert!(parse("\"linear\"").is_err());
        assert!(LrSchedule::StepDecay { every_generations: 0, factor: 0.5 }.validate().is_err());
        assert!(LrSchedule::Cosine { final_fraction: 2.0 }.validate().is_err());
        assert_eq!(
            parse("{ sample_decay = { every_samples = 500000, factor = 0.5, floor = 0.25 } }")
                .unwrap(),
            LrSchedule::SampleDecay { every_samples: 500_000, factor: 0.5, floor: 0.25 }
        );
        assert!(parse("{ sample_decay = { every_samples = 500000, factor = 0.5 } }").is_err());
        let decay = |every_samples, factor, floor| {
            LrSchedule::SampleDecay { every_samples, factor, floor }.validate().map_err(|e| e.0)
        };
        assert_eq!(decay(1, 0.5, 0.25), Ok(()));
        assert_eq!(decay(0, 0.5, 0.25), Err("sample_decay.every_samples".to_string()));
        assert_eq!(decay(10, 1.5, 0.25), Err("sample_decay.factor".to_string()));
        assert_eq!(decay(10, 0.5, 0.0), Err("sample_decay.floor".to_string()));
        assert_eq!(decay(10, 0.5, f64::NAN), Err("sample_decay.floor".to_string()));
    }
}
