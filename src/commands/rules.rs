//! `moves` and `perft`: the rules engine on the command line.

use std::time::Instant;

use anyhow::Result;
use games::{Position, Variant, perft as count};
use rayon::prelude::*;

use crate::input::PositionArgs;

/// Prints the legal moves, one per line, ordered by their cells' square indices.
pub fn moves(args: &PositionArgs) -> Result<()> {
    games::with_variant!(args.variant()?, V => print_moves(&args.position::<V>()?))
}

fn print_moves<V: Variant>(pos: &Position<V>) -> Result<()> {
    let mut moves = pos.legal_moves();
    moves
        .sort_by(|a, b| a.path().cmp(b.path()).then_with(|| pos.notation(a).cmp(&pos.notation(b))));
    for m in &moves {
        println!("{}", pos.notation(m));
    }
    Ok(())
}

/// Prints perft(depth), the total alone on the last line of standard output; the time and
/// speed go to standard error.
pub fn perft(args: &PositionArgs, depth: u32, divide: bool) -> Result<()> {
    games::with_variant!(args.variant()?, V => run_perft(&args.position::<V>()?, depth, divide))
}

fn run_perft<V: Variant>(pos: &Position<V>, depth: u32, divide: bool) -> Result<()> {
    let start = Instant::now();
    let split = parallel_divide(pos, depth);
    let total: u64 = split.iter().map(|(_, n)| n).sum();
    if divide {
        let mut lines: Vec<_> = split.iter().map(|(m, n)| (m.clone(), *n)).collect();
        lines.sort_by(|a, b| a.0.cmp(&b.0));
        for (m, n) in lines {
            println!("{m} {n}");
        }
    }
    println!("{}", if depth == 0 { 1 } else { total });
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft({depth}) = {total} in {secs:.3} s ({:.1} M leaves/s)",
        total as f64 / secs / 1e6
    );
    Ok(())
}

/// perft below each first move, the first moves spread over rayon's threads.
pub fn parallel_divide<V: Variant>(pos: &Position<V>, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_par_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(&m);
            (pos.notation(&m), count(&next, depth - 1))
        })
        .collect()
}
