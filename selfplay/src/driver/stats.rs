//! Running totals of a self-play session, for progress bars and the summary line.

use std::collections::BTreeMap;
use std::time::Duration;

use games::{Outcome, Player};

use super::played::PlayedGame;

/// Counters of one or more workers (they add up with [`SelfPlayStats::merge`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SelfPlayStats {
    pub games: u64,
    /// Actions (legs) played, forced ones included.
    pub actions: u64,
    /// Complete moves played.
    pub moves: u64,
    /// Searched decisions (training rows).
    pub decisions: u64,
    /// States sent to the evaluator, and the batched calls they went in.
    pub evaluations: u64,
    pub batches: u64,
    /// Evaluation-cache hits and misses (misses went to the network), when a cache is used.
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Wins per seat, and draws.
    pub wins: [u64; games::MAX_PLAYERS],
    pub draws: u64,
    /// Games per termination name (`castle`, `move-limit`, ...).
    pub terminations: BTreeMap<&'static str, u64>,
    /// Play-through games in which someone would have resigned, and how many of those were wrong.
    pub resign_checks: u64,
    pub false_resignations: u64,
    /// Time spent inside the evaluator, and in the whole session.
    pub evaluator_time: Duration,
    pub wall_time: Duration,
}

impl SelfPlayStats {
    /// Counts a finished game.
    pub fn record(&mut self, g: &PlayedGame) {
        self.games += 1;
        self.actions += u64::from(g.actions);
        self.moves += g.game.moves.len() as u64;
        self.decisions += g.positions.len() as u64;
        match g.outcome {
            Some(Outcome::Win(Player(p))) => self.wins[p as usize] += 1,
            _ => self.draws += 1,
        }
        *self.terminations.entry(g.game.termination.as_str()).or_default() += 1;
        if let Some(wrong) = g.false_resignation() {
            self.resign_checks += 1;
            self.false_resignations += wrong as u64;
        }
    }

    /// The totals of this phase and `later`, played after it (a generation's teacher games,
    /// then its network games): counters add, and so do the wall times.
    pub fn then(&self, later: &SelfPlayStats) -> SelfPlayStats {
        let mut total = self.clone();
        total.merge(later);
        total.wall_time = self.wall_time + later.wall_time;
        total
    }

    /// Adds another worker's counters (wall time is the longest of the two).
    pub fn merge(&mut self, o: &SelfPlayStats) {
        self.games += o.games;
        self.actions += o.actions;
        self.moves += o.moves;
        self.decisions += o.decisions;
        self.evaluations += o.evaluations;
        self.batches += o.batches;
        self.cache_hits += o.cache_hits;
        self.cache_misses += o.cache_misses;
        for (a, b) in self.wins.iter_mut().zip(o.wins) {
            *a += b;
        }
        self.draws += o.draws;
        for (k, v) in &o.terminations {
            *self.terminations.entry(k).or_default() += v;
        }
        self.resign_checks += o.resign_checks;
        self.false_resignations += o.false_resignations;
        self.evaluator_time += o.evaluator_time;
        self.wall_time = self.wall_time.max(o.wall_time);
    }

    /// Evaluations per second of wall time.
    pub fn evaluations_per_second(&self) -> f64 {
        self.evaluations as f64 / self.wall_time.as_secs_f64().max(1e-9)
    }

    /// Mean game length in complete moves.
    pub fn mean_moves(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.moves as f64 / self.games as f64 }
    }

    /// Share of evaluations answered by the cache (0 without one).
    pub fn cache_hit_rate(&self) -> f64 {
        let n = self.cache_hits + self.cache_misses;
        if n == 0 { 0.0 } else { self.cache_hits as f64 / n as f64 }
    }

    /// Mean states per evaluator call.
    pub fn mean_batch(&self) -> f64 {
        if self.batches == 0 { 0.0 } else { self.evaluations as f64 / self.batches as f64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(games: u64, seconds: u64) -> SelfPlayStats {
        SelfPlayStats { games, wall_time: Duration::from_secs(seconds), ..Default::default() }
    }

    #[test]
    fn workers_side_by_side_take_the_longest_time_and_phases_in_turn_the_sum() {
        let mut side_by_side = phase(3, 10);
        side_by_side.merge(&phase(4, 7));
        assert_eq!((side_by_side.games, side_by_side.wall_time.as_secs()), (7, 10));
        let in_turn = phase(3, 10).then(&phase(4, 7));
        assert_eq!((in_turn.games, in_turn.wall_time.as_secs()), (7, 17));
    }
}
