//! `stats openings` and `stats summary`: statistics over recorded games (see `selfplay::stats`).
//!
//! Every problem with the input — a missing path, a file that is not a games record, records
//! mixing variants, a filter that leaves nothing, a move that cannot be replayed, `--depth 0`, a
//! chart name that is not `.png`/`.svg` — is [`BadInput`] (exit status 2).

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use games::VariantKind;
use report::charts::ChartFormat;
use report::stats::{openings_view, summary_view};
use selfplay::stats::source::{
    GenerationRange, SourcedGame, StatsError, filter, games_files, read_all,
};
use selfplay::stats::{openings, summary};

use crate::input::{BadInput, names};

/// The two statistics.
#[derive(Subcommand, Debug)]
pub enum StatsCommand {
    /// The tree of opening lines from the start position: games, shares, wins per seat, draws,
    /// the mover's score with a 95% interval, and mean game length.
    Openings(OpeningsArgs),
    /// Per generation and termination: games, wins per seat, draws, length distribution,
    /// captures and castle entries per game.
    Summary(RecordsArgs),
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

pub fn run(command: StatsCommand) -> Result<()> {
    match command {
        StatsCommand::Openings(args) => run_openings(&args),
        StatsCommand::Summary(args) => run_summary(&args),
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
    let text = match args.records.format {
        Format::Table => openings_view::text(&tree),
        Format::Csv => openings_view::csv(&tree),
        Format::Json => serde_json::to_string_pretty(&openings_view::json(&tree))? + "\n",
    };
    out!("{text}")?;
    if let Some(path) = &args.chart {
        openings_view::chart(&tree, path)?;
        eprintln!("chart written to {}", path.display());
    }
    Ok(())
}

fn run_summary(args: &RecordsArgs) -> Result<()> {
    let (variant, games) = load(args)?;
    let s = games::with_variant!(variant, V => summary::summary::<V>(&games)).map_err(bad)?;
    let text = match args.format {
        Format::Table => summary_view::text(&s),
        Format::Csv => summary_view::csv(&s),
        Format::Json => serde_json::to_string_pretty(&summary_view::json(&s))? + "\n",
    };
    out!("{text}")?;
    Ok(())
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
