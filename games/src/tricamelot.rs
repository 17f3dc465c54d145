//! Tri-Camelot: three players on 73 hexagons (RULES.md §1, §3, §4).

use std::sync::LazyLock;

use crate::game::{GameOver, MAX_PLAYERS, Outcome, Player, Termination};
use crate::geometry::Geometry;
use crate::position::Position;
use crate::position::Variant;
use crate::variant::{Landing, Tables};

/// The rules of 3-player Tri-Camelot. Blue (seat 0), Red (1), Green (2) move in that order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TriCamelotRules;

pub const BLUE: Player = Player(0);
pub const RED: Player = Player(1);
pub const GREEN: Player = Player(2);

/// The 73 hexagons, as listed in the official rules.
const HEXES: &str = "F1 E2 G2 D3 F3 H3 E4 G4 D5 F5 H5 C6 E6 G6 I6 D7 F7 H7 C8 E8 G8 I8 B9 D9 F9 \
    H9 J9 C10 E10 G10 I10 B11 D11 F11 H11 J11 A12 C12 E12 G12 I12 K12 B13 D13 F13 H13 J13 A14 C14 \
    E14 G14 I14 K14 B15 D15 F15 H15 J15 A16 C16 E16 G16 I16 K16 B17 D17 F17 H17 J17 C18 E18 G18 I18";

/// N, NE, SE, S, SW, NW in doubled coordinates, clockwise: a 120-degree turn adds 2 (or 4).
const DIRS: [(i8, i8); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

/// Rotation by 120 degrees counter-clockwise about the centre F11, which maps Blue's side to
/// Green's, Green's to Red's and Red's to Blue's. In doubled coordinates relative to the centre,
/// (df, dr) -> (-(df + dr) / 2, (3 df - dr) / 2).
pub(crate) fn rotate(f: i8, r: i8) -> (i8, i8) {
    let (df, dr) = (f - 5, r - 11);
    (5 - (df + dr) / 2, 11 + (3 * df - dr) / 2)
}

fn rotate_dir(df: i8, dr: i8) -> (i8, i8) {
    (-(df + dr) / 2, (3 * df - dr) / 2)
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let cells = HEXES
        .split_whitespace()
        .map(|s| ((s.as_bytes()[0] - b'A') as i8, s[1..].parse::<i8>().expect("hex rank")))
        .collect();
    let g = Geometry::new(cells, DIRS.to_vec());
    // Castles: Blue F1, Red A16, Green K16. Each player's target is the castle of the next
    // player in turn order; the castle of the previous player is forbidden.
    let castles = [g.at(5, 1).unwrap(), g.at(0, 16).unwrap(), g.at(10, 16).unwrap()];
    let landing: [Vec<Landing>; MAX_PLAYERS] = std::array::from_fn(|p| {
        let mut row = vec![Landing::Normal; g.num_cells()];
        row[castles[p] as usize] = Landing::OwnCastle;
        row[castles[(p + 1) % 3] as usize] = Landing::Goal;
        row[castles[(p + 2) % 3] as usize] = Landing::Forbidden;
        row
    });
    // The mover sits at the bottom (Blue's side): Red's view is one rotation (Red -> Blue),
    // Green's is two (Green -> Red -> Blue).
    let twice = |f, r| {
        let (f1, r1) = rotate(f, r);
        rotate(f1, r1)
    };
    let twice_dir = |x, y| {
        let (x1, y1) = rotate_dir(x, y);
        rotate_dir(x1, y1)
    };
    let frame_cell =
        vec![g.permutation(|f, r| (f, r)), g.permutation(rotate), g.permutation(twice)];
    let frame_dir = vec![
        g.dir_permutation(|x, y| (x, y)),
        g.dir_permutation(rotate_dir),
        g.dir_permutation(twice_dir),
    ];
    Tables::new(g, landing, frame_cell, frame_dir)
});

impl Variant for TriCamelotRules {
    const NAME: &'static str = "tricamelot";
    const NUM_PLAYERS: usize = 3;
    const NUM_CELLS: usize = 73;
    const NUM_DIRS: usize = 6;
    const PLAYER_LETTERS: &'static [char] = &['B', 'R', 'G'];
    const PLAYER_NAMES: &'static [&'static str] = &["Blue", "Red", "Green"];
    const START: &'static str = "tricamelot B B:KE4,KF5,KG4,MD5,ME6,MF7,MG6,MH5 \
         R:KB13,KC14,KC16,MB11,MC12,MD13,MD15,MD17 G:KI14,KI16,KJ13,MH13,MH15,MH17,MI12,MJ11";
    const KNIGHTS: usize = 3;
    const MEN: usize = 5;
    const CASTLE_MOVES: bool = false;

    /// Axial coordinates: column = file, row = (rank - file) / 2 + 2, an 11 × 11 grid on which
    /// the six neighbours of a hex are six of the eight cells around it (a 3 × 3 kernel).
    const GRID: (usize, usize) = (11, 11);

    fn tables() -> &'static Tables {
        &TABLES
    }

    fn grid_pos(file: i8, rank: i8) -> (usize, usize) {
        (((rank - file) / 2 + 2) as usize, file as usize)
    }

    fn settle(pos: &mut Position<Self>, mover: Option<Player>) {
        let t = Self::tables();
        for p in 0..3 {
            let goal = t.goal[p][0];
            if pos.board.owner(goal) == Some(Player(p as u8)) {
                pos.over = Some(GameOver {
                    outcome: Outcome::Win(Player(p as u8)),
                    termination: Termination::Castle,
                });
                return;
            }
        }
        let mut seat = mover.map_or(pos.to_move, Self::next_seat);
        let mut by_elimination = false;
        loop {
            let alive: Vec<u8> = (0..3u8).filter(|&p| pos.board.count(Player(p)) > 0).collect();
            if alive.len() <= 1 {
                let termination =
                    if by_elimination { Termination::NoMove } else { Termination::CaptureAll };
                let outcome = alive.first().map_or(Outcome::Draw, |&p| Outcome::Win(Player(p)));
                if let Some(&p) = alive.first() {
                    pos.to_move = Player(p);
                }
                pos.over = Some(GameOver { outcome, termination });
                return;
            }
            if pos.board.count(seat) > 0 {
                pos.to_move = seat;
                let mut n = 0usize;
                pos.generate(&mut n);
                if n > 0 {
                    pos.over = None;
                    return;
                }
                // No legal move: the player is eliminated and play goes on.
                pos.board.remove_all(seat);
                by_elimination = true;
            }
            seat = Self::next_seat(seat);
        }
    }

    fn no_move(_pos: &Position<Self>) -> GameOver {
        // `settle` never leaves a Tri-Camelot position whose mover has no move; if one is
        // built anyway, nobody can move on: call it a draw.
        GameOver { outcome: Outcome::Draw, termination: Termination::NoMove }
    }
}

/// Tri-Camelot's 120-degree rotation as a cell permutation: it maps Blue's side onto Green's,
/// Green's onto Red's and Red's onto Blue's (so a piece of seat `p` becomes one of seat
/// `(p + 2) % 3`). It is also Red's frame in the encoding.
pub static TRI_ROTATION: LazyLock<Vec<crate::geometry::Cell>> =
    LazyLock::new(|| TABLES.frame_cell[1].clone());
