//! `stats openings` and `stats summary`: statistics over recorded games (see `selfplay::stats`).
//!
//! Every problem with the input — a missing path, a file that is not a games record, records
//! mixing variants, a filter that leaves nothing, a move that cannot be replayed, `--depth 0`, a
//! chart name that is not `.png`/`.svg` — is [`BadInput`] (exit status 2).

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use games::{State, Variant, VariantKind};
use model::DeviceKind;
use records::collection::{
    GenerationRange, SourcedGame, StatsError, filter, games_files, read_all,
};
use report::charts::ChartFormat;
use report::stats::{TableView, openings_view};
use search::{DrawScore, PlaySearch, TacticsFilter};
use selfplay::arena::{LeafValues, PlayerSpec};
use selfplay::stats::blunders::{
    Blunders, ModelBlunders, prior_blunders, search_blunders, tactical_positions,
};
use selfplay::stats::refutation::{refutations, value_discrimination};
use selfplay::stats::values::{ValueProbe, buckets, model_values, probe_positions};
use selfplay::stats::{openings, summary};
use train::{EvaluatorFactory, Source};

use crate::input::{BadInput, names, play_search};
use crate::progress;

/// The two statistics.
#[derive(Subcommand, Debug)]
pub enum StatsCommand {
    /// The tree of opening lines from the start position: games, shares, wins per seat, draws,
    /// the mover's score with a 95% interval, and mean game length.
    Openings(OpeningsArgs),
    /// Per generation and termination: games, wins per seat, draws, length distribution,
    /// captures and castle entries per game.
    Summary(RecordsArgs),
    /// How often models' priors (and searches) choose a move that a shallow alpha-beta search
    /// shows to lose material, on the games' tactical positions.
    Blunders(BlundersArgs),
    /// The value probe: what models' value heads say of the games' positions, by the mover's
    /// material balance, beside what those positions scored in the games.
    Values(ValuesArgs),
}

/// How the result is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Table,
    Csv,
    Json,
}

/// Which games the statistics are over, and the output format.
#[derive(Args, Debug)]
pub struct RecordsArgs {
    /// Run directories, games directories (searched recursively for games-NNNNNN.parquet shards)
    /// or games files.
    #[arg(long, num_args = 1.., required = true, value_name = "PATH")]
    pub games: Vec<PathBuf>,
    /// Only these generations: G, A-B (inclusive) or A- (A and later).
    #[arg(long, value_name = "G|A-B|A-")]
    pub generation: Option<GenerationRange>,
    /// Only games of this variant (required when the records hold both).
    #[arg(long, value_parser = names(VariantKind::ALL, VariantKind::as_str))]
    pub variant: Option<VariantKind>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// `stats openings`.
#[derive(Args, Debug)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub records: RecordsArgs,
    /// Length of the lines, in moves (of all players).
    #[arg(long, default_value_t = 2)]
    pub depth: usize,
    /// Leave out lines played in fewer games.
    #[arg(long, default_value_t = 1)]
    pub min_games: usize,
    /// Also draw the most played first moves with their score into this .png or .svg file.
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
}

/// `stats blunders`.
#[derive(Args, Debug)]
pub struct BlundersArgs {
    #[command(flatten)]
    pub records: RecordsArgs,
    /// The models to measure, each on the same positions: checkpoint folders, optionally with
    /// an arena player's options (`DIR:sims=N`, `,heuristic=W`, `,judge=…`, `,draw=X`).
    #[arg(long, num_args = 1.., required = true, value_name = "DIR[:OPTIONS]")]
    pub model: Vec<String>,
    /// Tactical positions to measure on (at most; fewer when the games hold fewer).
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// The judge's alpha-beta depth in plies (1-4), with quiescence.
    #[arg(long, default_value_t = 1)]
    pub depth: u32,
    /// A move loses when its score is this much below the best move's (hundredths of a Man).
    #[arg(long, default_value_t = 100)]
    pub margin: i32,
    /// Also search every position with each model's simulations (`sims=`, default 64) and
    /// count the losing choices; without it, only the prior is measured.
    #[arg(long)]
    pub search: bool,
    /// A run configuration (TOML) whose [play] section sets how the model searches; its other
    /// sections are not used. Without it, the [play] defaults.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Only the positions where this player is to move, as the games' records name their players
    /// (`gen-0044:sims=64` in an arena's records; `gen-0044` matches it without its options).
    #[arg(long, value_name = "NAME")]
    pub mover: Option<String>,
    /// Seed of the order in which the games' positions are judged.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// `stats values`.
#[derive(Args, Debug)]
pub struct ValuesArgs {
    #[command(flatten)]
    pub records: RecordsArgs,
    /// The models whose value heads are read, each on the same positions: checkpoint folders.
    #[arg(long, num_args = 1.., required = true, value_name = "DIR")]
    pub model: Vec<PathBuf>,
}

pub fn run(command: StatsCommand) -> Result<()> {
    match command {
        StatsCommand::Openings(args) => run_openings(&args),
        StatsCommand::Summary(args) => run_summary(&args),
        StatsCommand::Blunders(args) => run_blunders(&args),
        StatsCommand::Values(args) => run_values(&args),
    }
}

fn run_openings(args: &OpeningsArgs) -> Result<()> {
    if args.depth == 0 {
        return Err(bad(StatsError::ZeroDepth).into());
    }
    if let Some(path) = &args.chart {
        ChartFormat::from_path(path).map_err(|e| BadInput(e.to_string()))?;
    }
    let (variant, games) = load(&args.records)?;
    let tree = games::with_variant!(variant, V => {
        openings::openings::<V>(&games, args.depth, args.min_games)
    })
    .map_err(bad)?;
    print_report(args.records.format, &tree)?;
    if let Some(path) = &args.chart {
        openings_view::chart(&tree, path)?;
        eprintln!("chart written to {}", path.display());
    }
    Ok(())
}

fn run_summary(args: &RecordsArgs) -> Result<()> {
    let (variant, games) = load(args)?;
    let s = games::with_variant!(variant, V => summary::summary::<V>(&games)).map_err(bad)?;
    print_report(args.format, &s)?;
    Ok(())
}

fn run_blunders(args: &BlundersArgs) -> Result<()> {
    let judge = TacticsFilter::AlphaBeta { depth: args.depth, margin: args.margin };
    if let Some((key, problem)) = judge.problem_at(["--depth", "--margin"]) {
        return Err(BadInput(format!("{key} {problem}")).into());
    }
    if args.positions == 0 {
        return Err(BadInput("--positions must be at least 1".into()).into());
    }
    let models = args.model.iter().map(|m| model(m)).collect::<Result<Vec<_>, _>>()?;
    let play = play_search(args.config.as_deref())?;
    let (variant, games) = load(&args.records)?;
    let b = games::with_variant!(variant, V => blunders::<V>(args, judge, &models, &play, &games))?;
    print_report(args.records.format, &b)?;
    Ok(())
}

fn run_values(args: &ValuesArgs) -> Result<()> {
    if let Some(dir) = args.model.iter().find(|d| !d.is_dir()) {
        return Err(BadInput(format!("--model {}: no such directory", dir.display())).into());
    }
    let (variant, games) = load(&args.records)?;
    let probe = games::with_variant!(variant, V => value_probe::<V>(&args.model, &games))?;
    print_report(args.records.format, &probe)?;
    Ok(())
}

/// Prints a statistic in the format asked for (the JSON pretty-printed and ended by a newline).
fn print_report(format: Format, report: &impl TableView) -> Result<()> {
    let rendered = match format {
        Format::Table => report.text(),
        Format::Csv => report.csv(),
        Format::Json => serde_json::to_string_pretty(&report.json())? + "\n",
    };
    out!("{rendered}")?;
    Ok(())
}

/// Each of `models`' value heads on the probe positions of `games`.
fn value_probe<V: Variant>(models: &[PathBuf], games: &[SourcedGame]) -> Result<ValueProbe> {
    let positions = probe_positions::<V>(games).map_err(bad)?;
    if positions.is_empty() {
        return Err(BadInput(format!("no positions to probe in the {} games", games.len())).into());
    }
    let mut rows = Vec::new();
    for dir in models {
        let name = dir.display().to_string();
        let source = Source::Checkpoint(dir.clone());
        let factory = EvaluatorFactory::new::<State<V>>(&source, DeviceKind::Cpu, 0)
            .map_err(|e| BadInput(format!("--model {name}: {}", train::error_chain(&e))))?;
        // A draw worth 0 to every seat: the seats' values are their win probabilities.
        let mut evaluator = factory.make::<State<V>>(DrawScore::Fixed(0.0));
        rows.push(model_values(&name, &positions, &mut evaluator));
    }
    Ok(ValueProbe {
        variant: V::NAME,
        games: games.len(),
        buckets: buckets(&positions),
        models: rows,
    })
}

/// A `--model`: the text as written and its checkpoint player's options.
struct Model {
    text: String,
    dir: PathBuf,
    sims: u32,
    draw: DrawScore,
    values: LeafValues,
}

/// `--model`'s `text` as a checkpoint player's spec whose folder exists.
fn model(text: &str) -> Result<Model, BadInput> {
    let bad = |why: String| BadInput(format!("--model {text}: {why}"));
    match text.parse::<PlayerSpec>().map_err(|e| bad(e.to_string()))? {
        PlayerSpec::Checkpoint { dir, .. } if !dir.is_dir() => Err(bad("no such directory".into())),
        PlayerSpec::Checkpoint { clock: Some(_), .. } => {
            Err(bad("positions are searched with sims=, not on a clock (tc=)".into()))
        }
        PlayerSpec::Checkpoint { dir, sims, draw, values, .. } => {
            Ok(Model { text: text.to_string(), dir, sims, draw, values })
        }
        _ => Err(bad("not a checkpoint folder".into())),
    }
}

/// Each of `models` measured on the tactical positions of `games`, judged by `judge`.
fn blunders<V: Variant>(
    args: &BlundersArgs,
    judge: TacticsFilter,
    models: &[Model],
    play: &PlaySearch,
    games: &[SourcedGame],
) -> Result<Blunders> {
    let mover = args.mover.as_deref();
    let set =
        tactical_positions::<V>(games, judge, args.positions, args.seed, mover).map_err(bad)?;
    if let (Some(m), 0) = (mover, set.candidates) {
        return Err(BadInput(format!(
            "no positions in the {} games where `{m}` is to move (the records name their players \
             as `{}`, say)",
            games.len(),
            games.first().map_or("", |g| g.record.model.as_str())
        ))
        .into());
    }
    if set.positions.is_empty() {
        return Err(BadInput(format!(
            "no tactical positions in the {} games ({} judged): no move loses {} or more by \
             alpha-beta depth {} where another does not",
            games.len(),
            set.judged,
            args.margin,
            args.depth
        ))
        .into());
    }
    let lines = refutations(&set, judge);
    let mut rows = Vec::new();
    for Model { text, dir, sims, draw, values } in models {
        let source = Source::Checkpoint(dir.clone());
        let factory = EvaluatorFactory::new::<State<V>>(&source, DeviceKind::Cpu, 0)
            .map_err(|e| BadInput(format!("--model {text}: {}", train::error_chain(&e))))?;
        let mut evaluator = values.apply(factory.make::<State<V>>(*draw));
        let prior = prior_blunders(&set, &mut evaluator);
        let discrimination = value_discrimination(&set, &lines, &mut evaluator);
        let search = args
            .search
            .then(|| {
                let bar = progress::bar(set.positions.len() as u64, "positions");
                bar.set_message(text.clone());
                let found =
                    search_blunders(&set, &lines, play, *sims, &mut evaluator, || bar.inc(1));
                progress::clear(&bar);
                found
            })
            .transpose()?;
        rows.push(ModelBlunders { model: text.clone(), prior, discrimination, search });
    }
    Ok(Blunders {
        variant: V::NAME,
        depth: args.depth,
        margin: args.margin,
        positions: set.positions.len(),
        judged: set.judged,
        candidates: set.candidates,
        uniform_mass: set.uniform_mass(),
        mover: args.mover.clone(),
        models: rows,
    })
}

/// The games selected by `args`, with their (single) variant.
fn load(args: &RecordsArgs) -> Result<(VariantKind, Vec<SourcedGame>), BadInput> {
    let files = games_files(&args.games).map_err(bad)?;
    let games = read_all(&files).map_err(bad)?;
    let variant = args.variant.map(VariantKind::as_str);
    let (name, games) = filter(games, args.generation, variant).map_err(bad)?;
    let kind = name.parse().map_err(|e: games::UnknownName| BadInput(e.to_string()))?;
    Ok((kind, games))
}

fn bad(e: StatsError) -> BadInput {
    BadInput(e.to_string())
}
