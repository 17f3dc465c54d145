//! `show`: a position drawn in the terminal.
//!
//! Camelot is drawn as a grid (White's pieces `K`/`M`, Black's `k`/`m`, empty castle squares
//! `#`). Tri-Camelot is drawn staggered as on the real board: each rank is a row, and a cell sits
//! three columns per file from the left, so neighbouring ranks interleave like hexagons. Pieces
//! are two letters (player, then `K`/`M`), empty cells `.`, empty castles `#`.

use anyhow::Result;
use games::{Game, Landing, PieceKind, State, Variant};

use crate::input::PositionArgs;

pub fn show(args: &PositionArgs) -> Result<()> {
    games::with_variant!(args.variant()?, V => {
        let state = args.state::<V>()?;
        out!("{}", render(&state))?;
        Ok(())
    })
}

/// The drawing of a position (with a move in progress: the board as its legs left it), with
/// the side to move, the move in progress, castle-move counts and the result.
pub fn render<V: Variant>(state: &State<V>) -> String {
    let pos = state.position();
    let t = V::tables();
    let geo = &t.geometry;
    let castle = |c| (0..V::NUM_PLAYERS).any(|p| t.landing[p][c as usize] == Landing::OwnCastle);
    let cell_text = |c| match state.board().get(c) {
        None if castle(c) => "#".to_string(),
        None => ".".to_string(),
        Some(p) if V::NUM_PLAYERS == 2 => {
            let l = p.kind.letter();
            if p.owner.0 == 0 { l.to_string() } else { l.to_ascii_lowercase().to_string() }
        }
        Some(p) => format!("{}{}", V::PLAYER_LETTERS[p.owner.index()], p.kind.letter()),
    };
    let ranks: Vec<i8> = (0..geo.num_cells() as u8).map(|c| geo.coords(c).1).collect();
    let files: Vec<i8> = (0..geo.num_cells() as u8).map(|c| geo.coords(c).0).collect();
    let (max_rank, max_file) = (*ranks.iter().max().unwrap(), *files.iter().max().unwrap());
    let width = if V::NUM_PLAYERS == 2 { 2 } else { 3 };
    let mut out = String::new();
    let header: String =
        (0..=max_file).map(|f| format!("{:<width$}", (b'A' + f as u8) as char)).collect();
    out.push_str(&format!("    {}\n", header.trim_end()));
    for rank in (1..=max_rank).rev() {
        let mut line = format!("{rank:>3} ");
        for file in 0..=max_file {
            let text = geo.at(file as i32, rank as i32).map_or(String::new(), cell_text);
            line.push_str(&format!("{text:<width$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!("    {}\n", header.trim_end()));
    let mover = V::PLAYER_NAMES[pos.to_move().index()];
    match state.outcome() {
        Some(over) => out.push_str(&format!(
            "Game over: {} ({})\n",
            match over.outcome {
                games::Outcome::Win(p) => format!("{} wins", V::PLAYER_NAMES[p.index()]),
                games::Outcome::Draw => "draw".to_string(),
            },
            over.termination
        )),
        None if state.landed().is_empty() => {
            out.push_str(&format!("{mover} to move, {} legal moves\n", state.moves().len()))
        }
        None => out.push_str(&format!(
            "{mover} to move, move in progress {} ({} legal continuations)\n",
            state.partial_notation(),
            state.continuations().count()
        )),
    }
    if V::CASTLE_MOVES {
        let [w, b] = pos.castle_moves();
        out.push_str(&format!("Castle moves used: White {w}/2, Black {b}/2\n"));
    }
    let counts: Vec<String> = (0..V::NUM_PLAYERS)
        .map(|p| {
            let kinds: Vec<PieceKind> = state
                .board()
                .pieces(geo.num_cells())
                .filter(|(_, q)| q.owner.index() == p)
                .map(|(_, q)| q.kind)
                .collect();
            let knights = kinds.iter().filter(|&&k| k == PieceKind::Knight).count();
            let men = kinds.len() - knights;
            format!("{} {knights}K {men}M", V::PLAYER_NAMES[p])
        })
        .collect();
    out.push_str(&format!("Pieces: {}\n", counts.join(", ")));
    out
}
