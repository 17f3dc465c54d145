//! The board in the browser (`camelot-zero serve`, docs/board.md): an HTTP server on tokio and
//! axum with one page (plain HTML, CSS and JavaScript modules from `web/page/`, built into the
//! binary) to play a model, watch its search and replay a run's games, for both games.
//!
//! The server holds no games: every request carries its position string, so a page can be
//! reloaded, opened twice or closed at any time. Searches run on blocking threads, each with
//! its own evaluator, at most [`Options::searches`] at once.

mod app;
mod assets;
mod error;
mod extract;
mod lines;
mod replay;
mod run_figures;
mod search;
mod view;

pub use app::{ANALYSIS_EVERY, App, MAX_BODY, Options};
pub use error::ServeError;
pub use view::{AnalysisView, StateView};

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, app: App) -> std::io::Result<()> {
    axum::serve(listener, app.router()).await
}
