//! The network's view of a state (DESIGN.md §3, Encoding): input planes from the mover's point of
//! view, the policy layout the convolutional policy head needs, and the symmetries used for
//! augmentation.
//!
//! Planes, each `[height, width]` over the grid (`P` = number of players, seats counted from the
//! mover in turn order, so plane pair 1 is the next player's):
//!
//! | planes | content |
//! |---|---|
//! | `2k`, `2k+1` for `k < P` | Men, Knights of relative seat `k` (0 = the mover) |
//! | `2P` | the mover's own castle |
//! | `2P+1` | the mover's goal cells (Camelot: the opponent's castle; Tri-Camelot: the target) |
//! | `2P+2` | cells the mover may never enter (Tri-Camelot: the right opponent's castle) |
//! | `2P+3` | the piece that is moving (during a move) |
//! | `2P+4` | cells landed on during the move, its start included |
//! | `2P+5` | constant 1 when the move in progress has captured (it is in its jump part) |
//! | `2P+6` | on-board cells (1), so padding is told apart from the board |
//! | `2P+7`, `2P+8` | Camelot only: castle moves used by the mover, by the opponent (0, ½, 1) |
//!
//! The tactical encoding ([`Encoding::Tactical`]) adds five planes per seat `k` after these
//! (`B` = the basic count, [`crate::tactical_planes`] says how they are computed), as if seat
//! `k` were to move on the current board:
//!
//! | planes | content |
//! |---|---|
//! | `B+5k` | pieces seat `k`'s jump moves capture |
//! | `B+5k+1` | pieces seat `k`'s Knight's Charges capture |
//! | `B+5k+2` | cells seat `k`'s Charges launch from (where their canter part ends) |
//! | `B+5k+3` | constant: the material of seat `k`'s best capture / 4, at most 1 |
//! | `B+5k+4` | constant 1 when capturing is compulsory for seat `k` |
//!
//! Camelot: 13 planes (basic) or 23 (tactical) on 16 × 12; Tri-Camelot: 13 or 28 on 11 × 11.

use ndarray::Array3;

use crate::board::PieceKind;
use crate::encoding::Encoding;
use crate::game::{Game, Player};
use crate::layout::Layout;
use crate::position::Variant;
use crate::state::State;
use crate::tactical_planes::SeatTactics;
use crate::variant::Landing;

/// A game the network can see: planes, policy layout and symmetries.
pub trait Encode: Game {
    /// The tensor layout of this game under `encoding` (the policy and value parts are the same
    /// for every encoding; the planes differ).
    fn layout(encoding: Encoding) -> &'static Layout;

    /// Writes the planes of this state under `encoding`, `[planes, height, width]` row-major,
    /// into `out` (`out.len() == layout(encoding).input_len()`; it is overwritten entirely).
    fn encode(&self, encoding: Encoding, out: &mut [f32]);

    /// The planes as an array `[planes, height, width]`.
    fn encode_array(&self, encoding: Encoding) -> Array3<f32> {
        let l = Self::layout(encoding);
        let mut a = Array3::zeros((l.planes, l.height, l.width));
        self.encode(encoding, a.as_slice_mut().expect("a fresh array is contiguous"));
        a
    }

    /// Number of symmetries used for augmentation (1 = identity only).
    fn symmetries() -> usize;

    /// Applies symmetry `sym` to encoded planes in place.
    fn transform_planes(sym: usize, planes: &mut [f32]);

    /// The policy index that action index `index` becomes under symmetry `sym`.
    fn transform_action(sym: usize, index: usize) -> usize;
}

/// The planes of the basic encoding of variant `V` (the others add theirs per seat).
fn basic_planes<V: Variant>() -> usize {
    2 * V::NUM_PLAYERS + 7 + if V::CASTLE_MOVES { 2 } else { 0 }
}

fn layout_of<V: Variant>(encoding: Encoding) -> Layout {
    let t = V::tables();
    let (height, width) = V::GRID;
    let cells = (0..t.geometry.num_cells() as u8)
        .map(|c| {
            let (f, r) = t.geometry.coords(c);
            let (row, col) = V::grid_pos(f, r);
            (row * width + col) as u16
        })
        .collect();
    let tactical = match encoding {
        Encoding::Basic => 0,
        Encoding::Tactical => TACTICAL_PLANES_PER_SEAT * V::NUM_PLAYERS,
    };
    Layout {
        encoding,
        planes: basic_planes::<V>() + tactical,
        height,
        width,
        policy_channels: 2 * t.geometry.num_dirs(),
        cells,
        value_classes: V::NUM_PLAYERS + 1,
    }
}

/// Tactical planes per seat (see the module's table).
const TACTICAL_PLANES_PER_SEAT: usize = 5;

fn encode_state<V: Variant>(state: &State<V>, layout: &Layout, out: &mut [f32]) {
    assert_eq!(out.len(), layout.input_len(), "encode: output slice has the wrong length");
    out.fill(0.0);
    let t = V::tables();
    let geo = &t.geometry;
    let n_players = V::NUM_PLAYERS;
    let me = state.to_move();
    let area = layout.height * layout.width;
    let frame = &t.frame_cell[me.index()];
    let at = |c: u8| layout.cells[frame[c as usize] as usize] as usize;
    let mut set = |plane: usize, c: u8, v: f32| out[plane * area + at(c)] = v;
    for (c, p) in state.board().pieces(geo.num_cells()) {
        let rel = (p.owner.index() + n_players - me.index()) % n_players;
        set(2 * rel + (p.kind == PieceKind::Knight) as usize, c, 1.0);
    }
    let base = 2 * n_players;
    for c in 0..geo.num_cells() as u8 {
        match t.landing[me.index()][c as usize] {
            Landing::OwnCastle => set(base, c, 1.0),
            Landing::Goal => set(base + 1, c, 1.0),
            Landing::Forbidden => set(base + 2, c, 1.0),
            Landing::Normal => {}
        }
        set(base + 6, c, 1.0);
    }
    if let Some(&moving) = state.landed().last() {
        set(base + 3, moving, 1.0);
        for &c in state.landed() {
            set(base + 4, c, 1.0);
        }
        let before: usize =
            (0..n_players).map(|p| state.position().board().count(Player(p as u8))).sum();
        let now: usize = (0..n_players).map(|p| state.board().count(Player(p as u8))).sum();
        if now < before {
            for c in 0..geo.num_cells() as u8 {
                set(base + 5, c, 1.0);
            }
        }
    }
    if V::CASTLE_MOVES {
        let cm = state.position().castle_moves();
        let other = (me.index() + 1) % 2;
        for c in 0..geo.num_cells() as u8 {
            set(base + 7, c, cm[me.index()] as f32 / 2.0);
            set(base + 8, c, cm[other] as f32 / 2.0);
        }
    }
    if layout.encoding == Encoding::Tactical {
        let base = basic_planes::<V>();
        let pos = state.position();
        for k in 0..n_players {
            let seat = Player(((me.index() + k) % n_players) as u8);
            let tactics =
                SeatTactics::of::<V>(state.board(), seat, pos.castle_moves(), pos.options());
            let first = base + TACTICAL_PLANES_PER_SEAT * k;
            let (gain, compulsory) = (tactics.gain_feature(), tactics.compulsory as u8 as f32);
            for c in 0..geo.num_cells() as u8 {
                let i = c as usize;
                set(first, c, tactics.jump_captures[i] as u8 as f32);
                set(first + 1, c, tactics.charge_captures[i] as u8 as f32);
                set(first + 2, c, tactics.charge_launches[i] as u8 as f32);
                set(first + 3, c, gain);
                set(first + 4, c, compulsory);
            }
        }
    }
}

impl<V: Variant> Encode for State<V> {
    fn layout(encoding: Encoding) -> &'static Layout {
        let layouts = V::tables().layouts.get_or_init(|| Encoding::ALL.map(layout_of::<V>));
        &layouts[encoding as usize - 1]
    }

    fn encode(&self, encoding: Encoding, out: &mut [f32]) {
        encode_state(self, Self::layout(encoding), out);
    }

    /// Identity, and the mirror where the variant has one ([`Variant::mirror`]).
    fn symmetries() -> usize {
        1 + V::mirror().is_some() as usize
    }

    fn transform_planes(sym: usize, planes: &mut [f32]) {
        if sym == 1 {
            for row in planes.chunks_exact_mut(V::GRID.1) {
                row.reverse();
            }
        }
    }

    /// Camelot's mirror commutes with Black's 180° frame, so it acts on frame cells as on board
    /// cells.
    fn transform_action(sym: usize, index: usize) -> usize {
        let l = Self::layout(Encoding::Basic);
        let Some(mirror) = V::mirror().filter(|_| sym == 1 && index + 1 != l.num_actions()) else {
            return index;
        };
        let (cell, rest) = (index / l.policy_channels, index % l.policy_channels);
        let (dir, leap) = (rest / 2, rest % 2);
        (mirror.cell[cell] as usize * l.policy_channels) + mirror.dir[dir] as usize * 2 + leap
    }
}
