//! The moves-left target (`[train] moves_left_target` in a run config; Leela Chess Zero's
//! moves-left head, issue #16's lever list).
//!
//! Besides who wins, the network learns how many complete moves the game has left
//! ([`model::moves_left`]: classes of 5 moves, the last open), so that the search can tell a
//! win in 3 from a win in 30 without discounting the value target (`[mcts] moves_left`). The
//! target of a decision is its distance to its game's last recorded move, counting its own move
//! (as the discounted value target's): a game stopped at `max_moves` counts to the cap.

use serde::{Deserialize, Serialize};

/// Whether the moves-left head is trained.
///
/// In TOML: `moves_left_target = "off"` (the default) or
/// `moves_left_target = { moves = { weight = 0.5 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MovesLeftTarget {
    /// No moves-left head is trained (a network that has one keeps it untouched).
    #[default]
    Off,
    /// The moves to the end as one-hot classes, the head's cross-entropy weighted by `weight`
    /// in the loss. A network without the head gets a fresh one.
    Moves { weight: f32 },
}

impl MovesLeftTarget {
    /// The loss weight, when the target is on.
    pub fn weight(&self) -> Option<f32> {
        match *self {
            MovesLeftTarget::Off => None,
            MovesLeftTarget::Moves { weight } => Some(weight),
        }
    }

    /// Range checks; the error is (key under `train.moves_left_target`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        match self.weight() {
            Some(w) if !(0.0..=100.0).contains(&w) => {
                Err(("moves.weight".into(), "must be from 0 to 100".into()))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_parses_and_checks_its_ranges() {
        let parse = crate::testutil::from_toml::<MovesLeftTarget>;
        assert_eq!(parse("\"off\"").unwrap(), MovesLeftTarget::Off);
        let on = parse("{ moves = { weight = 0.5 } }").unwrap();
        assert_eq!(on, MovesLeftTarget::Moves { weight: 0.5 });
        assert_eq!(on.weight(), Some(0.5));
        assert!(on.validate().is_ok());
        assert!(parse("\"moves\"").is_err());
        assert!(parse("{ moves = { weight = 1, x = 1 } }").is_err());
        for bad in [-1.0, f32::NAN, f32::INFINITY] {
            let e = MovesLeftTarget::Moves { weight: bad }.validate().unwrap_err();
            assert_eq!(e.0, "moves.weight");
        }
    }
}
