//! Lines of moves and saved games through the router: `/api/line`, `/api/game/read` and
//! `/api/game/write` agree with the rules engine and with `games::SavedGame`, and refuse bad
//! text with where it is wrong.

mod common;

use axum::http::StatusCode;
use common::{post, router};
use games::{CamelotRules, SavedGame, Variant};
use serde_json::json;

#[tokio::test]
async fn a_line_gives_the_positions_along_its_moves() {
    let r = router(None);
    let body = json!({"game": "camelot", "position": "start", "moves": ["F6-F8", "G11-G9"]});
    let (status, line) = post(&r, "/api/line", &body).await;
    assert_eq!(status, StatusCode::OK, "{line}");
    assert_eq!(line["seats"], json!([0, 1]));
    let positions = line["positions"].as_array().unwrap();
    assert_eq!(positions[0], CamelotRules::START);
    let mut state: games::State<CamelotRules> = CamelotRules::START.parse().unwrap();
    state = state.after_move("F6-F8").unwrap().after_move("G11-G9").unwrap();
    assert_eq!(positions[2], state.to_string());
    let bad = json!({"game": "camelot", "position": "start", "moves": ["F6-F8", "F8-F9"]});
    let (status, answer) = post(&r, "/api/line", &bad).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(answer["error"].as_str().unwrap().contains("move 2 `F8-F9`"), "{answer}");
}

#[tokio::test]
async fn a_game_written_reads_back_with_its_comments() {
    let r = router(None);
    let game = json!({
        "game": "camelot", "start": "start", "moves": ["F6-F8", "G11-G9"],
        "comments": ["", "the centre"],
    });
    let (status, written) = post(&r, "/api/game/write", &game).await;
    assert_eq!(status, StatusCode::OK, "{written}");
    let text = written["text"].as_str().unwrap();
    // The same text as the library writes: one format for page, CLI and Python.
    let saved: SavedGame = text.parse().unwrap();
    assert_eq!(saved.moves, ["F6-F8", "G11-G9"]);
    assert_eq!(saved.to_string(), text);
    assert!(text.contains("F6-F8 {the centre}\n"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");

    let (status, read) = post(&r, "/api/game/read", &json!({ "text": text })).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_eq!(read["game"], "camelot");
    assert_eq!(read["moves"], json!(["F6-F8", "G11-G9"]));
    assert_eq!(read["comments"], json!(["", "the centre", ""]));
    assert_eq!(read["seats"], json!([0, 1]));
    assert_eq!(read["positions"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_finished_game_is_written_with_the_rules_result() {
    let r = router(None);
    // White captures Black's last piece: the game is over, won by White.
    let start = "camelot W W:MF6,MC6 B:MF7 cm=0,0";
    let game = json!({"game": "camelot", "start": start, "moves": ["F6xF8"]});
    let (status, written) = post(&r, "/api/game/write", &game).await;
    assert_eq!(status, StatusCode::OK, "{written}");
    let text = written["text"].as_str().unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[Termination \""), "{text}");
}

#[tokio::test]
async fn bad_games_are_refused_with_where() {
    let r = router(None);
    let cases = [
        ("/api/game/read", json!({"text": "[Game \"chess\"]\n"}), "line 1: unknown game `chess`"),
        (
            "/api/game/read",
            json!({"text": "[Game \"camelot\"]\n\nF6-F8 F8-F9\n"}),
            "move 2 `F8-F9`",
        ),
        ("/api/game/read", json!({"text": "F6-F8\n"}), "no [Game] tag"),
        (
            "/api/game/write",
            json!({"game": "camelot", "start": "start", "moves": ["F6-F9"]}),
            "move 1 `F6-F9`",
        ),
        (
            "/api/game/write",
            json!({"game": "camelot", "start": "start", "moves": [], "result": "1-0-0"}),
            "3 shares",
        ),
        ("/api/game/write", json!({"game": "go", "start": "start", "moves": []}), "unknown game"),
    ];
    for (uri, body, message) in cases {
        let (status, answer) = post(&r, uri, &body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{uri} {body}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(message), "{uri} {body}: {error:?} lacks {message:?}");
    }
}
