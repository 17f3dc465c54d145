//! Games played by a classical teacher (`selfplay.teacher`): a share of a generation's self-play
//! games played by the alpha-beta player at every seat, its choices recorded as the policy
//! targets, fading out by generation as the leaf heuristic does.
//!
//! A random network's first generations of self-play teach it little but the rules: its searches
//! cannot tell a good move from a bad one, and in Camelot the tactics that decide games (a piece
//! walked beside an enemy with an empty square behind it is jumped, often in a chain) are learnt
//! slowly. `alphabeta:depth=2` plays ~950 Elo above `random` and a whole game in ~0.1 s of one
//! core, so its games are cheap examples of sound play: what AlphaGo's first network learnt from
//! expert games, here from a classical player. The search's own games take over as the share
//! falls to 0; every row is an ordinary self-play row (the teacher's move as a one-hot policy
//! target, its score as the root values, the game's result), so training is unchanged.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use games::{Game, State, Variant};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

use crate::driver::{PlayedGame, SelfPlayConfig, SelfPlayStats};
use classical::alphabeta::{AlphaBeta, AlphaBetaLimits};
use classical::heuristic::Heuristic;
use records::PositionRow;

use self::config::alpha_beta;

/// Plays game `game_id` (its random choices seeded from `seed` and the id, as a search's game
/// would be) from `start` with `alphabeta:depth=depth` at every seat, under `config`'s start,
/// move cap and adjudication. One row per decision with more than one legal action, each
/// targeting the teacher's action or, with soft `targets`, every action by the scores of the
/// moves it leads to; a random move (`explore`) gets the row of its first leg only.
pub fn teacher_game<V: Variant>(
    start: State<V>,
    game_id: u64,
    seed: u64,
    depth: u32,
    explore: f32,
    targets: TeacherTargets,
    config: &SelfPlayConfig,
) -> PlayedGame {
    let seed = crate::driver::game_seed(seed, game_id);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut state = config.start.pick(start, &mut rng);
    let mut log = PlayedGame::start(game_id, seed, &state, alpha_beta(depth).to_string());
    let mut searcher = AlphaBeta::<V>::new(AlphaBetaLimits { depth, time: None });
    let heuristic = Heuristic::new::<V>();
    let ending = loop {
        if let Some(ending) = log.ending(&state, config) {
            break ending;
        }
        let (found, weights) =
            targets.weigh(&mut searcher, &state).expect("a game that is not over has moves");
        let mover = state.to_move();
        let root_values = heuristic
            .searched_values::<V>(state.position().board(), mover, found.score)
            .0[..V::NUM_PLAYERS]
            .to_vec();
        let played = if rng.random::<f32>() < explore {
            state.moves().choose(&mut rng).cloned().expect("legal moves")
        } else {
            found.best.clone()
        };
        // The legs of the move, each decision recorded while the move played is the teacher's.
        for (action, policy) in move_legs(&state, &played, &weights, played == found.best) {
            if let Some((policy_actions, policy_target)) = policy {
                log.positions.push(PositionRow {
                    game_id,
                    ply: log.actions,
                    move_number: log.game.moves.len() as u32,
                    position: state.to_string(),
                    mover: mover.0,
                    policy_actions,
                    policy_target,
                    root_values: root_values.clone(),
                    net_values: root_values.clone(),
                    result: Vec::new(),
                    full_search: true,
                });
            }
            state.play(action);
            log.actions += 1;
            if let Some(m) = state.last_move() {
                log.game.moves.push(m);
            }
        }
    };
    log.finish(ending, V::NUM_PLAYERS)
}

/// Plays the teacher's games `ids` on `config.workers` threads, handing each finished game to
/// `on_game` (on the caller's thread, in the order they finish) with the running totals that
/// count it; an error from `on_game` stops the session (games in flight finish and are
/// dropped), as does `stop`. Returns the totals, or `on_game`'s first error.
pub fn play_teacher_games<V: Variant>(
    teacher: Teacher,
    config: &SelfPlayConfig,
    ids: &[u64],
    seed: u64,
    start: &(dyn Fn(u64) -> State<V> + Sync),
    stop: Option<&AtomicBool>,
    mut on_game: impl FnMut(PlayedGame, &SelfPlayStats) -> Result<(), String>,
) -> Result<SelfPlayStats, String> {
    let Teacher::AlphaBeta { depth, explore, targets, .. } = teacher else {
        return Ok(SelfPlayStats::default());
    };
    let started = std::time::Instant::now();
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let stopped =
        || halt.load(Ordering::Relaxed) || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut stats = SelfPlayStats::default();
    let (tx, rx) = mpsc::channel::<PlayedGame>();
    let mut failed = None;
    std::thread::scope(|scope| {
        for _ in 0..config.workers.clamp(1, ids.len().max(1)) {
            let (tx, next, stopped) = (tx.clone(), &next, &stopped);
            scope.spawn(move || {
                while !stopped() {
                    let Some(&id) = ids.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let game = teacher_game(start(id), id, seed, depth, explore, targets, config);
                    if tx.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for game in rx {
            stats.record(&game);
            stats.wall_time = started.elapsed();
            if failed.is_none()
                && let Err(e) = on_game(game, &stats)
            {
                failed = Some(e);
                halt.store(true, Ordering::Relaxed);
            }
        }
    });
    failed.map_or(Ok(stats), Err)
}

pub mod config;
mod filter;
mod label;
mod spar;
mod targets;
#[cfg(test)]
mod tests;

pub use config::{Teacher, TeacherTargets};
pub use filter::filter_targets;
pub use label::TeacherLabels;
pub use spar::TeacherSparrer;
pub use targets::{leg_target, move_legs};
