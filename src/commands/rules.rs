//! `moves` and `perft`: the rules engine on the command line. Both take a position string with
//! a move in progress (`... move=E6-E8`): its moves are then the complete moves that continue it.

use std::time::Instant;

use anyhow::Result;
use games::{State, Variant, perft as count};
use rayon::prelude::*;

use crate::input::{BadInput, PositionArgs};

/// The deepest `perft` accepted: perft(4) of Camelot is 112 million leaves and the count grows
/// about 35-fold per move, so depth 12 is already far beyond any machine; the bound keeps a
/// mistyped depth from running forever (or overflowing the stack of the recursive count).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Prints the legal moves, one per line, ordered by their cells' square indices.
pub fn moves(args: &PositionArgs) -> Result<()> {
    games::with_variant!(args.variant()?, V => print_moves(&args.state::<V>()?))
}

fn print_moves<V: Variant>(state: &State<V>) -> Result<()> {
    let pos = state.position();
    let mut moves: Vec<_> = state.continuations().collect();
    moves
        .sort_by(|a, b| a.path().cmp(b.path()).then_with(|| pos.notation(a).cmp(&pos.notation(b))));
    for m in moves {
        outln!("{}", pos.notation(m))?;
    }
    Ok(())
}

/// Prints perft(depth), the total alone on the last line of standard output; the time and
/// speed go to standard error.
pub fn perft(args: &PositionArgs, depth: u32, divide: bool) -> Result<()> {
    if depth > MAX_PERFT_DEPTH {
        return Err(BadInput(format!(
            "perft depth {depth} is more than {MAX_PERFT_DEPTH} (it would never finish)"
        ))
        .into());
    }
    games::with_variant!(args.variant()?, V => run_perft(&args.state::<V>()?, depth, divide))
}

fn run_perft<V: Variant>(state: &State<V>, depth: u32, divide: bool) -> Result<()> {
    let start = Instant::now();
    let split = parallel_divide(state, depth);
    // perft(0) counts the position itself: one sequence of no moves.
    let total: u64 = if depth == 0 { 1 } else { split.iter().map(|(_, n)| n).sum() };
    if divide {
        let mut lines: Vec<_> = split.iter().map(|(m, n)| (m.clone(), *n)).collect();
        lines.sort_by(|a, b| a.0.cmp(&b.0));
        for (m, n) in lines {
            outln!("{m} {n}")?;
        }
    }
    outln!("{total}")?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft({depth}) = {total} in {secs:.3} s ({:.1} M leaves/s)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

/// perft below each first move (each continuation of a move in progress), the first moves
/// spread over rayon's threads.
pub fn parallel_divide<V: Variant>(state: &State<V>, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let pos = state.position();
    let first: Vec<_> = state.continuations().cloned().collect();
    first
        .into_par_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(&m);
            (pos.notation(&m), count(&next, depth - 1))
        })
        .collect()
}
