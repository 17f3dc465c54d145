//! Rules of **Camelot** (2 players, 160 squares) and **Tri-Camelot** (3 players, 73 hexagons),
//! exactly as `RULES.md` fixes them: board geometry, position strings, official move notation,
//! complete legal move generation with canonical canter paths, perft, and the **leg interface**
//! the search plays through (one [`Action`] per leg of a move, see [`State`]).
//!
//! ```
//! use games::{Camelot, CamelotPosition, Game, perft};
//!
//! let start = CamelotPosition::start();
//! assert_eq!(start.legal_moves().len(), 100);
//! assert_eq!(perft(&start, 2), 10_036);
//!
//! // The same game, one leg at a time.
//! let mut game = Camelot::initial();
//! let m = start.parse_move("D7-D5-B7").unwrap();
//! for i in 0..m.num_legs() {
//!     let leg = game.parse_action(&format!("{}>{}", game_name(&m, i), game_name(&m, i + 1))).unwrap();
//!     game.play(leg);
//! }
//! # fn game_name(m: &games::Move, i: usize) -> String {
//! #     use games::Variant;
//! #     games::CamelotRules::tables().geometry.name(m.path()[i]).to_string()
//! # }
//! assert_eq!(game.to_move(), games::Player(1));
//! ```

mod action;
mod board;
mod camelot;
mod encode;
mod encode_spec;
mod encoding;
mod endgame;
mod error;
mod fen;
mod game;
mod geometry;
mod goal_distance;
mod layout;
mod movegen;
mod mv;
mod names;
mod notation;
mod options;
mod perft;
mod position;
mod saved_game;
pub mod seed;
mod state;
pub mod tactical_planes;
#[cfg(test)]
mod tactical_reference;
pub mod testing;
pub mod toy;
mod tricamelot;
mod variant;
mod variant_kind;
mod zobrist;

pub use action::{Action, LegKind};
pub use board::{Board, Piece, PieceKind};
pub use camelot::{BLACK, CamelotRules, MIRROR, WHITE};
pub use encode::Encode;
pub use encode_spec::{PlaneFill, PlaneSpec, direction_name, plane_specs, relative_seat_name};
pub use encoding::Encoding;
pub use error::{ActionError, MoveError, PositionError, UnknownName};
pub use game::{Game, GameOver, MAX_PLAYERS, Outcome, Player, Termination, Values};
pub use geometry::{Cell, Geometry, Mirror, NO_CELL};
pub use goal_distance::GoalDistances;
pub use layout::{Layout, LayoutError};
pub use mv::{Move, MoveKind};
pub use options::{KnightCanter, RuleOptions};
pub use perft::{perft, perft_divide};
pub use position::{Position, Variant};
pub use saved_game::{SavedGame, SavedGameError, parse_result, result_text, valid_tag_name};
pub use state::{State, num_actions};
pub use tactical_planes::KNIGHT_IN_MEN;
pub use tricamelot::{BLUE, GREEN, RED, TRI_ROTATION, TriCamelotRules};
pub use variant::{Landing, Tables};
pub use variant_kind::VariantKind;

/// A Camelot game, played leg by leg.
pub type Camelot = State<CamelotRules>;
/// A Tri-Camelot game, played leg by leg.
pub type TriCamelot = State<TriCamelotRules>;
/// A Camelot position between complete moves.
pub type CamelotPosition = Position<CamelotRules>;
/// A Tri-Camelot position between complete moves.
pub type TriCamelotPosition = Position<TriCamelotRules>;
