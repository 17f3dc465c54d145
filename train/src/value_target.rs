//! What the value head learns from a finished game (`[train] value_target` in a run config).
//!
//! The plain AlphaZero target is the game's outcome, whatever the distance to the end. A won
//! position then looks as good as the same position one step from the win, so a search guided
//! by it has no reason to make progress: it shuffles pieces while the win stays certain, and
//! capped games end in draws the model was winning. The discounted target answers that, as a
//! discounted return does in reinforcement learning: the outcome's weight falls by `per_move`
//! for every complete move still to be played, and the rest of the weight is spread evenly over
//! the seats' win classes (the fair share of every seat). A win 1 move away is a win; 50 moves
//! away at `per_move = 0.98` it is 36% win plus 64% spread (two players: 68% win, 32% loss).
//! Draws (and move-limit adjudications) are draws at any distance.
//!
//! The target stays **zero-sum** at any distance: every seat's expected score (a draw counted
//! at the fair share) sums to 1, and no mass reaches the draw class that the game did not put
//! there. An earlier version moved the discounted mass into the draw class; the self-play
//! searches score that class below the fair share for every seat (`selfplay.draw_score`), so
//! both sides gained by ending any even game sooner, and material stopped predicting results.

use serde::{Deserialize, Serialize};

use crate::range_check::above_zero_at_most_one;

/// How the value target of a position depends on the game's end.
///
/// In TOML: `value_target = "outcome"` (the default) or
/// `value_target = { discounted = { per_move = 0.98 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ValueTarget {
    /// The game's result, one-hot on the winner's class (or the draw class).
    #[default]
    Outcome,
    /// The result with weight `per_move^(moves_to_end - 1)`, the rest spread evenly over the
    /// win classes ([`discount_towards_share`]).
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
                above_zero_at_most_one("discounted.per_move", f64::from(per_move), "")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use records::sample::discount_towards_share;

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
    fn a_discounted_win_moves_weight_to_every_seats_fair_share() {
        let mut t = [1.0, 0.0, 0.0];
        discount_towards_share(&mut t, 0.25);
        assert_eq!(t, [0.625, 0.375, 0.0]);
        let mut t = [0.0, 0.0, 1.0, 0.0];
        discount_towards_share(&mut t, 0.4);
        assert!((t[0] - 0.2).abs() < 1e-6 && (t[1] - 0.2).abs() < 1e-6, "{t:?}");
        assert!((t[2] - 0.6).abs() < 1e-6 && t[3] == 0.0, "{t:?}");
        // A draw is a draw at any distance.
        let mut t = [0.0, 0.0, 1.0];
        discount_towards_share(&mut t, 0.1);
        assert_eq!(t, [0.0, 0.0, 1.0]);
        let mut t = [1.0, 0.0, 0.0];
        discount_towards_share(&mut t, 1.0);
        assert_eq!(t, [1.0, 0.0, 0.0]);
    }

    /// Zero-sum at any distance: with a draw counted at the fair share, the seats' expected
    /// scores sum to 1, the draw class keeps exactly the game's draw mass, and no seat's score
    /// moves away from the fair share.
    #[test]
    fn the_discounted_target_is_zero_sum() {
        for players in [2usize, 3] {
            for draw in [0.0f32, 0.3] {
                for weight in [0.0f32, 0.1, 0.5, 0.98, 1.0] {
                    let mut t = vec![0.0; players + 1];
                    t[1] = 1.0 - draw;
                    t[players] = draw;
                    let before = t.clone();
                    discount_towards_share(&mut t, weight);
                    assert!((t.iter().sum::<f32>() - 1.0).abs() < 1e-6);
                    assert_eq!(t[players], draw);
                    let score = |t: &[f32], k: usize| t[k] + t[players] / players as f32;
                    let total: f32 = (0..players).map(|k| score(&t, k)).sum();
                    assert!((total - 1.0).abs() < 1e-6, "{t:?}");
                    let fair = 1.0 / players as f32;
                    for k in 0..players {
                        let (b, a) = (score(&before, k) - fair, score(&t, k) - fair);
                        assert!((a - weight * b).abs() < 1e-6, "{players} {weight} {k}: {t:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn toml_forms_and_validation() {
        let parse = crate::testutil::from_toml::<ValueTarget>;
        assert_eq!(parse("\"outcome\"").unwrap(), ValueTarget::Outcome);
        assert_eq!(
            parse("{ discounted = { per_move = 0.98 } }").unwrap(),
            ValueTarget::Discounted { per_move: 0.98 }
        );
        assert!(parse("\"discounted\"").is_err());
        assert!(parse("{ discounted = { per_move = 0.9, x = 1 } }").is_err());
        for bad in [0.0, -0.5, 1.01, f32::NAN] {
            let e = ValueTarget::Discounted { per_move: bad }.validate().unwrap_err();
            assert_eq!(e.0, "discounted.per_move");
        }
        assert!(ValueTarget::Discounted { per_move: 0.98 }.validate().is_ok());
    }
}
