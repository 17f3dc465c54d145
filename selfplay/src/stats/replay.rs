//! Replaying a recorded game with the rules engine: who played each move, and the captures and
//! castle entries, which the `games` records do not store.

use games::{KnightCanter, Landing, Move, Position, RuleOptions, Variant};
use records::collection::{SourcedGame, StatsError};

/// What a replay of (the first moves of) a game found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// Seat that played each replayed move.
    pub movers: Vec<u8>,
    /// Pieces captured by the replayed moves (every jump leg captures one).
    pub captures: u32,
    /// Replayed moves that ended in the mover's goal castle (Camelot: the opponent's castle;
    /// Tri-Camelot: the target castle) from outside it.
    pub castle_entries: u32,
}

/// Replays the first `limit` moves of a game of variant `V` from `start` (a position string, or
/// `start` for the variant's start position).
///
/// The records do not say which Knight's-canter rule a game was played with, so the moves are
/// tried under the default (`strict`) and, if one is illegal there, again under `final-square`.
/// The error names the first illegal move (under the default rule).
pub fn replay<V: Variant>(start: &str, moves: &[String], limit: usize) -> Result<Replay, String> {
    under_either_rule(|knight_canter| replay_with::<V>(start, moves, limit, knight_canter))
}

/// Turns the message of a failed replay of `game` into its [`StatsError::BadGame`], which
/// names the game's file and id: `replay(..).map_err(bad_game(game))`.
pub fn bad_game(game: &SourcedGame) -> impl FnOnce(String) -> StatsError + '_ {
    |message| StatsError::BadGame { file: game.file.clone(), game_id: game.record.game_id, message }
}

/// `replay` under the strict Knight's-canter rule and, when that fails, under `final-square`
/// (the records do not say which rule a game was played with); the error is the strict rule's.
pub fn under_either_rule<T>(
    replay: impl Fn(KnightCanter) -> Result<T, String>,
) -> Result<T, String> {
    replay(KnightCanter::Strict).or_else(|e| replay(KnightCanter::FinalSquare).map_err(|_| e))
}

/// The position a record's `start` names (a position string, or `start` for the variant's
/// start position) under `knight_canter`.
pub fn start_position<V: Variant>(
    start: &str,
    knight_canter: KnightCanter,
) -> Result<Position<V>, String> {
    let text = if start.trim() == "start" { V::START } else { start };
    Position::<V>::parse_with(text, RuleOptions { knight_canter })
        .map_err(|e| format!("bad start position {start:?}: {e}"))
}

/// The move `notation`, the `number`-th of a game (from 1), in `pos`; the error names it.
pub fn replayed_move<V: Variant>(
    pos: &Position<V>,
    number: usize,
    notation: &str,
) -> Result<Move, String> {
    pos.parse_move(notation)
        .map_err(|e| format!("move {number} `{notation}` cannot be replayed: {e}"))
}

/// Whether `start` is the start position of `V` (the literal `start` counts).
pub fn is_standard_start<V: Variant>(start: &str) -> bool {
    if start.trim() == "start" {
        return true;
    }
    let canonical =
        |s: &str| Position::<V>::parse_with(s, RuleOptions::default()).ok().map(|p| p.to_string());
    canonical(start).is_some_and(|s| Some(s) == canonical(V::START))
}

fn replay_with<V: Variant>(
    start: &str,
    moves: &[String],
    limit: usize,
    knight_canter: KnightCanter,
) -> Result<Replay, String> {
    let mut pos = start_position::<V>(start, knight_canter)?;
    let tables = V::tables();
    let mut replay = Replay::default();
    for (i, notation) in moves.iter().take(limit).enumerate() {
        let m = replayed_move(&pos, i + 1, notation)?;
        let me = pos.to_move();
        let goal = |c: games::Cell| tables.landing[me.index()][c as usize] == Landing::Goal;
        replay.movers.push(me.0);
        replay.captures += m.captures(&tables.geometry).count() as u32;
        replay.castle_entries += u32::from(goal(m.to()) && !goal(m.from()));
        pos.play(&m);
    }
    Ok(replay)
}

#[cfg(test)]
mod tests {
    use games::{CamelotRules, TriCamelotRules};

    use super::*;

    fn moves(s: &[&str]) -> Vec<String> {
        s.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn counts_movers_captures_and_castle_entries() {
        // White Man F14 jumps the Black Man on F15 into Black's castle square F16.
        let start = "camelot W W:KA4,MF14 B:KL13,MF15 cm=0,0";
        let r = replay::<CamelotRules>(start, &moves(&["F14xF16", "L13-L12"]), 10).unwrap();
        assert_eq!(r, Replay { movers: vec![0, 1], captures: 1, castle_entries: 1 });
        let r = replay::<CamelotRules>("start", &moves(&["D7-D5-B7", "C11-B10"]), 1).unwrap();
        assert_eq!(r, Replay { movers: vec![0], captures: 0, castle_entries: 0 });
    }

    #[test]
    fn illegal_moves_and_bad_starts_are_named() {
        let e = replay::<CamelotRules>("start", &moves(&["D7-D5-B7", "A1-A2"]), 5).unwrap_err();
        assert!(e.contains("move 2 `A1-A2`"), "{e}");
        let e = replay::<TriCamelotRules>("tricamelot X", &[], 5).unwrap_err();
        assert!(e.contains("bad start position"), "{e}");
    }

    #[test]
    fn standard_starts_are_recognised() {
        assert!(is_standard_start::<CamelotRules>("start"));
        assert!(is_standard_start::<CamelotRules>(CamelotRules::START));
        assert!(is_standard_start::<TriCamelotRules>(TriCamelotRules::START));
        assert!(!is_standard_start::<CamelotRules>("camelot W W:KA3 B:KL14 cm=0,0"));
        assert!(!is_standard_start::<CamelotRules>(TriCamelotRules::START));
    }
}
