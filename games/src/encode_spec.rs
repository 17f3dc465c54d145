//! The encoding described as data, for programs that use an exported network without this
//! crate: what each input plane holds and how it is filled, plane by plane in the order
//! [`Encode::encode`](crate::Encode::encode) writes them, and the names of the directions.
//!
//! Every plane is drawn in the **mover's frame**: the value for board cell `c` goes to grid
//! index `layout.cells[tables.frame_cell[mover][c]]`; grid positions that are no cell stay 0.
//! The tests check that filling planes from these descriptions gives exactly the encoder's
//! output.

use crate::board::PieceKind;
use crate::encoding::Encoding;
use crate::position::Variant;
use crate::variant::Landing;

/// How one input plane is filled. Values are 1 on the cells named, 0 elsewhere, unless said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaneFill {
    /// The cells holding a piece of `kind` whose owner is `relative_seat` seats after the mover
    /// in turn order (0 = the mover).
    Pieces { relative_seat: usize, kind: PieceKind },
    /// The cells that are `Landing::OwnCastle`, `Goal` or `Forbidden` for the mover.
    Landing(Landing),
    /// During a move: the cell of the moving piece (the last cell landed on).
    MovingPiece,
    /// During a move: every cell landed on, the start cell included.
    Landed,
    /// Every board cell, when the move in progress has captured (its board has fewer pieces
    /// than the position the turn started from).
    Captured,
    /// Every board cell.
    OnBoard,
    /// Camelot: every board cell holds the castle moves used by `relative_seat` (0 = the mover),
    /// divided by 2 (so 0, ½ or 1).
    CastleMoves { relative_seat: usize },
    /// Tactical encoding: the cells of the pieces that some legal jump move (a chain of jumps
    /// from the start, by a Man or a Knight) of `relative_seat` captures, were that seat to move
    /// on the current board (with its castle-move count and the rule options).
    JumpCaptures { relative_seat: usize },
    /// Tactical encoding: the same for the seat's Knight's Charges (canters, then jumps).
    ChargeCaptures { relative_seat: usize },
    /// Tactical encoding: the cells where the canter part of one of the seat's Charges ends.
    ChargeLaunches { relative_seat: usize },
    /// Tactical encoding: every board cell holds the material the seat's best capturing move
    /// wins (Men 1, Knights 1.4) divided by 4, at most 1; 0 when it has no capture.
    BestCapture { relative_seat: usize },
    /// Tactical encoding: every board cell is 1 when the seat has a capturing move and no other
    /// legal move (capturing is compulsory for it).
    CaptureCompulsory { relative_seat: usize },
}

/// One input plane: a short name, a sentence saying what it holds, and its fill rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaneSpec {
    pub name: String,
    pub meaning: String,
    pub fill: PlaneFill,
}

/// The input planes of variant `V` under `encoding`, in plane order (their count is the
/// layout's plane count).
pub fn plane_specs<V: Variant>(encoding: Encoding) -> Vec<PlaneSpec> {
    let p = V::NUM_PLAYERS;
    let mut planes = Vec::new();
    let mut push =
        |name: String, meaning: String, fill| planes.push(PlaneSpec { name, meaning, fill });
    for k in 0..p {
        let whose = relative_seat_name(k, p);
        for kind in [PieceKind::Man, PieceKind::Knight] {
            let (piece, pieces) =
                if kind == PieceKind::Man { ("men", "Men") } else { ("knights", "Knights") };
            push(
                format!("{}_{piece}", whose.replace(' ', "_")),
                format!("1 on the cells of the {whose}'s {pieces}"),
                PlaneFill::Pieces { relative_seat: k, kind },
            );
        }
    }
    let (goal, forbidden) = if p == 2 {
        ("the opponent's castle", "none in Camelot: always 0")
    } else {
        ("the target castle", "the castle of the previous seat in turn order")
    };
    for (name, meaning, landing) in [
        ("own_castle", "1 on the mover's own castle".to_string(), Landing::OwnCastle),
        ("goal", format!("1 on the mover's goal cells ({goal})"), Landing::Goal),
        (
            "forbidden",
            format!("1 on cells the mover may never enter ({forbidden})"),
            Landing::Forbidden,
        ),
    ] {
        push(name.into(), meaning, PlaneFill::Landing(landing));
    }
    push(
        "moving_piece".into(),
        "during a move: 1 on the cell of the piece that is moving (the last cell landed on)".into(),
        PlaneFill::MovingPiece,
    );
    push(
        "landed".into(),
        "during a move: 1 on every cell landed on, the start cell included".into(),
        PlaneFill::Landed,
    );
    push(
        "captured".into(),
        "1 on every board cell when the move in progress has captured (a jump leg was played)"
            .into(),
        PlaneFill::Captured,
    );
    push("on_board".into(), "1 on every board cell".into(), PlaneFill::OnBoard);
    if V::CASTLE_MOVES {
        for k in 0..2 {
            let whose = relative_seat_name(k, p);
            push(
                format!("{}_castle_moves", whose.replace(' ', "_")),
                format!("castle moves used by the {whose} / 2 (0, 0.5 or 1) on every board cell"),
                PlaneFill::CastleMoves { relative_seat: k },
            );
        }
    }
    if encoding == Encoding::Tactical {
        for k in 0..p {
            let whose = relative_seat_name(k, p);
            let name = |what: &str| format!("{}_{what}", whose.replace(' ', "_"));
            let were = format!("were the {whose} to move on this board");
            push(
                name("jump_captures"),
                format!("1 on the pieces a jump move of the {whose} captures, {were}"),
                PlaneFill::JumpCaptures { relative_seat: k },
            );
            push(
                name("charge_captures"),
                format!("1 on the pieces a Knight's Charge of the {whose} captures, {were}"),
                PlaneFill::ChargeCaptures { relative_seat: k },
            );
            push(
                name("charge_launches"),
                format!("1 where the canter part of a Charge of the {whose} ends, {were}"),
                PlaneFill::ChargeLaunches { relative_seat: k },
            );
            push(
                name("best_capture"),
                format!(
                    "material (Men 1, Knights 1.4) of the {whose}'s best capture / 4, at most 1, \
                     on every board cell, {were}"
                ),
                PlaneFill::BestCapture { relative_seat: k },
            );
            push(
                name("capture_compulsory"),
                format!("1 on every board cell when the {whose} must capture, {were}"),
                PlaneFill::CaptureCompulsory { relative_seat: k },
            );
        }
    }
    planes
}

/// `mover`, `opponent` (2 players), or `next seat` / `seat after next` (3 players).
pub fn relative_seat_name(relative_seat: usize, players: usize) -> &'static str {
    match (relative_seat, players) {
        (0, _) => "mover",
        (1, 2) => "opponent",
        (1, _) => "next seat",
        _ => "seat after next",
    }
}

/// The compass name of a direction vector `(file delta, rank delta)`: `N` is up a rank (towards
/// higher ranks), `E` towards later files; e.g. `(1, -1)` is `SE`.
pub fn direction_name(file_delta: i8, rank_delta: i8) -> &'static str {
    match (rank_delta.signum(), file_delta.signum()) {
        (1, 0) => "N",
        (1, 1) => "NE",
        (0, 1) => "E",
        (-1, 1) => "SE",
        (-1, 0) => "S",
        (-1, -1) => "SW",
        (0, -1) => "W",
        (1, -1) => "NW",
        _ => "none",
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::encode::Encode;
    use crate::game::{Game, Player};
    use crate::state::State;
    use crate::tactical_reference::reference;
    use crate::{CamelotRules, TriCamelotRules};

    /// Fills the planes of `state` from the specs alone (plus the tables and layout).
    fn fill_from_specs<V: Variant>(state: &State<V>, encoding: Encoding) -> Vec<f32> {
        let (t, l) = (V::tables(), State::<V>::layout(encoding));
        let p = V::NUM_PLAYERS;
        let me = state.to_move().index();
        let area = l.height * l.width;
        let mut out = vec![0.0; l.input_len()];
        let before: usize = (0..p).map(|q| state.position().board().count(Player(q as u8))).sum();
        let now: usize = (0..p).map(|q| state.board().count(Player(q as u8))).sum();
        // The tactical planes from the second walk of the rules, not from `SeatTactics::of`.
        let pos = state.position();
        let seats = if encoding == Encoding::Tactical { p } else { 0 };
        let tactics: Vec<_> = (0..seats)
            .map(|k| {
                let seat = Player(((me + k) % p) as u8);
                reference::<V>(state.board(), seat, pos.castle_moves(), pos.options())
            })
            .collect();
        for (i, spec) in plane_specs::<V>(encoding).iter().enumerate() {
            for c in 0..t.geometry.num_cells() as u8 {
                let cell = c as usize;
                let v = match spec.fill {
                    PlaneFill::Pieces { relative_seat, kind } => {
                        state.board().get(c).is_some_and(|q| {
                            q.kind == kind && q.owner.index() == (me + relative_seat) % p
                        }) as u8 as f32
                    }
                    PlaneFill::Landing(x) => (t.landing[me][c as usize] == x) as u8 as f32,
                    PlaneFill::MovingPiece => (state.landed().last() == Some(&c)) as u8 as f32,
                    PlaneFill::Landed => state.landed().contains(&c) as u8 as f32,
                    PlaneFill::Captured => (now < before) as u8 as f32,
                    PlaneFill::OnBoard => 1.0,
                    PlaneFill::CastleMoves { relative_seat } => {
                        state.position().castle_moves()[(me + relative_seat) % 2] as f32 / 2.0
                    }
                    PlaneFill::JumpCaptures { relative_seat } => {
                        tactics[relative_seat].jump_captures[cell] as u8 as f32
                    }
                    PlaneFill::ChargeCaptures { relative_seat } => {
                        tactics[relative_seat].charge_captures[cell] as u8 as f32
                    }
                    PlaneFill::ChargeLaunches { relative_seat } => {
                        tactics[relative_seat].charge_launches[cell] as u8 as f32
                    }
                    PlaneFill::BestCapture { relative_seat } => {
                        (tactics[relative_seat].best_gain / 4.0).min(1.0)
                    }
                    PlaneFill::CaptureCompulsory { relative_seat } => {
                        tactics[relative_seat].compulsory as u8 as f32
                    }
                };
                out[i * area + l.cells[t.frame_cell[me][c as usize] as usize] as usize] = v;
            }
        }
        out
    }

    fn check<V: Variant>(seed: u64) {
        for e in Encoding::ALL {
            assert_eq!(plane_specs::<V>(e).len(), State::<V>::layout(e).planes);
        }
        let mut rng = StdRng::seed_from_u64(seed);
        let mut actions = Vec::new();
        for game in 0..20 {
            let mut s = State::<V>::initial();
            for _ in 0..rng.random_range(0..300) {
                s.legal_actions(&mut actions);
                if actions.is_empty() {
                    break;
                }
                s.play(actions[rng.random_range(0..actions.len())]);
                // The tactical walk plays out every move: every position of a few games only.
                let encoding = if game < 4 { Encoding::Tactical } else { Encoding::Basic };
                let mut want = vec![0.0; State::<V>::layout(encoding).input_len()];
                s.encode(encoding, &mut want);
                assert_eq!(fill_from_specs(&s, encoding), want, "{s}");
            }
        }
    }

    #[test]
    fn the_specs_fill_exactly_the_encoders_planes() {
        check::<CamelotRules>(1);
        check::<TriCamelotRules>(2);
    }

    #[test]
    fn directions_are_named_by_compass() {
        let names =
            |v: &[(i8, i8)]| v.iter().map(|&(f, r)| direction_name(f, r)).collect::<Vec<_>>();
        assert_eq!(names(&[(0, 1), (1, 1), (1, 0), (1, -1)]), ["N", "NE", "E", "SE"]);
        assert_eq!(names(&[(0, 2), (1, -1), (0, -2), (-1, 1)]), ["N", "SE", "S", "NW"]);
    }
}
