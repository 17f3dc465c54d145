//! Self-play and matches for camelot-zero, on the search of the `search` crate: the lockstep
//! self-play [`driver`] and its sessions, a generation's self-play with every hook that shapes
//! it ([`generation`]), the [`teacher`] (classical labels, sparring and the
//! tactics filter of a generation's games), the [`arena`] (matches, the anchors of the absolute
//! Elo scale, ratings), the [`stats`] of recorded games, and the [`ShardWriter`] that keeps a
//! session's games as `records` shards with their [`figures`](SessionFigures).

pub mod arena;
pub mod driver;
pub mod figures;
pub mod generation;
pub mod shards;
pub mod stats;
pub mod teacher;

pub use driver::{
    DriverError, MAX_GAMES, MoveLimit, PlayedGame, PlayoutCap, Resign, SelfPlayConfig,
    SelfPlayConfigError, SelfPlayStats, Session, Start,
};
pub use figures::SessionFigures;
pub use shards::ShardWriter;
pub use teacher::{Teacher, TeacherTargets, filter_targets};
