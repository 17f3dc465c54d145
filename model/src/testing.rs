//! Stand-in shapes for tests, benchmarks and smoke runs.
//!
//! **These are not the real board maps.** The games crate owns the true layouts
//! (`games::Encode::layout`); these helpers build layouts with the right sizes (grid, cell
//! count, policy channels, value classes), any plane count, and a made-up but valid cell map:
//! the first N positions of the grid in row-major order, so the network's tests and benchmarks
//! do not depend on the encoding. Anything sized by the shape (action count, tensor shapes,
//! timings) matches the real games; anything that depends on *which* grid positions are cells
//! does not.

use games::Layout;
use games::seed::GOLDEN_GAMMA;

use crate::train_batch::TrainBatch;

/// Camelot-sized stand-in: 16 rows × 12 columns, 160 cells, 16 policy channels
/// (8 directions × step/leap), so 2561 actions; 3 value classes (win / draw / loss).
pub fn camelot_shape(planes: usize) -> Layout {
    first_cells(planes, 16, 12, 160, 16, 3)
}

/// Tri-Camelot-sized stand-in: 11 × 11 axial hex grid, 73 cells, 12 policy channels
/// (6 directions × 2), so 877 actions; 4 value classes (which seat wins, then draw).
pub fn tri_camelot_shape(planes: usize) -> Layout {
    first_cells(planes, 11, 11, 73, 12, 4)
}

/// A shape whose cells are the first `cells` grid positions in row-major order.
fn first_cells(
    planes: usize,
    height: usize,
    width: usize,
    cells: u16,
    policy_channels: usize,
    value_classes: usize,
) -> Layout {
    Layout {
        encoding: games::Encoding::Basic,
        planes,
        height,
        width,
        policy_channels,
        cells: (0..cells).collect(),
        value_classes,
    }
}

/// Deterministic pseudo-random numbers in `[-1, 1)` (a 64-bit LCG), so tests and benchmarks
/// get varied inputs without a `rand` dependency. Same `seed`, same values.
pub fn pseudo_random(len: usize, seed: u64) -> Vec<f32> {
    // Only splitmix64's constant spreads the seed; this is an LCG, not `games::seed::mix`, and
    // stays so: golden values and benchmark inputs were drawn from exactly this stream.
    let mut state = seed.wrapping_mul(GOLDEN_GAMMA).wrapping_add(1);
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Top 24 bits → [0, 1) exactly representable in f32, then to [-1, 1).
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// A training batch of `batch` pseudo-random positions of `shape` (inputs from
/// [`pseudo_random`] of `seed`), every action legal, a uniform policy target, and a one-hot
/// value target on class `value_class`: what benchmarks and tests train on when the data do not
/// matter.
pub struct SyntheticBatch {
    pub batch: usize,
    pub planes: Vec<f32>,
    pub policy_target: Vec<f32>,
    pub legal: Vec<bool>,
    pub value_target: Vec<f32>,
}

impl SyntheticBatch {
    pub fn new(shape: &Layout, batch: usize, seed: u64, value_class: usize) -> Self {
        let (a, v) = (shape.num_actions(), shape.value_classes);
        SyntheticBatch {
            batch,
            planes: pseudo_random(batch * shape.input_len(), seed),
            policy_target: vec![1.0 / a as f32; batch * a],
            legal: vec![true; batch * a],
            value_target: (0..batch * v)
                .map(|i| f32::from(u8::from(i % v == value_class)))
                .collect(),
        }
    }

    /// The batch as the training step reads it (no moves-left target).
    pub fn as_batch(&self) -> TrainBatch<'_> {
        TrainBatch {
            batch: self.batch,
            planes: &self.planes,
            policy_target: &self.policy_target,
            legal: &self.legal,
            value_target: &self.value_target,
            moves_left: None,
        }
    }
}

/// A fresh, empty scratch folder under the system temp dir for test `name`, removed when the
/// guard is dropped.
#[cfg(test)]
pub(crate) fn scratch_dir(name: &str) -> storage::ScratchDir {
    storage::ScratchDir::new(&format!("model-test-{name}")).expect("create scratch dir")
}
