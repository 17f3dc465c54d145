//! `play`: a human against the model in the terminal. The board is drawn as `show` draws it,
//! moves are typed in official notation, an illegal move is answered with the list of legal
//! moves; `undo` takes back the human's last move (and the replies to it), `save FILE` writes the
//! game as a saved game (`games::SavedGame`: the start, the moves, the result once there is one),
//! `moves` lists the legal moves, `quit` ends. `--game FILE` goes on from a saved game's last
//! move. Reads standard input line by line, so a game can also be piped in.

use classical::GuardedSearch;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use engine::{EngineClient, Limits};
use games::{Game, SavedGame, State, Variant, VariantKind};
use model::DeviceKind;
use rand::SeedableRng;
use rand::rngs::StdRng;
use search::mcts::complete_move;
use search::{DrawScore, Evaluator, PlaySearch};
use train::{EvaluatorFactory, Source};

use super::show::render;
use crate::input::{BadInput, PositionArgs, play_search};

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// The model's checkpoint folder; without one, the opponent searches with uniform priors.
    #[arg(long, conflicts_with = "engine")]
    pub model: Option<PathBuf>,
    /// An external engine as the opponent: the command line that starts it (a program speaking
    /// the engine protocol, e.g. "camelot-zero engine --model DIR"); every move it answers is
    /// checked by the rules.
    #[arg(long)]
    pub engine: Option<String>,
    /// Simulations per decision of the model.
    #[arg(long, default_value_t = 200)]
    pub sims: u32,
    /// A run configuration (TOML) whose [play] section sets how the model searches (its
    /// tactics filter, say); its other sections are not used. Without it, the [play] defaults.
    #[arg(long, conflicts_with = "engine")]
    pub config: Option<PathBuf>,
    /// The seat you play (its letter: W/B for Camelot, B/R/G for Tri-Camelot).
    #[arg(long, default_value = "W")]
    pub seat: String,
    /// A saved game (what `save FILE` writes, docs/records.md) to go on from, after its last
    /// move; its start replaces POSITION.
    #[arg(long)]
    pub game: Option<PathBuf>,
}

pub fn run(args: PlayArgs) -> Result<()> {
    let saved = match &args.game {
        Some(file) => {
            if args.pos.position.trim() != "start" || args.pos.variant.is_some() {
                return Err(BadInput(
                    "give either a position (or --variant) or --game FILE, not both".into(),
                )
                .into());
            }
            Some(super::replay::read_saved(file)?)
        }
        None => None,
    };
    let variant = match &saved {
        Some(game) => game.variant,
        None => args.pos.variant_or_model(args.model.as_deref())?,
    };
    games::with_variant!(variant, V => play::<V>(&args, saved.as_ref()))
}

fn play<V: Variant>(args: &PlayArgs, saved: Option<&SavedGame>) -> Result<()> {
    // The states between moves (the start first: it may have a move in progress) and the moves
    // played.
    let (mut history, mut moves): (Vec<State<V>>, Vec<String>) = match saved {
        Some(game) => (
            game.states::<V>(args.pos.options()).map_err(|e| BadInput(e.to_string()))?,
            game.moves.clone(),
        ),
        None => (vec![args.pos.state::<V>()?], Vec::new()),
    };
    let start = history[0].clone();
    let human = V::PLAYER_LETTERS
        .iter()
        .position(|&c| args.seat.len() == 1 && args.seat.starts_with(c))
        .ok_or_else(|| BadInput(format!("--seat must be one of {:?}", V::PLAYER_LETTERS)))?;
    let mut opponent = match &args.engine {
        Some(command) => {
            let mut client = EngineClient::start(command).map_err(|e| BadInput(e.to_string()))?;
            let variant: VariantKind = V::NAME.parse()?;
            client
                .new_game(variant, args.pos.knight_canter)
                .map_err(|e| BadInput(e.to_string()))?;
            Opponent::Engine(client)
        }
        None => {
            let source = args.model.clone().map_or(Source::Uniform, Source::Checkpoint);
            let factory = EvaluatorFactory::new::<State<V>>(&source, DeviceKind::Cpu, 0)
                .map_err(|e| BadInput(train::error_chain(&e)))?;
            Opponent::Search {
                evaluator: factory.make::<State<V>>(DrawScore::Share),
                play: play_search(args.config.as_deref())?,
                sims: args.sims,
                rng: rand::rngs::StdRng::seed_from_u64(0),
            }
        }
    };
    let mut input = std::io::stdin().lock();
    loop {
        let state = history.last().expect("the start").clone();
        out!("{}", render(&state))?;
        if state.outcome().is_some() {
            outln!("moves: {}", moves.join(" "))?;
            return Ok(());
        }
        let mover = state.position().to_move().index();
        if mover != human {
            let m = opponent.choose(&start, &moves, &state)?;
            outln!("{} plays {m}", V::PLAYER_NAMES[mover])?;
            // The referee: an external engine's answer is checked like a human's.
            let next = state.after_move(&m).map_err(|e| {
                anyhow::anyhow!("the opponent played `{m}`, which the rules refuse: {e}")
            })?;
            history.push(next);
            moves.push(m);
            continue;
        }
        out!("your move ({}): ", V::PLAYER_NAMES[human])?;
        std::io::stdout().flush()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        // A line that is not text is answered, never the end of the game.
        let Ok(line) = String::from_utf8(bytes) else {
            outln!(
                "that line is not UTF-8 text; type a move (e.g. C6-B5), or moves, undo, save FILE, quit"
            )?;
            continue;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["quit"] | ["exit"] => return Ok(()),
            ["moves"] => outln!("{}", legal_list(&state))?,
            ["undo"] => {
                // Back to the human's previous turn: drop the replies, then the human's move.
                let mut undone = false;
                while history.len() > 1 {
                    history.pop();
                    moves.pop();
                    if history.last().expect("start").position().to_move().index() == human {
                        undone = true;
                        break;
                    }
                }
                if !undone {
                    outln!("nothing to undo")?;
                }
            }
            // A failed save is reported and the game goes on: nothing typed so far is lost.
            ["save", file] => match save(&history, &moves, file) {
                Ok(path) => outln!("saved {} moves to {}", moves.len(), path.display())?,
                Err(e) => outln!("could not save: {e}; the game goes on")?,
            },
            [m] => match state.after_move(m) {
                Ok(next) => {
                    history.push(next);
                    moves.push(m.to_string());
                }
                Err(e) => outln!("{e}; legal moves: {}", legal_list(&state))?,
            },
            _ => outln!("type a move (e.g. C6-B5), or moves, undo, save FILE, quit")?,
        }
    }
}

/// Who plays the other seats: our search, or an external engine.
// One per game: boxing the search's settings would buy nothing.
#[allow(clippy::large_enum_variant)]
enum Opponent<V: Variant> {
    Search { evaluator: Box<dyn Evaluator<State<V>>>, play: PlaySearch, sims: u32, rng: StdRng },
    Engine(EngineClient),
}

impl<V: Variant> Opponent<V> {
    /// The opponent's complete move in `state`, reached by `moves` from `start`.
    fn choose(&mut self, start: &State<V>, moves: &[String], state: &State<V>) -> Result<String> {
        Ok(match self {
            Opponent::Search { evaluator, play, sims, rng } => {
                complete_move(play.search(state.clone(), *sims)?, evaluator.as_mut(), rng)?
            }
            Opponent::Engine(client) => {
                client.best_move(&start.to_string(), moves, &Limits::default())?
            }
        })
    }
}

/// Writes the game (`history`: the states from the start, `moves` between them) to `file`
/// (`~/` is the home folder) as a saved game, atomically; returns the path written.
fn save<V: Variant>(
    history: &[State<V>],
    moves: &[String],
    file: &str,
) -> Result<PathBuf, storage::StorageError> {
    let path = match (file.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(file),
    };
    let variant = V::NAME.parse::<VariantKind>().expect("a variant's own name");
    let mut game = SavedGame::new(variant, history[0].to_string());
    game.moves = moves.to_vec();
    game.finish_from(history.last().expect("the start at least"));
    storage::write_atomic(&path, game.to_string().as_bytes())?;
    Ok(path)
}

/// The moves the mover can type, sorted.
fn legal_list<V: Variant>(state: &State<V>) -> String {
    let pos = state.position();
    let mut list: Vec<String> = state.continuations().map(|m| pos.notation(m)).collect();
    list.sort();
    list.join(" ")
}
