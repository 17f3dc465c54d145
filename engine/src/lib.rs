//! The engine protocol: other programs ask our engine for moves and analyses over a line
//! protocol on standard input and output (in the spirit of UCI and GTP, with a JSON analysis
//! mode after KataGo's analysis engine), and the arena plays external engines through it.
//!
//! - [`protocol`]: the commands as text;
//! - [`session`]: one game and its searches (a complete move under a budget; batched analyses);
//! - [`time_control`]: how much of its clock a move spends;
//! - [`server`]: the engine side ([`serve`]);
//! - [`client`]: the other side ([`EngineClient`]), for the arena and `play`.
//!
//! The protocol itself, with an example session, is `docs/engine-protocol.md`.

pub mod client;
pub mod protocol;
pub mod server;
pub mod session;
pub mod time_control;

pub use client::{EngineClient, EngineError};
pub use protocol::{AnalysisRequest, Clock, Command, Limits, Start};
pub use server::{EngineInfo, EvaluatorSource, serve};
