//! One generation of training: start from a checkpoint (or a given network), run
//! `steps_per_generation` optimizer steps on batches sampled from the replay window, and save
//! the result, with optimizer state and counters, as a new checkpoint folder.
//!
//! A run that averages its weights ([`WeightAverage`]) publishes the average in `weights.bpk`
//! and keeps the trained weights, which the next generation trains from, in `raw.bpk`.
//!
//! The new folder is written as `.<name>.tmp` beside its final place and renamed into place
//! once complete (`net.json`, `weights.bpk`, `optimizer.{bpk,json}`, `training.toml`, and
//! `summary.toml`: the [`GenerationSummary`] that `generations.csv` shows), so a
//! folder named `gen-NNNN` is always a whole checkpoint. A generation interrupted mid-training
//! writes nothing; resuming retrains it from the previous checkpoint (the self-play data is
//! on disk), with the same batches since they depend only on the seed, the generation and the
//! window.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use games::Encoding;
use model::{
    DeviceKind, LossStats, MOVES_LEFT_CLASSES, ModelError, Net, NetConfig, Trainer, checkpoint,
    masked_softmax, weight_average,
};
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use crate::config::TrainConfig;
use crate::dataset::{Batch, ReplayWindow};
use crate::model_file::ModelFile;
use crate::moves_left::MovesLeftTarget;
use crate::targets::{TrainGame, argmax, entropy};
pub use crate::train_error::TrainError;
use crate::weight_average::WeightAverage;

/// The counters file of a checkpoint folder.
pub const COUNTERS_FILE: &str = "training.toml";
/// The file of a checkpoint folder with the [`GenerationSummary`] of the training that made it.
pub const SUMMARY_FILE: &str = "summary.toml";

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io { path: path.to_path_buf(), source }
}

/// Run-long counters, saved with every checkpoint as `training.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counters {
    /// The generation whose training produced the checkpoint (`None` before any).
    pub generation: Option<u32>,
    /// Optimizer steps and samples since the start of the run.
    pub total_steps: u64,
    pub total_samples: u64,
    /// Trained networks in the published weight average (`[train] weight_average`; 0 when
    /// the checkpoint publishes its trained weights).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub averaged: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Counters {
    /// Reads `dir/training.toml`; a checkpoint without one (say, a fresh network saved by
    /// hand) starts the counters at zero.
    pub fn load(dir: &Path) -> Result<Counters, TrainError> {
        Ok(Counters::read(dir)?.unwrap_or_default())
    }
}

impl ModelFile for Counters {
    const FILE: &'static str = COUNTERS_FILE;
    const WHAT: &'static str = "a checkpoint's training counters";
}

/// The summary saved in a checkpoint folder; `None` for a checkpoint without one (generation 0,
/// or one written before summaries were saved).
impl ModelFile for GenerationSummary {
    const FILE: &'static str = SUMMARY_FILE;
    const WHAT: &'static str = "a generation's training summary";
}

/// Where the network to train comes from.
#[derive(Debug)]
// Built once per generation: boxing the network would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum StartFrom {
    /// A checkpoint folder; its optimizer state and counters are restored when present.
    Checkpoint(PathBuf),
    /// A network (e.g. [`fresh_net`] for the first generation): fresh optimizer, zero counters.
    Net(Net),
}

/// A randomly initialised network of the named preset for game `G` reading `encoding`, on
/// `device`.
pub fn fresh_net<G: TrainGame>(
    preset: &str,
    encoding: Encoding,
    device: DeviceKind,
) -> Result<Net, TrainError> {
    let config = NetConfig::preset(preset, G::layout(encoding).clone()).map_err(TrainError::Net)?;
    Net::new(&config, &device.device().map_err(TrainError::Net)?).map_err(TrainError::Net)
}

/// What [`train_generation`] is asked to do (besides the window and the settings).
#[derive(Debug)]
pub struct GenerationJob<'a> {
    pub start: StartFrom,
    /// The checkpoint folder to create (e.g. `<run>/models/gen-0004`); must not exist yet.
    pub out_dir: PathBuf,
    /// The generation being trained: it seeds the batches, drives a step-decay schedule and is
    /// recorded in the counters.
    pub generation: u32,
    /// The run's seed.
    pub seed: u64,
    pub device: DeviceKind,
    /// Checked before every step: once set, training stops with [`TrainError::Interrupted`].
    pub stop: Option<&'a AtomicBool>,
    /// Seconds the caller spent loading the window, recorded in the summary (the training
    /// stage's wall time is this plus the steps').
    pub window_seconds: f64,
    /// The wall time the run had used before the window was loaded ([`crate::run::RunClock`]);
    /// the summary's `run_seconds` adds the window's and the steps' time. `None` when unknown.
    pub run_seconds: Option<f64>,
    /// The new model's residual blocks when the run grows its network (`net.growth`): a
    /// shallower starting network is first deepened with identity blocks
    /// ([`Net::deepen`]). `None` trains the network as deep as it is.
    pub blocks: Option<usize>,
}

/// What one step did, for a progress bar and `metrics.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct StepMetrics {
    pub generation: u32,
    /// 1-based within the generation.
    pub step: u32,
    /// 1-based over the run (from the checkpoint's counters).
    pub total_step: u64,
    /// Batch-mean losses before the step (nats): `total = policy + value_weight × value (+
    /// the moves-left target's weight × its loss)`; `policy` is the mean over the full-search
    /// rows; `moves_left` is 0 when its target is off.
    pub losses: LossStats,
    /// Mean entropy (nats) of the policy targets of the batch's full-search rows.
    pub target_entropy: f32,
    /// Probe steps only (see `train.probe_every`), measured before the step in inference mode:
    /// the mean entropy of the network's policy over the legal actions, and the fraction of
    /// positions whose most likely value class is the target's.
    pub net_entropy: Option<f32>,
    pub value_accuracy: Option<f32>,
    /// Fraction of the batch with a full search (policy targets).
    pub full_search_fraction: f32,
    pub learning_rate: f64,
    /// Batch size over this step's wall time (sampling, probe and optimizer step).
    pub samples_per_sec: f64,
}

/// The losses as the progress lines show them: `loss T (policy P, value V)`, with `, moves
/// left L` inside the brackets when that head is trained (its loss > 0).
pub fn losses_text(l: &LossStats) -> String {
    let moves_left = if l.moves_left > 0.0 {
        format!(", moves left {:.3}", l.moves_left)
    } else {
        String::new()
    };
    format!("loss {:.3} (policy {:.3}, value {:.3}{moves_left})", l.total, l.policy, l.value)
}

/// What a generation's training did; saved with its checkpoint as `summary.toml`
/// ([`ModelFile::read`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationSummary {
    pub generation: u32,
    pub steps: u32,
    pub batch_size: usize,
    /// Means over the generation's steps.
    pub loss_total: f32,
    pub loss_policy: f32,
    pub loss_value: f32,
    /// 0 when the moves-left target is off (and in the summaries of older versions).
    #[serde(default)]
    pub loss_moves_left: f32,
    /// Mean over the probe steps (None without any).
    pub value_accuracy: Option<f32>,
    /// The rate of the last step.
    pub learning_rate: f64,
    pub samples_per_sec: f64,
    /// Wall time of the steps (and the checkpoint).
    pub seconds: f64,
    /// Wall time of loading the replay window before the steps.
    #[serde(default)]
    pub window_seconds: f64,
    /// The wall time the run had used when this checkpoint was saved, over all its
    /// invocations ([`crate::run::RunClock`]): the x axis of Elo per CPU-hour. `None` for a
    /// checkpoint of an older version, or of a run whose earlier time is unknown.
    #[serde(default)]
    pub run_seconds: Option<f64>,
    /// The window trained on.
    pub window_positions: usize,
    pub window_generations: Vec<u32>,
    /// The counters saved with the checkpoint.
    pub counters: Counters,
    pub checkpoint: PathBuf,
}

/// Trains one generation and writes the new checkpoint into `job.out_dir` (see module docs).
///
/// The batches are drawn from `StdRng::seed_from_u64(batch_seed(seed, generation))`: the same
/// seed, generation and window give the same batches. `on_step` runs after every step.
pub fn train_generation<G: TrainGame>(
    job: GenerationJob<'_>,
    window: &mut ReplayWindow<G>,
    config: &TrainConfig,
    mut on_step: impl FnMut(&StepMetrics),
) -> Result<GenerationSummary, TrainError> {
    let GenerationJob {
        start,
        out_dir,
        generation,
        seed,
        device,
        stop,
        window_seconds,
        run_seconds,
        blocks,
    } = job;
    let out_dir = out_dir.as_path();
    if out_dir.exists() {
        return Err(TrainError::CheckpointExists { path: out_dir.to_path_buf() });
    }
    // The network, its checkpoint folder (with any optimizer state) and the counters.
    let (net, from_dir, mut counters) = match start {
        StartFrom::Net(net) => {
            check_shape::<G>(&net, out_dir)?;
            (net, None, Counters::default())
        }
        StartFrom::Checkpoint(dir) => {
            let plain = device.device().map_err(TrainError::Net)?;
            let net = checkpoint::load_trained_on(&dir, G::NAME, &plain)
                .map_err(checkpoint_error(&dir))?
                .net;
            check_shape::<G>(&net, &dir)?;
            let counters = Counters::load(&dir)?;
            (net, Some(dir), counters)
        }
    };
    // New blocks get fresh parameters and no optimizer state; the old ones keep theirs.
    let net = match blocks {
        Some(blocks) => {
            let deepened = net.deepen(blocks, batch_seed(seed, generation));
            match &from_dir {
                Some(dir) => deepened.map_err(checkpoint_error(dir))?,
                None => deepened.map_err(TrainError::Net)?,
            }
        }
        None => net,
    };
    window.set_moves_left_target(config.moves_left_target);
    window.set_encoding(net.config().shape.encoding);
    // Turning the moves-left target on gives a network without the head a fresh one (its
    // weights from the batch seed); one that has it keeps it, trained or not.
    let net = match config.moves_left_target {
        MovesLeftTarget::Off => net,
        MovesLeftTarget::Moves { .. } => net
            .with_moves_left_head(
                MOVES_LEFT_CLASSES,
                batch_seed(seed, generation) ^ MOVES_LEFT_HEAD_SEED,
            )
            .map_err(TrainError::Net)?,
    };
    let mut trainer = Trainer::new(net, device, &config.optimizer).map_err(TrainError::Net)?;
    if let Some(dir) = &from_dir
        && dir.join(model::optimizer::OPTIMIZER_META_FILE).exists()
    {
        trainer.load_optimizer(dir).map_err(checkpoint_error(dir))?;
    }
    trainer.value_weight = config.value_weight;

    let steps = config.steps_per_generation;
    let mut rng = StdRng::seed_from_u64(batch_seed(seed, generation));
    let started = Instant::now();
    // The weights come from the network before this generation's first step.
    let weights = config
        .sampling
        .draw_weights(window, || trainer.predictor(device).map_err(TrainError::Net))?;
    window.set_draw_weights(weights)?;
    let mut sums = LossSums::default();
    let (mut accuracy_sum, mut probes) = (0.0f64, 0u32);
    let rate_at = |step, samples| {
        config.lr_schedule.rate(config.learning_rate, generation, step, steps, samples)
    };
    let mut learning_rate = rate_at(0, counters.total_samples);
    for step in 0..steps {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(TrainError::Interrupted { generation, step });
        }
        let t0 = Instant::now();
        let batch = window.sample_batch(&mut rng, config.batch_size, config.augment)?;
        learning_rate = rate_at(step, counters.total_samples);
        let step_err = |source| TrainError::Step { generation, step: step + 1, source };
        let probe = if config.probe_every > 0 && step % config.probe_every == 0 {
            Some(probe_batch(&trainer, &batch, device).map_err(step_err)?)
        } else {
            None
        };
        let loss = trainer.step(&batch.as_train_batch(), learning_rate).map_err(step_err)?;
        if !loss.total.is_finite() {
            return Err(TrainError::Diverged { generation, step: step + 1, loss: loss.total });
        }
        counters.total_steps += 1;
        counters.total_samples += batch.size as u64;
        sums.add(&loss);
        if let Some((_, accuracy)) = probe {
            accuracy_sum += f64::from(accuracy);
            probes += 1;
        }
        let (target_entropy, full) = target_entropy(&batch);
        on_step(&StepMetrics {
            generation,
            step: step + 1,
            total_step: counters.total_steps,
            losses: loss,
            target_entropy,
            net_entropy: probe.map(|p| p.0),
            value_accuracy: probe.map(|p| p.1),
            full_search_fraction: full,
            learning_rate,
            samples_per_sec: batch.size as f64 / t0.elapsed().as_secs_f64(),
        });
    }
    let average =
        published_average::<G>(&trainer, config, from_dir.as_deref(), device, &mut counters)?;
    counters.generation = Some(generation);
    let seconds = started.elapsed().as_secs_f64();
    let means = sums.means(steps);
    let summary = GenerationSummary {
        generation,
        steps,
        batch_size: config.batch_size,
        loss_total: means.total,
        loss_policy: means.policy,
        loss_value: means.value,
        loss_moves_left: means.moves_left,
        value_accuracy: (probes > 0).then(|| (accuracy_sum / f64::from(probes)) as f32),
        learning_rate,
        samples_per_sec: f64::from(steps) * config.batch_size as f64 / seconds.max(1e-9),
        seconds,
        window_seconds,
        run_seconds: run_seconds.map(|t| t + window_seconds + seconds),
        window_positions: window.len(),
        window_generations: window.generations().to_vec(),
        counters,
        checkpoint: out_dir.to_path_buf(),
    };
    save_checkpoint::<G>(&trainer, average.as_ref(), &summary, out_dir)?;
    Ok(summary)
}

impl GenerationSummary {
    /// The generation's mean losses.
    pub fn losses(&self) -> LossStats {
        LossStats {
            total: self.loss_total,
            policy: self.loss_policy,
            value: self.loss_value,
            moves_left: self.loss_moves_left,
        }
    }
}

/// Sums of the losses over a generation's steps, in f64.
#[derive(Default)]
struct LossSums {
    sums: [f64; LossStats::PARTS],
}

impl LossSums {
    fn add(&mut self, loss: &LossStats) {
        for (sum, part) in self.sums.iter_mut().zip(loss.parts()) {
            *sum += f64::from(part);
        }
    }

    /// The means over `steps` steps (zeros for none).
    fn means(&self, steps: u32) -> LossStats {
        LossStats::from_parts(
            self.sums.map(|s| if steps == 0 { 0.0 } else { (s / f64::from(steps)) as f32 }),
        )
    }
}

/// Mixed into the batch seed for a fresh moves-left head's weights (see [`train_generation`]).
const MOVES_LEFT_HEAD_SEED: u64 = 0x6d6f_7665_736c_6674;

/// The seed of generation `generation`'s batches in a run seeded `seed`.
pub fn batch_seed(seed: u64, generation: u32) -> u64 {
    // splitmix64 of the pair, so that neighbouring seeds and generations are unrelated streams.
    games::seed::mix(seed, u64::from(generation) + 1)
}

/// A model error about the checkpoint in `dir`, as a [`TrainError::Checkpoint`] naming it.
fn checkpoint_error(dir: &Path) -> impl FnOnce(ModelError) -> TrainError {
    let dir = dir.to_path_buf();
    move |source| TrainError::Checkpoint { dir, source }
}

fn check_shape<G: TrainGame>(net: &Net, dir: &Path) -> Result<(), TrainError> {
    let want = G::layout(net.config().shape.encoding);
    let got = &net.config().shape;
    if got == want {
        return Ok(());
    }
    Err(TrainError::WrongShape {
        dir: dir.to_path_buf(),
        found: got.planes,
        found_actions: got.num_actions(),
        expected: want.planes,
        expected_actions: want.num_actions(),
    })
}

/// Mean target entropy over the full-search rows, and their fraction of the batch.
fn target_entropy(batch: &Batch) -> (f32, f32) {
    let a = batch.policy_target.len() / batch.size;
    let rows: Vec<f32> = batch
        .policy_target
        .chunks(a)
        .zip(&batch.policy_weight)
        .filter(|(_, w)| **w > 0.0)
        .map(|(row, _)| entropy(row))
        .collect();
    let mean = if rows.is_empty() { 0.0 } else { rows.iter().sum::<f32>() / rows.len() as f32 };
    (mean, rows.len() as f32 / batch.size as f32)
}

/// The network's mean policy entropy over legal actions and its value accuracy on `batch`, in
/// inference mode.
fn probe_batch(
    trainer: &Trainer,
    batch: &Batch,
    device: DeviceKind,
) -> Result<(f32, f32), ModelError> {
    let prediction = trainer.predictor(device)?.predict(&batch.planes, batch.size)?;
    let v = batch.value_target.len() / batch.size;
    let (mut entropy_sum, mut hits) = (0.0f32, 0usize);
    for i in 0..batch.size {
        let logits = prediction.policy_row(i).expect("row in batch");
        entropy_sum += entropy(&masked_softmax(logits, &batch.legal_actions(i)));
        let values = prediction.value_row(i).expect("row in batch");
        hits += usize::from(argmax(values) == argmax(&batch.value_target[i * v..(i + 1) * v]));
    }
    let n = batch.size as f32;
    Ok((entropy_sum / n, hits as f32 / n))
}

/// The weight average this generation publishes ([`WeightAverage`]), `None` to publish the
/// trained weights; `counters.averaged` becomes the trained networks in it. The previous
/// average is the one `from_dir` published, if it was one and has the trained network's shape
/// (a deepened tower or a new head restarts the average).
fn published_average<G: TrainGame>(
    trainer: &Trainer,
    config: &TrainConfig,
    from_dir: Option<&Path>,
    device: DeviceKind,
    counters: &mut Counters,
) -> Result<Option<Net>, TrainError> {
    if config.weight_average == WeightAverage::Off {
        counters.averaged = 0;
        return Ok(None);
    }
    let trained = trainer.net();
    let previous = match from_dir {
        Some(dir) if counters.averaged > 0 => {
            let plain = device.device().map_err(TrainError::Net)?;
            let published =
                checkpoint::load_on(dir, G::NAME, &plain).map_err(checkpoint_error(dir))?;
            (published.meta.raw_weights.is_some() && published.net.config() == trained.config())
                .then_some(published.net)
        }
        _ => None,
    };
    let Some(previous) = previous else {
        // The average starts with the trained weights alone.
        counters.averaged = 1;
        return Ok(Some(trained.clone()));
    };
    let share = config.weight_average.previous_share(counters.averaged).unwrap_or(0.0);
    counters.averaged += 1;
    weight_average::blend(previous, trained, share).map(Some).map_err(TrainError::Net)
}

/// Writes the checkpoint (with the summary and its counters, and the published `average` when
/// the run averages) into a temporary sibling folder, then renames it to `out_dir`.
fn save_checkpoint<G: TrainGame>(
    trainer: &Trainer,
    average: Option<&Net>,
    summary: &GenerationSummary,
    out_dir: &Path,
) -> Result<(), TrainError> {
    let tmp = storage::temp_dir(out_dir)?;
    let ckpt_err = |source| TrainError::Checkpoint { dir: tmp.clone(), source };
    match average {
        None => checkpoint::save(&tmp, trainer.net(), G::NAME),
        Some(average) => checkpoint::save_averaged(&tmp, average, trainer.net(), G::NAME),
    }
    .map_err(ckpt_err)?;
    trainer.save_optimizer(&tmp).map_err(ckpt_err)?;
    summary.counters.write(&tmp)?;
    summary.write(&tmp)?;
    if out_dir.exists() {
        return Err(TrainError::CheckpointExists { path: out_dir.to_path_buf() });
    }
    std::fs::rename(&tmp, out_dir).map_err(io_error(out_dir))
}

#[cfg(test)]
mod tests;
