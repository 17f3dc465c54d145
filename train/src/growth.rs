//! Growing the network during a run: the first generations train a shallower tower, which
//! plays and trains faster while there is little to learn, and blocks are added as the run
//! goes on until the tower has the preset's depth ([`model::Net::deepen`]; a new block starts
//! as the identity, so the grown network plays exactly as before it grew).

use serde::{Deserialize, Serialize};

/// How the tower's depth changes over a run (`net.growth`).
///
/// In TOML: `growth = "off"` (the default: the preset's depth throughout) or
/// `growth = { blocks = { start = 2, every_generations = 16 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Growth {
    /// The preset's depth from generation 0.
    #[default]
    Off,
    /// `start` blocks in generation 0's model, one more every `every_generations` generations
    /// until the preset's depth.
    Blocks { start: usize, every_generations: u32 },
}

impl Growth {
    /// Range checks against the preset's depth `full`; the error is (key under `net.growth`,
    /// problem).
    pub fn validate(&self, full: usize) -> Result<(), (String, String)> {
        match *self {
            Growth::Off => Ok(()),
            Growth::Blocks { start, .. } if start > full => Err((
                "blocks.start".into(),
                format!("{start} blocks is deeper than the preset's {full}: it can only grow"),
            )),
            Growth::Blocks { every_generations, .. }
                if !(1..=search::bounds::MAX_GENERATIONS)
                    .contains(&u64::from(every_generations)) =>
            {
                Err(("blocks.every_generations".into(), "must be from 1 to 1000000".into()))
            }
            Growth::Blocks { .. } => Ok(()),
        }
    }

    /// The residual blocks of model `gen-generation` (generation 0 is the random network) for
    /// a preset of `full` blocks.
    pub fn blocks(&self, full: usize, generation: u32) -> usize {
        match *self {
            Growth::Off => full,
            Growth::Blocks { start, every_generations } => {
                let added = generation / every_generations.max(1);
                full.min(start.saturating_add(added as usize))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_grow_by_one_every_period_up_to_the_preset() {
        let growth = Growth::Blocks { start: 2, every_generations: 16 };
        let depths: Vec<usize> =
            [0, 15, 16, 31, 32, 47, 48, 1000].into_iter().map(|g| growth.blocks(4, g)).collect();
        assert_eq!(depths, [2, 2, 3, 3, 4, 4, 4, 4]);
        assert_eq!(Growth::Off.blocks(6, 0), 6);
        assert_eq!(Growth::Blocks { start: 0, every_generations: 1 }.blocks(6, 3), 3);
    }

    #[test]
    fn validation_rejects_shrinking_and_a_zero_period() {
        Growth::Off.validate(4).unwrap();
        Growth::Blocks { start: 4, every_generations: 1 }.validate(4).unwrap();
        let (key, problem) =
            Growth::Blocks { start: 5, every_generations: 8 }.validate(4).unwrap_err();
        assert_eq!(key, "blocks.start");
        assert!(problem.contains("preset's 4"), "{problem}");
        let (key, _) = Growth::Blocks { start: 2, every_generations: 0 }.validate(4).unwrap_err();
        assert_eq!(key, "blocks.every_generations");
    }

    #[test]
    fn parses_from_toml() {
        #[derive(Deserialize)]
        struct Wrap {
            growth: Growth,
        }
        let w: Wrap =
            toml::from_str("growth = { blocks = { start = 1, every_generations = 8 } }").unwrap();
        assert_eq!(w.growth, Growth::Blocks { start: 1, every_generations: 8 });
        let w: Wrap = toml::from_str("growth = \"off\"").unwrap();
        assert_eq!(w.growth, Growth::Off);
        assert!(toml::from_str::<Wrap>("growth = { blocks = { start = 1 } }").is_err());
    }
}
