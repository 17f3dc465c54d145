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
//! Camelot: 13 planes on 16 × 12; Tri-Camelot: 13 planes on 11 × 11.

use std::sync::LazyLock;

use ndarray::Array3;

use crate::board::PieceKind;
use crate::camelot::{CamelotRules, MIRROR};
use crate::game::{Game, Player};
use crate::layout::Layout;
use crate::position::Variant;
use crate::state::State;
use crate::tricamelot::TriCamelotRules;
use crate::variant::Landing;

/// Version of the encoding and the action layout; recorded with every checkpoint. Bump it when
/// either changes.
pub const ENCODING_VERSION: u32 = 1;

/// A game the network can see: planes, policy layout and symmetries.
pub trait Encode: Game {
    /// The tensor layout of this game.
    fn layout() -> &'static Layout;

    /// Writes the planes of this state, `[planes, height, width]` row-major, into `out`
    /// (`out.len() == layout().input_len()`; it is overwritten entirely).
    fn encode(&self, out: &mut [f32]);

    /// The planes as an array `[planes, height, width]`.
    fn encode_array(&self) -> Array3<f32> {
        let l = Self::layout();
        let mut a = Array3::zeros((l.planes, l.height, l.width));
        self.encode(a.as_slice_mut().expect("a fresh array is contiguous"));
        a
    }

    /// Number of symmetries used for augmentation (1 = identity only).
    fn symmetries() -> usize;

    /// Applies symmetry `sym` to encoded planes in place.
    fn transform_planes(sym: usize, planes: &mut [f32]);

    /// The policy index that action index `index` becomes under symmetry `sym`.
    fn transform_action(sym: usize, index: usize) -> usize;
}

fn layout_of<V: Variant>() -> Layout {
    let t = V::tables();
    let (height, width) = V::GRID;
    let cells = (0..t.geometry.num_cells() as u8)
        .map(|c| {
            let (f, r) = t.geometry.coords(c);
            let (row, col) = V::grid_pos(f, r);
            (row * width + col) as u16
        })
        .collect();
    let extra = if V::CASTLE_MOVES { 2 } else { 0 };
    Layout {
        planes: 2 * V::NUM_PLAYERS + 7 + extra,
        height,
        width,
        policy_channels: 2 * t.geometry.num_dirs(),
        cells,
        value_classes: V::NUM_PLAYERS + 1,
    }
}

static CAMELOT_LAYOUT: LazyLock<Layout> = LazyLock::new(layout_of::<CamelotRules>);
static TRI_LAYOUT: LazyLock<Layout> = LazyLock::new(layout_of::<TriCamelotRules>);

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
}

impl Encode for State<CamelotRules> {
    fn layout() -> &'static Layout {
        &CAMELOT_LAYOUT
    }

    fn encode(&self, out: &mut [f32]) {
        encode_state(self, &CAMELOT_LAYOUT, out);
    }

    /// Identity and the left-right mirror (file A <-> L), a symmetry of Camelot's rules.
    fn symmetries() -> usize {
        2
    }

    fn transform_planes(sym: usize, planes: &mut [f32]) {
        if sym == 1 {
            let w = CAMELOT_LAYOUT.width;
            for row in planes.chunks_exact_mut(w) {
                row.reverse();
            }
        }
    }

    /// The mirror commutes with Black's 180° frame, so it acts on frame cells as on board cells.
    fn transform_action(sym: usize, index: usize) -> usize {
        let l = &*CAMELOT_LAYOUT;
        if sym == 0 || index + 1 == l.num_actions() {
            return index;
        }
        let (cell, rest) = (index / l.policy_channels, index % l.policy_channels);
        let (dir, leap) = (rest / 2, rest % 2);
        (MIRROR.cell[cell] as usize * l.policy_channels) + MIRROR.dir[dir] as usize * 2 + leap
    }
}

impl Encode for State<TriCamelotRules> {
    fn layout() -> &'static Layout {
        &TRI_LAYOUT
    }

    fn encode(&self, out: &mut [f32]) {
        encode_state(self, &TRI_LAYOUT, out);
    }

    /// None: the mirror swaps the left and right opponents, which play different roles.
    fn symmetries() -> usize {
        1
    }

    fn transform_planes(_: usize, _: &mut [f32]) {}

    fn transform_action(_: usize, index: usize) -> usize {
        index
    }
}
