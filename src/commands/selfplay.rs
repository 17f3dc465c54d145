//! `selfplay`: play games with a network (or without one) and write them as parquet shards.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use games::{Encode, State, Variant};
use selfplay::{SelfPlayStats, ShardWriter, Teacher};
use train::run::play_games;
use train::{EvaluatorFactory, RunConfig, Source};

use crate::input::{BadInput, load_config};
use crate::{interrupt, progress};

/// Where the priors and values come from.
#[derive(Args, Debug)]
#[group(required = true, multiple = false)]
pub struct SourceArgs {
    /// A checkpoint folder, e.g. data/run/models/gen-0003.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// A network with random weights seeded by --seed: the config's generation 0, so its preset
    /// as deep as `net.growth` starts it (the same network as a run's gen-0000 with that seed).
    #[arg(long)]
    pub random: bool,
    /// No network: uniform priors and draw values.
    #[arg(long)]
    pub uniform: bool,
}

#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// Run configuration (TOML): the [game], [net], [mcts] and [selfplay] sections are used.
    #[arg(long)]
    pub config: PathBuf,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Number of games (ids 0..N; ids already recorded in --out are skipped, so an interrupted
    /// command continues where it stopped); at most 1,000,000.
    #[arg(long, value_parser = crate::input::game_count())]
    pub games: u64,
    /// Directory for the shards.
    #[arg(long)]
    pub out: PathBuf,
    /// Seed of the games (default: the config's run.seed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games per shard (default: the config's run.games_per_shard).
    #[arg(long)]
    pub games_per_shard: Option<u32>,
}

pub fn run(args: SelfPlayArgs) -> Result<()> {
    let mut config = load_config(&args.config)?;
    // The games of the player asked for: a run's teacher plays only inside its generations.
    config.selfplay.teacher = Teacher::Off;
    games::with_variant!(config.game.variant, V => run_variant::<V>(&args, &config))
}

fn run_variant<V: Variant>(args: &SelfPlayArgs, config: &RunConfig) -> Result<()> {
    let seed = args.seed.unwrap_or(config.run.seed);
    let source = match (&args.source.model, args.source.random) {
        (Some(dir), _) => Source::Checkpoint(dir.clone()),
        (None, true) => Source::Random {
            net: config.net.config_at(State::<V>::layout(config.net.encoding).clone(), 0)?,
            seed,
        },
        (None, false) => Source::Uniform,
    };
    let factory =
        EvaluatorFactory::new::<State<V>>(&source, config.net.device, config.selfplay.eval_cache)
            .and_then(|f| f.with_precision(config.net.precision))
            .map_err(|e| BadInput(train::error_chain(&e)))?;
    let run_name =
        args.out.file_name().map_or("selfplay".into(), |n| n.to_string_lossy().into_owned());
    let per_shard = args.games_per_shard.unwrap_or(config.run.games_per_shard).max(1) as usize;
    let mut writer = ShardWriter::new(&args.out, &run_name, 0, V::NAME, &source.name(), per_shard)
        .map_err(|e| -> anyhow::Error {
            if e.is_bad_input() { BadInput(e.to_string()).into() } else { e.into() }
        })?;
    let ids = writer.missing_ids(args.games);
    let recorded = writer.recorded().len();
    if recorded > 0 {
        eprintln!(
            "{}: {recorded} games already recorded, {} to play",
            args.out.display(),
            ids.len()
        );
    }
    let (bar, show) = progress::selfplay_bar(ids.len() as u64, "selfplay", V::NUM_PLAYERS);
    let stop = Some(interrupt::stop_flag());
    let stats = play_games::<V>(config, &factory, ids, seed, &mut writer, stop, show, |_| Ok(()))?;
    progress::clear(&bar);
    outln!("{}", summary(&stats, V::NUM_PLAYERS))?;
    Ok(())
}

/// The one-line summary of a self-play session.
pub fn summary(s: &SelfPlayStats, num_players: usize) -> String {
    let secs = s.wall_time.as_secs_f64().max(1e-9);
    let wins: Vec<String> = s.wins[..num_players].iter().map(|w| w.to_string()).collect();
    let terminations: Vec<String> =
        s.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
    format!(
        "{} games in {:.1} s ({:.2} games/s): {} moves (mean {:.1}), {} decisions, {} evaluations \
         ({:.0}/s, {:.1} per batch, cache hits {:.1}%), wins by seat {} / draws {}, {}",
        s.games,
        secs,
        s.games as f64 / secs,
        s.moves,
        s.mean_moves(),
        s.decisions,
        s.evaluations,
        s.evaluations_per_second(),
        s.mean_batch(),
        100.0 * s.cache_hit_rate(),
        wins.join("/"),
        s.draws,
        terminations.join(", ")
    )
}
