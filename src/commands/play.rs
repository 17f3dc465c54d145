//! `play`: a human against the model in the terminal. The board is drawn as `show` draws it,
//! moves are typed in official notation, an illegal move is answered with the list of legal
//! moves; `undo` takes back the human's last move (and the replies to it), `save FILE` writes the
//! game (start position and moves, one per line), `moves` lists the legal moves, `quit` ends.
//! Reads standard input line by line, so a game can also be piped in.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use games::{Encode, Position, State, Variant};
use model::DeviceKind;
use rand::SeedableRng;
use selfplay::mcts::complete_move;
use selfplay::{DrawScore, MctsConfig};
use train::evaluators::error_chain;
use train::{EvaluatorFactory, Source};

use super::show::render;
use crate::input::{BadInput, PositionArgs};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// The model's checkpoint folder; without one, the opponent searches with uniform priors.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Simulations per decision of the model.
    #[arg(long, default_value_t = 200)]
    pub sims: u32,
    /// The seat you play (its letter: W/B for Camelot, B/R/G for Tri-Camelot).
    #[arg(long, default_value = "W")]
    pub seat: String,
}

pub fn run(args: PlayArgs) -> Result<()> {
    games::with_variant!(args.pos.variant()?, V => play::<V>(&args))
}

fn play<V: Variant>(args: &PlayArgs) -> Result<()>
where
    State<V>: Encode,
{
    let start = args.pos.position::<V>()?;
    let human = V::PLAYER_LETTERS
        .iter()
        .position(|&c| args.seat.len() == 1 && args.seat.starts_with(c))
        .ok_or_else(|| BadInput(format!("--seat must be one of {:?}", V::PLAYER_LETTERS)))?;
    let source = args.model.clone().map_or(Source::Uniform, Source::Checkpoint);
    let factory = EvaluatorFactory::new::<State<V>>(&source, DeviceKind::Cpu, 0)
        .map_err(|e| BadInput(error_chain(&e)))?;
    let mut evaluator = factory.make::<State<V>>(DrawScore::Share);
    let config = MctsConfig::analysis(args.sims);
    let mut rng = rand::rngs::StdRng::seed_from_u64(0);
    // History of positions between moves (the start first) and the moves played.
    let mut history: Vec<Position<V>> = vec![start.clone()];
    let mut moves: Vec<String> = Vec::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    loop {
        let pos = history.last().expect("the start").clone();
        print!("{}", render(&pos));
        if pos.outcome().is_some() {
            println!("moves: {}", moves.join(" "));
            return Ok(());
        }
        if pos.to_move().index() != human {
            let m = complete_move(State::new(pos.clone()), &config, &mut evaluator, &mut rng)?;
            println!("{} plays {m}", V::PLAYER_NAMES[pos.to_move().index()]);
            let mut next = pos.clone();
            next.play(&pos.parse_move(&m).expect("the engine plays legal moves"));
            history.push(next);
            moves.push(m);
            continue;
        }
        print!("your move ({}): ", V::PLAYER_NAMES[human]);
        out.flush()?;
        let Some(line) = lines.next() else { return Ok(()) };
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["quit"] | ["exit"] => return Ok(()),
            ["moves"] => println!("{}", legal_list(&pos)),
            ["undo"] => {
                // Back to the human's previous turn: drop the replies, then the human's move.
                let mut undone = false;
                while history.len() > 1 {
                    history.pop();
                    moves.pop();
                    if history.last().expect("start").to_move().index() == human {
                        undone = true;
                        break;
                    }
                }
                if !undone {
                    println!("nothing to undo");
                }
            }
            ["save", file] => {
                let text = format!("{}\n{}\n", start, moves.join("\n"));
                std::fs::write(file, text).with_context(|| format!("writing {file}"))?;
                println!("saved {} moves to {file}", moves.len());
            }
            [m] => match pos.parse_move(m) {
                Ok(mv) => {
                    let mut next = pos.clone();
                    next.play(&mv);
                    history.push(next);
                    moves.push(m.to_string());
                }
                Err(e) => println!("{e}; legal moves: {}", legal_list(&pos)),
            },
            _ => println!("type a move (e.g. C6-B5), or moves, undo, save FILE, quit"),
        }
    }
}

fn legal_list<V: Variant>(pos: &Position<V>) -> String {
    let mut list: Vec<String> = pos.legal_moves().iter().map(|m| pos.notation(m)).collect();
    list.sort();
    list.join(" ")
}
