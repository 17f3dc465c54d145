//! A second walk of the rules for the tactical planes (tests only): every legal move of a seat
//! played out leg by leg through the [`State`] interface, the captures read off its leaps, so
//! that [`SeatTactics`] (one pass of the move generator with a collecting sink) is checked
//! against an implementation that shares none of its bookkeeping.

use crate::action::{Action, LegKind};
use crate::board::{Board, PieceKind};
use crate::game::{Game, Player};
use crate::geometry::{Cell, MAX_CELLS};
use crate::options::RuleOptions;
use crate::position::{Position, Variant};
use crate::state::State;
use crate::tactical_planes::{KNIGHT_IN_MEN, SeatTactics};

/// The tactics of `seat` on `board` found by playing out its moves.
pub(crate) fn reference<V: Variant>(
    board: &Board,
    seat: Player,
    castle_moves: [u8; 2],
    options: RuleOptions,
) -> SeatTactics {
    let pos = Position::<V>::with_mover(board, seat, castle_moves, options);
    let mut walk = Walk { tactics: SeatTactics::none(), captures: 0, quiet: 0, seat };
    walk.from(&State::new(pos), &mut Vec::new(), None, 0);
    walk.tactics.compulsory = walk.captures > 0 && walk.quiet == 0;
    walk.tactics
}

struct Walk {
    tactics: SeatTactics,
    captures: usize,
    quiet: usize,
    seat: Player,
}

impl Walk {
    /// Plays every action of `s` (legs `legs` of the move so far have been played; `taken` holds
    /// the pieces captured so far; `launch` is where the first capturing leg started and
    /// whether canter legs came before it).
    fn from<V: Variant>(
        &mut self,
        s: &State<V>,
        taken: &mut Vec<(Cell, PieceKind)>,
        launch: Option<(Cell, bool)>,
        legs: usize,
    ) {
        let geo = &V::tables().geometry;
        let mut actions = Vec::new();
        s.legal_actions(&mut actions);
        for a in actions {
            let mut next = s.clone();
            next.play(a);
            let mut captured = None;
            if let Action::Leg { from, dir, kind: LegKind::Leap } = a {
                let mid = geo.step(from, dir);
                captured = s.board().get(mid).filter(|p| p.owner != self.seat).map(|p| (mid, p));
            }
            let mut launch = launch;
            if let Some((cell, piece)) = captured {
                taken.push((cell, piece.kind));
                if launch.is_none() {
                    let Action::Leg { from, .. } = a else { unreachable!("a capture is a leg") };
                    launch = Some((from, legs > 0));
                }
            }
            if next.landed().is_empty() || next.to_move() != self.seat {
                self.complete(taken, launch);
            } else {
                self.from(&next, taken, launch, legs + 1);
            }
            if captured.is_some() {
                taken.pop();
            }
        }
    }

    fn complete(&mut self, taken: &[(Cell, PieceKind)], launch: Option<(Cell, bool)>) {
        let Some((from, charge)) = launch else {
            self.quiet += 1;
            return;
        };
        self.captures += 1;
        let t = &mut self.tactics;
        for &(c, _) in taken {
            if charge {
                t.charge_captures[c as usize] = true
            } else {
                t.jump_captures[c as usize] = true
            }
        }
        if charge {
            t.charge_launches[from as usize] = true;
        }
        let gain: f32 = taken
            .iter()
            .map(|&(_, k)| if k == PieceKind::Knight { KNIGHT_IN_MEN } else { 1.0 })
            .sum();
        t.best_gain = t.best_gain.max(gain);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CamelotRules, TriCamelotRules};

    fn tactics_of<V: Variant>(s: &State<V>, seat: u8) -> SeatTactics {
        let p = s.position();
        SeatTactics::of::<V>(s.board(), Player(seat), p.castle_moves(), p.options())
    }

    fn cells<V: Variant>(set: &[bool; MAX_CELLS]) -> Vec<&'static str> {
        let geo = &V::tables().geometry;
        (0..geo.num_cells() as u8).filter(|&c| set[c as usize]).map(|c| geo.name(c)).collect()
    }

    /// The example: Black's F10>D8 lets White's Knight on B7 charge B7-D7xD9xF9.
    #[test]
    fn the_optional_charge_after_f10_d8_is_seen() {
        let s: State<CamelotRules> = "camelot W W:KB5,KB7,KK6,MC7,MF7,MF8,MG7,MG8,MH7,MH8,MI6 \
             B:KD10,MC12,MD11,MD8,ME9,ME10,ME11,MH11 cm=0,0"
            .parse()
            .unwrap();
        let white = tactics_of(&s, 0);
        let charged = cells::<CamelotRules>(&white.charge_captures);
        assert!(charged.contains(&"D8") && charged.contains(&"E9"), "{charged:?}");
        assert!(cells::<CamelotRules>(&white.charge_launches).contains(&"D7"));
        assert!(!white.compulsory, "only charges: capturing is optional");
        assert!(white.best_gain >= 2.0, "{}", white.best_gain);
        assert_eq!(
            white,
            reference::<CamelotRules>(s.board(), Player(0), [0, 0], s.position().options())
        );
    }

    #[test]
    fn a_plain_jump_is_compulsory() {
        // White's Man on F7 can jump Black's Man on F8 (landing on F9).
        let s: State<CamelotRules> = "camelot W W:MF7,KA6 B:MF8,KL11 cm=0,0".parse().unwrap();
        let white = tactics_of(&s, 0);
        assert_eq!(cells::<CamelotRules>(&white.jump_captures), ["F8"]);
        assert!(white.compulsory);
        assert_eq!(white.best_gain, 1.0);
        let black = tactics_of(&s, 1);
        assert_eq!(cells::<CamelotRules>(&black.jump_captures), ["F7"]);
        assert!(cells::<CamelotRules>(&black.charge_captures).is_empty());
    }

    /// Every fifth state of `games` random playouts (mid-move ones included), every seat.
    fn agree<V: Variant>(seed: u64, games: usize) {
        let (mut checked, mut with_captures) = (0, 0);
        for s in crate::testing::random_states::<V>(games, 300, seed).iter().step_by(5) {
            for seat in 0..V::NUM_PLAYERS as u8 {
                let p = s.position();
                let want = reference::<V>(s.board(), Player(seat), p.castle_moves(), p.options());
                assert_eq!(tactics_of(s, seat), want, "seat {seat} in {s}");
                checked += 1;
                with_captures += (want.best_gain > 0.0) as usize;
            }
        }
        assert!(
            checked > 100 && with_captures > 10,
            "{checked} checked, {with_captures} with captures"
        );
    }

    #[test]
    fn the_move_generator_pass_agrees_with_playing_out_every_move() {
        agree::<CamelotRules>(3, 12);
        agree::<TriCamelotRules>(4, 8);
    }
}
