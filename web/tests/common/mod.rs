//! What the HTTP tests share: a server on the uniform evaluator with a run of two recorded
//! games, and requests through the router without a socket.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use games::{Camelot, Game, Termination};
use http_body_util::BodyExt;
use records::{GameRecord, PositionRow, Shard, write_shard};
use search::PlaySearch;
use serde_json::Value;
use tower::ServiceExt;
use web::{App, Options};

/// A fresh empty folder under the system's temporary folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "camelot-web-{name}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Camelot game of `moves` moves (each the first legal move) as a record, with one
/// searched decision recorded per move (its root values made up: `0.1 * i` for White).
pub fn recorded_game(game_id: u64, moves: usize) -> (GameRecord, Vec<PositionRow>) {
    let mut state = Camelot::initial();
    let mut played = Vec::new();
    let mut rows = Vec::new();
    for i in 0..moves {
        let m = state.continuations().next().expect("a legal move").clone();
        let notation = state.position().notation(&m);
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let white = (i as f32 * 0.1).min(1.0);
        rows.push(PositionRow {
            game_id,
            ply: i as u32,
            move_number: i as u32,
            position: state.to_string(),
            mover: state.to_move().0,
            policy_actions: vec![state.action_index(actions[0]) as u16],
            policy_target: vec![1.0],
            root_values: vec![white, 1.0 - white],
            net_values: vec![0.5, 0.5],
            result: vec![0.5, 0.5],
            full_search: true,
        });
        state = state.after_move(&notation).unwrap();
        played.push(notation);
    }
    let game = GameRecord {
        run: "test".into(),
        generation: 1,
        game_id,
        variant: "camelot".into(),
        seed: game_id,
        start_position: "start".into(),
        moves: played,
        result: vec![0.5, 0.5],
        termination: Termination::MoveLimit,
        plies: moves as u32,
        model: "uniform".into(),
    };
    (game, rows)
}

/// A run folder with generation 1's self-play: one shard of games 7 (5 moves) and 9 (3 moves).
pub fn run_with_games(name: &str) -> PathBuf {
    let run = scratch(name);
    let (a, rows_a) = recorded_game(7, 5);
    let (b, rows_b) = recorded_game(9, 3);
    let shard = Shard { games: vec![a, b], positions: [rows_a, rows_b].concat() };
    write_shard(&run.join("games/gen-0001"), 0, "test", 1, &shard).unwrap();
    run
}

/// The options of a test server: uniform priors, at most 2,000 simulations a request.
pub fn options(run: Option<&Path>) -> Options {
    Options {
        models: Vec::new(),
        run: run.map(Path::to_path_buf),
        games: Vec::new(),
        play: PlaySearch::default(),
        max_sims: 2_000,
        searches: 2,
        assets: None,
        compare: Vec::new(),
    }
}

pub fn router(run: Option<&Path>) -> Router {
    App::new(options(run)).unwrap().router()
}

/// The status and body of one request through `router`.
pub async fn send(router: &Router, request: Request<Body>) -> (StatusCode, Vec<u8>) {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let body = response.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, body)
}

/// The status and JSON body of a GET.
pub async fn get(router: &Router, uri: &str) -> (StatusCode, Value) {
    let (status, body) = send(router, Request::get(uri).body(Body::empty()).unwrap()).await;
    (status, serde_json::from_slice(&body).expect("a JSON answer"))
}

/// The status and JSON body of a POST of `body` as JSON.
pub async fn post(router: &Router, uri: &str, body: &Value) -> (StatusCode, Value) {
    let (status, bytes) = post_raw(router, uri, body.to_string().into_bytes()).await;
    (status, serde_json::from_slice(&bytes).expect("a JSON answer"))
}

/// The status and raw body of a POST of `body` with a JSON content type.
pub async fn post_raw(router: &Router, uri: &str, body: Vec<u8>) -> (StatusCode, Vec<u8>) {
    let request = Request::post(uri)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    send(router, request).await
}
