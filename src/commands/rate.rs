//! The absolute Elo scale: `anchors` (the round robin that rates the anchor players, random at
//! 0) and `rate` (a player's Elo on that scale, playing the anchors near its estimate until the
//! 95% interval is tight). See `selfplay::arena::anchors`.
//!
//! ```sh
//! camelot-zero anchors --variant camelot --games-per-pair 40 --out selfplay/anchors/camelot.toml
//! camelot-zero rate data/run/models/gen-0020:sims=64 --interval 40
//! ```

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use games::{Variant, VariantKind};
use search::PlaySearch;
use selfplay::arena::anchors::{
    AnchorError, AnchorTable, DEFAULT_ANCHORS, RateConfig, rate, round_robin,
};
use selfplay::arena::{ArenaGame, MatchConfig, MatchReport, PlayerSpec, play_match};
use train::RunConfig;

use super::arena::{MatchArgs, load_players};
use crate::input::{BadInput, checkpoint_variant, variant_and_config};
use crate::progress;

#[derive(Args, Debug)]
pub struct AnchorsArgs {
    #[command(flatten)]
    pub play: MatchArgs,
    /// The anchors, comma-separated, the first rated 0 (default: random, greedy, two rollout
    /// MCTS budgets, alphabeta depths 1 to 4).
    #[arg(long, value_delimiter = ',')]
    pub players: Vec<String>,
    /// Games of each pair (Tri-Camelot: of each of its two matches, one player against two
    /// copies of the other). A multiple of 2 (6) plays every seating equally often.
    #[arg(long, default_value_t = 40)]
    pub games_per_pair: u64,
    /// Where to write the table (TOML, written under a temporary name and renamed).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RateArgs {
    /// The player to rate: a checkpoint directory with a simulation count
    /// (data/run/models/gen-0020:sims=64) or any other arena player.
    pub player: String,
    #[command(flatten)]
    pub play: MatchArgs,
    /// An anchor table (default: the one stored with the program for the variant).
    #[arg(long)]
    pub anchors: Option<PathBuf>,
    /// Games of each match against an anchor (Tri-Camelot: of each of its two seatings).
    #[arg(long, default_value_t = 20)]
    pub games_per_match: u64,
    /// Stop once the 95% interval is at most this many Elo either side.
    #[arg(long, default_value_t = 50.0)]
    pub interval: f64,
    /// Stop after this many games in all, tight or not.
    #[arg(long, default_value_t = 400)]
    pub max_games: usize,
}

/// Why a match of a round robin or a rating failed (the anchors' own problems are bad input).
struct Failure(anyhow::Error);

impl From<AnchorError> for Failure {
    fn from(e: AnchorError) -> Self {
        Failure(anyhow::Error::new(BadInput(e.to_string())))
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure(e)
    }
}

/// Plays one match of `specs` (seated by player index), `games` games.
fn play_specs<V: Variant>(
    specs: &[&PlayerSpec],
    games: u64,
    seed: u64,
    args: &MatchArgs,
    config: Option<&RunConfig>,
    label: &str,
) -> Result<Vec<ArenaGame>, Failure> {
    let mut players =
        load_players::<V>(specs.iter().copied(), config).map_err(anyhow::Error::from)?;
    let match_config = MatchConfig {
        games,
        seed,
        games_in_flight: args.games_in_flight.max(1),
        play: config.map_or_else(PlaySearch::default, |c| c.play),
        options: config.map_or_else(Default::default, |c| c.game.rule_options()),
        clocks: specs.iter().map(|s| s.clock()).collect(),
        ..MatchConfig::default()
    };
    let bar = progress::bar(games, label);
    let (games, _) =
        play_match(&mut players, &match_config, |_| bar.inc(1)).map_err(anyhow::Error::from)?;
    progress::clear(&bar);
    Ok(games)
}

fn parse_specs(texts: &[String]) -> Result<Vec<PlayerSpec>> {
    texts
        .iter()
        .map(|t| t.parse::<PlayerSpec>().map_err(|e| BadInput(format!("`{t}`: {e}")).into()))
        .collect()
}

pub fn anchors(args: AnchorsArgs) -> Result<()> {
    let (variant, config) =
        variant_and_config(args.play.variant, args.play.config.as_deref(), VariantKind::Camelot)?;
    games::with_variant!(variant, V => anchors_variant::<V>(&args, variant, config.as_ref()))
}

fn anchors_variant<V: Variant>(
    args: &AnchorsArgs,
    variant: VariantKind,
    config: Option<&RunConfig>,
) -> Result<()> {
    let texts: Vec<String> = if args.players.is_empty() {
        DEFAULT_ANCHORS.iter().map(|s| s.to_string()).collect()
    } else {
        args.players.clone()
    };
    let specs = parse_specs(&texts)?;
    if specs.len() < 2 {
        return Err(BadInput("a round robin needs at least two --players".into()).into());
    }
    if args.games_per_pair == 0 {
        return Err(BadInput("--games-per-pair must be at least 1".into()).into());
    }
    let names: Vec<String> = specs.iter().map(PlayerSpec::short_name).collect();
    eprintln!(
        "{}: round robin of {} anchors, {} games per pair (seed {}): {}",
        V::NAME,
        specs.len(),
        args.games_per_pair,
        args.play.seed,
        names.join(", ")
    );
    let table = round_robin(
        variant,
        &specs,
        args.games_per_pair,
        args.play.seed,
        V::NUM_PLAYERS,
        |players, index| {
            let label: Vec<String> = players.iter().map(|p| p.short_name()).collect();
            let games = play_specs::<V>(
                players,
                args.games_per_pair,
                args.play.seed + index,
                &args.play,
                config,
                &label.join(" v "),
            )?;
            let seated: Vec<String> = players.iter().map(|p| p.short_name()).collect();
            let report = MatchReport::new(&seated, V::PLAYER_NAMES, &games);
            progress::notice(&report.table());
            Ok::<_, Failure>(games)
        },
    )
    .map_err(|e| e.0)?;
    outln!("{:<28} {:>6} {:>6} {:>6}", "anchor", "elo", "±95%", "games")?;
    for a in &table.anchor {
        outln!("{:<28} {:>6} {:>6} {:>6}", a.spec, a.elo, a.interval, a.games)?;
    }
    if let Some(path) = &args.out {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating the folder of {}", path.display()))?;
        }
        storage::write_atomic(path, table.to_toml().as_bytes())?;
        outln!("written to {}", path.display())?;
    }
    Ok(())
}

pub fn run_rate(args: RateArgs) -> Result<()> {
    let me: PlayerSpec =
        args.player.parse().map_err(|e| BadInput(format!("`{}`: {e}", args.player)))?;
    // A checkpoint's own variant, unless --variant or the config says otherwise.
    let default = match me.checkpoint() {
        Some(dir) if !dir.is_dir() => {
            return Err(BadInput(format!(
                "checkpoint {} does not exist (or is not a directory)",
                dir.display()
            ))
            .into());
        }
        Some(dir) => checkpoint_variant(dir)?,
        None => VariantKind::Camelot,
    };
    let (variant, config) =
        variant_and_config(args.play.variant, args.play.config.as_deref(), default)?;
    games::with_variant!(variant, V => rate_variant::<V>(&args, &me, variant, config.as_ref()))
}

fn rate_variant<V: Variant>(
    args: &RateArgs,
    me: &PlayerSpec,
    variant: VariantKind,
    config: Option<&RunConfig>,
) -> Result<()> {
    let table = match &args.anchors {
        Some(path) => AnchorTable::load(path, variant),
        None => AnchorTable::builtin(variant),
    }
    .map_err(|e| BadInput(e.to_string()))?;
    if args.interval.is_nan() || args.interval <= 0.0 || args.games_per_match == 0 {
        return Err(BadInput("--interval and --games-per-match must be above 0".into()).into());
    }
    let anchors: Vec<PlayerSpec> = table
        .anchor
        .iter()
        .map(|a| a.spec.parse().expect("checked when the table was read"))
        .collect();
    let rate_config = RateConfig {
        games_per_match: args.games_per_match,
        target_interval: args.interval,
        max_games: args.max_games,
    };
    eprintln!(
        "{}: rating {} against {} anchors, until ±{} Elo (95%) or {} games",
        V::NAME,
        me.short_name(),
        anchors.len(),
        args.interval,
        args.max_games
    );
    let rating = rate(
        &table,
        V::NUM_PLAYERS,
        &rate_config,
        |anchor, seating, index| {
            let players: Vec<&PlayerSpec> =
                seating.iter().map(|&k| if k == 0 { me } else { &anchors[anchor] }).collect();
            play_specs::<V>(
                &players,
                args.games_per_match,
                args.play.seed + index,
                &args.play,
                config,
                &format!("vs {}", anchors[anchor].short_name()),
            )
        },
        |r| {
            progress::notice(&format!(
                "after {} games: {:.0} ± {:.0} Elo",
                r.games, r.elo, r.interval
            ))
        },
    )
    .map_err(|e| e.0)?;
    // Every match, with its results per player and seat (a copy of a player named twice).
    for m in &rating.matches {
        let seated = &m.seating;
        let names: Vec<String> = seated
            .iter()
            .enumerate()
            .map(|(p, &k)| {
                let name = if k == 0 { me.short_name() } else { anchors[m.anchor].short_name() };
                if seated[..p].contains(&k) { format!("{name} (2)") } else { name }
            })
            .collect();
        let report = MatchReport::new(&names, V::PLAYER_NAMES, &m.games);
        outln!(
            "against {} ({} Elo):\n{}",
            anchors[m.anchor],
            table.anchor[m.anchor].elo,
            report.table()
        )?;
    }
    outln!(
        "{}: {:.0} Elo ± {:.0} (95%), {} games, on the {} anchor scale (random = 0)",
        me.short_name(),
        rating.elo,
        rating.interval,
        rating.games,
        V::NAME
    )?;
    Ok(())
}
