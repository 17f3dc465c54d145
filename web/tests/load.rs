//! The server under load on loopback: 50 clients at once for 30 seconds (`LOAD_SECONDS`
//! overrides), each looping over the whole API (state, leg, reply, a short analysis stream
//! it reads to the end or drops early, the run's records, a bad request) on its own
//! connections. Every answer is checked: no error, no lost search (every reply and every
//! analysis it read to the end came back complete), and the server still answers after.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const CLIENTS: usize = 50;

/// One HTTP/1.1 request on a fresh connection (`Connection: close`), read to its end: the
/// status and the body. A client this small keeps the test free of an HTTP client crate.
async fn request(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read the answer");
    let text = String::from_utf8(raw).expect("UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    // The analysis stream comes chunked; the rest have a length.
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_string()
    };
    (status, body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n").expect("a chunk size");
        let size = usize::from_str_radix(size.trim(), 16).expect("hex size");
        if size == 0 {
            return out;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
}

/// Connects, asks for a long analysis, reads its head and goes away: the server must stop that
/// search and go on.
async fn abandon_analysis(addr: std::net::SocketAddr) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = json!({"game": "camelot", "position": "start", "sims": 2000}).to_string();
    let head = format!(
        "POST /api/analyse HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut first = [0u8; 64];
    let n = stream.read(&mut first).await.unwrap();
    assert!(std::str::from_utf8(&first[..n]).unwrap().starts_with("HTTP/1.1 200"));
}

#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    replies: AtomicU64,
    analyses: AtomicU64,
    abandoned: AtomicU64,
}

async fn client(addr: std::net::SocketAddr, id: usize, until: Instant, tally: Arc<Tally>) {
    let game = if id.is_multiple_of(2) { "camelot" } else { "tricamelot" };
    let mut round = 0usize;
    while Instant::now() < until {
        round += 1;
        let count = |n| tally.requests.fetch_add(n, Ordering::Relaxed);
        let (status, state) =
            request(addr, "POST", "/api/state", Some(&json!({"game": game, "position": "start"})))
                .await;
        assert_eq!(status, 200, "{state}");
        let state: Value = serde_json::from_str(&state).unwrap();
        let legs = state["legs"].as_array().unwrap();
        let leg = &legs[(id + round) % legs.len()]["action"];
        let (status, played) = request(
            addr,
            "POST",
            "/api/play",
            Some(&json!({"game": game, "position": "start", "action": leg})),
        )
        .await;
        assert_eq!(status, 200, "{played}");
        let played: Value = serde_json::from_str(&played).unwrap();
        let position = &played["state"]["position"];
        let (status, reply) = request(
            addr,
            "POST",
            "/api/reply",
            Some(&json!({"game": game, "position": position, "sims": 16})),
        )
        .await;
        assert_eq!(status, 200, "{reply}");
        let reply: Value = serde_json::from_str(&reply).unwrap();
        assert!(reply["move"].is_string() && reply["state"]["position"].is_string(), "{reply}");
        tally.replies.fetch_add(1, Ordering::Relaxed);
        let (status, lines) = request(
            addr,
            "POST",
            "/api/analyse",
            Some(&json!({"game": game, "position": "start", "sims": 64})),
        )
        .await;
        assert_eq!(status, 200, "{lines}");
        let last: Value = serde_json::from_str(lines.lines().last().expect("a line")).unwrap();
        assert_eq!(
            (last["done"].as_bool(), last["simulations"].as_u64()),
            (Some(true), Some(64)),
            "{last}"
        );
        tally.analyses.fetch_add(1, Ordering::Relaxed);
        if round.is_multiple_of(5) {
            abandon_analysis(addr).await;
            tally.abandoned.fetch_add(1, Ordering::Relaxed);
        }
        let (status, games) =
            request(addr, "GET", "/api/run/games?collection=games/gen-0001", None).await;
        assert_eq!(status, 200, "{games}");
        let (status, bad) = request(
            addr,
            "POST",
            "/api/play",
            Some(&json!({"game": game, "position": "start", "action": "end"})),
        )
        .await;
        assert_eq!(status, 422, "{bad}");
        count(6);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_clients_for_thirty_seconds() {
    let seconds: u64 =
        std::env::var("LOAD_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(30);
    let run = common::run_with_games("load");
    let app = web::App::new(common::options(Some(&run))).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(web::serve(listener, app));
    let tally = Arc::new(Tally::default());
    let until = Instant::now() + Duration::from_secs(seconds);
    let clients: Vec<_> =
        (0..CLIENTS).map(|id| tokio::spawn(client(addr, id, until, tally.clone()))).collect();
    for c in clients {
        c.await.expect("a client failed");
    }
    let replies = tally.replies.load(Ordering::Relaxed);
    let analyses = tally.analyses.load(Ordering::Relaxed);
    println!(
        "{CLIENTS} clients, {seconds} s: {} requests, {replies} replies, {analyses} analyses, {} abandoned",
        tally.requests.load(Ordering::Relaxed),
        tally.abandoned.load(Ordering::Relaxed)
    );
    assert!(
        replies >= CLIENTS as u64 && analyses >= CLIENTS as u64,
        "every client finished a round"
    );
    // Still serving, and the abandoned searches have let go of their turns: a search runs.
    let (status, reply) = request(
        addr,
        "POST",
        "/api/reply",
        Some(&json!({"game": "camelot", "position": "start", "sims": 8})),
    )
    .await;
    assert_eq!(status, 200, "{reply}");
    assert!(!server.is_finished());
    std::fs::remove_dir_all(run).unwrap();
}
