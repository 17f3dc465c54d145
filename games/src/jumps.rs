//! The direct jumps standing on a board, whoever is to move: which pieces could capture with a
//! single jump and which pieces could be captured by one. The network's input draws them
//! ([`crate::PlaneFill::JumpTargets`], [`crate::PlaneFill::Jumpers`]) so that even a small net
//! sees at once the first leg of every capture chain, the tactic that decides most games between
//! weak players (a piece walked next to an enemy with an empty square behind it).

use crate::board::Board;
use crate::geometry::{Cell, NO_CELL};
use crate::variant::{Landing, Variant};

/// Calls `f(jumper, over)` for every direct jump on `board`: the piece on `jumper` could leap
/// over the enemy piece on `over` (a piece of another seat) to the empty cell beyond, a cell its
/// owner may enter (not `Landing::Forbidden`), from a cell that is not its owner's goal (a piece
/// there may not leave). The same test as move generation's first jump leg, applied to every
/// seat regardless of whose turn it is and of the castle and compulsory-capture rules that decide
/// which jumps the mover may start with.
pub fn direct_jumps<V: Variant>(board: &Board, mut f: impl FnMut(Cell, Cell)) {
    let t = V::tables();
    let geo = &t.geometry;
    for (jumper, piece) in board.pieces(geo.num_cells()) {
        let landing = &t.landing[piece.owner.index()];
        if landing[jumper as usize] == Landing::Goal {
            continue;
        }
        for d in 0..geo.num_dirs() as u8 {
            let land = geo.leap(jumper, d);
            if land == NO_CELL
                || !board.is_empty(land)
                || landing[land as usize] == Landing::Forbidden
            {
                continue;
            }
            let over = geo.step(jumper, d);
            if board.owner(over).is_some_and(|o| o != piece.owner) {
                f(jumper, over);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::state::State;
    use crate::{CamelotRules, TriCamelotRules};

    fn jumps<V: Variant>(position: &str) -> Vec<(String, String)> {
        let s: State<V> = position.parse().unwrap();
        let g = &V::tables().geometry;
        let mut out = Vec::new();
        direct_jumps::<V>(s.board(), |a, b| out.push((g.name(a).into(), g.name(b).into())));
        out.sort();
        out
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut v: Vec<_> = list.iter().map(|&(a, b)| (a.to_string(), b.to_string())).collect();
        v.sort();
        v
    }

    #[test]
    fn the_start_has_no_jumps() {
        assert!(jumps::<CamelotRules>(&State::<CamelotRules>::initial().to_string()).is_empty());
        assert!(
            jumps::<TriCamelotRules>(&State::<TriCamelotRules>::initial().to_string()).is_empty()
        );
    }

    #[test]
    fn both_sides_jumps_are_found_whoever_is_to_move() {
        // F7 and F8 face each other with F6 and F9 empty: each can jump the other. White's C7
        // jumps Black's C8 to the empty C9; C8 cannot jump back, White's own C6 stands behind
        // C7. Black's Knight on H8 has no piece beside it.
        let found = jumps::<CamelotRules>("camelot W W:MF7,MC7,MC6 B:MF8,KH8,MC8 cm=0,0");
        assert_eq!(found, pairs(&[("F7", "F8"), ("F8", "F7"), ("C7", "C8")]));
        assert_eq!(found, jumps::<CamelotRules>("camelot B W:MF7,MC7,MC6 B:MF8,KH8,MC8 cm=0,0"));
    }

    #[test]
    fn a_piece_on_its_goal_does_not_jump() {
        // White's goal is Black's castle (F16, G16): the Knight on F16 may not leave it to jump
        // F15 to the empty F14. C6 and C7 jump each other.
        let found = jumps::<CamelotRules>("camelot B W:KF16,MC6 B:MF15,MC7 cm=0,0");
        assert_eq!(found, pairs(&[("C6", "C7"), ("C7", "C6")]));
    }

    /// At the start of a turn, with no piece of the mover in its own castle, the mover's direct
    /// jumps are exactly the legal first legs that leap over an enemy piece (move generation,
    /// an independent implementation, is the oracle).
    fn agrees_with_move_generation<V: Variant>(seed: u64) {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};

        use crate::action::{Action, LegKind};

        let t = V::tables();
        let g = &t.geometry;
        let mut rng = StdRng::seed_from_u64(seed);
        let (mut actions, mut checked) = (Vec::new(), 0);
        for _ in 0..30 {
            let mut s = State::<V>::initial();
            for _ in 0..rng.random_range(0..250) {
                s.legal_actions(&mut actions);
                if actions.is_empty() {
                    break;
                }
                let me = s.to_move();
                let in_castle = s.board().pieces(g.num_cells()).any(|(c, p)| {
                    p.owner == me && t.landing[me.index()][c as usize] == Landing::OwnCastle
                });
                if s.landed().is_empty() && !in_castle {
                    let mut want: Vec<(Cell, Cell)> = actions
                        .iter()
                        .filter_map(|a| match *a {
                            Action::Leg { from, dir, kind: LegKind::Leap } => {
                                let over = g.step(from, dir);
                                s.board()
                                    .owner(over)
                                    .is_some_and(|o| o != me)
                                    .then_some((from, over))
                            }
                            _ => None,
                        })
                        .collect();
                    let mut got = Vec::new();
                    direct_jumps::<V>(s.board(), |a, b| {
                        if s.board().owner(a) == Some(me) {
                            got.push((a, b));
                        }
                    });
                    want.sort();
                    got.sort();
                    assert_eq!(got, want, "{s}");
                    checked += usize::from(!got.is_empty());
                }
                s.play(actions[rng.random_range(0..actions.len())]);
            }
        }
        assert!(checked > 20, "only {checked} positions with jumps were checked");
    }

    #[test]
    fn the_movers_jumps_are_its_legal_capturing_first_legs() {
        agrees_with_move_generation::<CamelotRules>(1);
        agrees_with_move_generation::<TriCamelotRules>(2);
    }
}
