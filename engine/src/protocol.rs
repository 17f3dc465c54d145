//! The engine protocol's commands as text: one command per line from the client, parsed here
//! into a [`Command`] (a malformed line is an error message, answered `error <message>`). The
//! protocol is described with an example session in `docs/engine-protocol.md`.

use std::collections::BTreeMap;

use games::{KnightCanter, VariantKind};
use serde::Deserialize;

/// The most simulations a `go` or an analysis may ask for.
pub const MAX_SIMS: u32 = search::mcts::MAX_SIMULATIONS;
/// The longest think a `go time_ms` may ask for, and the most a clock may hold (one day).
pub const MAX_TIME_MS: u64 = 86_400_000;
/// The most moves a `go movestogo` may name.
pub const MAX_MOVES_TO_GO: u32 = 10_000;

/// A budget for a search: simulations per leg, time for the whole move, the seats' clocks, or
/// several (whichever runs out first); none of them means the engine's `sims` option, and
/// `infinite` searches until `stop`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `sims N` or `nodes N`: simulations per leg.
    pub sims: Option<u32>,
    /// `time_ms T` or `movetime T`: milliseconds for the whole move.
    pub time_ms: Option<u64>,
    /// `infinite`: until `stop` (no other budget may be given with it).
    pub infinite: bool,
    /// `ponder`: search on the opponent's time, without end, until `ponderhit` (the predicted
    /// move was played: the other budgets start then) or `stop`.
    pub ponder: bool,
    /// `wtime T btime T winc I binc I movestogo N` (a seat's letter, lower case, before
    /// `time` and `inc`; Tri-Camelot's seats are `b`, `r`, `g`): the engine's clock decides
    /// the move's time ([`crate::time_control`]).
    pub clock: Option<Clock>,
}

impl Limits {
    /// The `go` command that asks for these limits ([`parse`] reads it back as they are).
    pub fn go_line(&self) -> String {
        let mut go = "go".to_string();
        if let Some(n) = self.sims {
            go.push_str(&format!(" sims {n}"));
        }
        if let Some(t) = self.time_ms {
            go.push_str(&format!(" time_ms {t}"));
        }
        if self.infinite {
            go.push_str(" infinite");
        }
        if self.ponder {
            go.push_str(" ponder");
        }
        if let Some(clock) = &self.clock {
            for (key, table) in [("time", &clock.time_left_ms), ("inc", &clock.increment_ms)] {
                for (seat, ms) in table {
                    go.push_str(&format!(" {}{key} {ms}", seat.to_ascii_lowercase()));
                }
            }
            if let Some(n) = clock.moves_to_go {
                go.push_str(&format!(" movestogo {n}"));
            }
        }
        go
    }
}

/// The seats' clocks of a `go`: time left and increment per move, by seat letter (upper case).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_left_ms: BTreeMap<char, u64>,
    pub increment_ms: BTreeMap<char, u64>,
    /// Moves (of the seat to move) until the clock is next filled; `None`: sudden death.
    pub moves_to_go: Option<u32>,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position of the game's variant.
    StartPos,
    /// A position string (it names its variant; it may end in `move=<legs>`).
    Text(String),
}

/// One line from the client.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `czp`: the handshake (name, version, options, then `czpok`).
    Hello,
    /// `isready`: answered `readyok` (also while searching).
    IsReady,
    /// `setoption name <name> value <value>`.
    SetOption { name: String, value: String },
    /// `newgame camelot|tricamelot [knight_canter=strict|final-square]`.
    NewGame { variant: VariantKind, knight_canter: KnightCanter },
    /// `position startpos|<position string> [moves <move> ...]`.
    Position { start: Start, moves: Vec<String> },
    /// `go [sims N] [time_ms T] [wtime T btime T winc I binc I movestogo N] [infinite|ponder]`:
    /// search, `info` lines, then `bestmove <move>` ([`Limits`]).
    Go(Limits),
    /// `stop`: end the search in progress now (its `bestmove` follows).
    Stop,
    /// `ponderhit`: the move pondered on was played: the pondering search goes on as a normal
    /// one, its budgets counted from now (outside a pondering search, nothing to do).
    PonderHit,
    /// `legal`: the legal moves of the current position, in official notation.
    Legal,
    /// `result`: whether the game is over, and how.
    Result,
    /// `getposition`: the current position as a position string.
    GetPosition,
    /// `analyze <json>`: a JSON analysis request, answered with one JSON line.
    Analyze(Box<AnalysisRequest>),
    /// `quit` (or the end of the input).
    Quit,
}

/// A JSON analysis request (KataGo's analysis engine is the model).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// Echoed in the answer, so answers can be matched to requests.
    pub id: String,
    /// `"startpos"` or a position string.
    pub position: String,
    /// The variant of `"startpos"` (a position string names its own; default: the current
    /// game's, else camelot).
    #[serde(default)]
    pub variant: Option<VariantKind>,
    /// Complete moves played from `position` first.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Simulations (default: the engine's `sims` option).
    #[serde(default)]
    pub sims: Option<u32>,
    /// Rule option of the position (default: strict).
    #[serde(default)]
    pub knight_canter: Option<KnightCanter>,
    /// Root actions reported, most visited first (default 20).
    #[serde(default)]
    pub top: Option<usize>,
}

/// Parses one line; `Ok(None)` for an empty line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let no_args = |c: Command| {
        if rest.is_empty() { Ok(Some(c)) } else { Err(format!("`{word}` takes no arguments")) }
    };
    match word {
        "" => Ok(None),
        "czp" => no_args(Command::Hello),
        "isready" => no_args(Command::IsReady),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "legal" => no_args(Command::Legal),
        "result" => no_args(Command::Result),
        "getposition" => no_args(Command::GetPosition),
        "quit" => no_args(Command::Quit),
        "setoption" => set_option(rest).map(Some),
        "newgame" => new_game(rest).map(Some),
        "position" => position(rest).map(Some),
        "go" => go(rest).map(|l| Some(Command::Go(l))),
        "analyze" => serde_json::from_str::<AnalysisRequest>(rest)
            .map(|r| Some(Command::Analyze(Box::new(r))))
            .map_err(|e| format!("bad analysis request: {e}")),
        other => Err(format!("unknown command `{other}`")),
    }
}

fn set_option(rest: &str) -> Result<Command, String> {
    let usage = || "usage: setoption name <name> value <value>".to_string();
    let rest = rest.strip_prefix("name").ok_or_else(usage)?.trim_start();
    let (name, value) = rest.split_once(" value").ok_or_else(usage)?;
    let (name, value) = (name.trim(), value.trim());
    if name.is_empty() || value.is_empty() {
        return Err(usage());
    }
    Ok(Command::SetOption { name: name.to_string(), value: value.to_string() })
}

fn new_game(rest: &str) -> Result<Command, String> {
    let mut words = rest.split_whitespace();
    let variant = words
        .next()
        .ok_or("usage: newgame camelot|tricamelot [knight_canter=strict|final-square]")?
        .parse::<VariantKind>()
        .map_err(|e| e.to_string())?;
    let mut knight_canter = KnightCanter::default();
    for word in words {
        match word.split_once('=') {
            Some(("knight_canter", v)) => {
                knight_canter = v.parse().map_err(|e: games::UnknownName| e.to_string())?
            }
            _ => {
                return Err(format!(
                    "unknown newgame option `{word}` (expected knight_canter=...)"
                ));
            }
        }
    }
    Ok(Command::NewGame { variant, knight_canter })
}

fn position(rest: &str) -> Result<Command, String> {
    // `moves` is never part of a position string, so the first ` moves` word splits the two.
    let words: Vec<&str> = rest.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let (start, moves) = (words[..at].join(" "), &words[(at + 1).min(words.len())..]);
    let start = match start.as_str() {
        "" => return Err("usage: position startpos|<position string> [moves <move> ...]".into()),
        "startpos" => Start::StartPos,
        _ => Start::Text(start),
    };
    if at < words.len() && moves.is_empty() {
        return Err("`moves` without any move".into());
    }
    Ok(Command::Position { start, moves: moves.iter().map(|m| m.to_string()).collect() })
}

/// The `go` options, for error messages.
const GO_OPTIONS: &str = "sims N, nodes N, time_ms T, movetime T, infinite, ponder, or clocks: \
    wtime T, btime T, winc I, binc I (a seat letter before time and inc), movestogo N";

fn go(rest: &str) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut words = rest.split_whitespace();
    while let Some(key) = words.next() {
        if key == "infinite" || key == "ponder" {
            if key == "infinite" {
                limits.infinite = true
            } else {
                limits.ponder = true
            }
            continue;
        }
        let value = words.next().ok_or_else(|| format!("`{key}` needs a value"))?;
        let whole = |max: u64, min: u64| {
            value.parse::<u64>().ok().filter(|v| (min..=max).contains(v)).ok_or_else(|| {
                format!("{key} must be a whole number from {min} to {max}, not `{value}`")
            })
        };
        match key {
            "sims" | "nodes" => limits.sims = Some(whole(u64::from(MAX_SIMS), 1)? as u32),
            "time_ms" | "movetime" => limits.time_ms = Some(whole(MAX_TIME_MS, 1)?),
            "movestogo" => {
                let clock = limits.clock.get_or_insert_default();
                clock.moves_to_go = Some(whole(u64::from(MAX_MOVES_TO_GO), 1)? as u32);
            }
            _ => {
                let (seat, what) = seat_clock_key(key)
                    .ok_or_else(|| format!("unknown go option `{key}` (expected {GO_OPTIONS})"))?;
                let clock = limits.clock.get_or_insert_default();
                let table =
                    if what == "time" { &mut clock.time_left_ms } else { &mut clock.increment_ms };
                table.insert(seat, whole(MAX_TIME_MS, 0)?);
            }
        }
    }
    if limits.infinite
        && (limits.sims.is_some() || limits.time_ms.is_some() || limits.clock.is_some())
    {
        return Err("`go infinite` searches until `stop`: give no other budget with it".into());
    }
    if limits.infinite && limits.ponder {
        return Err(
            "`go ponder` already searches until `ponderhit` or `stop`: not with `infinite`".into(),
        );
    }
    if let Some(clock) = &limits.clock
        && clock.time_left_ms.is_empty()
    {
        return Err("a clock needs the time left of the seat to move (wtime, btime, ...)".into());
    }
    Ok(limits)
}

/// `wtime` → (`W`, "time"), `binc` → (`B`, "inc"): a seat's clock key.
fn seat_clock_key(key: &str) -> Option<(char, &str)> {
    let mut chars = key.chars();
    let seat = chars.next().filter(char::is_ascii_lowercase)?;
    let what = chars.as_str();
    matches!(what, "time" | "inc").then(|| (seat.to_ascii_uppercase(), what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse("  czp ").unwrap(), Some(Command::Hello));
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(
            parse("position startpos moves C6-B5 J11-J10").unwrap(),
            Some(Command::Position {
                start: Start::StartPos,
                moves: vec!["C6-B5".into(), "J11-J10".into()]
            })
        );
        assert_eq!(
            parse("position camelot W W:KC6 B:KC11 cm=0,0 move=C6-C7").unwrap(),
            Some(Command::Position {
                start: Start::Text("camelot W W:KC6 B:KC11 cm=0,0 move=C6-C7".into()),
                moves: vec![]
            })
        );
        let go = |sims, time_ms| Limits { sims, time_ms, ..Limits::default() };
        assert_eq!(
            parse("go sims 50 time_ms 1000").unwrap(),
            Some(Command::Go(go(Some(50), Some(1000))))
        );
        assert_eq!(
            parse("go nodes 50 movetime 1000").unwrap(),
            Some(Command::Go(go(Some(50), Some(1000))))
        );
        let infinite = Limits { infinite: true, ..Limits::default() };
        assert_eq!(parse("go infinite").unwrap(), Some(Command::Go(infinite.clone())));
        let Some(Command::Go(Limits { clock: Some(clock), .. })) =
            parse("go wtime 60000 btime 0 winc 100 binc 100 movestogo 20").unwrap()
        else {
            panic!("a clock")
        };
        assert_eq!(clock.time_left_ms, [('B', 0), ('W', 60_000)].into());
        assert_eq!(clock.increment_ms, [('B', 100), ('W', 100)].into());
        assert_eq!(clock.moves_to_go, Some(20));
        // Every budget goes out as the `go` line that parses back to it.
        let clocked = Limits { sims: Some(9), clock: Some(clock), ..Limits::default() };
        // Pondering with the clock that starts at `ponderhit`.
        let pondering = Limits { ponder: true, ..clocked.clone() };
        assert_eq!(
            parse("go ponder sims 9 wtime 60000 btime 0 winc 100 binc 100 movestogo 20").unwrap(),
            Some(Command::Go(pondering.clone()))
        );
        assert_eq!(parse("ponderhit").unwrap(), Some(Command::PonderHit));
        for limits in [go(Some(50), Some(1000)), go(None, None), infinite, clocked, pondering] {
            assert_eq!(parse(&limits.go_line()).unwrap(), Some(Command::Go(limits.clone())));
        }
        assert_eq!(
            parse("setoption name sims value 400").unwrap(),
            Some(Command::SetOption { name: "sims".into(), value: "400".into() })
        );
        assert_eq!(
            parse("newgame tricamelot knight_canter=final-square").unwrap(),
            Some(Command::NewGame {
                variant: VariantKind::Tricamelot,
                knight_canter: KnightCanter::FinalSquare
            })
        );
        let Some(Command::Analyze(r)) =
            parse(r#"analyze {"id":"a","position":"startpos","moves":["C6-B5"],"sims":8}"#)
                .unwrap()
        else {
            panic!()
        };
        assert_eq!((r.id.as_str(), r.sims, r.moves.len()), ("a", Some(8), 1));
    }

    #[test]
    fn malformed_commands_are_messages() {
        for bad in [
            "fly",
            "go sims",
            "go sims 0",
            "go sims x",
            "go depth 3",
            "go time_ms 999999999999",
            "go movetime 0",
            "go wtime -5",
            "go wtime",
            "go winc 100",
            "go movestogo 20",
            "go infinite sims 10",
            "go infinite ponder",
            "ponderhit now",
            "go infinite wtime 100",
            "go Wtime 100",
            "go wtimes 100",
            "position",
            "position startpos moves",
            "newgame chess",
            "newgame camelot knight_canter=loose",
            "setoption sims 3",
            "analyze {",
            r#"analyze {"id":"a"}"#,
            r#"analyze {"id":"a","position":"startpos","extra":1}"#,
            "isready now",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
