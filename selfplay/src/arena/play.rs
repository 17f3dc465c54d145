//! [`play_match`]: the games of a match, in lockstep.
//!
//! Up to `games_in_flight` games are played at once. One step: every game advances in parallel
//! (rayon) until a network player must evaluate a leaf, or it ends (random, greedy and
//! rollout-MCTS players move without waiting: their work is done inside the step, in parallel
//! across games). The leaves are then grouped by player and each network player evaluates its
//! group in **one** `evaluate` call (a batched forward pass), and the evaluations are applied in
//! parallel. Finished games are handed to the caller and their slots refilled, in game-id order.
//!
//! Every game has its own random streams (seeded from the match seed and its id), and the
//! batches are the same in every run, so a match is reproducible from its seed.

use std::time::{Duration, Instant};

use games::{RuleOptions, State, Variant};
use rayon::prelude::*;

use super::ArenaError;
use super::game::ArenaGame;
use super::player::{ArenaPlayer, Kind};
#[cfg(doc)]
use super::rollout::MoveRollouts;
use super::slot::{Slot, Step, Table};
use crate::evaluator::Evaluation;
use crate::mcts::{Leaf, MctsConfig};
use games::GoalDistances;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Number of games (game ids `0..games`).
    pub games: u64,
    /// Seed of the openings and of every game's random choices.
    pub seed: u64,
    /// Complete moves at the start of each game played uniformly at random (the same for all
    /// games of a round, so each opening is played from every side).
    pub opening_moves: u32,
    /// Complete moves (the opening included) after which a game is a draw (`move-limit`).
    pub max_moves: u32,
    /// Games played at once: the largest batch a network player evaluates.
    pub games_in_flight: usize,
    /// Search options of the searching players; `simulations` comes from each player's spec,
    /// root noise is off and the temperature is 0.
    pub mcts: MctsConfig,
    /// Complete moves per random playout of the `mcts` players ([`MoveRollouts`]; a playout
    /// cut off is a draw).
    pub rollout_moves: usize,
    /// Rules of the games.
    pub options: RuleOptions,
}

/// Default number of random opening moves.
pub const DEFAULT_OPENING_MOVES: u32 = 4;

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            games: 20,
            seed: 1,
            opening_moves: DEFAULT_OPENING_MOVES,
            max_moves: 400,
            games_in_flight: 64,
            mcts: MctsConfig::default(),
            rollout_moves: 1000,
            options: RuleOptions::default(),
        }
    }
}

/// Work counters of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Network evaluations (states), over all network players.
    pub evaluations: u64,
    /// `evaluate` calls.
    pub batches: u64,
    /// Time spent inside `evaluate`.
    pub evaluator_time: Duration,
    /// Wall time of the whole match.
    pub wall_time: Duration,
}

/// Plays the match between `players` (index = player; exactly `V::NUM_PLAYERS` of them) and
/// returns the games in game-id order. `on_game` sees each game as it finishes.
pub fn play_match<V: Variant>(
    players: &mut [ArenaPlayer<V>],
    config: &MatchConfig,
    mut on_game: impl FnMut(&ArenaGame),
) -> Result<(Vec<ArenaGame>, MatchStats), ArenaError> {
    if players.len() != V::NUM_PLAYERS {
        return Err(ArenaError::PlayerCount {
            variant: V::NAME,
            expected: V::NUM_PLAYERS,
            got: players.len(),
        });
    }
    if config.games == 0 {
        return Err(ArenaError::NoGames);
    }
    config.mcts.validate().map_err(|e| ArenaError::Search(e.into()))?;
    let started = Instant::now();
    let kinds: Vec<Kind> = players.iter().map(ArenaPlayer::kind).collect();
    let distances = GoalDistances::new::<V>();
    let table = Table {
        kinds: &kinds,
        mcts: &config.mcts,
        distances: &distances,
        max_moves: config.max_moves,
        rollout_moves: config.rollout_moves,
    };
    let new_slot = |id: u64| {
        Slot::new(
            id,
            config.seed,
            State::<V>::start_with(config.options),
            config.opening_moves,
            &table,
        )
    };
    let mut next = 0..config.games;
    let mut slots: Vec<Slot<V>> = Vec::new();
    let mut finished: Vec<ArenaGame> = Vec::with_capacity(config.games as usize);
    let mut stats = MatchStats::default();
    while slots.len() < config.games_in_flight.max(1) {
        match next.next() {
            Some(id) => slots.push(new_slot(id)),
            None => break,
        }
    }
    while !slots.is_empty() {
        let steps: Vec<Result<Step<V>, _>> = slots.par_iter_mut().map(|s| s.step(&table)).collect();
        let mut leaves: Vec<Option<(usize, Leaf<State<V>>)>> = Vec::with_capacity(slots.len());
        let mut done = Vec::new();
        for (i, step) in steps.into_iter().enumerate() {
            match step? {
                Step::Evaluate { player, leaf } => leaves.push(Some((player, *leaf))),
                Step::Finished => {
                    leaves.push(None);
                    done.push(i);
                }
            }
        }
        let evals = evaluate_by_player(players, &leaves, &mut stats)?;
        let work: Vec<Option<(Leaf<State<V>>, Evaluation)>> = leaves
            .into_iter()
            .zip(evals)
            .map(|(l, e)| l.zip(e).map(|((_, leaf), eval)| (leaf, eval)))
            .collect();
        slots.par_iter_mut().zip(work).try_for_each(|(slot, w)| match w {
            Some((leaf, eval)) => slot.apply(leaf, eval),
            None => Ok(()),
        })?;
        for i in done.into_iter().rev() {
            let game = slots.remove(i).finish();
            on_game(&game);
            finished.push(game);
            if let Some(id) = next.next() {
                slots.insert(i, new_slot(id));
            }
        }
    }
    finished.sort_by_key(|g| g.game_id);
    stats.wall_time = started.elapsed();
    Ok((finished, stats))
}

/// A leaf to be evaluated by player `.0`'s network.
type PlayerLeaf<V> = (usize, Leaf<State<V>>);

/// One `evaluate` call per network player with the leaves of its games; the evaluations come
/// back in the order of `leaves`.
fn evaluate_by_player<V: Variant>(
    players: &mut [ArenaPlayer<V>],
    leaves: &[Option<PlayerLeaf<V>>],
    stats: &mut MatchStats,
) -> Result<Vec<Option<Evaluation>>, ArenaError> {
    let mut out: Vec<Option<Evaluation>> = vec![None; leaves.len()];
    for (p, player) in players.iter_mut().enumerate() {
        let mine: Vec<usize> = leaves
            .iter()
            .enumerate()
            .filter(|(_, l)| l.as_ref().is_some_and(|(q, _)| *q == p))
            .map(|(i, _)| i)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let Some(evaluator) = player.evaluator() else {
            return Err(ArenaError::NoEvaluator(p));
        };
        let states: Vec<State<V>> =
            mine.iter().filter_map(|&i| leaves[i].as_ref().map(|(_, l)| l.state.clone())).collect();
        let t = Instant::now();
        let evals = evaluator.evaluate(&states);
        stats.evaluator_time += t.elapsed();
        stats.batches += 1;
        stats.evaluations += states.len() as u64;
        if evals.len() != states.len() {
            return Err(ArenaError::EvaluationCount {
                player: p,
                expected: states.len(),
                got: evals.len(),
            });
        }
        for (i, e) in mine.into_iter().zip(evals) {
            out[i] = Some(e);
        }
    }
    Ok(out)
}
