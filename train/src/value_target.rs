//! What the value head learns from a finished game (`[train] value_target` in a run config).
//!
//! The plain AlphaZero target is the game's outcome, whatever the distance to the end. A won
//! position then looks as good as the same position one step from the win, so a search guided
//! by it has no reason to make progress: it shuffles pieces while the win stays certain, and
//! capped games end in draws the model was winning. The discounted target fixes that, as a
//! discounted return does in reinforcement learning: the outcome's weight falls by `per_move`
//! for every complete move still to be played, and the rest of the weight goes to the draw
//! class. A win 1 move away is a win; 50 moves away at `per_move = 0.98` it is 36% win, 64%
//! draw. Draws (and move-limit adjudications) are draws at any distance.

use serde::{Deserialize, Serialize};

/// How the value target of a position depends on the game's end.
///
/// In TOML: `value_target = { kind = "outcome" }` (the default) or
/// `value_target = { kind = "discounted", per_move = 0.98 }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ValueTarget {
    /// The game's result, one-hot on the winner's class (or the draw class).
    #[default]
    Outcome,
    /// The result with weight `per_move^(moves_to_end - 1)`, the draw class with the rest.
    Discounted { per_move: f32 },
}

impl ValueTarget {
    /// The weight of the game's result in the target of a decision `moves_to_end` complete
    /// moves from the end, counting the move it belongs to (so the last move's decisions have
    /// `moves_to_end = 1` and weight 1). In `(0, 1]`.
    pub fn outcome_weight(&self, moves_to_end: u32) -> f32 {
        match *self {
            ValueTarget::Outcome => 1.0,
            ValueTarget::Discounted { per_move } => {
                let exponent = moves_to_end.saturating_sub(1).min(i32::MAX as u32) as i32;
                per_move.powi(exponent).max(f32::MIN_POSITIVE)
            }
        }
    }

    /// Range checks; the error is (key under `train.value_target`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        match *self {
            ValueTarget::Outcome => Ok(()),
            ValueTarget::Discounted { per_move } => {
                if per_move > 0.0 && per_move <= 1.0 {
                    Ok(())
                } else {
                    Err(("per_move".into(), "must be above 0 and at most 1".into()))
                }
            }
        }
    }
}

/// Mixes a value target (`[players + 1]`, draw class last, summing to 1) with a draw:
/// `weight × target + (1 - weight) × draw`. The result still sums to 1.
pub fn discount_towards_draw(target: &mut [f32], weight: f32) {
    let (draw, outcome) = target.split_last_mut().expect("a draw class");
    let mut moved = 0.0;
    for p in outcome {
        moved += *p * (1.0 - weight);
        *p *= weight;
    }
    *draw += moved;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_weights() {
        assert_eq!(ValueTarget::Outcome.outcome_weight(1), 1.0);
        assert_eq!(ValueTarget::Outcome.outcome_weight(500), 1.0);
        let d = ValueTarget::Discounted { per_move: 0.9 };
        assert_eq!(d.outcome_weight(0), 1.0);
        assert_eq!(d.outcome_weight(1), 1.0);
        assert!((d.outcome_weight(2) - 0.9).abs() < 1e-6);
        assert!((d.outcome_weight(11) - 0.9f32.powi(10)).abs() < 1e-6);
        // Far from the end the weight stays positive (and finite).
        let w = d.outcome_weight(u32::MAX);
        assert!(w > 0.0 && w < 1e-30, "{w}");
        assert_eq!(ValueTarget::Discounted { per_move: 1.0 }.outcome_weight(300), 1.0);
    }

    #[test]
    fn a_discounted_win_moves_weight_to_the_draw_class() {
        let mut t = [1.0, 0.0, 0.0];
        discount_towards_draw(&mut t, 0.25);
        assert_eq!(t, [0.25, 0.0, 0.75]);
        let mut t = [0.0, 0.0, 1.0, 0.0];
        discount_towards_draw(&mut t, 0.5);
        assert_eq!(t, [0.0, 0.0, 0.5, 0.5]);
        // A draw is a draw at any distance.
        let mut t = [0.0, 0.0, 1.0];
        discount_towards_draw(&mut t, 0.1);
        assert_eq!(t, [0.0, 0.0, 1.0]);
        let mut t = [1.0, 0.0, 0.0];
        discount_towards_draw(&mut t, 1.0);
        assert_eq!(t, [1.0, 0.0, 0.0]);
    }

    #[test]
    fn toml_forms_and_validation() {
        #[derive(Deserialize)]
        struct T {
            v: ValueTarget,
        }
        let parse = |s: &str| toml::from_str::<T>(s).map(|t| t.v);
        assert_eq!(parse("v = { kind = \"outcome\" }").unwrap(), ValueTarget::Outcome);
        assert_eq!(
            parse("v = { kind = \"discounted\", per_move = 0.98 }").unwrap(),
            ValueTarget::Discounted { per_move: 0.98 }
        );
        assert!(parse("v = { kind = \"discounted\" }").is_err());
        assert!(parse("v = { kind = \"discounted\", per_move = 0.9, x = 1 }").is_err());
        for bad in [0.0, -0.5, 1.01, f32::NAN] {
            let e = ValueTarget::Discounted { per_move: bad }.validate().unwrap_err();
            assert_eq!(e.0, "per_move");
        }
        assert!(ValueTarget::Discounted { per_move: 0.98 }.validate().is_ok());
    }
}
