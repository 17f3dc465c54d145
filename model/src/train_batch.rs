//! What one training step reads and reports: the batch ([`TrainBatch`], plain row-major slices
//! with the moves-left head's part, [`AuxTerm`]) and its batch-mean losses ([`LossStats`]),
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
    /// The moves-left head's target, [B, moves_left_classes] (one-hot), and weight, when it is
    /// trained (the network must have the head, of as many classes).
    pub moves_left: Option<AuxTerm<'a>>,
}

/// The moves-left head's part of a batch.
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
        if let Some(term) = &self.moves_left {
            let classes = config.moves_left_classes;
            if classes == 0 {
                return Err(ModelError::InvalidArgument(
                    "the batch has a moves-left target but the network no moves-left head".into(),
                ));
            }
            check("moves-left target", term.target.len(), classes)?;
            if !(term.weight >= 0.0 && term.weight.is_finite()) {
                return Err(ModelError::InvalidArgument(format!(
                    "moves-left weight {}",
                    term.weight
                )));
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
    /// `policy + value_weight * value (+ moves-left weight * its loss)`: what was minimised.
    pub total: f32,
    /// Policy cross-entropy (nats).
    pub policy: f32,
    /// Value cross-entropy (nats).
    pub value: f32,
    /// The moves-left head's cross-entropy (nats); 0 when the batch has no moves-left target.
    pub moves_left: f32,
}

impl LossStats {
    /// How many losses there are.
    pub const PARTS: usize = 4;

    /// The losses in field order: total, policy, value, moves left.
    pub fn parts(&self) -> [f32; Self::PARTS] {
        [self.total, self.policy, self.value, self.moves_left]
    }

    /// [`parts`](Self::parts) back into a `LossStats`.
    pub fn from_parts(parts: [f32; Self::PARTS]) -> Self {
        let [total, policy, value, moves_left] = parts;
        LossStats { total, policy, value, moves_left }
    }
}
