//! Self-play settings (the `[selfplay]` section of a run config). Options are enums, not flags.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::move_limit::MoveLimit;
use super::start::Start;
use crate::teacher::config::Teacher;
use classical::leaf_heuristic::LeafHeuristic;
use search::TacticsFilter;
use search::bounds::MAX_MOVES;
use search::draw_score::DrawScore;

/// The most games one process plays at once (each holds a search tree).
pub const MAX_GAMES_IN_FLIGHT: u64 = 65_536;
/// The most self-play threads.
pub const MAX_WORKERS: u64 = 1024;
/// The most cached evaluations (each a policy and values: a few hundred bytes).
pub const MAX_EVAL_CACHE: u64 = 10_000_000;

/// How the self-play driver plays games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// Games each worker keeps in flight: the batch size of one forward pass.
    pub games_in_flight: usize,
    /// Workers, each with its own evaluator (network copy) and its own games.
    pub workers: usize,
    /// Complete moves after which a game is stopped (termination `move-limit`).
    pub max_moves: u32,
    /// How a game stopped at `max_moves` is scored.
    pub move_limit: MoveLimit,
    /// Where games start: the start position, or a share from random endgames.
    pub start: Start,
    /// What a draw is worth to each seat in the searches (the network's draw probability and
    /// drawn end positions); recorded results are unchanged.
    pub draw_score: DrawScore,
    /// The classical heuristic mixed into the searches' leaf values, fading by generation.
    pub leaf_heuristic: LeafHeuristic,
    /// A classical player that plays a share of the games, fading by generation.
    pub teacher: Teacher,
    /// The searches' policy targets cleared of moves a shallow alpha-beta search shows to lose.
    pub tactics_filter: TacticsFilter,
    /// The searches' root priors filtered as the play search's (`[play] tactics_filter`), so
    /// that the moves played avoid those losing moves too, not only the targets.
    pub root_filter: TacticsFilter,
    /// Playout cap randomization (Wu 2019): which moves get the full search.
    pub playout_cap: PlayoutCap,
    /// Resignation (2-player games only).
    pub resign: Resign,
    /// Entries of each worker's evaluation cache (keyed by position hash); 0 turns it off.
    pub eval_cache: usize,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            games_in_flight: 32,
            workers: 1,
            max_moves: 300,
            move_limit: MoveLimit::Draw,
            start: Start::Standard,
            draw_score: DrawScore::Share,
            leaf_heuristic: LeafHeuristic::Off,
            teacher: Teacher::Off,
            tactics_filter: TacticsFilter::Off,
            root_filter: TacticsFilter::Off,
            playout_cap: PlayoutCap::Off,
            resign: Resign::Off,
            eval_cache: 100_000,
        }
    }
}

/// Which decisions get the full search (and become policy targets).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PlayoutCap {
    /// Every decision gets the full search.
    Off,
    /// A decision gets the full search with probability `full_fraction`, else `fast_simulations`
    /// without root noise; fast decisions are recorded with `full_search = false`.
    Randomized { full_fraction: f32, fast_simulations: u32 },
}

/// When a player gives up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Resign {
    /// Never.
    Off,
    /// Resign when the mover's searched value drops below `value`, after `min_moves` moves; in
    /// a `playthrough_fraction` of games resignation is disabled and the games are played out to
    /// count false resignations (the resigner would not have lost).
    Threshold { value: f32, min_moves: u32, playthrough_fraction: f32 },
}

/// A setting out of range, naming the key.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("selfplay.{key}: {problem}")]
pub struct SelfPlayConfigError {
    pub key: &'static str,
    pub problem: String,
}

impl SelfPlayConfig {
    /// Checks every value for a game of `num_players` players.
    pub fn validate(&self, num_players: usize) -> Result<(), SelfPlayConfigError> {
        let err = |key, problem: &str| Err(SelfPlayConfigError { key, problem: problem.into() });
        let counts = [
            ("games_in_flight", self.games_in_flight as u64, 1, MAX_GAMES_IN_FLIGHT),
            ("workers", self.workers as u64, 1, MAX_WORKERS),
            ("max_moves", u64::from(self.max_moves), 1, MAX_MOVES),
            ("eval_cache", self.eval_cache as u64, 0, MAX_EVAL_CACHE),
        ];
        for (key, value, min, max) in counts {
            if let Some(problem) = search::bounds::outside(value, min, max) {
                return err(key, &problem);
            }
        }
        // The settings that check themselves, each naming its own key.
        let root_keys = ["root_filter.alpha_beta.depth", "root_filter.alpha_beta.margin"];
        let settings = [
            self.move_limit.problem(),
            self.start.problem(),
            self.draw_score.problem(),
            self.leaf_heuristic.problem(),
            self.teacher.problem(),
            self.tactics_filter.problem(),
            self.root_filter.problem_at(root_keys),
        ];
        if let Some((key, problem)) = settings.into_iter().flatten().next() {
            return err(key, problem);
        }
        if let PlayoutCap::Randomized { full_fraction, fast_simulations } = self.playout_cap {
            if !(0.0..=1.0).contains(&full_fraction) {
                return err("playout_cap.full_fraction", "must be between 0 and 1");
            }
            let max = u64::from(search::mcts::MAX_SIMULATIONS);
            if let Some(problem) = search::bounds::outside(u64::from(fast_simulations), 1, max) {
                return err("playout_cap.fast_simulations", &problem);
            }
        }
        if let Resign::Threshold { value, playthrough_fraction, min_moves } = self.resign {
            if let Some(problem) = search::bounds::outside(u64::from(min_moves), 0, MAX_MOVES) {
                return err("resign.min_moves", &problem);
            }
            if num_players != 2 {
                return err("resign", "resignation is only supported for 2-player games");
            }
            if !(0.0..1.0).contains(&value) {
                return err("resign.value", "must be at least 0 and below 1");
            }
            if !(0.0..=1.0).contains(&playthrough_fraction) {
                return err("resign.playthrough_fraction", "must be between 0 and 1");
            }
        }
        Ok(())
    }
}
