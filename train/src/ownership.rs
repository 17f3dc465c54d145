//! The auxiliary ownership target (`[train] ownership_target` in a run config; KataGo's
//! ownership and future-position targets, issue #16's lever list).
//!
//! Besides the move and the winner, the network learns what will stand on every cell of the
//! board some moves on: for each recorded decision, the board of the first decision of the same
//! game `moves` moves later (the game's last recorded decision when it ends sooner), each board
//! cell one of [`games::OWNER_CLASSES`] classes (empty, a piece of the decision's mover, a piece
//! of another seat) in the mover's frame ([`games::Encode::encode_owners`]). A piece that will
//! be captured shows as its cell emptied; one that will capture, as a cell filled. The target is
//! dense (one class per cell, where the value has one bit per game) and spatial: the head reads
//! the policy head's per-cell features ([`model::NetConfig::ownership_classes`]), so its
//! gradient teaches the tower where pieces are lost and won, and nothing in play reads it.

use serde::{Deserialize, Serialize};

use crate::horizon::Lookahead;

/// Whether and how the ownership head is trained.
///
/// In TOML: `ownership_target = "off"` (the default) or
/// `ownership_target = { future = { moves = 8, weight = 0.5 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OwnershipTarget {
    /// No ownership head is trained (a network that has one keeps it untouched).
    #[default]
    Off,
    /// The board `moves` moves on (see the module docs), the mean cross-entropy over the board's
    /// cells weighted by `weight` in the loss. A network without the head gets a fresh one.
    Future(Lookahead),
}

impl OwnershipTarget {
    /// The horizon and weight, when the target is on.
    pub fn lookahead(&self) -> Option<Lookahead> {
        match *self {
            OwnershipTarget::Off => None,
            OwnershipTarget::Future(l) => Some(l),
        }
    }

    /// Range checks; the error is (key under `train.ownership_target`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let named = |(key, problem)| (format!("future.{key}"), problem);
        self.lookahead().map_or(Ok(()), |l| l.validate().map_err(named))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_parses_and_checks_its_ranges() {
        #[derive(Deserialize)]
        struct T {
            ownership_target: OwnershipTarget,
        }
        let parse = |s: &str| toml::from_str::<T>(s).map(|t| t.ownership_target);
        assert_eq!(parse("ownership_target = \"off\"").unwrap(), OwnershipTarget::Off);
        let on = parse("ownership_target = { future = { moves = 8, weight = 0.5 } }").unwrap();
        assert_eq!(on, OwnershipTarget::Future(Lookahead { moves: 8, weight: 0.5 }));
        assert!(on.validate().is_ok());
        assert!(parse("ownership_target = { future = { moves = 8 } }").is_err());
        assert!(parse("ownership_target = { future = { moves = 8, weight = 1, x = 1 } }").is_err());
        assert!(parse("ownership_target = { swing = { moves = 8, weight = 1 } }").is_err());
        let bad = |moves, weight| {
            OwnershipTarget::Future(Lookahead { moves, weight }).validate().unwrap_err().0
        };
        assert_eq!(bad(0, 1.0), "future.moves");
        assert_eq!(bad(8, -1.0), "future.weight");
    }
}
