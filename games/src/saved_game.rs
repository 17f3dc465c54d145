//! [`SavedGame`]: one game as a small text file that people and programs read and write: the
//! variant, the start position, the moves in official notation with comments, and the result.
//! `play`'s `save`, `replay`, the board page's Save and Load and the Python package all use it
//! (docs/records.md, "Saved games").
//!
//! ```text
//! [Game "camelot"]
//! [Start "start"]
//! [Result "1-0"]
//! [Termination "castle"]
//!
//! F6-F8 {the centre first}
//! G11-G9
//! ```
//!
//! Tags come first, one `[Name "value"]` a line (`\"` and `\\` inside a value); then the moves,
//! separated by white space, each optionally followed by a `{comment}` (a comment before the
//! first move is the game's). Move numbers (`1.`, `12...`) are ignored when read. `Game` is the
//! variant (optional when `Start` is a position string, which names its own); `Start` a position
//! string or `start` (the default); `Result` the score share of each seat joined by `-` (`1-0`,
//! `1/2-1/2`, `0-1-0`, `1/3-1/3-1/3`) or `*` for a game not finished; `Termination` how it ended.
//! Any other tag is kept as it is. A file without tags whose first line is a position string
//! (what `play` saved before this format) reads as that start and its moves, one a line.
//!
//! Reading checks the text only; [`SavedGame::states`] plays the moves by the rules.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::{Game, RuleOptions, State, Variant, VariantKind};

/// A game as text: everything but the rules' verdict on its moves ([`SavedGame::states`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SavedGame {
    pub variant: VariantKind,
    /// A position string (RULES.md §5), or `start` for the variant's start position.
    pub start: String,
    /// Complete moves in official notation, from `start`.
    pub moves: Vec<String>,
    /// `comments[0]` is about the game (before the first move), `comments[i]` about `moves[i - 1]`;
    /// empty strings are no comment. As long as `moves` plus one (shorter is padded when written).
    pub comments: Vec<String>,
    /// The final score share of each seat, in seat order; `None` for a game not finished.
    pub result: Option<Vec<f32>>,
    /// How the game ended (`castle`, `capture-all`, `move-limit`, ...), when it did.
    pub termination: Option<String>,
    /// Every other tag, in the order read.
    pub tags: Vec<(String, String)>,
}

/// Why a saved game's text is not one, or its moves are not legal. Each names where.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SavedGameError {
    #[error("line {line}: bad tag `{text}` (expected [Name \"value\"])")]
    BadTag { line: usize, text: String },
    #[error("line {line}: unknown game `{name}` (expected camelot or tricamelot)")]
    UnknownGame { line: usize, name: String },
    #[error(
        "no [Game] tag and the start `start` names no game: add [Game \"camelot\"] or [Game \"tricamelot\"]"
    )]
    NoGame,
    #[error("[Game \"{tag}\"] but the start position is a {start} position")]
    GameMismatch { tag: String, start: String },
    #[error("bad result `{0}`: write each seat's share joined by `-` (1-0, 1/2-1/2, 0-1-0) or `*`")]
    BadResult(String),
    #[error("the result `{result}` has {got} shares, but {game} has {seats} seats")]
    ResultSeats { result: String, got: usize, game: &'static str, seats: usize },
    #[error("the result `{0}` has a share outside 0 to 1")]
    ResultShare(String),
    #[error("a tag name is letters, digits and _, not `{0}`")]
    BadTagName(String),
    #[error("a comment opened with `{{` is not closed")]
    OpenComment,
    #[error("the start position: {0}")]
    BadStart(crate::PositionError),
    #[error("move {number} `{notation}`: {why}")]
    BadMove { number: usize, notation: String, why: crate::MoveError },
}

impl SavedGame {
    /// A game of `variant` from `start` (a position string, or `start`), no moves yet.
    pub fn new(variant: VariantKind, start: impl Into<String>) -> SavedGame {
        SavedGame {
            variant,
            start: start.into(),
            moves: Vec::new(),
            comments: vec![String::new()],
            result: None,
            termination: None,
            tags: Vec::new(),
        }
    }

    /// The state before the first move and after each move: `moves.len() + 1` states, every
    /// move checked by the rules under `options`. An error names the first move that is not
    /// legal (counted from 1). `V` must be this game's variant.
    pub fn states<V: Variant>(
        &self,
        options: RuleOptions,
    ) -> Result<Vec<State<V>>, SavedGameError> {
        debug_assert_eq!(V::NAME, self.variant.as_str());
        let text = if self.start.trim() == "start" { V::START } else { self.start.as_str() };
        let first = State::<V>::parse_with(text, options).map_err(SavedGameError::BadStart)?;
        let mut states = vec![first];
        for (i, notation) in self.moves.iter().enumerate() {
            let next = states[i].after_move(notation).map_err(|why| SavedGameError::BadMove {
                number: i + 1,
                notation: notation.clone(),
                why,
            })?;
            states.push(next);
        }
        Ok(states)
    }

    /// Records the rules' verdict on a game whose `last` state is over: its result and
    /// termination, unless a result is already set (a game adjudicated otherwise keeps it).
    pub fn finish_from<V: Variant>(&mut self, last: &State<V>) {
        if let (None, Some(over)) = (&self.result, last.outcome()) {
            self.result = Some(over.shares(V::NUM_PLAYERS));
            self.termination = Some(over.termination.as_str().to_string());
        }
    }

    /// Whether the game is one a file can hold: a result with a share from 0 to 1 for each
    /// of the variant's seats, and tag names of letters, digits and `_` ([`valid_tag_name`]).
    /// Reading checks it; writers built from other input (the page, Python) call it.
    pub fn check(&self) -> Result<(), SavedGameError> {
        if let Some(shares) = &self.result {
            let seats = self.variant.num_players();
            if shares.len() != seats {
                return Err(SavedGameError::ResultSeats {
                    result: result_text(Some(shares)),
                    got: shares.len(),
                    game: self.variant.as_str(),
                    seats,
                });
            }
            if shares.iter().any(|v| !(0.0..=1.0).contains(v)) {
                return Err(SavedGameError::ResultShare(result_text(Some(shares))));
            }
        }
        match self.tags.iter().find(|(name, _)| !valid_tag_name(name)) {
            Some((name, _)) => Err(SavedGameError::BadTagName(name.clone())),
            None => Ok(()),
        }
    }

    /// The comment after move `i` (0: the game's own), empty when none.
    pub fn comment(&self, i: usize) -> &str {
        self.comments.get(i).map_or("", String::as_str)
    }
}

/// `1`, `0`, `1/2`, `1/3`, `2/3`, or the share in decimals.
fn share_text(v: f32) -> String {
    for (num, den) in [(0, 1), (1, 1), (1, 2), (1, 3), (2, 3)] {
        if (v - num as f32 / den as f32).abs() < 1e-4 {
            return if den == 1 { num.to_string() } else { format!("{num}/{den}") };
        }
    }
    format!("{v}")
}

/// The text of a result: shares joined by `-`, or `*`.
pub fn result_text(result: Option<&[f32]>) -> String {
    match result {
        Some(shares) => shares.iter().map(|&v| share_text(v)).collect::<Vec<_>>().join("-"),
        None => "*".to_string(),
    }
}

/// The shares of a result's text (`*`: none).
pub fn parse_result(text: &str) -> Result<Option<Vec<f32>>, SavedGameError> {
    let text = text.trim();
    if text == "*" {
        return Ok(None);
    }
    let bad = || SavedGameError::BadResult(text.to_string());
    let share = |s: &str| -> Result<f32, SavedGameError> {
        let v = match s.split_once('/') {
            Some((n, d)) => {
                let (n, d): (f32, f32) =
                    (n.parse().map_err(|_| bad())?, d.parse().map_err(|_| bad())?);
                if d == 0.0 {
                    return Err(bad());
                }
                n / d
            }
            None if s == "½" => 0.5,
            None => s.parse().map_err(|_| bad())?,
        };
        if (0.0..=1.0).contains(&v) { Ok(v) } else { Err(bad()) }
    };
    let shares = text.split('-').map(share).collect::<Result<Vec<_>, _>>()?;
    if shares.len() < 2 { Err(bad()) } else { Ok(Some(shares)) }
}

/// Whether `name` can name a tag: letters, digits and `_`, at least one.
pub fn valid_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `[Name "value"]` of a tag line, unescaping `\"` and `\\`.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    if !valid_tag_name(name) {
        return None;
    }
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

/// Splits the move text into moves and comments (see [`SavedGame::comments`]).
fn parse_moves(text: &str) -> Result<(Vec<String>, Vec<String>), SavedGameError> {
    let mut moves = Vec::new();
    let mut comments = vec![String::new()];
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        if let Some(body) = rest.strip_prefix('{') {
            let end = body.find('}').ok_or(SavedGameError::OpenComment)?;
            let comment = body[..end].split_whitespace().collect::<Vec<_>>().join(" ");
            let last = comments.last_mut().expect("never empty");
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(&comment);
            rest = &body[end + 1..];
            continue;
        }
        let end = rest.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(rest.len());
        let token = &rest[..end];
        rest = &rest[end..];
        // A move number (`12.`, `12...`) is only for people.
        let number = token.trim_end_matches('.');
        if number.len() < token.len() && number.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        moves.push(token.to_string());
        comments.push(String::new());
    }
    Ok((moves, comments))
}

impl FromStr for SavedGame {
    type Err = SavedGameError;

    fn from_str(text: &str) -> Result<SavedGame, SavedGameError> {
        let mut tags = Vec::new();
        let mut body_start = text.len();
        let mut offset = 0;
        let mut legacy_start = None;
        for (n, line) in text.split_inclusive('\n').enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() {
                offset += line.len();
                continue;
            }
            if trimmed.starts_with('[') {
                let tag = parse_tag(trimmed).ok_or_else(|| SavedGameError::BadTag {
                    line: n + 1,
                    text: trimmed.to_string(),
                })?;
                tags.push((n + 1, tag));
                offset += line.len();
                continue;
            }
            let first_word = trimmed.split_whitespace().next().unwrap_or("");
            if tags.is_empty() && first_word.parse::<VariantKind>().is_ok() {
                // `play`'s first format: the start position's line, then the moves.
                legacy_start = Some(trimmed.to_string());
                offset += line.len();
            }
            body_start = offset;
            break;
        }
        let (moves, comments) = parse_moves(&text[body_start.min(text.len())..])?;

        let mut game = None;
        let mut start = legacy_start.unwrap_or_else(|| "start".to_string());
        let mut result = None;
        let mut termination = None;
        let mut other = Vec::new();
        for (line, (name, value)) in tags {
            match name.as_str() {
                "Game" => {
                    let kind = value
                        .parse::<VariantKind>()
                        .map_err(|_| SavedGameError::UnknownGame { line, name: value.clone() })?;
                    game = Some(kind);
                }
                "Start" => start = value,
                "Result" => result = parse_result(&value)?,
                "Termination" => termination = Some(value).filter(|t| !t.is_empty()),
                _ => other.push((name, value)),
            }
        }
        // A position string begins with its variant's name.
        let named = start.split_whitespace().next().filter(|&w| w != "start");
        let variant = match (game, named) {
            (Some(kind), Some(word)) if word != kind.as_str() => {
                return Err(SavedGameError::GameMismatch {
                    tag: kind.as_str().to_string(),
                    start: word.to_string(),
                });
            }
            (Some(kind), _) => kind,
            (None, Some(word)) => word.parse::<VariantKind>().map_err(|_| {
                SavedGameError::BadStart(crate::PositionError::UnknownVariant(word.to_string()))
            })?,
            (None, None) => return Err(SavedGameError::NoGame),
        };
        let game = SavedGame { variant, start, moves, comments, result, termination, tags: other };
        game.check()?;
        Ok(game)
    }
}

/// A tag's value with `"` and `\` escaped.
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment as written: on one line, and a `}` (which would end it) as `)`.
fn comment_text(comment: &str) -> String {
    comment.split_whitespace().collect::<Vec<_>>().join(" ").replace('}', ")")
}

/// The text [`FromStr`] reads back to the same game: the tags, a blank line, one move a line.
impl fmt::Display for SavedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "[Game \"{}\"]", self.variant.as_str())?;
        writeln!(f, "[Start \"{}\"]", quoted(&self.start))?;
        writeln!(f, "[Result \"{}\"]", result_text(self.result.as_deref()))?;
        if let Some(t) = &self.termination {
            writeln!(f, "[Termination \"{}\"]", quoted(t))?;
        }
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", quoted(value))?;
        }
        writeln!(f)?;
        let game_comment = comment_text(self.comment(0));
        if !game_comment.is_empty() {
            writeln!(f, "{{{game_comment}}}")?;
        }
        for (i, m) in self.moves.iter().enumerate() {
            let comment = comment_text(self.comment(i + 1));
            if comment.is_empty() {
                writeln!(f, "{m}")?;
            } else {
                writeln!(f, "{m} {{{comment}}}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "saved_game_tests.rs"]
mod tests;
