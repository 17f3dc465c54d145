//! `replay`: a saved game (docs/records.md, "Saved games") checked by the rules and printed: its
//! tags, its moves numbered with the seat that played each and their comments, and the board
//! after one of them (`--move N`; by default the last).

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use games::{SavedGame, Variant};

use super::show::render;
use crate::input::BadInput;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The saved game: what `play`'s `save FILE` and the board page's Save write.
    pub file: PathBuf,
    /// The board after this many moves (0: the start); by default after the last.
    #[arg(long = "move")]
    pub after: Option<usize>,
}

/// The saved game in `file`; an error names the file and where in it.
pub fn read_saved(file: &Path) -> Result<SavedGame, BadInput> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| BadInput(format!("cannot read {}: {e}", file.display())))?;
    text.parse().map_err(|e| BadInput(format!("{}: {e}", file.display())))
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let game = read_saved(&args.file)?;
    games::with_variant!(game.variant, V => replay::<V>(&args, &game))
}

fn replay<V: Variant>(args: &ReplayArgs, game: &SavedGame) -> Result<()> {
    let states = game
        .states::<V>(Default::default())
        .map_err(|e| BadInput(format!("{}: {e}", args.file.display())))?;
    let after = args.after.unwrap_or(game.moves.len());
    if after > game.moves.len() {
        return Err(
            BadInput(format!("--move {after}: the game has {} moves", game.moves.len())).into()
        );
    }
    outln!("{} from {}", V::NAME, game.start)?;
    for (name, value) in &game.tags {
        outln!("{name}: {value}")?;
    }
    if !game.comment(0).is_empty() {
        outln!("{{{}}}", game.comment(0))?;
    }
    for (i, m) in game.moves.iter().enumerate() {
        let seat = V::PLAYER_NAMES[games::Game::to_move(&states[i]).index()];
        let comment = game.comment(i + 1);
        let comment = if comment.is_empty() { String::new() } else { format!(" {{{comment}}}") };
        outln!("{:>4}. {seat:<5} {m}{comment}", i + 1)?;
    }
    let result = games::result_text(game.result.as_deref());
    match &game.termination {
        Some(t) => outln!("result {result} ({t})")?,
        None => outln!("result {result}")?,
    }
    outln!("after move {after} of {}:", game.moves.len())?;
    out!("{}", render(&states[after]))?;
    Ok(())
}
