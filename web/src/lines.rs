//! Lines of moves and saved games: `/api/line` (the positions along moves from a position: a
//! principal variation to preview, a loaded game's moves), `/api/game/read` and
//! `/api/game/write` (the saved game text, `games::SavedGame`, that `play`, `replay` and the
//! Python package read and write too). The page keeps no notation or file format of its own.

use axum::response::Json;
use games::{
    Game, RuleOptions, SavedGame, SavedGameError, State, Variant, VariantKind, parse_result,
};
use serde::{Deserialize, Serialize};

use crate::error::ServeError;
use crate::extract::ApiJson;
use crate::view::{parse_game, parse_state};

/// The positions along a line: `positions[0]` the first, `positions[i]` after `moves[i - 1]`;
/// `seats[i]` the seat that plays `moves[i]`.
#[derive(Serialize, Debug, PartialEq)]
pub struct LineView {
    pub positions: Vec<String>,
    pub seats: Vec<usize>,
}

impl LineView {
    fn of<V: Variant>(states: &[State<V>]) -> LineView {
        LineView {
            positions: states.iter().map(|s| s.to_string()).collect(),
            seats: states
                .iter()
                .skip(1)
                .zip(states)
                .map(|(_, before)| before.to_move().index())
                .collect(),
        }
    }
}

/// The states along `moves` from `start`, as the rules play them (a saved game's).
fn states_of<V: Variant>(start: &str, moves: &[String]) -> Result<Vec<State<V>>, ServeError> {
    let kind = V::NAME.parse::<VariantKind>().expect("a variant's own name");
    let mut line = SavedGame::new(kind, parse_state::<V>(start)?.to_string());
    line.moves = moves.to_vec();
    line.states::<V>(RuleOptions::default()).map_err(|e| match e {
        SavedGameError::BadMove { ref notation, .. } => {
            ServeError::IllegalAction { action: notation.clone(), why: e.to_string() }
        }
        e => bad_text(e),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    game: String,
    position: String,
    /// Complete moves in official notation.
    moves: Vec<String>,
}

pub async fn line(ApiJson(req): ApiJson<LineRequest>) -> Result<Json<LineView>, ServeError> {
    let kind = parse_game(&req.game)?;
    games::with_variant!(kind, V => Ok(Json(LineView::of(&states_of::<V>(&req.position, &req.moves)?))))
}

/// A saved game as the page holds it.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameText {
    game: String,
    /// A position string, or `start`.
    start: String,
    moves: Vec<String>,
    /// `comments[0]` the game's, `comments[i]` after `moves[i - 1]`; may be shorter.
    #[serde(default)]
    comments: Vec<String>,
    /// The result's text (`1-0`, `1/3-1/3-1/3`, `*`).
    #[serde(default)]
    result: Option<String>,
    #[serde(default)]
    termination: Option<String>,
}

/// A saved game read: the game, and the line its moves make.
#[derive(Serialize, Debug)]
pub struct GameRead {
    #[serde(flatten)]
    game: GameText,
    #[serde(flatten)]
    line: LineView,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextRequest {
    text: String,
}

/// The saved game's text: its moves checked by the rules first.
#[derive(Serialize)]
pub struct TextView {
    text: String,
}

fn bad_text(e: impl std::fmt::Display) -> ServeError {
    ServeError::BadGameText(e.to_string())
}

pub async fn read(ApiJson(req): ApiJson<TextRequest>) -> Result<Json<GameRead>, ServeError> {
    let saved: SavedGame = req.text.parse().map_err(bad_text)?;
    let line = games::with_variant!(saved.variant, V => {
        LineView::of(&saved.states::<V>(RuleOptions::default()).map_err(bad_text)?)
    });
    let game = GameText {
        game: saved.variant.as_str().to_string(),
        start: saved.start.clone(),
        result: Some(games::result_text(saved.result.as_deref())),
        termination: saved.termination.clone(),
        comments: saved.comments,
        moves: saved.moves,
    };
    Ok(Json(GameRead { game, line }))
}

pub async fn write(ApiJson(req): ApiJson<GameText>) -> Result<Json<TextView>, ServeError> {
    let kind: VariantKind = parse_game(&req.game)?;
    let mut saved = SavedGame::new(kind, req.start.trim());
    saved.moves = req.moves;
    saved.comments = req.comments;
    saved.result = match req.result.as_deref() {
        Some(text) => parse_result(text).map_err(bad_text)?,
        None => None,
    };
    saved.termination = req.termination;
    games::with_variant!(kind, V => {
        let states = saved.states::<V>(RuleOptions::default()).map_err(bad_text)?;
        // A game that the rules ended says so, unless the page already did.
        saved.finish_from(states.last().expect("the start at least"));
    });
    saved.check().map_err(bad_text)?;
    Ok(Json(TextView { text: saved.to_string() }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::CamelotRules;

    #[test]
    fn a_line_names_each_moves_seat_and_position() {
        let moves = ["F6-F8".to_string(), "G11-G9".to_string()];
        let states = states_of::<CamelotRules>("start", &moves).unwrap();
        let view = LineView::of(&states);
        assert_eq!(view.seats, [0, 1]);
        assert_eq!(view.positions.len(), 3);
        assert_eq!(view.positions[0], CamelotRules::START);
        let error =
            states_of::<CamelotRules>("start", &["F6-F8".into(), "F8-F9".into()]).unwrap_err();
        assert!(error.to_string().starts_with("move 2 `F8-F9`"), "{error}");
    }
}
