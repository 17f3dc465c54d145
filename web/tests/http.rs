//! Every endpoint of `serve` through its router: the answers of good requests checked against
//! the rules engine, and bad input of every kind refused with a status and a JSON message.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{get, post, post_raw, router, run_with_games, send};
use games::{Camelot, Game, State, TriCamelot};
use serde_json::{Value, json};

/// A White Knight on F6 can charge: canter over its Man on F7, then jump F9 and F11.
const CHARGE: &str = "camelot W W:KF6,MF7,MC6 B:MF9,MF11,MK11,MJ12 cm=0,0";

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn info_lists_both_boards_with_their_castles() {
    let r = router(None);
    let (status, info) = get(&r, "/api/info").await;
    assert_eq!(status, StatusCode::OK);
    let games = info["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let (camelot, tri) = (&games[0], &games[1]);
    assert_eq!(
        (camelot["name"].as_str(), camelot["board"].as_str()),
        (Some("camelot"), Some("square"))
    );
    assert_eq!(camelot["cells"].as_array().unwrap().len(), 160);
    assert_eq!(tri["board"], "hex");
    assert_eq!(tri["cells"].as_array().unwrap().len(), 73);
    assert_eq!(strings(&tri["seats"]), ["B", "R", "G"]);
    // Camelot: two castle squares a seat; Tri-Camelot: one hex a seat.
    let castles = |g: &Value, seat: u64| {
        g["cells"].as_array().unwrap().iter().filter(|c| c["castle"] == seat).count()
    };
    assert_eq!((castles(camelot, 0), castles(camelot, 1)), (2, 2));
    assert_eq!((castles(tri, 0), castles(tri, 1), castles(tri, 2)), (1, 1, 1));
    let f1 = camelot["cells"].as_array().unwrap().iter().find(|c| c["name"] == "F1").unwrap();
    assert_eq!(
        (f1["file"].as_i64(), f1["rank"].as_i64(), f1["castle"].as_i64()),
        (Some(5), Some(1), Some(0))
    );
    assert!(camelot["model"].is_null() && info["run"].is_null());
}

#[tokio::test]
async fn the_start_state_is_the_engines() {
    let r = router(None);
    for (game, start, pieces) in [
        ("camelot", Camelot::initial().to_string(), 28),
        ("tricamelot", TriCamelot::initial().to_string(), 24),
    ] {
        let (status, state) =
            post(&r, "/api/state", &json!({"game": game, "position": "start"})).await;
        assert_eq!(status, StatusCode::OK, "{state}");
        assert_eq!(state["position"], start.as_str());
        assert_eq!(state["pieces"].as_array().unwrap().len(), pieces);
        assert_eq!(state["to_move"], 0);
        assert!(
            state["over"].is_null()
                && state["moving"].is_null()
                && !state["legs"].as_array().unwrap().is_empty()
        );
    }
}

#[tokio::test]
async fn a_knights_charge_is_played_leg_by_leg() {
    let r = router(None);
    let (_, state) = post(&r, "/api/state", &json!({"game": "camelot", "position": CHARGE})).await;
    let from_f6: Vec<&Value> =
        state["legs"].as_array().unwrap().iter().filter(|l| l["from"] == "F6").collect();
    assert!(
        from_f6.iter().any(|l| l["action"] == "F6>F8" && l["capture"].is_null()),
        "{from_f6:?}"
    );
    let mut position = CHARGE.to_string();
    for (action, capture, last) in
        [("F6>F8", None, false), ("F8>F10", Some("F9"), false), ("F10>F12", Some("F11"), true)]
    {
        // The leg is offered with what it captures before it is played.
        let (_, before) =
            post(&r, "/api/state", &json!({"game": "camelot", "position": position})).await;
        let leg = before["legs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["action"] == action)
            .unwrap()
            .clone();
        assert_eq!(leg["capture"].as_str(), capture);
        let (status, played) = post(
            &r,
            "/api/play",
            &json!({"game": "camelot", "position": position, "action": action}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{played}");
        let state = &played["state"];
        position = state["position"].as_str().unwrap().to_string();
        if last {
            assert_eq!(played["completed"], "F6-F8xF10xF12");
            assert_eq!(state["to_move"], 1);
            assert!(state["moving"].is_null());
        } else {
            assert!(played["completed"].is_null());
            assert_eq!(state["moving"], action.split('>').nth(1).unwrap());
            // The jump must go on: no stopping, and only the moving piece's legs.
            assert_eq!(state["can_end"], false);
            assert!(state["legs"].as_array().unwrap().iter().all(|l| l["from"] == state["moving"]));
        }
    }
    // The page's position is the engine's after the move.
    let expected =
        CHARGE.parse::<State<games::CamelotRules>>().unwrap().after_move("F6-F8xF10xF12").unwrap();
    assert_eq!(position, expected.to_string());
}

#[tokio::test]
async fn a_move_in_progress_round_trips_as_a_position_string() {
    let r = router(None);
    let (_, played) =
        post(&r, "/api/play", &json!({"game": "camelot", "position": CHARGE, "action": "F6>F8"}))
            .await;
    let position = played["state"]["position"].as_str().unwrap();
    assert!(position.ends_with(" move=F6-F8"), "{position}");
    let (status, state) =
        post(&r, "/api/state", &json!({"game": "camelot", "position": position})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(strings(&state["landed"]), ["F6", "F8"]);
    assert_eq!(state["partial"], "F6-F8");
}

/// A request body at Camelot's start position, with `extra`'s fields.
fn start_with(extra: Value) -> Value {
    let mut body = json!({"game": "camelot", "position": "start"});
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    body
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_message() {
    let r = router(None);
    // Each (page, body, part of the error): all are 422, Unprocessable Entity.
    let cases: Vec<(&str, Value, &str)> = vec![
        ("/api/state", json!({"game": "chess", "position": "start"}), "unknown game"),
        ("/api/state", json!({"game": "camelot", "position": "camelot Q"}), "bad position"),
        ("/api/state", json!({"game": "camelot"}), "missing field `position`"),
        ("/api/state", start_with(json!({"x": 1})), "unknown field `x`"),
        ("/api/play", start_with(json!({"action": "F7>F9"})), "illegal action `F7>F9`"),
        ("/api/play", start_with(json!({"action": "end"})), "illegal"),
        ("/api/play", start_with(json!({"action": "Z99>A1"})), "Z99>A1"),
        ("/api/reply", start_with(json!({"sims": 0})), "sims must be between 1 and 2000"),
        ("/api/reply", start_with(json!({"sims": 2001})), "got 2001"),
        ("/api/reply", start_with(json!({"sims": -1})), "sims"),
        ("/api/analyse", start_with(json!({"sims": 1e12})), "sims"),
        (
            "/api/reply",
            json!({"game": "camelot", "position": "camelot B W:MF7 B: cm=0,0", "sims": 10}),
            "the game is over",
        ),
    ];
    for (uri, body, message) in cases {
        let (got, answer) = post(&r, uri, &body).await;
        assert_eq!(got, StatusCode::UNPROCESSABLE_ENTITY, "{uri} {body}: {answer}");
        let error = answer["error"].as_str().unwrap_or_else(|| panic!("{answer}"));
        assert!(error.contains(message), "{uri} {body}: {error:?} lacks {message:?}");
    }
    // Not JSON, not an object, too big, the wrong content type, the wrong method, no such page.
    let (status, body) = post_raw(&r, "/api/state", b"{\"game\":".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        serde_json::from_slice::<Value>(&body).unwrap()["error"].as_str().unwrap().contains("JSON")
    );
    let (status, _) = post_raw(&r, "/api/state", b"[1, 2]".to_vec()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let huge = json!({"game": "camelot", "position": "x".repeat(web::MAX_BODY)}).to_string();
    let (status, body) = post_raw(&r, "/api/state", huge.into_bytes()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(serde_json::from_slice::<Value>(&body).unwrap()["error"].is_string());
    let plain = Request::post("/api/state").body(Body::from("{}")).unwrap();
    let (status, _) = send(&r, plain).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, body) = get(&r, "/api/state").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{body}");
    let (status, body) = get(&r, "/api/nothing").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (StatusCode::NOT_FOUND, Some("no such page: /api/nothing"))
    );
    let (status, _) = get(&r, "/assets/..%2FCargo.toml").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_page_and_its_modules_are_served() {
    let r = router(None);
    let (status, page) = send(&r, Request::get("/").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains("/assets/app.js"), "the page loads its modules");
    // Every module the page imports, followed from app.js, is served (a module left off the
    // server's list would break the page).
    let mut queue = vec!["app.js".to_string(), "style.css".to_string()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(file) = queue.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        let response =
            axum::http::Request::get(format!("/assets/{file}")).body(Body::empty()).unwrap();
        let (status, body) = send(&r, response).await;
        assert_eq!(status, StatusCode::OK, "{file}");
        assert!(!body.is_empty(), "{file} is empty");
        let text = String::from_utf8(body).unwrap();
        for part in text.split("from './").skip(1) {
            queue.push(part.split('\'').next().unwrap().to_string());
        }
    }
    for module in [
        "play.js",
        "analyse.js",
        "replay.js",
        "tree.js",
        "graph.js",
        "gametext.js",
        "run.js",
        "chart.js",
    ] {
        assert!(seen.contains(module), "{module} is not reached from app.js: {seen:?}");
    }
}

#[tokio::test]
async fn the_reply_is_a_legal_move_and_its_state() {
    let r = router(None);
    let (status, reply) =
        post(&r, "/api/reply", &json!({"game": "tricamelot", "position": "start", "sims": 50}))
            .await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let m = reply["move"].as_str().unwrap();
    let after = TriCamelot::initial().after_move(m).unwrap();
    assert_eq!(reply["state"]["position"], after.to_string().as_str());
    assert_eq!(reply["state"]["to_move"], 1);
    let analysis = &reply["analysis"];
    assert_eq!(analysis["done"], true);
    assert_eq!(analysis["root_values"].as_array().unwrap().len(), 3);
    let visits: u64 = analysis["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["visits"].as_u64().unwrap())
        .sum();
    assert!(visits > 0 && visits <= 50, "{visits}");
    // The same request, the same answer.
    let (_, again) =
        post(&r, "/api/reply", &json!({"game": "tricamelot", "position": "start", "sims": 50}))
            .await;
    assert_eq!(again["move"], reply["move"]);
}

#[tokio::test]
async fn an_analysis_streams_until_its_budget() {
    let r = router(None);
    let (status, body) = post_raw(
        &r,
        "/api/analyse",
        json!({"game": "camelot", "position": "start", "sims": 2000}).to_string().into_bytes(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<Value> = String::from_utf8(body)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let last = lines.last().unwrap();
    assert_eq!((last["done"].as_bool(), last["simulations"].as_u64()), (Some(true), Some(2000)));
    assert!(lines[..lines.len() - 1].iter().all(|l| l["done"] == false));
    let visits: Vec<u64> = last["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["visits"].as_u64().unwrap())
        .collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "most visited first: {visits:?}");
    let top = &last["candidates"][0];
    assert_eq!(
        top["action"].as_str().unwrap(),
        format!("{}>{}", top["from"].as_str().unwrap(), top["to"].as_str().unwrap())
    );
    assert!(!strings(&last["pv"]).is_empty());
}

#[tokio::test]
async fn a_runs_games_are_listed_and_replayed() {
    let run = run_with_games("replay");
    let r = router(Some(&run));
    let (_, info) = get(&r, "/api/info").await;
    assert_eq!(info["run"]["name"], run.file_name().unwrap().to_str().unwrap());
    let (status, listing) = get(&r, "/api/run").await;
    assert_eq!(status, StatusCode::OK, "{listing}");
    let folder = run.join("games/gen-0001").display().to_string();
    assert_eq!(
        listing["collections"],
        json!([{"id": "games/gen-0001", "kind": "self-play", "generation": 1, "folder": folder}])
    );
    let (_, games) = get(&r, "/api/run/games?collection=games/gen-0001").await;
    let ids: Vec<u64> =
        games["games"].as_array().unwrap().iter().map(|g| g["game_id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [7, 9]);
    let (status, replay) =
        get(&r, "/api/run/game?collection=games/gen-0001&shard=0&game_id=7").await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    let (game, _) = common::recorded_game(7, 5);
    assert_eq!(strings(&replay["moves"]), game.moves);
    let positions = strings(&replay["positions"]);
    assert_eq!(positions.len(), 6);
    let mut state = Camelot::initial();
    assert_eq!(positions[0], state.to_string());
    for (m, p) in game.moves.iter().zip(&positions[1..]) {
        state = state.after_move(m).unwrap();
        assert_eq!(*p, state.to_string());
    }
    let values = replay["values"].as_array().unwrap();
    assert_eq!(values.len(), 5);
    assert!((values[3][0].as_f64().unwrap() - 0.3).abs() < 1e-6, "{values:?}");
    // Unknown or outside collections, shards and games.
    for uri in [
        "/api/run/games?collection=../../etc",
        "/api/run/games?collection=games/gen-0002",
        "/api/run/games?collection=models/gen-0001",
        "/api/run/games?collection=games/gen-1",
        "/api/run/game?collection=games/gen-0001&shard=3&game_id=7",
        "/api/run/game?collection=games/gen-0001&shard=0&game_id=8",
    ] {
        let (status, body) = get(&r, uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {body}");
        assert!(body["error"].is_string());
    }
    let (status, body) = get(&r, "/api/run/game?collection=games/gen-0001&shard=x&game_id=7").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = get(&r, "/api/run/games").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    std::fs::remove_dir_all(run).unwrap();
}

#[tokio::test]
async fn an_arena_folder_is_listed_beside_the_run() {
    let arena = common::scratch("arena-records");
    let (game, _) = common::recorded_game(4, 2);
    let shard = records::Shard { games: vec![game], positions: Vec::new() };
    records::write_shard(&arena, 0, "test", 1, &shard).unwrap();
    let mut options = common::options(None);
    options.games = vec![arena.clone()];
    let r = web::App::new(options).unwrap().router();
    let (_, listing) = get(&r, "/api/run").await;
    assert_eq!(listing["name"], "records");
    assert_eq!(listing["collections"][0]["id"], "arena/0");
    assert_eq!(listing["collections"][0]["kind"], "arena");
    let (status, replay) = get(&r, "/api/run/game?collection=arena/0&shard=0&game_id=4").await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    // No searches recorded: no values, one entry a move.
    assert_eq!(replay["values"], json!([null, null]));
    for uri in [
        "/api/run/games?collection=arena/1",
        "/api/run/games?collection=arena/00",
        "/api/run/games?collection=games/gen-0001",
    ] {
        let (status, _) = get(&r, uri).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
    }
    std::fs::remove_dir_all(arena).unwrap();
}

#[tokio::test]
async fn without_a_run_replay_says_so() {
    let r = router(None);
    let (status, body) = get(&r, "/api/run").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("--run"));
}

#[test]
fn a_missing_model_or_run_stops_the_server_before_it_starts() {
    let mut options = common::options(Some(std::path::Path::new("/no/such/run")));
    let e = web::App::new(options.clone()).err().unwrap();
    assert!(e.to_string().contains("/no/such/run"), "{e}");
    options.run = None;
    options.models = vec!["/no/such/model".into()];
    let e = web::App::new(options).err().unwrap();
    assert!(e.to_string().contains("/no/such/model"), "{e}");
}
