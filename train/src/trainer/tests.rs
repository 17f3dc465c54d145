use std::sync::atomic::AtomicBool;

use games::{Camelot, Encode, Game, RuleOptions, TriCamelot};
use model::{OptimizerConfig, Predictor};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use records::PositionRow;

use super::*;
use crate::dataset::Batch;
use crate::generations::generation_dir_name;
use crate::sampling::Sampling;
use crate::targets::Record;
use crate::testutil::{random_records, random_rows, scratch_dir, write_generation};
use crate::value_target::ValueTarget;

/// `n` real positions with one-hot policy targets on a random legal action and one-hot
/// value targets: a batch a network can learn by heart.
fn fixed_batch<G: TrainGame>(n: usize, seed: u64) -> Batch {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut records: Vec<Record> = Vec::new();
    let mut game = 0;
    while records.len() < n {
        records.extend(random_records::<G>(seed * 100 + game, n - records.len()));
        game += 1;
    }
    for r in &mut records {
        let pick = rng.random_range(0..r.policy_actions.len());
        r.policy_actions = vec![r.policy_actions[pick]].into();
        r.policy_target = vec![1.0].into();
        r.full_search = true;
    }
    let refs: Vec<&Record> = records.iter().collect();
    Batch::encode::<G>(&refs, &vec![0; n], Encoding::Basic, RuleOptions::default(), 0.0).unwrap()
}

fn trainer<G: TrainGame>() -> Trainer {
    let net = fresh_net::<G>("b4c32", Encoding::Basic, DeviceKind::Cpu).unwrap();
    Trainer::new(net, DeviceKind::Cpu, &OptimizerConfig::default()).unwrap()
}

#[test]
fn one_step_lowers_the_loss_and_a_few_hundred_overfit() {
    let batch = fixed_batch::<Camelot>(16, 1);
    let mut t = trainer::<Camelot>();
    let first = t.step(&batch.as_train_batch(), 1e-3).unwrap();
    let second = t.step(&batch.as_train_batch(), 1e-3).unwrap();
    assert!(second.total < first.total, "{first:?} → {second:?}");
    let mut last = second;
    for _ in 0..200 {
        last = t.step(&batch.as_train_batch(), 2e-3).unwrap();
    }
    assert!(last.total < 0.15 * first.total, "{first:?} → {last:?}");
    assert!(last.policy < 0.15 * first.policy, "{first:?} → {last:?}");
}

#[test]
fn cheap_search_rows_contribute_no_policy_loss() {
    let run = scratch_dir("no-policy");
    let mut rows = random_rows::<TriCamelot>(9, 6);
    for (i, r) in rows.iter_mut().enumerate() {
        r.full_search = i < 2;
    }
    write_generation::<TriCamelot>(&run, 0, rows);
    let w = ReplayWindow::<TriCamelot>::load(&run, 1, RuleOptions::default(), ValueTarget::Outcome)
        .unwrap();
    let t = trainer::<TriCamelot>();
    let cheap_only = w.encode_batch(vec![2, 3, 4, 5], vec![0; 4]).unwrap();
    let loss = t.evaluate(&cheap_only.as_train_batch()).unwrap();
    assert_eq!(loss.policy, 0.0);
    assert!(loss.value > 0.0);
    // Mixing in cheap rows leaves the policy loss at the full rows' mean.
    let full_only = t.evaluate(&w.encode_batch(vec![0, 1], vec![0; 2]).unwrap().as_train_batch());
    let mixed = t.evaluate(&w.encode_batch(vec![0, 2, 1, 3], vec![0; 4]).unwrap().as_train_batch());
    let (full_only, mixed) = (full_only.unwrap(), mixed.unwrap());
    assert!(full_only.policy > 1.0);
    assert!((full_only.policy - mixed.policy).abs() < 1e-4, "{full_only:?} vs {mixed:?}");
}

fn small_config() -> TrainConfig {
    TrainConfig { batch_size: 8, steps_per_generation: 3, probe_every: 2, ..TrainConfig::default() }
}

fn outputs(dir: &Path) -> Vec<f32> {
    let net = checkpoint::load(dir, "camelot").unwrap().net;
    let encoding = net.config().shape.encoding;
    let mut planes = vec![0.0; Camelot::layout(encoding).input_len()];
    Camelot::initial().encode(encoding, &mut planes);
    let p = Predictor::new(&net, DeviceKind::Cpu).unwrap().predict(&planes, 1).unwrap();
    [p.policy_logits, p.values].concat()
}

/// A window of generation 0 of `run` holding `n` rows of one random Camelot game (`seed`).
fn one_game_window(run: &Path, seed: u64, n: usize) -> ReplayWindow<Camelot> {
    write_generation::<Camelot>(run, 0, random_rows::<Camelot>(seed, n));
    ReplayWindow::<Camelot>::load(run, 4, RuleOptions::default(), ValueTarget::Outcome).unwrap()
}

/// A job training `generation` (run seed 5, on the CPU, no stop flag) into `out_dir`.
fn job_at<'a>(
    start: StartFrom,
    out_dir: PathBuf,
    generation: u32,
    blocks: Option<usize>,
) -> GenerationJob<'a> {
    GenerationJob {
        start,
        out_dir,
        generation,
        seed: 5,
        device: DeviceKind::Cpu,
        stop: None,
        window_seconds: 0.0,
        run_seconds: None,
        blocks,
    }
}

#[test]
fn a_growing_network_is_deepened_keeps_its_optimizer_state_and_cannot_shrink() {
    let run = scratch_dir("growing");
    let mut window = one_game_window(&run, 23, 12);
    let config = small_config();
    let models = run.join("models");
    let job = |start, out: &'static str, blocks| job_at(start, models.join(out), 1, blocks);
    let mut shallow = NetConfig::preset("b4c32", Camelot::layout(Encoding::Basic).clone()).unwrap();
    shallow.blocks = 2;
    let net = Net::seeded(&shallow, &DeviceKind::Cpu.device().unwrap(), 3).unwrap();
    let first = models.join("gen-0001");
    train_generation(job(StartFrom::Net(net), "gen-0001", Some(2)), &mut window, &config, |_| {})
        .unwrap();
    let grown = train_generation(
        job(StartFrom::Checkpoint(first.clone()), "gen-0002", Some(3)),
        &mut window,
        &config,
        |_| {},
    )
    .unwrap();
    assert_eq!(grown.counters.total_steps, 6);
    let loaded = checkpoint::load(&models.join("gen-0002"), "camelot").unwrap();
    assert_eq!(loaded.meta.config.blocks, 3);
    // The new block trained: its second scale left zero.
    let tensors = model::named_weights::named_tensors(&loaded.net).unwrap();
    let scale = tensors.iter().find(|t| t.name == "trunk.block2.bn2.weight").unwrap();
    assert!(scale.values.iter().any(|&g| g.abs() > 1e-6), "{:?}", scale.values);

    // The old parameters' optimizer state was restored: without it, other weights.
    let no_optim = models.join("no-optimizer");
    copy_dir(&first, &no_optim);
    std::fs::remove_file(no_optim.join(model::optimizer::OPTIMIZER_FILE)).unwrap();
    std::fs::remove_file(no_optim.join(model::optimizer::OPTIMIZER_META_FILE)).unwrap();
    train_generation(
        job(StartFrom::Checkpoint(no_optim), "gen-0002b", Some(3)),
        &mut window,
        &config,
        |_| {},
    )
    .unwrap();
    let (a, b) = (outputs(&models.join("gen-0002")), outputs(&models.join("gen-0002b")));
    assert!(a.iter().zip(&b).any(|(x, y)| (x - y).abs() > 1e-4), "optimizer state unused");

    let e = train_generation(
        job(StartFrom::Checkpoint(first), "gen-0002c", Some(1)),
        &mut window,
        &config,
        |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("gen-0001") && e.to_string().contains("cannot shrink"), "{e}");
    assert!(!models.join("gen-0002c").exists());
}

#[test]
fn the_moves_left_target_gives_the_network_a_head_that_it_keeps() {
    let run = scratch_dir("aux-heads");
    let mut window = one_game_window(&run, 29, 40);
    let on = TrainConfig {
        moves_left_target: MovesLeftTarget::Moves { weight: 0.75 },
        ..small_config()
    };
    let models = run.join("models");
    let job = |start, out: &str, generation| job_at(start, models.join(out), generation, None);
    let net = fresh_net::<Camelot>("b4c32", Encoding::Basic, DeviceKind::Cpu).unwrap();
    let first = train_generation(job(StartFrom::Net(net), "gen-0001", 1), &mut window, &on, |m| {
        let l = &m.losses;
        assert!(l.moves_left > 0.0, "{m:?}");
    })
    .unwrap();
    let expected = first.loss_policy + first.loss_value + 0.75 * first.loss_moves_left;
    assert!((first.loss_total - expected).abs() < 1e-3, "{first:?}");
    assert!(losses_text(&first.losses()).contains(", moves left "), "{first:?}");
    let heads = |dir: &str| {
        let config = checkpoint::load(&models.join(dir), "camelot").unwrap().meta.config;
        config.moves_left_classes
    };
    let both = model::MOVES_LEFT_CLASSES;
    assert_eq!(heads("gen-0001"), both);
    // Resumed from the checkpoint (with its optimizer state), and with the targets off (the
    // window follows the config): the head stays, untrained and out of the loss.
    let from = || StartFrom::Checkpoint(models.join("gen-0001"));
    train_generation(job(from(), "gen-0002", 2), &mut window, &on, |_| {}).unwrap();
    assert_eq!(heads("gen-0002"), both);
    let off = small_config();
    let plain = train_generation(job(from(), "gen-0002b", 2), &mut window, &off, |_| {}).unwrap();
    assert_eq!((plain.loss_moves_left, heads("gen-0002b")), (0.0, both));
    assert!(!losses_text(&plain.losses()).contains("moves left"));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn checkpoints_round_trip_with_optimizer_state_and_counters() {
    let run = scratch_dir("checkpoints");
    write_generation::<Camelot>(&run, 0, random_rows::<Camelot>(21, 12));
    let mut window =
        ReplayWindow::<Camelot>::load(&run, 4, RuleOptions::default(), ValueTarget::Outcome)
            .unwrap();
    let config = small_config();
    let models = run.join("models");
    let job = |start, out: &'static str| GenerationJob {
        window_seconds: 0.25,
        run_seconds: Some(100.0),
        ..job_at(start, models.join(out), 0, None)
    };

    let mut seen = Vec::new();
    // The tactical encoding: the window encodes its batches as the network reads them.
    let net = fresh_net::<Camelot>("b4c32", Encoding::Tactical, DeviceKind::Cpu).unwrap();
    let first = train_generation(job(StartFrom::Net(net), "gen-0001"), &mut window, &config, |m| {
        seen.push(m.clone())
    })
    .unwrap();
    assert_eq!(
        seen.iter().map(|m| (m.step, m.total_step)).collect::<Vec<_>>(),
        [(1, 1), (2, 2), (3, 3)]
    );
    assert!(seen[0].value_accuracy.is_some() && seen[1].value_accuracy.is_none());
    assert!(seen[2].net_entropy.is_some_and(|e| e > 0.0));
    assert!(seen.iter().all(|m| m.losses.total.is_finite() && m.samples_per_sec > 0.0));
    assert_eq!(
        first.counters,
        Counters { generation: Some(0), total_steps: 3, total_samples: 24, averaged: 0 }
    );
    // The run's clock when the model was saved: the time before, the window's, the steps'.
    assert_eq!(first.run_seconds, Some(100.0 + 0.25 + first.seconds));
    assert_eq!(GenerationSummary::read(&models.join("gen-0001")).unwrap(), Some(first.clone()));

    let gen1 = models.join("gen-0001");
    let loaded = checkpoint::load(&gen1, "camelot").unwrap();
    assert_eq!(loaded.meta.variant, "camelot");
    assert_eq!(loaded.meta.encoding_version, 2);
    assert_eq!(&loaded.meta.config.shape, Camelot::layout(Encoding::Tactical));
    assert!(gen1.join(model::optimizer::OPTIMIZER_FILE).is_file());
    assert_eq!(Counters::load(&gen1).unwrap(), first.counters);
    assert!(!models.join(".gen-0001.tmp").exists());

    // Resuming restores the optimizer state: without it the same batches give other weights.
    let fresh_optim = models.join("no-optimizer");
    copy_dir(&gen1, &fresh_optim);
    std::fs::remove_file(fresh_optim.join(model::optimizer::OPTIMIZER_FILE)).unwrap();
    std::fs::remove_file(fresh_optim.join(model::optimizer::OPTIMIZER_META_FILE)).unwrap();
    let mut resumed = Vec::new();
    let second = train_generation(
        job(StartFrom::Checkpoint(gen1.clone()), "gen-0002"),
        &mut window,
        &config,
        |m| resumed.push(m.clone()),
    )
    .unwrap();
    assert_eq!(resumed.iter().map(|m| m.total_step).collect::<Vec<_>>(), [4, 5, 6]);
    assert_eq!(second.counters.total_samples, 48);
    let mut restarted = Vec::new();
    train_generation(
        job(StartFrom::Checkpoint(fresh_optim), "gen-0002b"),
        &mut window,
        &config,
        |m| restarted.push(m.clone()),
    )
    .unwrap();
    // Same start and batch: same first loss; different moments: different weights after.
    assert!((resumed[0].losses.total - restarted[0].losses.total).abs() < 1e-4);
    assert_eq!(restarted[0].total_step, 4);
    let (a, b) = (outputs(&models.join("gen-0002")), outputs(&models.join("gen-0002b")));
    let diff = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
    assert!(diff > 1e-4, "optimizer state made no difference ({diff})");

    // A corrupt optimizer file is an error naming it; an existing folder is never overwritten.
    let broken = models.join("broken");
    copy_dir(&gen1, &broken);
    std::fs::write(broken.join(model::optimizer::OPTIMIZER_FILE), b"garbage").unwrap();
    let e = train_generation(
        job(StartFrom::Checkpoint(broken), "gen-0003"),
        &mut window,
        &config,
        |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains(model::optimizer::OPTIMIZER_FILE), "{e}");
    let e = train_generation(
        job(StartFrom::Checkpoint(gen1.clone()), "gen-0002"),
        &mut window,
        &config,
        |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, TrainError::CheckpointExists { .. }), "{e}");

    // A checkpoint of the other game is refused.
    let tri_job = job_at(StartFrom::Checkpoint(gen1), models.join("gen-0009"), 0, None);
    let e = train_generation(tri_job, &mut write_tri_window(), &config, |_| {}).unwrap_err();
    assert!(
        matches!(e, TrainError::Checkpoint { source: ModelError::WrongVariant { .. }, .. }),
        "{e}"
    );
}

#[test]
fn the_sample_decay_carries_on_from_the_checkpoints_counters() {
    let run = scratch_dir("sample-decay");
    let mut window = one_game_window(&run, 23, 12);
    let lr_schedule =
        crate::LrSchedule::SampleDecay { every_samples: 24, factor: 0.5, floor: 0.35 };
    let config = TrainConfig { learning_rate: 0.01, lr_schedule, ..small_config() };
    let models = run.join("models");
    let mut rates = |start, out: &str| {
        let mut seen = Vec::new();
        let job = job_at(start, models.join(out), 0, None);
        train_generation(job, &mut window, &config, |m| seen.push(m.learning_rate)).unwrap();
        seen
    };
    let expect = |exponents: [f64; 3]| exponents.map(|e| 0.01 * 0.5f64.powf(e).max(0.35));
    let close = |a: &[f64], b: [f64; 3]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    };
    // Three steps of 8 samples: the rate after 0, 8 and 16 samples of the run.
    let net = fresh_net::<Camelot>("b4c32", Encoding::Basic, DeviceKind::Cpu).unwrap();
    let first = rates(StartFrom::Net(net), "gen-0001");
    assert!(close(&first, expect([0.0, 1.0 / 3.0, 2.0 / 3.0])), "{first:?}");
    // Continued from the checkpoint (the same generation number on purpose): the counters' 24
    // samples carry the decay on, and the last step's 0.5^(5/3) ≈ 0.31 is held at the floor.
    let second = rates(StartFrom::Checkpoint(models.join("gen-0001")), "gen-0002");
    assert!(close(&second, expect([1.0, 4.0 / 3.0, 5.0 / 3.0])), "{second:?}");
    assert!((second[2] - 0.0035).abs() < 1e-15, "{second:?}");
}

fn write_tri_window() -> ReplayWindow<TriCamelot> {
    let run = scratch_dir("tri-window");
    write_generation::<TriCamelot>(&run, 0, random_rows::<TriCamelot>(4, 6));
    ReplayWindow::load(&run, 1, RuleOptions::default(), ValueTarget::Outcome).unwrap()
}

#[test]
fn an_interrupted_generation_writes_nothing() {
    let mut window = write_tri_window();
    let scratch = scratch_dir("interrupt");
    let out = scratch.join(generation_dir_name(1));
    let stop = AtomicBool::new(true);
    let net = fresh_net::<TriCamelot>("b4c32", Encoding::Basic, DeviceKind::Cpu).unwrap();
    let job =
        GenerationJob { stop: Some(&stop), ..job_at(StartFrom::Net(net), out.clone(), 0, None) };
    let e = train_generation(job, &mut window, &small_config(), |_| {}).unwrap_err();
    assert!(matches!(e, TrainError::Interrupted { step: 0, .. }), "{e}");
    assert!(!out.exists());
}

/// Training throughput (not a check): `TRAIN_BENCH_BATCH=256 cargo test --release -p train --
/// --ignored --nocapture throughput` prints samples/s for b4c32 and b6c64 on both games, with
/// and without the probe on every step.
#[test]
#[ignore]
fn throughput() {
    fn run<G: TrainGame>(preset: &str, batch: usize) {
        let run = scratch_dir(&format!("bench-{}", G::NAME));
        // Eight random games, each under its own id (the window tells games apart by it).
        let rows: Vec<_> = (0..8)
            .flat_map(|g| {
                random_rows::<G>(g, 40)
                    .into_iter()
                    .map(move |row| PositionRow { game_id: g, ..row })
            })
            .collect();
        write_generation::<G>(&run, 0, rows);
        let mut window =
            ReplayWindow::<G>::load(&run, 1, RuleOptions::default(), ValueTarget::Outcome).unwrap();
        for probe_every in [0, 1] {
            let config = TrainConfig {
                batch_size: batch,
                steps_per_generation: 6,
                probe_every,
                ..TrainConfig::default()
            };
            let out = run.join(format!("models-{preset}-{probe_every}"));
            let job = GenerationJob {
                start: StartFrom::Net(
                    fresh_net::<G>(preset, Encoding::Basic, DeviceKind::Cpu).unwrap(),
                ),
                out_dir: out,
                generation: 0,
                seed: 1,
                device: DeviceKind::Cpu,
                stop: None,
                window_seconds: 0.0,
                run_seconds: None,
                blocks: None,
            };
            let mut rates = Vec::new();
            train_generation(job, &mut window, &config, |m| rates.push(m.samples_per_sec)).unwrap();
            let steady = &rates[1..];
            let mean = steady.iter().sum::<f64>() / steady.len() as f64;
            println!(
                "{} {preset} batch {batch} probe_every {probe_every}: {mean:.0} samples/s",
                G::NAME
            );
        }
        let t = Instant::now();
        let mut rng = StdRng::seed_from_u64(0);
        for _ in 0..5 {
            window.sample_batch(&mut rng, batch, true).unwrap();
        }
        println!(
            "{} sampling alone: {:.0} samples/s",
            G::NAME,
            5.0 * batch as f64 / t.elapsed().as_secs_f64()
        );
    }
    let batch = std::env::var("TRAIN_BENCH_BATCH").ok().and_then(|b| b.parse().ok()).unwrap_or(256);
    for preset in ["b4c32", "b6c64"] {
        run::<Camelot>(preset, batch);
        run::<TriCamelot>(preset, batch);
    }
}

#[test]
fn policy_surprise_sampling_draws_the_rows_that_surprise_the_network() {
    // Odd rows' targets on one action (entropy 0; they surprise a fresh, nearly uniform
    // network), even rows' uniform over the legal moves (no surprise).
    let run = scratch_dir("surprise-sampling");
    let mut rows = random_rows::<Camelot>(41, 40);
    for (i, row) in rows.iter_mut().enumerate() {
        row.full_search = true;
        if i % 2 == 1 {
            row.policy_target.fill(0.0);
            row.policy_target[0] = 1.0;
        }
    }
    write_generation::<Camelot>(&run, 0, rows);
    let mut window =
        ReplayWindow::<Camelot>::load(&run, 1, RuleOptions::default(), ValueTarget::Outcome)
            .unwrap();
    let first_step_entropy = |window: &mut ReplayWindow<Camelot>, sampling, out: &str| {
        let config =
            TrainConfig { sampling, batch_size: 64, steps_per_generation: 1, ..small_config() };
        let net = fresh_net::<Camelot>("b4c32", Encoding::Basic, DeviceKind::Cpu).unwrap();
        let job = GenerationJob { seed: 3, ..job_at(StartFrom::Net(net), run.join(out), 0, None) };
        let mut entropy = None;
        train_generation(job, window, &config, |m| entropy = Some(m.target_entropy)).unwrap();
        entropy.unwrap()
    };
    let uniform = first_step_entropy(&mut window, Sampling::Uniform, "uniform");
    let surprise = Sampling::PolicySurprise { share: 1.0 };
    let weighted = first_step_entropy(&mut window, surprise, "surprise");
    assert!(uniform > 1.0, "half the rows uniform over ~20 moves: {uniform}");
    assert!(weighted < 0.3 * uniform, "the batch is mostly one-action rows: {weighted}");
}

#[test]
fn an_averaging_run_publishes_the_mean_and_trains_from_the_trained_weights() {
    let run = scratch_dir("weight-average");
    let mut window = one_game_window(&run, 31, 24);
    let ema = TrainConfig { weight_average: WeightAverage::Ema { decay: 0.75 }, ..small_config() };
    let models = run.join("models");
    let job = |start, out: &str, generation| job_at(start, models.join(out), generation, None);
    let at = |dir: &str| models.join(dir);
    let tensors = |dir: &str, raw: bool| {
        let plain = DeviceKind::Cpu.device().unwrap();
        let net = match raw {
            true => checkpoint::load_trained_on(&at(dir), "camelot", &plain),
            false => checkpoint::load(&at(dir), "camelot"),
        };
        let named = model::named_weights::named_tensors(&net.unwrap().net).unwrap();
        named.into_iter().flat_map(|t| t.values).collect::<Vec<f32>>()
    };
    let close = |a: &[f32], b: &[f32]| {
        assert_eq!(a.len(), b.len());
        let worst = a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
        assert!(worst < 1e-5, "differ by {worst}");
    };
    let net = fresh_net::<Camelot>("b4c32", Encoding::Basic, DeviceKind::Cpu).unwrap();
    let first =
        train_generation(job(StartFrom::Net(net), "gen-0001", 1), &mut window, &ema, |_| {})
            .unwrap();
    // The first trained network is published alone (the random one is never averaged in).
    assert_eq!(first.counters.averaged, 1);
    assert_eq!(tensors("gen-0001", false), tensors("gen-0001", true));
    assert!(checkpoint::read_meta(&at("gen-0001")).unwrap().raw_weights.is_some());
    let from = |dir: &str| StartFrom::Checkpoint(at(dir));
    let second =
        train_generation(job(from("gen-0001"), "gen-0002", 2), &mut window, &ema, |_| {}).unwrap();
    assert_eq!(second.counters.averaged, 2);
    let (published, trained) = (tensors("gen-0002", false), tensors("gen-0002", true));
    let mean: Vec<f32> =
        tensors("gen-0001", false).iter().zip(&trained).map(|(a, b)| 0.5 * a + 0.5 * b).collect();
    close(&published, &mean);
    assert_ne!(published, trained);
    // The third generation trains from the second's trained weights, as a run without the
    // average does, and publishes 2/3 of the previous average and 1/3 of what it trained.
    train_generation(job(from("gen-0002"), "gen-0003", 3), &mut window, &ema, |_| {}).unwrap();
    let off = small_config();
    let plain =
        train_generation(job(from("gen-0002"), "gen-0003b", 3), &mut window, &off, |_| {}).unwrap();
    assert_eq!(plain.counters.averaged, 0);
    assert!(checkpoint::read_meta(&at("gen-0003b")).unwrap().raw_weights.is_none());
    let trained = tensors("gen-0003", true);
    close(&trained, &tensors("gen-0003b", false));
    let expected: Vec<f32> =
        published.iter().zip(&trained).map(|(a, b)| a * 2.0 / 3.0 + b / 3.0).collect();
    close(&tensors("gen-0003", false), &expected);
}
