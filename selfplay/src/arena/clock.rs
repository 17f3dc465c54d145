//! [`TimeControl`]: a player's clock in a match (`tc=BASE+INC` in a player spec, in seconds);
//! [`Turn`]: the timing of one move of a game in flight, and [`PlayerWork`]: what a player's
//! moves cost in a match. A clocked player's move gets the time the engine protocol's time
//! management gives it ([`move_time_ms`]); the time it took comes off its clock after the move,
//! and its increment is added.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use engine::Clock;
use engine::time_control::move_time_ms;

/// A clock: `base_ms` for the whole game, `increment_ms` added after each of the player's moves
/// (Fischer increment), both in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
}

/// The longest base time a clock may have: a day.
pub const MAX_BASE_MS: u64 = 24 * 3600 * 1000;

impl TimeControl {
    /// The time the move of a player with `left_ms` on this clock may take: its time left less
    /// the protocol's reserve, spread over the moves expected, plus most of the increment
    /// ([`move_time_ms`]).
    pub fn move_time(&self, left_ms: u64) -> Duration {
        let seat = 'W';
        let clock = self.protocol_clock(seat, left_ms);
        Duration::from_millis(move_time_ms(&clock, seat).expect("the seat's clock is given"))
    }

    /// The engine protocol's clock of the seat with letter `seat` and `left_ms` left on this
    /// clock (sudden death: no moves to go).
    pub fn protocol_clock(&self, seat: char, left_ms: u64) -> Clock {
        Clock {
            time_left_ms: [(seat, left_ms)].into(),
            increment_ms: [(seat, self.increment_ms)].into(),
            moves_to_go: None,
        }
    }
}

/// `BASE+INC` or `BASE`, in seconds (`10+0.1`, `60`): parses back to the same clock.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = |ms: u64| {
            let text = format!("{}.{:03}", ms / 1000, ms % 1000);
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        match self.increment_ms {
            0 => write!(f, "{}", seconds(self.base_ms)),
            inc => write!(f, "{}+{}", seconds(self.base_ms), seconds(inc)),
        }
    }
}

impl FromStr for TimeControl {
    type Err = String;

    /// `BASE+INC` or `BASE` in seconds, to the millisecond: the base above 0 and at most a
    /// day, the increment at most the base.
    fn from_str(s: &str) -> Result<Self, String> {
        let millis = |text: &str| -> Option<u64> {
            let seconds: f64 = text.trim().parse().ok()?;
            let ms = (seconds * 1000.0).round();
            (seconds.is_finite() && seconds >= 0.0 && ms <= MAX_BASE_MS as f64).then_some(ms as u64)
        };
        let (base, increment) = s.split_once('+').unwrap_or((s, "0"));
        let why = "a clock is BASE+INC in seconds, e.g. 10+0.1 (the base above 0 and at most \
                   86400, the increment at most the base)";
        match (millis(base), millis(increment)) {
            (Some(base_ms), Some(increment_ms)) if base_ms > 0 && increment_ms <= base_ms => {
                Ok(TimeControl { base_ms, increment_ms })
            }
            _ => Err(why.into()),
        }
    }
}

/// One move in progress: when it began and, for a clocked player, when its time is up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    /// The player (index) moving.
    pub player: usize,
    pub started: Instant,
    /// `None` for a player without a clock.
    pub deadline: Option<Instant>,
    /// Simulations run for this move so far, over its legs.
    pub simulations: u64,
    /// Positions its alpha-beta search visited.
    pub nodes: u64,
}

impl Turn {
    /// A move of `player` beginning now, with `left_ms` on its clock (if it has one).
    pub fn begin(player: usize, clock: Option<(TimeControl, u64)>) -> Turn {
        let started = Instant::now();
        let deadline = clock.map(|(tc, left)| started + tc.move_time(left));
        Turn { player, started, deadline, simulations: 0, nodes: 0 }
    }

    /// The move's time, when its player has a clock.
    pub fn time(&self) -> Option<Duration> {
        self.deadline.map(|d| d - self.started)
    }

    /// Whether the move's time is up.
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What a player did in a match: its moves (the random openings' not counted), the search
/// they took (simulations of an MCTS player, positions of an alpha-beta player), its thinking
/// time, and the moves that took more than its clock had left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerWork {
    pub moves: u64,
    pub simulations: u64,
    pub nodes: u64,
    pub thinking: Duration,
    pub overruns: u64,
}

impl PlayerWork {
    /// Adds a move that took `took`.
    pub(crate) fn add(&mut self, turn: &Turn, took: Duration, overran: bool) {
        self.moves += 1;
        self.simulations += turn.simulations;
        self.nodes += turn.nodes;
        self.thinking += took;
        self.overruns += u64::from(overran);
    }

    /// `41 moves, 1536 simulations a move` (nodes for a player that counts them), with its
    /// milliseconds a move when `timed` (a match on a clock plays one game at a time; in a
    /// batched match a move's wall time is mostly the other games') and the overruns of a clock
    /// when there were any.
    pub fn summary(&self, timed: bool) -> String {
        let per_move = |x: f64| x / self.moves.max(1) as f64;
        let mut parts = vec![format!("{} moves", self.moves)];
        if self.simulations > 0 {
            parts.push(format!("{:.0} simulations a move", per_move(self.simulations as f64)));
        }
        if self.nodes > 0 {
            parts.push(format!("{:.0} nodes a move", per_move(self.nodes as f64)));
        }
        if timed {
            let ms = per_move(self.thinking.as_secs_f64() * 1000.0);
            parts.push(format!("{ms:.0} ms a move"));
        }
        if self.overruns > 0 {
            parts.push(format!("{} over the clock", self.overruns));
        }
        parts.join(", ")
    }
}

/// A clock as it runs through a game: the time left after a move that took `took`, and
/// whether the move overran it (the flag fell; the arena lets the game go on with an empty
/// clock, and counts it).
pub(crate) fn after_move(tc: TimeControl, left_ms: u64, took: Duration) -> (u64, bool) {
    let took = took.as_millis() as u64;
    let overran = took > left_ms;
    (left_ms.saturating_sub(took) + tc.increment_ms, overran)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_parse_print_and_refuse() {
        for (text, base_ms, increment_ms) in
            [("10+0.1", 10_000, 100), ("60", 60_000, 0), ("5+0.05", 5_000, 50), ("0.5+0", 500, 0)]
        {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc, TimeControl { base_ms, increment_ms }, "{text}");
            assert_eq!(tc.to_string().parse::<TimeControl>().unwrap(), tc);
        }
        assert_eq!(TimeControl { base_ms: 10_000, increment_ms: 100 }.to_string(), "10+0.1");
        assert_eq!(TimeControl { base_ms: 500, increment_ms: 0 }.to_string(), "0.5");
        for bad in ["", "0", "0+1", "-5", "5+-1", "abc", "10+x", "1+2", "86401", "inf", "NaN+1"] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains("BASE+INC"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_move_gets_the_protocol_s_share_and_the_clock_runs() {
        let tc = TimeControl { base_ms: 10_000, increment_ms: 100 };
        // (10,000 - 50) / 30 + 3/4 of 100.
        assert_eq!(tc.move_time(10_000), Duration::from_millis(331 + 75));
        // Never more than the time left less the reserve.
        assert!(tc.move_time(60) <= Duration::from_millis(10));
        let (left, overran) = after_move(tc, 10_000, Duration::from_millis(400));
        assert_eq!((left, overran), (9_700, false));
        let (left, overran) = after_move(tc, 300, Duration::from_millis(450));
        assert_eq!((left, overran), (100, true), "an empty clock gets its increment");
        let turn = Turn::begin(1, Some((tc, 10_000)));
        assert_eq!(turn.time(), Some(Duration::from_millis(406)));
        assert!(!turn.out_of_time());
        assert_eq!(Turn::begin(0, None).time(), None);
        assert!(!Turn::begin(0, None).out_of_time());
    }
}
