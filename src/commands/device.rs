//! `device`: which adapter `device = "gpu"` runs on, and checks that a device computes what the
//! CPU computes: the same network's forward pass against the native CPU engine, one optimizer
//! step against the CPU backend's, a fixed batch overfitted, and a checkpoint written from the
//! device read back on the CPU and on the device (scripts/test_gpu.sh runs them).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use games::testing::random_states;
use games::{Encode, Encoding, Game, State, Variant, VariantKind};
use model::{
    DeviceKind, LossStats, Net, NetEngine, OptimizerConfig, Precision, Predictor, TrainBatch,
    Trainer, checkpoint,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use search::net::random_net;

#[derive(Subcommand, Debug)]
pub enum DeviceCommand {
    /// The adapter `device = "gpu"` runs on: name, graphics API, device type, driver, and
    /// whether it is a software device.
    Info,
    /// A device against the CPU: forward pass (random networks of each preset for both variants,
    /// and any checkpoints given), one training step, overfitting a fixed batch, and a
    /// checkpoint round trip. One line per check; exits 1 if any fails.
    Check(CheckArgs),
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The device checked against the CPU (`gpu`, or `cpu` for burn's CPU backend itself).
    #[arg(long, default_value = "gpu")]
    device: DeviceKind,
    /// Random networks of these presets, for both variants: the forward check for each, the
    /// training checks (a step, overfitting, a checkpoint round trip) for the first.
    #[arg(long, value_delimiter = ',', default_value = "b4c32,b6c64")]
    presets: Vec<String>,
    /// Checkpoints (e.g. of a run trained on the device) whose forward pass is checked as well.
    #[arg(long)]
    checkpoint: Vec<PathBuf>,
    /// Positions per forward check, from random games of the network's variant.
    #[arg(long, default_value_t = 64)]
    positions: usize,
    /// Largest absolute difference of policy logits and value probabilities accepted.
    #[arg(long, default_value_t = 1e-3)]
    tolerance: f32,
    /// The same for the forward pass at f16 (`net.precision = "f16"`): its inputs, weights and
    /// activations rounded to 11 significant bits.
    #[arg(long, default_value_t = 5e-2)]
    f16_tolerance: f32,
    /// Positions in the fixed training batch.
    #[arg(long, default_value_t = 32)]
    train_batch: usize,
    /// Optimizer steps on the fixed batch for the overfitting check.
    #[arg(long, default_value_t = 50)]
    overfit_steps: usize,
    /// Seed of the networks, positions and targets.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(what: DeviceCommand) -> Result<()> {
    match what {
        DeviceCommand::Info => {
            outln!("cpu: burn flex backend, {} threads", rayon::current_num_threads())?;
            outln!("gpu: {}", model::gpu_adapter()?)?;
            Ok(())
        }
        DeviceCommand::Check(args) => check(&args),
    }
}

/// Learning rate of the training checks: the GPU configs' rate.
const LR: f64 = 0.002;
/// The loss after overfitting must be at most this share of the loss before (the CPU gets to
/// well under 1% in 50 steps).
const OVERFIT_SHARE: f32 = 0.1;

fn check(args: &CheckArgs) -> Result<()> {
    if args.positions == 0 || args.train_batch == 0 || args.overfit_steps == 0 {
        return Err(crate::input::BadInput(
            "--positions, --train-batch and --overfit-steps must be at least 1".into(),
        )
        .into());
    }
    for (flag, tolerance) in
        [("--tolerance", args.tolerance), ("--f16-tolerance", args.f16_tolerance)]
    {
        if !(tolerance.is_finite() && tolerance > 0.0) {
            return Err(crate::input::BadInput(format!("{flag} {tolerance}")).into());
        }
    }
    let name = match args.device {
        DeviceKind::Gpu => model::gpu_adapter()?.to_string(),
        DeviceKind::Cpu => "burn flex backend".to_string(),
    };
    outln!("device {}: {name}", args.device)?;
    let mut report = Report::default();
    for kind in VariantKind::ALL {
        for (i, preset) in args.presets.iter().enumerate() {
            let train = i == 0;
            games::with_variant!(kind, V => check_preset::<V>(args, preset, train, &mut report))?;
        }
    }
    for dir in &args.checkpoint {
        let kind = crate::input::checkpoint_variant(dir)?;
        games::with_variant!(kind, V => check_checkpoint::<V>(args, dir, &mut report))?;
    }
    outln!("{} checks, {} failed", report.checks, report.failed)?;
    if report.failed > 0 {
        bail!("{} of {} device checks failed", report.failed, report.checks);
    }
    Ok(())
}

/// Checks counted, and how many failed.
#[derive(Default)]
struct Report {
    checks: usize,
    failed: usize,
}

impl Report {
    /// Prints one check's line, `ok` or `FAILED` at its end.
    fn line(&mut self, passed: bool, text: String) -> Result<()> {
        self.checks += 1;
        self.failed += usize::from(!passed);
        outln!("{text}: {}", if passed { "ok" } else { "FAILED" })?;
        Ok(())
    }
}

/// The forward check of a random network of `preset`, and with `train` the training checks.
fn check_preset<V: Variant>(
    args: &CheckArgs,
    preset: &str,
    train: bool,
    report: &mut Report,
) -> Result<()> {
    let what = format!("{} {preset}", V::NAME);
    let net = random_net::<State<V>>(preset, Encoding::LATEST, DeviceKind::Cpu, args.seed)?;
    let positions = Positions::<V>::new(args.positions, Encoding::LATEST, args.seed);
    forward_line(args, &format!("forward {what} random weights"), &net, &positions, report)?;
    if !train {
        return Ok(());
    }

    let batch = Positions::<V>::new(args.train_batch, Encoding::LATEST, args.seed ^ 0x5eed);
    let targets = batch.targets(args.seed);
    let train_batch = targets.batch(&batch);
    let optimizer = OptimizerConfig::default();
    let mut cpu = Trainer::new(net.clone(), DeviceKind::Cpu, &optimizer)?;
    let mut dev = Trainer::new(net, args.device, &optimizer)?;
    let cpu_losses = [cpu.step(&train_batch, LR)?, cpu.step(&train_batch, LR)?];
    let dev_losses = [dev.step(&train_batch, LR)?, dev.step(&train_batch, LR)?];
    let diff = |i: usize| loss_diff(&cpu_losses[i], &dev_losses[i]);
    let (before, after) = (diff(0), diff(1));
    // A loss of ~4 nats summed over the batch in another order: relative agreement.
    let limit = args.tolerance * cpu_losses[0].total.abs().max(1.0);
    report.line(
        before <= limit && after <= limit,
        format!(
            "train step {what}: loss before {:.5} (cpu {:.5}), after one AdamW step {:.5} \
             (cpu {:.5}); max |Δ| {before:.1e} and {after:.1e} (limit {limit:.1e})",
            dev_losses[0].total, cpu_losses[0].total, dev_losses[1].total, cpu_losses[1].total
        ),
    )?;
    // The CPU trainer's net has moved and its batch-norm statistics are no longer the
    // identity's: the forward check again on it.
    let stepped = cpu.into_net();
    forward_line(args, &format!("forward {what} after two steps"), &stepped, &positions, report)?;

    let start = Instant::now();
    let mut last = dev_losses[1];
    for _ in 2..args.overfit_steps {
        last = dev.step(&train_batch, LR)?;
    }
    let seconds = start.elapsed().as_secs_f64();
    report.line(
        last.total <= OVERFIT_SHARE * dev_losses[0].total,
        format!(
            "overfit {what} on {}: {} positions, loss {:.4} -> {:.4} in {} steps \
             (policy {:.4} -> {:.4}, value {:.4} -> {:.4}; limit {:.0}% of the start; {:.0} \
             samples/s)",
            args.device,
            args.train_batch,
            dev_losses[0].total,
            last.total,
            args.overfit_steps,
            dev_losses[0].policy,
            last.policy,
            dev_losses[0].value,
            last.value,
            OVERFIT_SHARE * 100.0,
            (args.overfit_steps.saturating_sub(2) * args.train_batch) as f64 / seconds,
        ),
    )?;
    round_trip::<V>(args, &what, dev.into_net(), &positions, report)
}

/// A checkpoint written from the device's net, read on the CPU (native engine) and back onto
/// the device: all three forward passes agree.
fn round_trip<V: Variant>(
    args: &CheckArgs,
    what: &str,
    net: Net,
    positions: &Positions<V>,
    report: &mut Report,
) -> Result<()> {
    let (on_cpu, on_device) = {
        // Removed at the end of this block, errors included.
        let scratch = storage::ScratchDir::new("camelot-zero-device-check")?;
        let dir = scratch.join("checkpoint");
        checkpoint::save(&dir, &net, V::NAME)?;
        let on_cpu = checkpoint::load(&dir, V::NAME)?.net;
        let on_device = checkpoint::load_on(&dir, V::NAME, &args.device.device()?)?.net;
        (on_cpu, on_device)
    };
    let original = Predictor::new(&net, args.device)?.predict(&positions.planes, positions.len)?;
    let cpu = Predictor::with_engine(&on_cpu, DeviceKind::Cpu, NetEngine::Native)?
        .predict(&positions.planes, positions.len)?;
    let back =
        Predictor::new(&on_device, args.device)?.predict(&positions.planes, positions.len)?;
    let (p1, v1) = (
        max_abs_diff(&original.policy_logits, &cpu.policy_logits),
        max_abs_diff(&original.values, &cpu.values),
    );
    let (p2, v2) = (
        max_abs_diff(&original.policy_logits, &back.policy_logits),
        max_abs_diff(&original.values, &back.values),
    );
    let worst = p1.max(v1).max(p2).max(v2);
    report.line(
        worst <= args.tolerance,
        format!(
            "checkpoint {what} written from {dev}, read on cpu: policy max |Δ| {p1:.1e}, values \
             {v1:.1e}; read back on {dev}: {p2:.1e}, {v2:.1e}",
            dev = args.device
        ),
    )
}

fn check_checkpoint<V: Variant>(args: &CheckArgs, dir: &Path, report: &mut Report) -> Result<()> {
    let net =
        checkpoint::load(dir, V::NAME).with_context(|| format!("loading {}", dir.display()))?.net;
    let positions = Positions::<V>::new(args.positions, net.config().shape.encoding, args.seed);
    forward_line(args, &format!("forward {} {}", V::NAME, dir.display()), &net, &positions, report)
}

/// The forward pass of `net` on the device (burn) against the native CPU engine, at f32 and
/// (on the GPU) at f16, each against its own tolerance.
fn forward_line<V: Variant>(
    args: &CheckArgs,
    what: &str,
    net: &Net,
    positions: &Positions<V>,
    report: &mut Report,
) -> Result<()> {
    let cpu = Predictor::with_engine(net, DeviceKind::Cpu, NetEngine::Native)?;
    let want = cpu.predict(&positions.planes, positions.len)?;
    let spread = want.policy_logits.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    // f16 is the GPU's (the CPU engines run f32 only).
    let precisions: &[(Precision, f32)] = match args.device {
        DeviceKind::Gpu => {
            &[(Precision::F32, args.tolerance), (Precision::F16, args.f16_tolerance)]
        }
        DeviceKind::Cpu => &[(Precision::F32, args.tolerance)],
    };
    for &(precision, tolerance) in precisions {
        let dev =
            Predictor::with_engine(net, args.device, NetEngine::Burn)?.with_precision(precision)?;
        let got = dev.predict(&positions.planes, positions.len)?;
        let policy = max_abs_diff(&want.policy_logits, &got.policy_logits);
        let values = max_abs_diff(&want.values, &got.values);
        report.line(
            policy <= tolerance && values <= tolerance,
            format!(
                "{what}: {} positions, {} burn {precision} vs cpu native: policy logits max |Δ| \
                 {policy:.1e} (largest |logit| {spread:.2}), values max |Δ| {values:.1e} \
                 (limit {tolerance:.0e})",
                positions.len, args.device
            ),
        )?;
    }
    Ok(())
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    debug_assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

fn loss_diff(a: &LossStats, b: &LossStats) -> f32 {
    [a.total - b.total, a.policy - b.policy, a.value - b.value]
        .into_iter()
        .fold(0.0, |m, d| m.max(d.abs()))
}

/// `len` positions of random games (not over), encoded, with their legal-action masks.
struct Positions<V: Variant> {
    states: Vec<State<V>>,
    len: usize,
    /// `[len, planes, H, W]` row-major.
    planes: Vec<f32>,
    /// `[len, num_actions]`.
    legal: Vec<bool>,
}

impl<V: Variant> Positions<V> {
    /// `len` positions encoded in `encoding`.
    fn new(len: usize, encoding: Encoding, seed: u64) -> Self {
        let layout = State::<V>::layout(encoding);
        let (input, actions) = (layout.input_len(), layout.num_actions());
        // Random games cut anywhere in their first 150 actions: openings, middle games and the
        // odd finished game (skipped); more games than needed, spread over evenly.
        let pool: Vec<State<V>> = random_states::<V>(len.div_ceil(8) + 1, 150, seed)
            .into_iter()
            .filter(|s| s.outcome().is_none())
            .collect();
        let step = (pool.len() / len).max(1);
        let states: Vec<State<V>> = pool.into_iter().step_by(step).cycle().take(len).collect();
        let mut planes = vec![0.0; len * input];
        let mut legal = vec![false; len * actions];
        let mut moves = Vec::new();
        for (i, s) in states.iter().enumerate() {
            s.encode(encoding, &mut planes[i * input..(i + 1) * input]);
            s.legal_actions(&mut moves);
            for &m in &moves {
                legal[i * actions + s.action_index(m)] = true;
            }
        }
        Positions { len: states.len(), states, planes, legal }
    }

    /// One-hot targets: a random legal action per position, and a random outcome class.
    fn targets(&self, seed: u64) -> Targets {
        // The policy and value parts are the same in every encoding.
        let layout = State::<V>::layout(Encoding::Basic);
        let (actions, classes) = (layout.num_actions(), layout.value_classes);
        let mut rng = StdRng::seed_from_u64(seed);
        let mut policy = vec![0.0; self.len * actions];
        let mut value = vec![0.0; self.len * classes];
        let mut moves = Vec::new();
        for (i, s) in self.states.iter().enumerate() {
            s.legal_actions(&mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            policy[i * actions + s.action_index(m)] = 1.0;
            value[i * classes + rng.random_range(0..classes)] = 1.0;
        }
        Targets { policy, value }
    }
}

/// Training targets for a [`Positions`].
struct Targets {
    policy: Vec<f32>,
    value: Vec<f32>,
}

impl Targets {
    fn batch<'a, V: Variant>(&'a self, positions: &'a Positions<V>) -> TrainBatch<'a> {
        TrainBatch {
            batch: positions.len,
            planes: &positions.planes,
            policy_target: &self.policy,
            legal: &positions.legal,
            value_target: &self.value,
            moves_left: None,
        }
    }
}
