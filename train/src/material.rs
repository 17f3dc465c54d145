//! The auxiliary material target (`[train] material_target` in a run config; KataGo's
//! auxiliary targets, issue #16's lever list).
//!
//! Besides who wins, the network learns how much material the side to move wins or loses over
//! the next few moves: a dense, tactical signal (a hanging piece, a capture chain coming)
//! where the value target has one noisy bit per game. The head is a small layer on the value
//! head's hidden features ([`model::NetConfig::material_classes`]); its gradient reaches the
//! value head and the tower, and nothing in play reads it.
//!
//! The swing of a decision with the mover `m` to play at move `t`: the pieces the other seats
//! lose minus the pieces `m` loses between it and the first recorded decision of the same game
//! at move `t + moves` or later (the game's last recorded decision when it ends sooner, so a
//! final move's captures are not counted), clamped to `±SWING_LIMIT` and one-hot over
//! [`SWING_CLASSES`] classes (class `swing + SWING_LIMIT`). Men and Knights count alike.

use games::RuleOptions;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::horizon::{Lookahead, game_ranges, later_decisions};
use crate::targets::{Record, SampleError, TrainGame};

/// The largest swing told apart; larger ones are clamped to it.
pub const SWING_LIMIT: i32 = 2;

/// Classes of the material head: swings `-SWING_LIMIT..=SWING_LIMIT`.
pub const SWING_CLASSES: usize = 2 * SWING_LIMIT as usize + 1;

/// Whether and how the material head is trained.
///
/// In TOML: `material_target = "off"` (the default) or
/// `material_target = { swing = { moves = 4, weight = 0.5 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MaterialTarget {
    /// No material head is trained (a network that has one keeps it untouched).
    #[default]
    Off,
    /// The swing over the next `moves` moves (see the module docs), its cross-entropy weighted
    /// by `weight` in the loss. A network without the head gets a fresh one.
    Swing(Lookahead),
}

impl MaterialTarget {
    /// The horizon and weight, when the target is on.
    pub fn lookahead(&self) -> Option<Lookahead> {
        match *self {
            MaterialTarget::Off => None,
            MaterialTarget::Swing(l) => Some(l),
        }
    }

    /// The horizon in moves, when the target is on.
    pub fn moves(&self) -> Option<u32> {
        self.lookahead().map(|l| l.moves)
    }

    /// The loss weight (0 when off).
    pub fn weight(&self) -> f32 {
        self.lookahead().map_or(0.0, |l| l.weight)
    }

    /// Range checks; the error is (key under `train.material_target`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let named = |(key, problem)| (format!("swing.{key}"), problem);
        self.lookahead().map_or(Ok(()), |l| l.validate().map_err(named))
    }
}

/// One recorded decision of a game, as the swing needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The move it belongs to (every leg of a capture chain shares one).
    pub move_number: u32,
    /// Seat to move.
    pub mover: usize,
    /// Pieces on the board per seat (absolute seat order).
    pub pieces: Vec<u32>,
}

/// The swing class of every decision of one game, given in play order, over `moves` moves.
pub fn swing_classes(game: &[Decision], moves: u32) -> Vec<u8> {
    let numbers: Vec<u32> = game.iter().map(|d| d.move_number).collect();
    game.iter()
        .zip(later_decisions(&numbers, moves))
        .map(|(now, later)| {
            let later = &game[later];
            let mut swing = 0i64;
            for (seat, (&a, &b)) in now.pieces.iter().zip(&later.pieces).enumerate() {
                let lost = i64::from(a) - i64::from(b);
                swing += if seat == now.mover { -lost } else { lost };
            }
            let limit = i64::from(SWING_LIMIT);
            (swing.clamp(-limit, limit) + limit) as u8
        })
        .collect()
}

/// The swing class of every record of a replay window over `moves` moves: `records` in
/// (generation, game, ply) order, so each game's decisions are contiguous, with `generation(i)`
/// the generation of record `i`. A position that does not parse is an error with its index.
pub fn window_classes<G: TrainGame>(
    records: &[Record],
    generation: impl Fn(usize) -> u32,
    moves: u32,
    options: RuleOptions,
) -> Result<Vec<u8>, (usize, SampleError)> {
    let decisions = records
        .par_iter()
        .enumerate()
        .map(|(i, r)| {
            let state = G::parse_position(&r.position, options).map_err(|e| {
                let (position, message) = (r.position.to_string(), e.to_string());
                (i, SampleError::Parse { position, message })
            })?;
            let pieces = (0..G::NUM_PLAYERS).map(|seat| state.pieces(seat) as u32).collect();
            Ok(Decision { move_number: r.move_number, mover: usize::from(r.mover), pieces })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut classes = Vec::with_capacity(records.len());
    for game in game_ranges(records, generation) {
        classes.extend(swing_classes(&decisions[game], moves));
    }
    Ok(classes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(move_number: u32, mover: usize, pieces: &[u32]) -> Decision {
        Decision { move_number, mover, pieces: pieces.to_vec() }
    }

    #[test]
    fn the_swing_counts_pieces_won_minus_lost_over_the_horizon() {
        // White (0) and Black (1) alternate; Black's move 2 is a two-leg capture chain taking
        // two White pieces; White's move 3 takes one Black piece.
        let game = [
            decision(0, 0, &[14, 14]),
            decision(1, 1, &[14, 14]),
            decision(2, 0, &[14, 14]),
            decision(3, 1, &[14, 14]), // Black captures: two legs
            decision(3, 1, &[13, 14]),
            decision(4, 0, &[12, 14]),
            decision(5, 1, &[12, 13]),
        ];
        // Horizon 2 moves. Move 0 (White) → move 2: nothing lost (class 2).
        // Move 1 (Black) → move 3's first leg: nothing yet (2). Move 2 (White) → move 4: White
        // lost two (class 0). Move 3 first leg (Black) → move 5: White lost 2, Black 1: +1 (3).
        // Its second leg → move 5: White lost 1 more, Black 1: 0 (2). Move 4 (White) → the
        // end (no move 6): Black lost 1: +1 (3). Move 5 → itself: 0 (2).
        assert_eq!(swing_classes(&game, 2), [2, 2, 0, 3, 2, 3, 2]);
        // A horizon past the end counts to the last decision: White's opening move sees
        // White lose 2 and Black 1 (class 1); clamping: a swing of 3 is class 4.
        assert_eq!(swing_classes(&game, 100)[0], 1);
        let rout = [decision(0, 1, &[5, 5]), decision(1, 0, &[2, 5])];
        assert_eq!(swing_classes(&rout, 1), [4, 2]);
    }

    #[test]
    fn three_seats_count_every_other_seat() {
        // Blue (0) to move; within the horizon Red (1) loses 2 and Green (2) loses 1, Blue 1.
        let game = [decision(0, 0, &[10, 10, 10]), decision(1, 1, &[9, 8, 9])];
        assert_eq!(swing_classes(&game, 1), [2 + 2, 2]);
        // From Red's view at the first decision it would be 1 + 1 - 2 = 0.
        let red = [decision(0, 1, &[10, 10, 10]), decision(1, 2, &[9, 8, 9])];
        assert_eq!(swing_classes(&red, 1)[0], 2);
    }

    #[test]
    fn the_config_parses_and_checks_its_ranges() {
        #[derive(Deserialize)]
        struct T {
            material_target: MaterialTarget,
        }
        let parse = |s: &str| toml::from_str::<T>(s).map(|t| t.material_target);
        assert_eq!(parse("material_target = \"off\"").unwrap(), MaterialTarget::Off);
        let on = parse("material_target = { swing = { moves = 4, weight = 0.5 } }").unwrap();
        assert_eq!(on, MaterialTarget::Swing(Lookahead { moves: 4, weight: 0.5 }));
        assert_eq!((on.moves(), on.weight()), (Some(4), 0.5));
        assert!(on.validate().is_ok());
        assert!(parse("material_target = { swing = { moves = 4 } }").is_err());
        assert!(parse("material_target = { swing = { moves = 4, weight = 1, x = 1 } }").is_err());
        let bad = |t: MaterialTarget| t.validate().unwrap_err().0;
        let swing = |moves, weight| MaterialTarget::Swing(Lookahead { moves, weight });
        assert_eq!(bad(swing(0, 1.0)), "swing.moves");
        assert_eq!(bad(swing(4, -1.0)), "swing.weight");
        assert_eq!(bad(swing(4, f32::NAN)), "swing.weight");
    }
}
