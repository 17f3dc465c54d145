//! What the network looks like: the size [`NetConfig`] around the game-facing shape.
//!
//! The shape is the games crate's [`Layout`] (planes, grid, policy channels, cell map, value
//! classes); the config adds the tower and head sizes, picked by a named [`Preset`] or written
//! by hand.

use std::fmt;
use std::str::FromStr;

use games::Layout;
use serde::{Deserialize, Serialize};

use crate::error::{ModelError, Result};

/// A named network size: `b{blocks}c{channels}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// 4 blocks × 32 channels: tests and smoke runs.
    B4C32,
    /// 6 blocks × 64 channels: the CPU default.
    B6C64,
    /// 10 blocks × 128 channels: GPU.
    B10C128,
    /// 20 blocks × 256 channels: GPU.
    B20C256,
}

impl Preset {
    /// All presets, smallest first.
    pub const ALL: [Preset; 4] = [Preset::B4C32, Preset::B6C64, Preset::B10C128, Preset::B20C256];

    /// The preset's name, as parsed by [`FromStr`].
    pub fn name(self) -> &'static str {
        match self {
            Preset::B4C32 => "b4c32",
            Preset::B6C64 => "b6c64",
            Preset::B10C128 => "b10c128",
            Preset::B20C256 => "b20c256",
        }
    }

    /// (blocks, channels, policy head, value head channels, value hidden)
    fn sizes(self) -> (usize, usize, usize, usize, usize) {
        match self {
            Preset::B4C32 => (4, 32, 16, 2, 32),
            Preset::B6C64 => (6, 64, 32, 2, 64),
            Preset::B10C128 => (10, 128, 32, 4, 128),
            Preset::B20C256 => (20, 256, 64, 4, 256),
        }
    }

    /// The residual blocks of the preset's tower.
    pub fn blocks(self) -> usize {
        self.sizes().0
    }

    /// The full config for this preset on `shape`.
    pub fn config(self, shape: Layout) -> NetConfig {
        let (blocks, channels, policy_head, value_head, value_hidden) = self.sizes();
        NetConfig {
            shape,
            blocks,
            channels,
            policy_head_channels: policy_head,
            value_head_channels: value_head,
            value_hidden,
            moves_left_classes: 0,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = ModelError;

    /// Parses `"b6c64"` etc. (case-insensitive); anything else is [`ModelError::UnknownPreset`].
    fn from_str(s: &str) -> Result<Self> {
        let wanted = s.trim().to_ascii_lowercase();
        Preset::ALL.into_iter().find(|p| p.name() == wanted).ok_or_else(|| {
            ModelError::UnknownPreset {
                name: s.to_string(),
                known: Preset::ALL.map(Preset::name).join(", "),
            }
        })
    }
}

/// The full description of a network: shape plus sizes. Saved as JSON in checkpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetConfig {
    /// The game-facing geometry.
    pub shape: Layout,
    /// Number of residual blocks in the tower.
    pub blocks: usize,
    /// Channels of the tower's convolutions.
    pub channels: usize,
    /// Channels of the policy head's hidden 1×1 convolution.
    pub policy_head_channels: usize,
    /// Channels of the value head's 1×1 convolution (flattened over the cells).
    pub value_head_channels: usize,
    /// Width of the value head's hidden linear layer.
    pub value_hidden: usize,
    /// Classes of the moves-left head (0: none): logits from the value head's hidden layer for
    /// how many moves the game has left ([`crate::moves_left`]), trained beside the value; the
    /// native engine and the [`Predictor`](crate::Predictor) give the search its expectation.
    /// Absent from the JSON of a network without one.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub moves_left_classes: usize,
    // The material (`material_classes`) and ownership (`ownership_classes`) heads of earlier
    // versions are gone (levers AU and AV, level; docs/experiments.md): a checkpoint's JSON that
    // names them still reads, and the network loads without them (neither was read in play).
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl NetConfig {
    /// The config of a named preset (`"b4c32"`, `"b6c64"`, `"b10c128"`, `"b20c256"`).
    pub fn preset(name: &str, shape: Layout) -> Result<Self> {
        Ok(name.parse::<Preset>()?.config(shape))
    }

    /// Checks the shape and that every size is non-zero.
    pub fn validate(&self) -> Result<()> {
        self.shape.validate().map_err(|e| ModelError::InvalidShape(e.to_string()))?;
        let sizes = [
            ("channels", self.channels),
            ("policy_head_channels", self.policy_head_channels),
            ("value_head_channels", self.value_head_channels),
            ("value_hidden", self.value_hidden),
        ];
        // Zero blocks is allowed: input conv straight into the heads.
        match sizes.iter().find(|(_, v)| *v == 0) {
            Some((name, _)) => Err(ModelError::InvalidConfig(format!("{name} must be non-zero"))),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::camelot_shape;

    #[test]
    fn presets_parse_and_unknown_names_fail() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>().unwrap(), p);
        }
        assert_eq!(" B6C64 ".parse::<Preset>().unwrap(), Preset::B6C64);
        let err = "b7c99".parse::<Preset>().unwrap_err();
        assert!(matches!(err, ModelError::UnknownPreset { .. }));
        assert!(err.to_string().contains("b6c64"), "{err}");
    }

    #[test]
    fn config_round_trips_through_json() {
        let cfg = NetConfig::preset("b4c32", camelot_shape(18)).unwrap();
        let json = serde_json::to_string(&cfg).unwrap();
        assert_eq!(serde_json::from_str::<NetConfig>(&json).unwrap(), cfg);
    }

    #[test]
    fn config_validation_reports_a_bad_shape() {
        let mut cfg = NetConfig::preset("b4c32", camelot_shape(18)).unwrap();
        assert_eq!(cfg.shape.num_actions(), 2561);
        cfg.validate().unwrap();
        cfg.shape.cells[1] = cfg.shape.cells[0];
        let err = cfg.validate().unwrap_err();
        assert!(matches!(err, ModelError::InvalidShape(_)));
        assert_eq!(err.to_string(), "invalid net shape: cell 1 maps to grid index 0, already used");
    }
}
