//! Per-generation summary of a set of games: outcomes, terminations, game lengths, and captures
//! and castle entries per game (counted by replaying every game, since the `games` records do not
//! store them).
//!
//! There is one row for all games of a generation (`termination` = `None`) followed by one row
//! per termination found in that generation, in the order `castle`, `capture-all`, `no-move`,
//! `draw`, `move-limit`, `resign`; so "outcomes by termination" are the wins and draws of those
//! rows.

use std::collections::BTreeMap;

use games::{Termination, Variant};
use rayon::prelude::*;

use super::replay::{Replay, bad_game, replay};
use super::tally::{Lengths, Outcomes};
use records::collection::{SourcedGame, StatsError};

/// The figures of one set of games: a generation, or its games of one termination.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    pub generation: u32,
    /// `None`: all games of the generation.
    pub termination: Option<Termination>,
    pub games: usize,
    pub outcomes: Outcomes,
    /// Lengths in complete moves.
    pub lengths: Lengths,
    /// Pieces captured per game.
    pub captures_per_game: f64,
    /// Moves into the mover's goal castle per game (see [`Replay::castle_entries`]).
    pub castle_entries_per_game: f64,
}

/// The summary of a set of games of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub variant: &'static str,
    pub seats: &'static [&'static str],
    pub rows: Vec<SummaryRow>,
}

/// Summarises `games` (all of variant `V`) by generation; every game is replayed from its start
/// position, and one that cannot be is an error.
pub fn summary<V: Variant>(games: &[SourcedGame]) -> Result<Summary, StatsError> {
    let replays: Vec<Replay> = games
        .par_iter()
        .map(|g| {
            let r = &g.record;
            replay::<V>(&r.start_position, &r.moves, usize::MAX).map_err(bad_game(g))
        })
        .collect::<Result<_, _>>()?;
    let mut by_generation = BTreeMap::<u32, Vec<(&SourcedGame, &Replay)>>::new();
    for (g, r) in games.iter().zip(&replays) {
        by_generation.entry(g.record.generation).or_default().push((g, r));
    }
    let mut rows = Vec::new();
    for (generation, list) in by_generation {
        rows.push(row::<V>(generation, None, &list));
        for t in Termination::ALL {
            let some: Vec<_> =
                list.iter().copied().filter(|(g, _)| g.record.termination == t).collect();
            if !some.is_empty() {
                rows.push(row::<V>(generation, Some(t), &some));
            }
        }
    }
    Ok(Summary { variant: V::NAME, seats: V::PLAYER_NAMES, rows })
}

fn row<V: Variant>(
    generation: u32,
    termination: Option<Termination>,
    games: &[(&SourcedGame, &Replay)],
) -> SummaryRow {
    let mut outcomes = Outcomes::new(V::NUM_PLAYERS);
    let (mut captures, mut entries) = (0u64, 0u64);
    let mut lengths = Vec::with_capacity(games.len());
    for (g, r) in games {
        outcomes.add(&g.record.result);
        captures += u64::from(r.captures);
        entries += u64::from(r.castle_entries);
        lengths.push(g.record.plies);
    }
    let n = games.len().max(1) as f64;
    SummaryRow {
        generation,
        termination,
        games: games.len(),
        outcomes,
        lengths: Lengths::of(&lengths),
        captures_per_game: captures as f64 / n,
        castle_entries_per_game: entries as f64 / n,
    }
}
