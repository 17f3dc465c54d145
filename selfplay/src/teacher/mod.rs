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
use serde::{Deserialize, Serialize};

use crate::arena::alphabeta::{AlphaBeta, AlphaBetaLimits};
use crate::arena::heuristic::Heuristic;
use crate::arena::spec::PlayerSpec;
use crate::driver::{PlayedGame, SelfPlayConfig, SelfPlayStats};
use crate::leaf_heuristic::linear_fade;
use crate::record::PositionRow;

/// Salt of the draw that gives a game to the teacher (not the game's own seed, so the share can
/// change without changing the games).
const TEACHER_SALT: u64 = 0x7EAC_4E12;

/// Who plays a share of the self-play games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Teacher {
    /// The searches play every game.
    #[default]
    Off,
    /// `alphabeta:depth=depth` plays every seat of a share of the games: `fraction` of them in
    /// generation 0, falling linearly to none in generation `fade_generations`. Each of its
    /// moves is, with probability `explore`, replaced by a uniformly random legal move (the row
    /// still holds the teacher's targets), so that its games, deterministic otherwise, differ.
    /// `targets`: its move one-hot (the default) or every move weighted by its score.
    /// `label`: the share of every full-search row's policy target in the searches' own games
    /// that the teacher's targets for that position take, in every generation (0, the default:
    /// none; see [`TeacherLabels`]).
    /// `spar`: the share of the searches' own games in which the teacher plays one seat (drawn
    /// per game, as is the seat), its moves recorded as in its own games, in every generation
    /// (0, the default: none; see [`TeacherSparrer`]).
    AlphaBeta {
        depth: u32,
        fraction: f32,
        fade_generations: u32,
        explore: f32,
        #[serde(default)]
        targets: TeacherTargets,
        #[serde(default)]
        label: f32,
        #[serde(default)]
        spar: f32,
    },
}

impl Teacher {
    /// The share of generation `generation`'s games the teacher plays, in `[0, 1]`.
    pub fn fraction_at(self, generation: u32) -> f32 {
        match self {
            Teacher::Off => 0.0,
            Teacher::AlphaBeta { fraction, fade_generations, .. } => {
                linear_fade(fraction, generation, fade_generations)
            }
        }
    }

    /// Whether the teacher plays game `id` of generation `generation`'s session seeded `seed`:
    /// a draw of its own per game, so the same ids are the teacher's when a session resumes.
    pub fn plays(self, generation: u32, seed: u64, id: u64) -> bool {
        let share = self.fraction_at(generation);
        let draw = games::seed::mix(seed ^ TEACHER_SALT, id) >> 11;
        (draw as f64 / (1u64 << 53) as f64) < f64::from(share)
    }

    /// The player's name in game records, as the arena writes it (`alphabeta:depth=2`); empty
    /// when off.
    pub fn name(self) -> String {
        match self {
            Teacher::Off => String::new(),
            Teacher::AlphaBeta { depth, .. } => alpha_beta(depth).to_string(),
        }
    }

    /// Checks the values (None when the setting is valid).
    pub(crate) fn problem(self) -> Option<(&'static str, &'static str)> {
        let Teacher::AlphaBeta { depth, fraction, fade_generations, explore, targets, label, spar } =
            self
        else {
            return None;
        };
        if !(1..=8).contains(&depth) {
            return Some(("teacher.alpha_beta.depth", "must be between 1 and 8"));
        }
        if !(0.0..=1.0).contains(&fraction) {
            return Some(("teacher.alpha_beta.fraction", "must be between 0 and 1"));
        }
        if !(1..=1_000_000).contains(&fade_generations) {
            return Some(("teacher.alpha_beta.fade_generations", "must be from 1 to 1000000"));
        }
        if !(0.0..1.0).contains(&explore) {
            return Some(("teacher.alpha_beta.explore", "must be at least 0 and below 1"));
        }
        if !(0.0..=1.0).contains(&label) {
            return Some(("teacher.alpha_beta.label", "must be between 0 and 1"));
        }
        if !(0.0..=1.0).contains(&spar) {
            return Some(("teacher.alpha_beta.spar", "must be between 0 and 1"));
        }
        targets.problem()
    }
}

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

/// The arena player the teacher is.
fn alpha_beta(depth: u32) -> PlayerSpec {
    PlayerSpec::AlphaBeta { depth: Some(depth), ms: None }
}

mod label;
mod spar;
mod tactics;
mod targets;
#[cfg(test)]
mod tests;

pub use label::TeacherLabels;
pub use spar::TeacherSparrer;
pub use tactics::{TacticsFilter, TacticsGuard};
pub use targets::{TeacherTargets, leg_target, move_legs};
