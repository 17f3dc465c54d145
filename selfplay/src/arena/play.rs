//! [`play_match`]: the games of a match, in the [lockstep loop](search::lockstep).
//!
//! Up to `games_in_flight` games are played at once; each network player is one evaluator of the
//! loop and evaluates the leaves of all games waiting for it in **one** `evaluate` call per step.
//! Random, greedy and rollout-MCTS players move without waiting: their work is done inside the
//! step, in parallel across games. Games start in game-id order.
//!
//! Every game has its own random streams (seeded from the match seed and its id), and the
//! batches are the same in every run, so a match is reproducible from its seed; unless a
//! player is on a clock ([`MatchConfig::clocks`]): then games are played one at a time, each
//! move timed by the wall clock, and what a player does in its time depends on the machine.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use games::{GoalDistances, RuleOptions, State, Variant};

use super::ArenaError;
use super::clock::{PlayerWork, TimeControl};
use super::game::ArenaGame;
use super::player::{ArenaPlayer, Kind};
use super::slot::{Slot, Table};
#[cfg(doc)]
use classical::rollout::MoveRollouts;
use search::evaluator::Evaluator;
use search::lockstep::Lockstep;
use search::mcts::PlaySearch;

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
    /// How the checkpoint players search (their simulations come from their specs). The
    /// rollout players (`mcts:sims=N[,cutoff=K]`) always search as the anchors were rated:
    /// [`MctsConfig::analysis`](search::mcts::MctsConfig::analysis).
    pub play: PlaySearch,
    /// Complete moves per random playout of the `mcts` players ([`MoveRollouts`]; a playout
    /// cut off is a draw).
    pub rollout_moves: usize,
    /// Rules of the games.
    pub options: RuleOptions,
    /// Each player's clock, by player index (`PlayerSpec::clock`; missing or `None`: the
    /// player's fixed budget). With any clock the games are played one at a time, whatever
    /// `games_in_flight` says, so that no game's move waits for another's.
    pub clocks: Vec<Option<TimeControl>>,
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
            play: PlaySearch::default(),
            rollout_moves: 1000,
            options: RuleOptions::default(),
            clocks: Vec::new(),
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
    /// What each player did, by player index.
    pub players: Vec<PlayerWork>,
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
    config.play.validate().map_err(|e| ArenaError::Search(e.into()))?;
    let started = Instant::now();
    let kinds: Vec<Kind> = players.iter().map(ArenaPlayer::kind).collect();
    let distances = GoalDistances::new::<V>();
    let variant: games::VariantKind = V::NAME.parse().expect("a variant's name");
    let (evaluators, engines): (Vec<_>, Vec<_>) = players
        .iter_mut()
        .map(|p| {
            let (evaluator, engine) = p.parts();
            (evaluator.map(|e| &mut **e as &mut dyn Evaluator<State<V>>), engine)
        })
        .unzip();
    for engine in engines.iter().flatten() {
        let mut client = engine.lock().unwrap_or_else(|e| e.into_inner());
        client.new_game(variant, config.options.knight_canter)?;
    }
    let table = Table {
        kinds: &kinds,
        engines: &engines,
        play: &config.play,
        distances: &distances,
        max_moves: config.max_moves,
        rollout_moves: config.rollout_moves,
        clocks: &config.clocks,
        work: Mutex::new(vec![PlayerWork::default(); kinds.len()]),
    };
    let timed = config.clocks.iter().any(Option::is_some);
    let in_flight = if timed { 1 } else { config.games_in_flight.max(1) };
    let new_slot = |id: u64| {
        Slot::new(
            id,
            config.seed,
            State::<V>::start_with(config.options),
            config.opening_moves,
            &table,
        )
    };
    let mut ids = 0..config.games;
    let mut finished: Vec<ArenaGame> = Vec::with_capacity(config.games as usize);
    let mut stats = MatchStats::default();
    let lockstep = Lockstep { shared: &table, in_flight, evaluators };
    lockstep.run(
        || Ok::<_, ArenaError>(ids.next().map(new_slot)),
        |batch| {
            stats.evaluator_time += batch.time;
            stats.batches += 1;
            stats.evaluations += batch.states as u64;
        },
        |game| {
            on_game(&game);
            finished.push(game);
        },
    )?;
    finished.sort_by_key(|g| g.game_id);
    stats.wall_time = started.elapsed();
    stats.players = table.work.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok((finished, stats))
}
