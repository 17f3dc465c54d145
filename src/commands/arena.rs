//! `arena`: a match between two players (Camelot) or three (Tri-Camelot), with a results table,
//! Elo differences with 95% confidence intervals, and every game written as a parquet `games`
//! record (see `selfplay::arena`).
//!
//! ```sh
//! camelot-zero arena --a data/run/models/gen-0007:sims=200 --b random --games 100
//! camelot-zero arena --a mcts:sims=64 --b greedy --c random --variant tricamelot --games 60
//! ```

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use games::{Variant, VariantKind};
use model::DeviceKind;
use search::PlaySearch;
use selfplay::arena::{
    ArenaPlayer, DEFAULT_OPENING_MOVES, MatchConfig, MatchReport, PlayerSpec, play_match,
    write_games,
};
use train::RunConfig;
use train::evaluators::arena_loader;

use crate::input::{BadInput, names, variant_and_config};
use crate::progress;

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// First player: `random`, `greedy`, `alphabeta:depth=N` (or `ms=T`: iterative-deepening
    /// alpha-beta), `mcts:sims=N` (uniform prior, random-rollout values; `,cutoff=K` cuts each
    /// playout after K moves and scores it by the heuristic) or a checkpoint directory with a simulation count, e.g. data/run/models/gen-0007:sims=200
    /// (`,draw=X` scores draws X for every seat in its search: the contempt it was trained with).
    /// `tc=B+I` puts a player on a clock of B seconds and I more a move (DIR:tc=10+0.1,
    /// alphabeta:tc=10+0.1; engine:tc=10+0.1 <command>); the games are then played one at a time.
    #[arg(long)]
    pub a: String,
    /// Second player (same forms as --a).
    #[arg(long)]
    pub b: String,
    /// Third player, for Tri-Camelot.
    #[arg(long)]
    pub c: Option<String>,
    /// Number of games. Seats alternate (Camelot) or cycle through all 6 orders (Tri-Camelot),
    /// so a multiple of 2 (or 6) plays every seating equally often. At most 1,000,000.
    #[arg(long, value_parser = crate::input::game_count())]
    pub games: u64,
    #[command(flatten)]
    pub play: MatchArgs,
    /// Directory for the parquet `games` records (without it the games are not kept).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Complete moves played at random at the start of each game (shared by the games of a
    /// round, so each opening is played from every side).
    #[arg(long, default_value_t = DEFAULT_OPENING_MOVES)]
    pub opening_moves: u32,
    /// Complete moves after which a game is scored as a draw (move-limit).
    #[arg(long, default_value_t = 400)]
    pub max_moves: u32,
}

/// What every command that plays matches takes (`arena`, `anchors`, `rate`).
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game (default: the config's, else camelot; `arena` with --c: tricamelot; `rate` of
    /// a checkpoint: the checkpoint's).
    #[arg(long, value_parser = names(VariantKind::ALL, VariantKind::as_str))]
    pub variant: Option<VariantKind>,
    /// A run configuration (TOML): its [game] variant and rule options, [net] device, [play]
    /// search of the checkpoint players (simulations come from the player specs) and
    /// [selfplay] eval_cache. Without it the checkpoints search with the [play] defaults.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Seed of the openings and of every random choice (of the first match, where a command
    /// plays several; each later one adds 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (the batch size of a network player's evaluations).
    #[arg(long, default_value_t = 64)]
    pub games_in_flight: usize,
}

pub fn run(args: ArenaArgs) -> Result<()> {
    let default = if args.c.is_some() { VariantKind::Tricamelot } else { VariantKind::Camelot };
    let (variant, config) =
        variant_and_config(args.play.variant, args.play.config.as_deref(), default)?;
    games::with_variant!(variant, V => run_variant::<V>(&args, config.as_ref()))
}

/// Parses the player specs (bad ones are bad input).
fn specs(args: &ArenaArgs, players: usize, variant: &str) -> Result<Vec<PlayerSpec>> {
    let mut texts = vec![("--a", &args.a), ("--b", &args.b)];
    if let Some(c) = &args.c {
        texts.push(("--c", c));
    }
    if texts.len() != players {
        let hint = if players == 3 { "give a third with --c" } else { "leave out --c" };
        return Err(BadInput(format!(
            "{variant} is played by {players} players but {} were given ({hint})",
            texts.len()
        ))
        .into());
    }
    texts
        .into_iter()
        .map(|(flag, t)| {
            t.parse::<PlayerSpec>().map_err(|e| BadInput(format!("{flag}: {e}")).into())
        })
        .collect()
}

/// The players of `specs`, networks on the config's device with its evaluation cache (a player
/// that cannot be built, a missing checkpoint say, is bad input).
pub fn load_players<'a, V: Variant>(
    specs: impl Iterator<Item = &'a PlayerSpec>,
    config: Option<&RunConfig>,
) -> Result<Vec<ArenaPlayer<V>>, BadInput> {
    let device = config.map_or(DeviceKind::Cpu, |c| c.net.device);
    let cache = config.map_or(0, |c| c.selfplay.eval_cache);
    let mut load = arena_loader::<V>(device, cache);
    specs
        .map(|s| ArenaPlayer::<V>::from_spec(s, &mut load).map_err(|e| BadInput(e.to_string())))
        .collect()
}

fn run_variant<V: Variant>(args: &ArenaArgs, config: Option<&RunConfig>) -> Result<()> {
    let specs = specs(args, V::NUM_PLAYERS, V::NAME)?;
    let mut players = load_players::<V>(specs.iter(), config)?;
    let names: Vec<String> = specs.iter().map(PlayerSpec::short_name).collect();
    let match_config = MatchConfig {
        games: args.games,
        seed: args.play.seed,
        opening_moves: args.opening_moves,
        max_moves: args.max_moves.max(1),
        games_in_flight: args.play.games_in_flight.max(1),
        play: config.map_or_else(PlaySearch::default, |c| c.play),
        options: config.map_or_else(Default::default, |c| c.game.rule_options()),
        clocks: specs.iter().map(PlayerSpec::clock).collect(),
        ..MatchConfig::default()
    };
    let kept = match &args.out {
        Some(dir) => format!("records to {}", dir.display()),
        None => "games not kept (--out DIR keeps them)".into(),
    };
    let timed = match_config.clocks.iter().any(Option::is_some);
    let one_at_a_time = if timed { ", one at a time (players on a clock)" } else { "" };
    eprintln!(
        "{}: {} games{one_at_a_time}, {} (seed {}, {} random opening moves); {kept}",
        V::NAME,
        args.games,
        names.join(" vs "),
        args.play.seed,
        args.opening_moves,
    );
    let bar = progress::bar(args.games, "arena");
    let mut scores = vec![0.0f64; names.len()];
    let (games, stats) = play_match(&mut players, &match_config, |g| {
        for (p, s) in scores.iter_mut().enumerate() {
            *s += f64::from(g.score_of(p));
        }
        let shown: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(p, s)| format!("{} {s:.1}", (b'A' + p as u8) as char))
            .collect();
        bar.inc(1);
        bar.set_message(shown.join(" / "));
    })
    .map_err(anyhow::Error::from)?;
    progress::clear(&bar);
    let written = match &args.out {
        Some(dir) => {
            let paths = write_games(dir, V::NAME, &names, &games)
                .with_context(|| format!("writing the games to {}", dir.display()))?;
            format!("games in {}", paths.games.display())
        }
        None => "games not kept".into(),
    };
    let report = MatchReport::new(&names, V::PLAYER_NAMES, &games);
    out!("{}", report.table())?;
    for (name, work) in names.iter().zip(&stats.players) {
        outln!("{name}: {}", work.summary(timed))?;
    }
    let secs = stats.wall_time.as_secs_f64().max(1e-9);
    outln!(
        "{:.1} s ({:.2} games/s), {} network evaluations in {} batches; {written}",
        secs,
        games.len() as f64 / secs,
        stats.evaluations,
        stats.batches,
    )?;
    Ok(())
}
