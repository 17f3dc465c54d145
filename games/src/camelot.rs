//! Camelot: two players on 160 squares (RULES.md §1, §3, §4).

use std::sync::LazyLock;

use crate::game::{GameOver, MAX_PLAYERS, Outcome, Player, Termination};
use crate::geometry::{Geometry, Mirror};
use crate::position::Position;
use crate::position::Variant;
use crate::variant::{Landing, Tables};

/// The rules of 2-player Camelot. White (seat 0) moves first; Black is seat 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CamelotRules;

pub const WHITE: Player = Player(0);
pub const BLACK: Player = Player(1);

/// Files that exist on each rank 1..=16 (inclusive, 0 = A).
const RANK_FILES: [(i8, i8); 16] = [
    (5, 6),
    (2, 9),
    (1, 10),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (0, 11),
    (1, 10),
    (2, 9),
    (5, 6),
];

/// N, NE, E, SE, S, SW, W, NW as (file, rank) deltas: `opposite(d) = (d + 4) % 8`.
const DIRS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let cells = RANK_FILES
        .iter()
        .enumerate()
        .flat_map(|(i, &(lo, hi))| (lo..=hi).map(move |f| (f, i as i8 + 1)))
        .collect();
    let g = Geometry::new(cells, DIRS.to_vec());
    let castle = |rank| [g.at(5, rank).unwrap(), g.at(6, rank).unwrap()];
    let (white_castle, black_castle) = (castle(1), castle(16));
    let mut landing: [Vec<Landing>; MAX_PLAYERS] =
        std::array::from_fn(|_| vec![Landing::Normal; g.num_cells()]);
    for c in white_castle {
        landing[0][c as usize] = Landing::OwnCastle;
        landing[1][c as usize] = Landing::Goal;
    }
    for c in black_castle {
        landing[1][c as usize] = Landing::OwnCastle;
        landing[0][c as usize] = Landing::Goal;
    }
    // Black sees the board rotated by 180 degrees.
    let frame_cell = vec![g.permutation(|f, r| (f, r)), g.permutation(|f, r| (11 - f, 17 - r))];
    let frame_dir = vec![g.dir_permutation(|x, y| (x, y)), g.dir_permutation(|x, y| (-x, -y))];
    Tables::new(g, landing, frame_cell, frame_dir)
});

/// The left-right mirror (file A <-> L): a symmetry of Camelot's rules, used for augmentation.
pub static MIRROR: LazyLock<Mirror> = LazyLock::new(|| {
    let g = &CamelotRules::tables().geometry;
    Mirror { cell: g.permutation(|f, r| (11 - f, r)), dir: g.dir_permutation(|x, y| (-x, y)) }
});

impl Variant for CamelotRules {
    const NAME: &'static str = "camelot";
    const NUM_PLAYERS: usize = 2;
    const NUM_CELLS: usize = 160;
    const NUM_DIRS: usize = 8;
    const PLAYER_LETTERS: &'static [char] = &['W', 'B'];
    const PLAYER_NAMES: &'static [&'static str] = &["White", "Black"];
    const START: &'static str = "camelot W W:KC6,KD7,KI7,KJ6,MD6,ME6,ME7,MF6,MF7,MG6,MG7,MH6,MH7,MI6 \
         B:KC11,KD10,KI10,KJ11,MD11,ME10,ME11,MF10,MF11,MG10,MG11,MH10,MH11,MI11 cm=0,0";
    const KNIGHTS: usize = 4;
    const MEN: usize = 10;
    const CASTLE_MOVES: bool = true;

    const GRID: (usize, usize) = (16, 12);

    fn tables() -> &'static Tables {
        &TABLES
    }

    fn grid_pos(file: i8, rank: i8) -> (usize, usize) {
        ((rank - 1) as usize, file as usize)
    }

    /// Files A-L are the grid's columns in order, so the mirror reverses each row.
    fn mirror() -> Option<&'static Mirror> {
        Some(&MIRROR)
    }

    fn settle(pos: &mut Position<Self>, mover: Option<Player>) {
        if let Some(m) = mover {
            pos.to_move = Self::next_seat(m);
        }
        pos.over = ending(pos);
    }

    fn no_move(pos: &Position<Self>) -> GameOver {
        let other = Self::next_seat(pos.to_move);
        let outcome = if pos.board.count(other) >= 2 { Outcome::Win(other) } else { Outcome::Draw };
        GameOver { outcome, termination: Termination::NoMove }
    }
}

/// RULES.md §4, rules 1-3, in order (rule 4, no legal move, needs move generation).
fn ending(pos: &Position<CamelotRules>) -> Option<GameOver> {
    let t = CamelotRules::tables();
    for p in [WHITE, BLACK] {
        if t.goal[p.index()].iter().all(|&c| pos.board.owner(c) == Some(p)) {
            return Some(GameOver { outcome: Outcome::Win(p), termination: Termination::Castle });
        }
    }
    let (w, b) = (pos.board.count(WHITE), pos.board.count(BLACK));
    if w <= 1 && b <= 1 {
        return Some(GameOver { outcome: Outcome::Draw, termination: Termination::Draw });
    }
    let capture_all =
        |p| GameOver { outcome: Outcome::Win(p), termination: Termination::CaptureAll };
    if b == 0 {
        return Some(capture_all(WHITE));
    }
    if w == 0 {
        return Some(capture_all(BLACK));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md §4 rule 4, both branches. The "draw" branch (the mover has no move and the
    /// opponent one piece) is hard to reach on the board, so it is checked on the rule itself.
    #[test]
    fn no_move_loses_against_two_pieces_else_draws() {
        let pos: Position<CamelotRules> = "camelot W W:MA4,MB4 B:MK12,MK13 cm=0,0".parse().unwrap();
        assert_eq!(CamelotRules::no_move(&pos).outcome, Outcome::Win(BLACK));
        let pos: Position<CamelotRules> = "camelot W W:MA4,MB4 B:MK12 cm=0,0".parse().unwrap();
        let over = CamelotRules::no_move(&pos);
        assert_eq!((over.outcome, over.termination), (Outcome::Draw, Termination::NoMove));
    }
}
