//! Why a request is refused, and how it is answered: a status code and `{"error": message}`.
//! Nothing a client sends can crash the server; every failure becomes one of these.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use thiserror::Error;

/// A refused request (or a server that cannot start, for [`ServeError::Startup`]).
#[derive(Debug, Error)]
pub enum ServeError {
    /// The request names a game this server does not know.
    #[error("unknown game {0:?}: expected camelot or tricamelot")]
    UnknownGame(String),
    /// The position string does not parse.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// The action is not a legal next leg (or end) of the position; `why` names it.
    #[error("{why}")]
    IllegalAction { action: String, why: String },
    /// A saved game's text does not read, or its moves are not legal; the message says where.
    #[error("bad saved game: {0}")]
    BadGameText(String),
    /// A search was asked of a finished game.
    #[error("the game is over")]
    GameOver,
    /// The simulation budget is outside `1..=max`.
    #[error("sims must be between 1 and {max}, got {got}")]
    BadSims { got: u64, max: u32 },
    /// The search itself failed.
    #[error("the search failed: {0}")]
    Search(String),
    /// What the server was started with cannot be used: a checkpoint that does not load, a
    /// run or records folder that is not there.
    #[error("{0}")]
    Startup(String),
    /// The server was started without `--run`.
    #[error("no run: the server was started without --run")]
    NoRun,
    /// The run's records: an unknown collection or game, or a file that cannot be read.
    #[error("{0}")]
    NotFound(String),
    #[error("cannot read the run's records: {0}")]
    Records(String),
}

impl ServeError {
    /// The HTTP status of this refusal.
    pub fn status(&self) -> StatusCode {
        match self {
            ServeError::UnknownGame(_)
            | ServeError::BadPosition(_)
            | ServeError::IllegalAction { .. }
            | ServeError::BadGameText(_)
            | ServeError::GameOver
            | ServeError::BadSims { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ServeError::NoRun | ServeError::NotFound(_) => StatusCode::NOT_FOUND,
            ServeError::Search(_) | ServeError::Startup(_) | ServeError::Records(_) => {
                StatusCode::INTERNAL_SERVER_ERROR
            }
        }
    }
}

/// `{"error": message}` with the status of the refusal.
pub fn error_body(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": message.into() }))).into_response()
}

impl IntoResponse for ServeError {
    fn into_response(self) -> Response {
        error_body(self.status(), self.to_string())
    }
}
