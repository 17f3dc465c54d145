//! The game half of an export's sidecar: players, board cells and their tensor positions, each
//! seat's frame, the input planes and the action index map — all read from the engine's own
//! tables ([`games::Variant::tables`], [`games::Encode::layout`], [`games::plane_specs`]).

use games::{
    Action, Encode, Encoding, Game, Landing, LegKind, NO_CELL, PieceKind, PlaneFill, State,
    Variant, direction_name, plane_specs,
};
use serde::Serialize;

/// A seat: letter and name as in position strings, and its special squares.
#[derive(Serialize)]
pub struct PlayerInfo {
    pub seat: usize,
    pub letter: String,
    pub name: &'static str,
    pub own_castle: Vec<String>,
    pub goal: Vec<String>,
    pub forbidden: Vec<String>,
}

/// The board and where each square sits in the tensor.
#[derive(Serialize)]
pub struct Board {
    pub grid_rows: usize,
    pub grid_cols: usize,
    pub notation: &'static str,
    /// In cell-index order (rank first, then file): the order of the policy's cells.
    pub cells: Vec<CellInfo>,
    /// Grid positions `[row, col]` that are no cell: 0 in every plane.
    pub off_board: Vec<[usize; 2]>,
    pub directions: Vec<Direction>,
}

#[derive(Serialize)]
pub struct CellInfo {
    pub cell: usize,
    pub square: String,
    pub file: i8,
    pub rank: i8,
    pub row: usize,
    pub col: usize,
}

#[derive(Serialize)]
pub struct Direction {
    pub index: usize,
    pub name: &'static str,
    pub file_delta: i8,
    pub rank_delta: i8,
}

/// How each seat's frame maps the board (the mover sees its own side at the bottom).
#[derive(Serialize)]
pub struct Perspective {
    pub rule: &'static str,
    pub seats: Vec<SeatFrame>,
}

#[derive(Serialize)]
pub struct SeatFrame {
    pub seat: usize,
    pub name: &'static str,
    pub transform: String,
    /// Board square → the square it is drawn as (whose cell gives the tensor position).
    pub squares: serde_json::Map<String, serde_json::Value>,
    /// Board direction → frame direction.
    pub directions: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
pub struct Plane {
    pub index: usize,
    pub name: String,
    pub meaning: String,
    pub fill: serde_json::Value,
}

/// The policy's action indices.
#[derive(Serialize)]
pub struct Actions {
    pub count: usize,
    pub end_move: usize,
    pub formula: String,
    /// One entry per leg index (every index but the last), in index order.
    pub legs: Vec<Leg>,
}

/// A leg action in the mover's frame: the piece on `square` (cell `cell`) moves in `direction`
/// one cell (`step`) or two (`leap`, over `over`) to `to`; `to` is null when that leaves the
/// board (such an index is never legal).
#[derive(Serialize)]
pub struct Leg {
    pub index: usize,
    pub cell: usize,
    pub square: String,
    pub direction: &'static str,
    pub kind: &'static str,
    pub to: Option<String>,
    pub over: Option<String>,
}

pub fn players<V: Variant>() -> Vec<PlayerInfo> {
    let t = V::tables();
    let squares = |seat: usize, what: Landing| -> Vec<String> {
        (0..t.geometry.num_cells() as u8)
            .filter(|&c| t.landing[seat][c as usize] == what)
            .map(|c| t.geometry.name(c).to_string())
            .collect()
    };
    (0..V::NUM_PLAYERS)
        .map(|s| PlayerInfo {
            seat: s,
            letter: V::PLAYER_LETTERS[s].to_string(),
            name: V::PLAYER_NAMES[s],
            own_castle: squares(s, Landing::OwnCastle),
            goal: squares(s, Landing::Goal),
            forbidden: squares(s, Landing::Forbidden),
        })
        .collect()
}

pub fn board<V: Variant>() -> Board {
    // The cell map is the same in every encoding.
    let (t, l) = (V::tables(), State::<V>::layout(Encoding::Basic));
    let g = &t.geometry;
    let cells: Vec<CellInfo> = (0..g.num_cells())
        .map(|c| {
            let (file, rank) = g.coords(c as u8);
            let at = l.cells[c] as usize;
            let square = g.name(c as u8).to_string();
            CellInfo { cell: c, square, file, rank, row: at / l.width, col: at % l.width }
        })
        .collect();
    let off_board = (0..l.height * l.width)
        .filter(|&i| !l.cells.contains(&(i as u16)))
        .map(|i| [i / l.width, i % l.width])
        .collect();
    let directions = (0..g.num_dirs())
        .map(|d| {
            let (file_delta, rank_delta) = g.dir_vector(d as u8);
            Direction {
                index: d,
                name: direction_name(file_delta, rank_delta),
                file_delta,
                rank_delta,
            }
        })
        .collect();
    Board {
        grid_rows: l.height,
        grid_cols: l.width,
        notation: "a square is its file letter (A = file 0) then its rank (from 1), as in the \
                   official notation; N is towards higher ranks",
        cells,
        off_board,
        directions,
    }
}

pub fn perspective<V: Variant>() -> Perspective {
    let t = V::tables();
    let g = &t.geometry;
    let dir_name = |d: u8| {
        let (f, r) = g.dir_vector(d);
        direction_name(f, r)
    };
    let seats = (0..V::NUM_PLAYERS)
        .map(|s| SeatFrame {
            seat: s,
            name: V::PLAYER_NAMES[s],
            transform: transform_name(&t.frame_dir[s]),
            squares: (0..g.num_cells() as u8)
                .map(|c| (g.name(c).to_string(), g.name(t.frame_cell[s][c as usize]).into()))
                .collect(),
            directions: (0..g.num_dirs() as u8)
                .map(|d| (dir_name(d).to_string(), dir_name(t.frame_dir[s][d as usize]).into()))
                .collect(),
        })
        .collect();
    Perspective {
        rule: "planes and action indices are in the mover's frame: when seat s is to move, a \
               piece on board square q is drawn at the row and column of board.cells entry \
               seats[s].squares[q], and a leg from q in direction d is the action of that \
               frame square in direction seats[s].directions[d]. Seat 0's frame is the identity.",
        seats,
    }
}

/// `identity`, or the rotation a direction permutation is (directions are listed clockwise,
/// evenly spaced on the board as drawn with rank 1 at the bottom).
fn transform_name(frame_dir: &[u8]) -> String {
    let n = frame_dir.len();
    let k = frame_dir[0] as usize;
    if (0..n).any(|d| frame_dir[d] as usize != (d + k) % n) {
        return "not a rotation".into();
    }
    match k * 360 / n {
        0 => "identity".into(),
        deg => format!("rotation by {deg} degrees clockwise"),
    }
}

pub fn planes<V: Variant>(encoding: Encoding) -> Vec<Plane> {
    plane_specs::<V>(encoding)
        .into_iter()
        .enumerate()
        .map(|(index, p)| Plane {
            index,
            name: p.name,
            meaning: p.meaning,
            fill: fill_json(p.fill),
        })
        .collect()
}

fn fill_json(fill: PlaneFill) -> serde_json::Value {
    use serde_json::json;
    match fill {
        PlaneFill::Pieces { relative_seat, kind } => json!({
            "kind": "pieces",
            "relative_seat": relative_seat,
            "piece": if kind == PieceKind::Man { "man" } else { "knight" },
        }),
        PlaneFill::Landing(l) => json!({"kind": "squares", "set": match l {
            Landing::OwnCastle => "own_castle",
            Landing::Goal => "goal",
            Landing::Forbidden => "forbidden",
            Landing::Normal => "normal",
        }}),
        PlaneFill::MovingPiece => json!({"kind": "moving_piece"}),
        PlaneFill::Landed => json!({"kind": "landed"}),
        PlaneFill::Captured => json!({"kind": "captured"}),
        PlaneFill::OnBoard => json!({"kind": "on_board"}),
        PlaneFill::CastleMoves { relative_seat } => {
            json!({"kind": "castle_moves", "relative_seat": relative_seat, "scale": 0.5})
        }
        // The tactical planes need the seat's legal moves: a program outside computes them
        // with its own move generator, as `meaning` says.
        PlaneFill::JumpCaptures { relative_seat } => {
            json!({"kind": "jump_captures", "relative_seat": relative_seat})
        }
        PlaneFill::ChargeCaptures { relative_seat } => {
            json!({"kind": "charge_captures", "relative_seat": relative_seat})
        }
        PlaneFill::ChargeLaunches { relative_seat } => {
            json!({"kind": "charge_launches", "relative_seat": relative_seat})
        }
        PlaneFill::BestCapture { relative_seat } => json!({
            "kind": "best_capture",
            "relative_seat": relative_seat,
            "man": 1.0,
            "knight": games::KNIGHT_IN_MEN,
            "scale": 1.0 / games::tactical_planes::CAPTURE_GAIN_CAP,
            "max": 1.0,
        }),
        PlaneFill::CaptureCompulsory { relative_seat } => {
            json!({"kind": "capture_compulsory", "relative_seat": relative_seat})
        }
    }
}

pub fn actions<V: Variant>() -> Actions {
    let t = V::tables();
    let g = &t.geometry;
    let count = games::num_actions::<V>();
    // Seat 0 moves first and its frame is the identity, so its decoded actions are the frame's.
    let first = State::<V>::initial();
    assert_eq!(first.to_move().index(), 0, "seat 0 moves first");
    let name = |c: u8| (c != NO_CELL).then(|| g.name(c).to_string());
    let legs = (0..count - 1)
        .map(|index| {
            let Some(Action::Leg { from, dir, kind }) = first.action_from_index(index) else {
                unreachable!("every index but the last is a leg")
            };
            let (to, over) = match kind {
                LegKind::Step => (g.step(from, dir), NO_CELL),
                LegKind::Leap => (g.leap(from, dir), g.step(from, dir)),
            };
            let (f, r) = g.dir_vector(dir);
            Leg {
                index,
                cell: from as usize,
                square: g.name(from).to_string(),
                direction: direction_name(f, r),
                kind: if kind == LegKind::Leap { "leap" } else { "step" },
                to: name(to),
                over: if to == NO_CELL { None } else { name(over) },
            }
        })
        .collect();
    Actions {
        count,
        end_move: count - 1,
        formula: format!(
            "index = (cell * {} + direction) * 2 + (1 if leap else 0), with cell and direction \
             in the mover's frame; {} is end-move (stop where stopping is optional)",
            g.num_dirs(),
            count - 1
        ),
        legs,
    }
}
