//! Learning-rate schedules (`[train] lr_schedule` in a run config).

use serde::{Deserialize, Serialize};

/// How the learning rate moves from `train.learning_rate`.
///
/// In TOML: `lr_schedule = "constant"` (the default),
/// `lr_schedule = { step_decay = { every_generations = 10, factor = 0.5 } }`, or
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
    /// Within each generation's training, from `learning_rate` at the first step down a half
    /// cosine to `learning_rate × final_fraction` at the last.
    Cosine { final_fraction: f64 },
}

impl LrSchedule {
    /// The rate for step `step` (0-based) of `steps` in generation `generation`.
    pub fn rate(&self, base: f64, generation: u32, step: u32, steps: u32) -> f64 {
        match *self {
            LrSchedule::Constant => base,
            LrSchedule::StepDecay { every_generations, factor } => {
                base * factor.powi((generation / every_generations.max(1)) as i32)
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
        match *self {
            LrSchedule::Constant => Ok(()),
            LrSchedule::StepDecay { every_generations, factor } => {
                if !(1..=search::bounds::MAX_GENERATIONS).contains(&u64::from(every_generations)) {
                    return bad("step_decay.every_generations", "must be from 1 to 1000000");
                }
                if !(factor > 0.0 && factor <= 1.0) {
                    return bad("step_decay.factor", "must be above 0 and at most 1");
                }
                Ok(())
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
        assert_eq!(LrSchedule::Constant.rate(0.1, 7, 3, 10), 0.1);
        let step = LrSchedule::StepDecay { every_generations: 2, factor: 0.5 };
        let rates: Vec<f64> = (0..5).map(|g| step.rate(1.0, g, 0, 10)).collect();
        assert_eq!(rates, [1.0, 1.0, 0.5, 0.5, 0.25]);
        let cos = LrSchedule::Cosine { final_fraction: 0.1 };
        assert!((cos.rate(1.0, 0, 0, 11) - 1.0).abs() < 1e-12);
        assert!((cos.rate(1.0, 0, 5, 11) - 0.55).abs() < 1e-12);
        assert!((cos.rate(1.0, 0, 10, 11) - 0.1).abs() < 1e-12);
        assert_eq!(cos.rate(1.0, 0, 0, 1), 1.0);
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
    }
}
