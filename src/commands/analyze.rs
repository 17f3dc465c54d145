//! `analyze`: what the search (and the network) think of one position: the legal actions with
//! visits, prior and values per seat, and the principal variation in official notation.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use games::{Encode, Game, RuleOptions, State, Variant};
use model::DeviceKind;
use rand::SeedableRng;
use selfplay::mcts::tree::{NodeId, Tree};
use selfplay::{DrawScore, Evaluator, MctsConfig, Search};
use train::evaluators::error_chain;
use train::{EvaluatorFactory, Source};

use crate::input::{BadInput, PositionArgs};

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
    /// Lines of the action table.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// Print only the network's raw output for the position (no search): the value per seat and
    /// the policy over the legal actions, as `action index probability` lines.
    #[arg(long)]
    pub raw: bool,
}

pub fn run(args: AnalyzeArgs) -> Result<()> {
    games::with_variant!(args.pos.variant()?, V => analyze::<V>(&args))
}

fn analyze<V: Variant>(args: &AnalyzeArgs) -> Result<()>
where
    State<V>: Encode,
{
    let text = if args.pos.position.trim() == "start" {
        V::START.to_string()
    } else {
        args.pos.position.clone()
    };
    let options: RuleOptions = args.pos.options();
    let state = State::<V>::parse_with(&text, options)
        .map_err(|e| BadInput(format!("bad position: {e}")))?;
    if let Some(over) = state.outcome() {
        println!("game over: {:?} ({})", over.outcome, over.termination);
        return Ok(());
    }
    let source = args.model.clone().map_or(Source::Uniform, Source::Checkpoint);
    let factory = EvaluatorFactory::new::<State<V>>(&source, DeviceKind::Cpu, 0)
        .map_err(|e| BadInput(error_chain(&e)))?;
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
        println!("values {}", values.join(" "));
        for (a, p) in legal.iter().zip(&raw.policy) {
            println!("{} {} {:.6}", state.action_to_string(*a), state.action_index(*a), p);
        }
        return Ok(());
    }
    let config = MctsConfig::analysis(args.sims);
    let mut search = Search::new(state.clone(), config)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    let summary = search.run(&mut evaluator, &mut rng)?;
    println!("{}", state);
    println!(
        "{} to move; network values {}; searched values {} ({} simulations)",
        V::PLAYER_NAMES[state.to_move().index()],
        seats(&raw.values),
        seats(&summary.root_values),
        summary.simulations
    );
    let tree = search.tree();
    let mut order: Vec<usize> = (0..summary.actions.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(summary.visits[i]));
    println!("{:<12} {:>7} {:>7}  values per seat", "action", "visits", "prior");
    for &i in order.iter().take(args.top) {
        let child = tree.node(tree.child(NodeId(0), i));
        let values = if child.n > 0 { seats(&child.q_values()) } else { "-".into() };
        println!(
            "{:<12} {:>7} {:>7.3}  {}",
            state.action_to_string(summary.actions[i]),
            summary.visits[i],
            summary.priors[i],
            values
        );
    }
    println!("principal variation: {}", principal_variation(&state, tree));
    Ok(())
}

/// The most visited line of the tree, as complete moves in official notation (a move still in
/// progress at the end is shown by its legs).
fn principal_variation<G: Game>(root: &G, tree: &Tree<G::Action>) -> String {
    let mut state = root.clone();
    let mut id = NodeId(0);
    let mut line = Vec::new();
    let mut legs = Vec::new();
    loop {
        let Some(best) = tree.children(id).max_by_key(|&c| tree.node(c).n) else { break };
        let node = tree.node(best);
        let Some(action) = node.action else { break };
        if node.n == 0 {
            break;
        }
        legs.push(state.action_to_string(action));
        state.play(action);
        if let Some(m) = state.last_move() {
            line.push(m);
            legs.clear();
        }
        id = best;
    }
    if !legs.is_empty() {
        line.push(format!("({})", legs.join(" ")));
    }
    line.join(" ")
}
