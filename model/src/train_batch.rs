//! What one training step reads and reports: the batch ([`TrainBatch`], plain row-major slices
//! with the auxiliary heads' parts, [`AuxTerm`]) and its batch-mean losses ([`LossStats`]),
//! shared by burn's step (`train_step`) and the native one (`native::train`).

use crate::config::NetConfig;
use crate::error::{ModelError, Result};

/// One training batch as plain row-major slices.
#[derive(Debug, Clone, Copy)]
pub struct TrainBatch<'a> {
    /// Positions in the batch (B).
    pub batch: usize,
    /// Encoded positions, [B, planes, H, W].
    pub planes: &'a [f32],
    /// Target move distribution, [B, num_actions]; each row sums to 1 over legal moves and is 0
    /// on illegal ones.
    pub policy_target: &'a [f32],
    /// Legal-move mask, [B, num_actions]; each row needs at least one `true`.
    pub legal: &'a [bool],
    /// Target outcome distribution, [B, value_classes] (one-hot or soft).
    pub value_target: &'a [f32],
    /// The material head's target, [B, material_classes] (one-hot), and weight, when it is
    /// trained (the network must have the head, of as many classes).
    pub material: Option<AuxTerm<'a>>,
    /// The ownership head's target, [B, ownership_classes, H, W] (one-hot on each board cell,
    /// 0 off the board: planes in the input's grid), and weight, when it is trained (the network
    /// must have the head, of as many classes).
    pub ownership: Option<AuxTerm<'a>>,
    /// The moves-left head's target, [B, moves_left_classes] (one-hot), and weight, when it is
    /// trained (the network must have the head, of as many classes).
    pub moves_left: Option<AuxTerm<'a>>,
}

/// An auxiliary head's part of a batch.
#[derive(Debug, Clone, Copy)]
pub struct AuxTerm<'a> {
    /// Target class distributions, laid out as [`TrainBatch`] says for the head.
    pub target: &'a [f32],
    /// Weight of its cross-entropy in the total loss.
    pub weight: f32,
}

impl TrainBatch<'_> {
    /// Checks every slice length against `config`'s shape and `batch`.
    pub fn validate(&self, config: &NetConfig) -> Result<()> {
        let s = &config.shape;
        if self.batch == 0 {
            return Err(ModelError::InvalidArgument("batch must be at least 1".into()));
        }
        let check = |what, got: usize, per: usize| {
            let expected = self.batch * per;
            if got == expected {
                Ok(())
            } else {
                Err(ModelError::InputSize { what, expected, got })
            }
        };
        check("planes", self.planes.len(), s.input_len())?;
        check("policy target", self.policy_target.len(), s.num_actions())?;
        check("legal mask", self.legal.len(), s.num_actions())?;
        check("value target", self.value_target.len(), s.value_classes)?;
        let heads = [
            ("material", "material target", &self.material, config.material_classes, 1),
            (
                "ownership",
                "ownership target",
                &self.ownership,
                config.ownership_classes,
                s.height * s.width,
            ),
            ("moves-left", "moves-left target", &self.moves_left, config.moves_left_classes, 1),
        ];
        for (what, name, term, classes, per_class) in heads {
            let Some(term) = term else { continue };
            if classes == 0 {
                return Err(ModelError::InvalidArgument(format!(
                    "the batch has a {what} target but the network no {what} head"
                )));
            }
            check(name, term.target.len(), classes * per_class)?;
            if !(term.weight >= 0.0 && term.weight.is_finite()) {
                return Err(ModelError::InvalidArgument(format!("{what} weight {}", term.weight)));
            }
        }
        let a = s.num_actions();
        if let Some(row) = self.legal.chunks(a).position(|r| !r.contains(&true)) {
            return Err(ModelError::InvalidArgument(format!("position {row} has no legal move")));
        }
        // Target mass on a masked-out move would meet a -1e9 log-probability: a billion-sized
        // loss from a data bug, so refuse it here with a message instead.
        let misplaced =
            self.policy_target.iter().zip(self.legal).position(|(&t, &ok)| t != 0.0 && !ok);
        if let Some(i) = misplaced {
            return Err(ModelError::InvalidArgument(format!(
                "position {} puts policy target mass on illegal action {}",
                i / a,
                i % a
            )));
        }
        Ok(())
    }
}

/// Batch-mean losses, as read back after a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossStats {
    /// `policy + value_weight * value (+ each auxiliary weight * its loss)`: what was minimised.
    pub total: f32,
    /// Policy cross-entropy (nats).
    pub policy: f32,
    /// Value cross-entropy (nats).
    pub value: f32,
    /// The material head's cross-entropy (nats); 0 when the batch has no material target.
    pub material: f32,
    /// The ownership head's cross-entropy per cell (nats); 0 when the batch has no ownership
    /// target.
    pub ownership: f32,
    /// The moves-left head's cross-entropy (nats); 0 when the batch has no moves-left target.
    pub moves_left: f32,
}

impl LossStats {
    /// How many losses there are.
    pub const PARTS: usize = 6;

    /// The losses in field order: total, policy, value, material, ownership, moves left.
    pub fn parts(&self) -> [f32; Self::PARTS] {
        [self.total, self.policy, self.value, self.material, self.ownership, self.moves_left]
    }

    /// [`parts`](Self::parts) back into a `LossStats`.
    pub fn from_parts(parts: [f32; Self::PARTS]) -> Self {
        let [total, policy, value, material, ownership, moves_left] = parts;
        LossStats { total, policy, value, material, ownership, moves_left }
    }
}
