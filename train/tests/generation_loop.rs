//! The generation loop in-process, through the library only: two generations of the smoke
//! configuration stopped twice by the library's stop flag (during self-play, then during
//! training) and resumed end up with the same games, positions, metrics and checkpoints as an
//! uninterrupted run.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use games::CamelotRules;
use records::{GameRecord, PositionRow};
use selfplay::SessionFigures;
use storage::ScratchDir;
use train::run::{GamesSource, ModelFile, ProgramInfo, Stage};
use train::testing::{self, timeless_cells};
use train::{Growth, MovesLeftTarget, RunConfig, RunError, RunEvent, RunJob, run_generations};

const PROGRAM: ProgramInfo<'static> = ProgramInfo { version: "test", git_revision: "test" };

/// Held by each test for its whole run: a random network is drawn from burn's process-wide
/// seeded generator, so two runs creating their `gen-0000` at once would interleave its draws
/// and get other weights than a run on its own.
static ONE_RUN_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A fresh scratch folder for this test, removed when the guard is dropped.
fn scratch(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("train-loop-{name}")).unwrap()
}

/// configs/smoke-camelot.toml with generations long enough (24 games, 2 per shard, 2 in flight)
/// for a stop to land inside self-play.
fn smoke_config(dir: &Path) -> RunConfig {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/smoke-camelot.toml");
    let mut text = std::fs::read_to_string(path).unwrap();
    for (from, to) in [
        ("games_per_generation = 8", "games_per_generation = 24"),
        ("games_per_shard = 4", "games_per_shard = 2"),
        ("games_in_flight = 8", "games_in_flight = 2"),
    ] {
        assert!(text.contains(from), "smoke-camelot.toml has no `{from}`");
        text = text.replace(from, to);
    }
    let cfg = dir.join("smoke.toml");
    std::fs::write(&cfg, text).unwrap();
    RunConfig::load(&cfg).unwrap()
}

/// A scratch folder, the smoke configuration cut to 4 games per generation and no ladder, and
/// the run folder in the scratch folder.
fn short_run(name: &str) -> (ScratchDir, RunConfig, PathBuf) {
    let dir = scratch(name);
    let mut config = smoke_config(&dir);
    config.run.games_per_generation = 4;
    config.ladder.games = 0;
    let run_dir = dir.join("run");
    (dir, config, run_dir)
}

/// Every game and position of generation `g`, in game id (and ply) order.
fn records(run_dir: &Path, g: u32) -> (Vec<GameRecord>, Vec<PositionRow>) {
    testing::records(&run_dir.join(format!("games/gen-{g:04}")))
}

fn weights(dir: &Path) -> Vec<(String, Vec<u32>)> {
    testing::weights(dir, "camelot")
}

/// The stop flag of the jobs nobody stops.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Two generations of `config` in `run_dir`, never stopped.
fn job<'a>(run_dir: &'a Path, config: &'a RunConfig) -> RunJob<'a> {
    stoppable(run_dir, config, &NEVER)
}

/// [`job`] with a stop flag the test raises.
fn stoppable<'a>(run_dir: &'a Path, config: &'a RunConfig, stop: &'a AtomicBool) -> RunJob<'a> {
    RunJob {
        run_dir,
        config,
        generations: 2,
        program: PROGRAM,
        stop: Some(stop),
        any_dir: false,
        games: GamesSource::InProcess,
        time_budget: None,
    }
}

#[test]
fn a_run_stopped_in_self_play_and_in_training_resumes_to_the_same_files() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("resume");
    let config = smoke_config(&dir);

    // Uninterrupted.
    // Both run directories are named `run`: records carry the directory's name.
    let whole = dir.join("whole/run");
    run_generations::<CamelotRules>(job(&whole, &config), |_| {}).unwrap();

    // Stopped after the first self-play game of generation 0.
    let parts = dir.join("parts/run");
    let stop = AtomicBool::new(false);
    let err = run_generations::<CamelotRules>(stoppable(&parts, &config, &stop), |e| {
        if let RunEvent::SelfPlay(s) = e
            && s.games >= 1
        {
            stop.store(true, Ordering::SeqCst);
        }
    })
    .unwrap_err();
    assert!(
        matches!(err, RunError::Interrupted { stage: Stage::SelfPlay, generation: 0, .. }),
        "{err}"
    );
    let (played, _) = records(&parts, 0);
    assert!(!played.is_empty() && played.len() < 24, "{} games before the stop", played.len());
    assert!(!parts.join("models/gen-0001").exists());

    // Resumed, and stopped at the second training step of generation 1.
    let stop = AtomicBool::new(false);
    let mut training = false;
    let err = run_generations::<CamelotRules>(stoppable(&parts, &config, &stop), |e| match e {
        RunEvent::GenerationStarted { generation } => training = generation == 1,
        RunEvent::TrainStep(m) if training && m.step >= 2 => stop.store(true, Ordering::SeqCst),
        _ => {}
    })
    .unwrap_err();
    assert!(
        matches!(err, RunError::Interrupted { stage: Stage::Training, generation: 1, .. }),
        "{err}"
    );
    assert!(parts.join("models/gen-0001").exists() && !parts.join("models/gen-0002").exists());

    // Resumed to the end.
    let mut done = Vec::new();
    run_generations::<CamelotRules>(job(&parts, &config), |e| {
        if let RunEvent::GenerationDone { generation, .. } = e {
            done.push(generation);
        }
    })
    .unwrap();
    assert_eq!(done, [1], "only the interrupted generation is redone");

    for g in 0..2 {
        let (games, positions) = records(&parts, g);
        assert_eq!(games.len(), 24);
        let (whole_games, whole_positions) = records(&whole, g);
        // Compared whole but not printed whole: a difference would print megabytes.
        for (a, b) in games.iter().zip(&whole_games) {
            assert!(a == b, "generation {g}, game {}: {a:?}\nuninterrupted: {b:?}", a.game_id);
        }
        for (a, b) in positions.iter().zip(&whole_positions) {
            assert!(a == b, "generation {g}: {a:?}\nuninterrupted: {b:?}");
        }
        assert_eq!(positions.len(), whole_positions.len());
    }
    for g in 0..=2 {
        // Tensor values, not file bytes: burn writes random parameter ids into the file.
        let model = format!("models/gen-{g:04}");
        assert!(weights(&parts.join(&model)) == weights(&whole.join(&model)), "{model} differs");
        if g > 0 {
            let counters = format!("{model}/training.toml");
            let read = |run: &Path| std::fs::read_to_string(run.join(&counters)).unwrap();
            assert_eq!(read(&parts), read(&whole), "{counters}");
        }
    }
    for g in 1..=2 {
        let ladder = format!("models/gen-{g:04}/ladder.toml");
        assert_eq!(
            std::fs::read_to_string(parts.join(&ladder)).unwrap(),
            std::fs::read_to_string(whole.join(&ladder)).unwrap(),
        );
    }
    for file in ["metrics.csv", "generations.csv"] {
        let (a, b) = (timeless_cells(&parts.join(file)), timeless_cells(&whole.join(file)));
        assert_eq!(a.len(), if file == "metrics.csv" { 8 } else { 2 }, "{file}");
        assert_eq!(a, b, "{file}");
    }
}

#[test]
fn a_finished_run_is_only_reported() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, config, run_dir) = short_run("done");
    let one = RunJob { generations: 1, ..job(&run_dir, &config) };
    run_generations::<CamelotRules>(one, |_| {}).unwrap();
    let mut events = Vec::new();
    let report = run_generations::<CamelotRules>(one, |e| events.push(format!("{e:?}"))).unwrap();
    assert_eq!(events, ["AlreadyDone { generation: 1 }"]);
    assert!(report.contains("1 generation rows"), "{report}");
}

/// Issue 16, item 4 (growing the net): with `net.growth` generation 0's random network has
/// `start` blocks and each generation's training deepens the model it starts from.
#[test]
fn a_growing_run_deepens_its_models_generation_by_generation() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, mut config, run_dir) = short_run("growth");
    config.net.growth = Growth::Blocks { start: 0, every_generations: 1 };
    run_generations::<CamelotRules>(job(&run_dir, &config), |_| {}).unwrap();
    let blocks = |g: u32| {
        let dir = run_dir.join(format!("models/gen-{g:04}"));
        model::checkpoint::load(&dir, "camelot").unwrap().meta.config.blocks
    };
    assert_eq!([0, 1, 2].map(blocks), [0, 1, 2]);
}

/// A run folder of the version before `loss_material`, `loss_ownership` and `loss_moves_left`
/// (and, in `generations.csv`, the value probe's columns after them) resumed with the moves-left
/// head trained: the columns are added, empty in the rows already written and filled in the new
/// ones (the retired material and ownership heads' stay empty); and the head is in the models.
#[test]
fn a_resumed_run_of_an_earlier_version_gets_the_auxiliary_loss_columns() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, mut config, run_dir) = short_run("aux-columns");
    config.train.moves_left_target = MovesLeftTarget::Moves { weight: 0.5 };
    let one = RunJob { generations: 1, ..job(&run_dir, &config) };
    run_generations::<CamelotRules>(one, |_| {}).unwrap();
    let aux = ",loss_material,loss_ownership,loss_moves_left";
    let probe = ",probe_down2,probe_even,probe_up2,probe_far_draw";
    let files = [("metrics.csv", aux.to_string()), ("generations.csv", format!("{aux}{probe}"))];
    for (file, added) in &files {
        let path = run_dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().next().unwrap().ends_with(added.as_str()), "{file}");
        let k = added.matches(',').count();
        let cut = |l: &str| l.rsplitn(k + 1, ',').nth(k).unwrap().to_string() + "\n";
        std::fs::write(&path, text.lines().map(cut).collect::<String>()).unwrap();
    }
    run_generations::<CamelotRules>(job(&run_dir, &config), |_| {}).unwrap();
    let rows = [2 * config.train.steps_per_generation, 2];
    for ((file, added), rows) in files.iter().zip(rows) {
        let text = std::fs::read_to_string(run_dir.join(file)).unwrap();
        assert!(text.lines().next().unwrap().ends_with(added.as_str()), "{file}");
        let k = added.matches(',').count();
        // The added cells of each row, in column order.
        let last: Vec<Vec<&str>> = text
            .lines()
            .skip(1)
            .map(|l| {
                let mut cells: Vec<&str> = l.rsplitn(k + 1, ',').take(k).collect();
                cells.reverse();
                cells
            })
            .collect();
        assert_eq!(last.len(), rows as usize, "{file}");
        let (old, new) = last.split_at(last.len() / 2);
        assert!(old.iter().flatten().all(|c| c.is_empty()), "{file}: {old:?}");
        let loss = |c: &&str| c.parse::<f32>().is_ok_and(|l| l > 0.0);
        assert!(new.iter().all(|r| r[..2].iter().all(|c| c.is_empty())), "{file}: {new:?}");
        assert!(new.iter().all(|r| loss(&r[2])), "{file}: {new:?}");
        let share = |c: &&str| c.parse::<f32>().is_ok_and(|v| (0.0..=1.0).contains(&v));
        assert!(new.iter().all(|r| r[3..].iter().all(share)), "{file}: {new:?}");
    }
    let config_of = |g: u32| {
        let dir = run_dir.join(format!("models/gen-{g:04}"));
        model::checkpoint::load(&dir, "camelot").unwrap().meta.config
    };
    let heads = |g| config_of(g).moves_left_classes;
    assert_eq!([0, 1, 2].map(heads), [0, 24, 24]);
}

/// Issue 16, item 3: the run's clock (`run_seconds`, the x axis of Elo per CPU-hour) goes on
/// from where the newest model left it when a run is resumed, without the pause between the two
/// invocations but with the self-play time of the games it keeps, and `generations.csv` shows it.
#[test]
fn a_resumed_run_continues_its_clock_from_its_newest_model() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, config, run_dir) = short_run("clock");
    let one = RunJob { generations: 1, ..job(&run_dir, &config) };
    let first = std::time::Instant::now();
    run_generations::<CamelotRules>(one, |_| {}).unwrap();
    let first = first.elapsed().as_secs_f64();
    let summary = |g: u32| {
        train::GenerationSummary::read(&run_dir.join(format!("models/gen-{g:04}")))
            .unwrap()
            .unwrap()
    };
    let gen1 = summary(1).run_seconds.expect("a new run knows its time");
    assert!(gen1 > summary(1).seconds && gen1 <= first, "{gen1} of {first} s");

    // As if the first invocation had run for an hour: the second starts its clock there.
    let path = run_dir.join("models/gen-0001/summary.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let line = text.lines().find(|l| l.starts_with("run_seconds = ")).unwrap();
    std::fs::write(&path, text.replace(line, "run_seconds = 3600.0")).unwrap();
    // And as if it had then played generation 1's games for 500 s before it was stopped: the
    // second keeps what the shard folder holds, and counts the time its figures record.
    let kept = SessionFigures { sessions: 1, seconds: 500.0, ..Default::default() };
    let games1 = run_dir.join("games/gen-0001");
    std::fs::create_dir_all(&games1).unwrap();
    std::fs::write(games1.join(SessionFigures::FILE), toml::to_string(&kept).unwrap()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let second = std::time::Instant::now();
    run_generations::<CamelotRules>(job(&run_dir, &config), |_| {}).unwrap();
    let second = second.elapsed().as_secs_f64();
    let gen2 = summary(2).run_seconds.unwrap();
    assert!((4100.0 + summary(2).seconds..=4100.0 + second).contains(&gen2), "{gen2}, {second} s");

    let csv = std::fs::read_to_string(run_dir.join("generations.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == "run_seconds").expect("a run_seconds column");
    let cells: Vec<String> =
        csv.lines().skip(1).map(|l| l.split(',').nth(col).unwrap().to_string()).collect();
    assert_eq!(cells, [format!("{gen1:.1}"), format!("{gen2:.1}")]);
}

/// Issue 15, defect 1: a process killed during the ladder (the new model is written, its
/// `ladder.toml` and its generation's row are not) lost the row for good.
#[test]
fn d1_a_row_lost_with_a_kill_during_the_ladder_is_written_again() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("d1");
    let mut config = smoke_config(&dir);
    config.run.games_per_generation = 8;
    let whole = dir.join("whole/run");
    run_generations::<CamelotRules>(job(&whole, &config), |_| {}).unwrap();

    // The files a kill during generation 1's ladder leaves: both rows missing would be a run
    // killed twice; here generation 0 is whole and generation 1's model lacks its ladder.
    let cut = dir.join("cut/run");
    let one = RunJob { generations: 1, ..job(&cut, &config) };
    run_generations::<CamelotRules>(one, |_| {}).unwrap();
    let csv = cut.join("generations.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    std::fs::write(&csv, format!("{header}\n")).unwrap();
    std::fs::remove_file(cut.join("models/gen-0001/ladder.toml")).unwrap();

    let mut restored = Vec::new();
    run_generations::<CamelotRules>(job(&cut, &config), |e| {
        if let RunEvent::RowRestored { generation } = e {
            restored.push(generation);
        }
    })
    .unwrap();
    assert_eq!(restored, [0]);
    let (a, b) = (timeless_cells(&csv), timeless_cells(&whole.join("generations.csv")));
    assert_eq!(a.len(), 2, "one row per generation");
    assert_eq!(a, b);
}

/// Issue 15, defect 2: a generation whose training was redone (after a kill or a stop) showed
/// the figures of a self-play session that played nothing (0 evaluations/s, 0.01 s).
#[test]
fn d2_a_redone_generation_keeps_the_figures_of_its_self_play() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, mut config, run_dir) = short_run("d2");
    config.run.games_per_generation = 8;
    let stop = AtomicBool::new(false);
    let one = RunJob { generations: 1, ..stoppable(&run_dir, &config, &stop) };
    let err = run_generations::<CamelotRules>(one, |e| {
        if let RunEvent::TrainStep(_) = e {
            stop.store(true, Ordering::SeqCst);
        }
    })
    .unwrap_err();
    assert!(matches!(err, RunError::Interrupted { stage: Stage::Training, .. }), "{err}");
    run_generations::<CamelotRules>(RunJob { generations: 1, ..job(&run_dir, &config) }, |_| {})
        .unwrap();
    let text = std::fs::read_to_string(run_dir.join("generations.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cell = |name: &str| -> f64 {
        row[header.iter().position(|h| *h == name).unwrap()].parse().unwrap()
    };
    let figures = selfplay::SessionFigures::read(&run_dir.join("games/gen-0000")).unwrap().unwrap();
    assert_eq!((figures.sessions, figures.games), (1, 8), "{figures:?}");
    assert!(cell("evaluations_per_sec") > 100.0, "{text}");
    assert!((cell("selfplay_seconds") - figures.seconds).abs() < 0.01, "{text}");
    assert!(cell("selfplay_seconds") > 0.05, "{text}");
}

/// Issue 84: with the ladder every eighth generation and the probe with it, a run its budget
/// ends still measures its last model, and no other.
#[test]
fn the_last_model_of_a_budget_ended_run_is_measured() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, mut config, run_dir) = short_run("budget-last");
    config.ladder.games = 2;
    config.ladder.every_generations = 8;
    config.ladder.probe = train::ladder::ProbeCadence::WithLadder;
    let budget: train::TimeBudget = "12s".parse().unwrap();
    let timed = RunJob { generations: 20, time_budget: Some(budget), ..job(&run_dir, &config) };
    // Generations of two seconds or more: eight never fit in the budget, and two do unless a
    // generation takes over six seconds (a loaded machine slows the rest of it, not the sleep).
    run_generations::<CamelotRules>(timed, |e| {
        if let RunEvent::GenerationStarted { .. } = e {
            std::thread::sleep(std::time::Duration::from_millis(2000))
        }
    })
    .unwrap();
    let models = run_dir.join("models");
    let newest = (1..20).take_while(|g| models.join(format!("gen-{g:04}")).is_dir()).last();
    let newest = newest.expect("a model");
    assert!((2..8).contains(&newest), "the budget ends the run after a few generations: {newest}");
    for g in 1..=newest {
        let dir = models.join(format!("gen-{g:04}"));
        let last = g == newest;
        assert_eq!(dir.join("ladder.toml").is_file(), last, "gen-{g:04}'s ladder");
        assert_eq!(dir.join("probe.toml").is_file(), last, "gen-{g:04}'s probe");
    }
}

/// Issue 16, item 5: a time budget ends the run between generations, judged by the previous
/// generation's time, and the same job without it goes on.
#[test]
fn a_spent_time_budget_ends_the_run_between_generations() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (_dir, config, run_dir) = short_run("budget");
    let budget: train::TimeBudget = "1s".parse().unwrap();
    let timed = RunJob { generations: 3, time_budget: Some(budget), ..job(&run_dir, &config) };
    let mut spent = Vec::new();
    let report = run_generations::<CamelotRules>(timed, |e| match e {
        // Generation 0 takes at least 0.6 s, so a second one would end past the second.
        RunEvent::GenerationStarted { generation: 0 } => {
            std::thread::sleep(std::time::Duration::from_millis(600))
        }
        RunEvent::BudgetSpent { generation, used, budget } => {
            spent.push((generation, used, budget))
        }
        _ => {}
    })
    .unwrap();
    assert_eq!(spent.len(), 1, "{spent:?}");
    assert_eq!(spent[0].0, 1);
    assert!(spent[0].1 >= std::time::Duration::from_millis(600));
    assert!(report.contains("1 generation rows"), "{report}");
    assert!(run_dir.join("models/gen-0001").is_dir());
    assert!(!run_dir.join("models/gen-0002").exists());
    // Without the budget the same run goes on from where it ended.
    let rest = RunJob { generations: 2, ..job(&run_dir, &config) };
    let report = run_generations::<CamelotRules>(rest, |_| {}).unwrap();
    assert!(report.contains("2 generation rows"), "{report}");
}

/// Issue 84, the growing window: with `window_generations = 1` and `window_growth` at exponent
/// 1 every generation's training reads the whole run, where a fixed window of 1 reads its
/// newest generation alone.
#[test]
fn a_growing_window_reads_more_generations_as_the_run_goes_on() {
    let _one = ONE_RUN_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let windows = |growth: train::WindowGrowth| {
        let (_dir, mut config, run_dir) = short_run("window-growth");
        config.train.window_generations = 1;
        config.train.window_growth = growth;
        let mut windows = Vec::new();
        let three = RunJob { generations: 3, ..job(&run_dir, &config) };
        run_generations::<CamelotRules>(three, |e| {
            if let RunEvent::GenerationDone { summary, .. } = e {
                windows.push(summary.window_generations.clone());
            }
        })
        .unwrap();
        windows
    };
    let grown = windows(train::WindowGrowth::Power { exponent: 1.0 });
    assert_eq!(grown, [vec![0], vec![0, 1], vec![0, 1, 2]]);
    let fixed = windows(train::WindowGrowth::Off);
    assert_eq!(fixed, [vec![0], vec![1], vec![2]]);
}
