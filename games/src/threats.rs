//! One-leg capture threats, for the network's threat planes: which pieces stand to be jumped
//! and where a piece would stand to be jumped.
//!
//! A *threat* is a single jump leg available to a piece on the board as it stands: the piece on
//! `a` jumps the adjacent piece on `a + d` and lands on the empty cell `a + 2d`. Only the rules
//! of one leg are applied: the jumper is not in its goal castle (pieces there never move again)
//! and the landing cell is not forbidden to it. Whose turn it is, compulsory capture, a piece's
//! duty to leave its own castle, Knight's Charges and the legs after the first are not looked
//! at: the planes tell the network where material hangs, the search tells it the rest.

use crate::board::Board;
use crate::game::Player;
use crate::geometry::{Cell, NO_CELL};
use crate::variant::{Landing, Variant};

/// What a jump leg on the board threatens, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threat {
    /// A piece of the mover that an opponent's piece could jump.
    MoverEnPrise,
    /// An opponent's piece that a piece of the mover could jump.
    OpponentEnPrise,
    /// An empty cell where a piece of the mover would stand to be jumped by an opponent's piece
    /// (the cell is adjacent to that piece, the cell beyond it empty).
    Exposed,
}

impl Threat {
    /// All three, in plane order.
    pub const ALL: [Threat; 3] = [Threat::MoverEnPrise, Threat::OpponentEnPrise, Threat::Exposed];
}

/// Calls `mark(threat, cell)` for every threat on `board` seen by `mover` (a cell may be marked
/// more than once, by different jumpers). Jumps between two opponents of the mover (Tri-Camelot)
/// are not marked.
pub(crate) fn threats<V: Variant>(
    board: &Board,
    mover: Player,
    mut mark: impl FnMut(Threat, Cell),
) {
    let t = V::tables();
    let geo = &t.geometry;
    for (a, jumper) in board.pieces(geo.num_cells()) {
        let landing = &t.landing[jumper.owner.index()];
        if landing[a as usize] == Landing::Goal {
            continue;
        }
        for d in 0..geo.num_dirs() as u8 {
            let land = geo.leap(a, d);
            if land == NO_CELL
                || !board.is_empty(land)
                || landing[land as usize] == Landing::Forbidden
            {
                continue;
            }
            let over = geo.step(a, d);
            match board.owner(over) {
                None if jumper.owner != mover => mark(Threat::Exposed, over),
                Some(victim) if victim == mover && jumper.owner != mover => {
                    mark(Threat::MoverEnPrise, over)
                }
                Some(victim) if victim != mover && jumper.owner == mover => {
                    mark(Threat::OpponentEnPrise, over)
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camelot::CamelotRules;
    use crate::position::Position;
    use crate::tricamelot::TriCamelotRules;

    fn marked<V: Variant>(position: &str) -> Vec<(Threat, String)> {
        let pos: Position<V> = position.parse().unwrap();
        let geo = &V::tables().geometry;
        let mut out = Vec::new();
        threats::<V>(pos.board(), pos.to_move(), |t, c| out.push((t, geo.name(c).to_string())));
        out.sort_by(|a, b| (a.1.clone(), a.0 as u8).cmp(&(b.1.clone(), b.0 as u8)));
        out.dedup();
        out
    }

    fn named(list: &[(Threat, &str)]) -> Vec<(Threat, String)> {
        let mut v: Vec<_> = list.iter().map(|&(t, c)| (t, c.to_string())).collect();
        v.sort_by(|a, b| (a.1.clone(), a.0 as u8).cmp(&(b.1.clone(), b.0 as u8)));
        v
    }

    #[test]
    fn two_men_face_to_face_threaten_each_other() {
        use Threat::*;
        // White Man on F6, Black Man on F7, White to move: each can jump the other (to F8, to
        // F5), and Black's Man exposes the seven other cells around it whose far side is empty.
        let got = marked::<CamelotRules>("camelot W W:MF6 B:MF7 cm=0,0");
        let want = named(&[
            (MoverEnPrise, "F6"),
            (OpponentEnPrise, "F7"),
            (Exposed, "E6"),
            (Exposed, "G6"),
            (Exposed, "E7"),
            (Exposed, "G7"),
            (Exposed, "E8"),
            (Exposed, "F8"),
            (Exposed, "G8"),
        ]);
        assert_eq!(got, want);
    }

    #[test]
    fn a_blocked_landing_cell_is_no_threat() {
        use Threat::*;
        // Black's Man on F8 fills the cell beyond F7: White cannot jump F7, Black still jumps F6.
        let got = marked::<CamelotRules>("camelot W W:MF6 B:MF7,MF8 cm=0,0");
        assert!(got.contains(&(MoverEnPrise, "F6".into())), "{got:?}");
        assert!(!got.iter().any(|(t, _)| *t == OpponentEnPrise), "{got:?}");
    }

    #[test]
    fn pieces_in_their_goal_castle_threaten_nothing() {
        // Black's Man sits in White's castle (Black's goal) below a White Man with F3 empty:
        // it never moves again, so neither the White Man nor any empty cell is threatened.
        let got = marked::<CamelotRules>("camelot W W:MF2 B:MF1 cm=0,0");
        assert!(!got.iter().any(|(t, _)| *t != Threat::OpponentEnPrise), "{got:?}");
        // The same Men one rank up, out of the castle: F2's Man stands to be jumped.
        let got = marked::<CamelotRules>("camelot W W:MF3 B:MF2 cm=0,0");
        assert!(got.contains(&(Threat::MoverEnPrise, "F3".into())), "{got:?}");
    }

    #[test]
    fn tri_camelot_marks_only_jumps_by_or_over_the_mover() {
        use Threat::*;
        let t = TriCamelotRules::tables();
        let geo = &t.geometry;
        let normal =
            |c: Cell| c != NO_CELL && t.landing.iter().all(|l| l[c as usize] == Landing::Normal);
        // A Red Man on x and a Blue Man next to it on y, the cells beyond both empty.
        let (x, d, back) = (0..geo.num_cells() as u8)
            .flat_map(|x| (0..geo.num_dirs() as u8).map(move |d| (x, d)))
            .find_map(|(x, d)| {
                let (f, r) = geo.dir_vector(d);
                let back = (0..geo.num_dirs() as u8).find(|&e| geo.dir_vector(e) == (-f, -r))?;
                [x, geo.step(x, d), geo.leap(x, d), geo.step(x, back)]
                    .into_iter()
                    .all(normal)
                    .then_some((x, d, back))
            })
            .expect("a line of four ordinary cells");
        let y = geo.step(x, d);
        // Green's Man (a side may not be empty) stands apart: next to neither Man, on neither
        // landing cell.
        let near = |a: Cell, b: Cell| (0..geo.num_dirs() as u8).any(|e| geo.step(a, e) == b);
        let g = (0..geo.num_cells() as u8)
            .find(|&g| {
                normal(g)
                    && ![x, y, geo.leap(x, d), geo.step(x, back)].contains(&g)
                    && !near(g, x)
                    && !near(g, y)
            })
            .expect("a cell apart");
        let name = |c: Cell| geo.name(c).to_string();
        for (mover, concerned) in [("R", true), ("B", true), ("G", false)] {
            let got = marked::<TriCamelotRules>(&format!(
                "tricamelot {mover} B:M{} R:M{} G:M{}",
                name(y),
                name(x),
                name(g)
            ));
            let (mine, theirs) = if mover == "B" { (y, x) } else { (x, y) };
            assert_eq!(got.contains(&(MoverEnPrise, name(mine))), concerned, "{mover}: {got:?}");
            assert_eq!(
                got.contains(&(OpponentEnPrise, name(theirs))),
                concerned,
                "{mover}: {got:?}"
            );
            // Green, to move, owns neither Man: only empty cells next to them are marked.
            if !concerned {
                assert!(!got.is_empty());
                assert!(got.iter().all(|(t, c)| *t == Exposed && *c != name(x) && *c != name(y)));
            }
        }
    }
}
