//! How much of its clock a move may spend (`go wtime … btime … winc … binc … movestogo …`).
//!
//! The rule is the classic one of chess engines: the time left spread evenly over the moves
//! still to play before the clock is filled again (in sudden death, an expected
//! [`EXPECTED_MOVES`]), plus most of the increment, and never so much that the answer could
//! arrive after the flag falls: [`MOVE_OVERHEAD_MS`] stay in reserve for the pipe, the client
//! and the legs searched after the deadline (one simulation each).

use crate::protocol::Clock;

/// Milliseconds of a clock a move never spends: the answer's way to the client.
pub const MOVE_OVERHEAD_MS: u64 = 50;
/// The moves a sudden-death clock is spread over (a Camelot player makes 20-50 in a game).
pub const EXPECTED_MOVES: u32 = 30;

/// The milliseconds the move of the seat with letter `seat` may take under `clock`: its time
/// left less [`MOVE_OVERHEAD_MS`], over the moves to go (or [`EXPECTED_MOVES`]), plus three
/// quarters of its increment; at most its time left less the overhead, and at least 1.
/// A clock without the seat's time left is an error naming the key to send.
pub fn move_time_ms(clock: &Clock, seat: char) -> Result<u64, String> {
    let left = *clock.time_left_ms.get(&seat).ok_or_else(|| {
        format!("the clock has no time for seat {seat} (send {}time)", seat.to_ascii_lowercase())
    })?;
    let increment = clock.increment_ms.get(&seat).copied().unwrap_or(0);
    let moves = u64::from(clock.moves_to_go.unwrap_or(EXPECTED_MOVES).max(1));
    let spare = left.saturating_sub(MOVE_OVERHEAD_MS);
    Ok((spare / moves + increment * 3 / 4).min(spare).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left: u64, increment: u64, moves_to_go: Option<u32>) -> Clock {
        Clock {
            time_left_ms: [('W', left), ('B', 1)].into(),
            increment_ms: [('W', increment)].into(),
            moves_to_go,
        }
    }

    #[test]
    fn the_clock_is_spread_over_the_moves_to_go_with_most_of_the_increment() {
        // 10 s + 0.1 s, sudden death: (10,000 - 50) / 30 + 75.
        assert_eq!(move_time_ms(&clock(10_000, 100, None), 'W'), Ok(331 + 75));
        assert_eq!(move_time_ms(&clock(10_000, 0, Some(10)), 'W'), Ok(995));
        // The last move before the control may use everything but the overhead.
        assert_eq!(move_time_ms(&clock(10_000, 0, Some(1)), 'W'), Ok(9_950));
    }

    #[test]
    fn a_move_never_spends_the_reserve_and_always_gets_a_millisecond() {
        // A large increment with little time left: the time left, less the overhead, bounds it.
        assert_eq!(move_time_ms(&clock(500, 5_000, None), 'W'), Ok(450));
        for left in [0, 1, 49, 50] {
            assert_eq!(move_time_ms(&clock(left, 100, None), 'W'), Ok(1), "{left} ms left");
        }
        // Seat B has 1 ms and no increment.
        assert_eq!(move_time_ms(&clock(10_000, 100, None), 'B'), Ok(1));
    }

    #[test]
    fn a_seat_without_a_clock_is_named() {
        let e = move_time_ms(&clock(10_000, 0, None), 'R').unwrap_err();
        assert!(e.contains("seat R") && e.contains("rtime"), "{e}");
    }
}
