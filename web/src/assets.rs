//! The page's files: built into the binary, or read from a folder (`--assets DIR`, to work on
//! the page without rebuilding). Only the files listed here are ever served, so a request
//! cannot name any other file.

use std::path::PathBuf;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::error_body;

/// Name, content type and the built-in copy of every file of the page (`web/page/`).
const FILES: &[(&str, &str, &str)] = &[
    ("index.html", "text/html; charset=utf-8", include_str!("../page/index.html")),
    ("style.css", "text/css; charset=utf-8", include_str!("../page/style.css")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("../page/app.js")),
    ("api.js", "text/javascript; charset=utf-8", include_str!("../page/api.js")),
    ("board.js", "text/javascript; charset=utf-8", include_str!("../page/board.js")),
    ("play.js", "text/javascript; charset=utf-8", include_str!("../page/play.js")),
    ("analyse.js", "text/javascript; charset=utf-8", include_str!("../page/analyse.js")),
    ("replay.js", "text/javascript; charset=utf-8", include_str!("../page/replay.js")),
    ("tree.js", "text/javascript; charset=utf-8", include_str!("../page/tree.js")),
    ("movelist.js", "text/javascript; charset=utf-8", include_str!("../page/movelist.js")),
    ("graph.js", "text/javascript; charset=utf-8", include_str!("../page/graph.js")),
    ("evalbar.js", "text/javascript; charset=utf-8", include_str!("../page/evalbar.js")),
    ("gametext.js", "text/javascript; charset=utf-8", include_str!("../page/gametext.js")),
    ("run.js", "text/javascript; charset=utf-8", include_str!("../page/run.js")),
    ("chart.js", "text/javascript; charset=utf-8", include_str!("../page/chart.js")),
    ("steps.js", "text/javascript; charset=utf-8", include_str!("../page/steps.js")),
];

/// Where the page's files come from.
#[derive(Clone, Debug, Default)]
pub struct Assets {
    /// `None`: the copies built into the binary.
    dir: Option<PathBuf>,
}

impl Assets {
    /// The built-in page, or the files of `dir` when given.
    pub fn new(dir: Option<PathBuf>) -> Assets {
        Assets { dir }
    }

    /// The file `name` of the page with its content type; 404 for a name not on the list.
    pub fn serve(&self, name: &str) -> Response {
        let Some(&(_, content_type, built_in)) = FILES.iter().find(|(n, _, _)| *n == name) else {
            return error_body(StatusCode::NOT_FOUND, format!("no such file: {name}"));
        };
        let body = match &self.dir {
            None => built_in.to_string(),
            Some(dir) => match std::fs::read_to_string(dir.join(name)) {
                Ok(text) => text,
                Err(e) => {
                    let message = format!("cannot read {}: {e}", dir.join(name).display());
                    return error_body(StatusCode::INTERNAL_SERVER_ERROR, message);
                }
            },
        };
        let mut response = body.into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        // The page is small and may change under --assets: never a stale copy.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }
}
