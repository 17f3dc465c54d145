//! `analyze`: what the search (and the network) think of one position: the legal actions with
//! visits, prior and values per seat, and the principal variation in official notation.

use classical::GuardedSearch;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use games::{Game, RuleOptions, State, Variant};
use model::DeviceKind;
use rand::SeedableRng;
use search::mcts::Analysis;
use search::{DrawScore, Evaluator};
use train::{EvaluatorFactory, Source};

use crate::input::{BadInput, PositionArgs, play_search};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// A checkpoint folder; without one, uniform priors and draw values are searched.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Simulations.
    #[arg(long, default_value_t = 800)]
    pub sims: u32,
    /// A run configuration (TOML) whose [play] section sets how the model searches (its
    /// tactics filter, say); its other sections are not used. Without it, the [play] defaults.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Lines of the action table.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Print only the network's raw output for the position (no search): the value per seat and
    /// the policy over the legal actions, as `action index probability` lines.
    #[arg(long)]
    pub raw: bool,
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
    games::with_variant!(args.pos.variant_or_model(args.model.as_deref())?, V => analyze::<V>(&args))
}

fn analyze<V: Variant>(args: &AnalyzeArgs) -> Result<()> {
    let text = if args.pos.position.trim() == "start" {
        V::START.to_string()
    } else {
        args.pos.position.clone()
    };
    let play = play_search(args.config.as_deref())?;
    let options: RuleOptions = args.pos.options();
    let state = State::<V>::parse_with(&text, options)
        .map_err(|e| BadInput(format!("bad position: {e}")))?;
    if let Some(over) = state.outcome() {
        outln!("game over: {:?} ({})", over.outcome, over.termination)?;
        return Ok(());
    }
    let source = args.model.clone().map_or(Source::Uniform, Source::Checkpoint);
    let factory = EvaluatorFactory::new::<State<V>>(&source, DeviceKind::Cpu, 0)
        .map_err(|e| BadInput(train::error_chain(&e)))?;
    let mut evaluator = factory.make::<State<V>>(DrawScore::Share);
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let raw = evaluator.evaluate(std::slice::from_ref(&state)).remove(0);
    let seats = |v: &games::Values| -> String {
        (0..V::NUM_PLAYERS)
            .map(|p| format!("{}={:.3}", V::PLAYER_LETTERS[p], v.0[p]))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if args.raw {
        // Six decimals: scripts/check_onnx.py compares other runtimes' outputs to 1e-4.
        let values: Vec<String> = (0..V::NUM_PLAYERS)
            .map(|p| format!("{}={:.6}", V::PLAYER_LETTERS[p], raw.values.0[p]))
            .collect();
        outln!("values {}", values.join(" "))?;
        for (a, p) in legal.iter().zip(&raw.policy) {
            outln!("{} {} {:.6}", state.action_to_string(*a), state.action_index(*a), p)?;
        }
        return Ok(());
    }
    let mut search = play.search(state.clone(), args.sims)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let summary = search.run(&mut evaluator, &mut rng)?;
    outln!("{}", state)?;
    outln!(
        "{} to move; network values {}; searched values {} ({} simulations)",
        V::PLAYER_NAMES[state.to_move().index()],
        seats(&raw.values),
        seats(&summary.root_values),
        summary.simulations
    )?;
    let analysis = Analysis::new(&search, &summary);
    outln!("{:<12} {:>7} {:>7}  values per seat", "action", "visits", "prior")?;
    for line in analysis.actions.iter().take(args.top) {
        outln!(
            "{:<12} {:>7} {:>7.3}  {}",
            state.action_to_string(line.action),
            line.visits,
            line.prior,
            line.values.as_ref().map_or_else(|| "-".into(), seats)
        )?;
    }
    outln!("principal variation: {}", analysis.principal_variation.join(" "))?;
    Ok(())
}
