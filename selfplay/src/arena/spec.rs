//! [`PlayerSpec`]: a contestant as written on the command line.
//!
//! | text | player |
//! |---|---|
//! | `random` | a uniformly random legal (complete) move |
//! | `greedy` | one ply: most captures, then closest to its goal castle ([`classical::greedy`]) |
//! | `mcts:sims=N` | MCTS with a uniform prior and random-rollout values, `N` simulations |
//! | `mcts:sims=N,cutoff=K` | the same, each playout cut after `K` moves and scored by the [`Heuristic`](classical::heuristic::Heuristic) |
//! | `alphabeta:depth=N` | iterative-deepening alpha-beta to `N` plies ([`classical::alphabeta`]) |
//! | `alphabeta:ms=T` | the same, deepening until `T` milliseconds have passed (with `depth=N`: whichever comes first; a time limit makes games depend on the machine's speed, a depth does not) |
//! | `<dir>:sims=N` | a checkpoint directory (a path with a `/`), searched with `N` simulations |
//! | `<dir>:sims=N,draw=X` | the same, scoring a draw `X` (in `[0, 1]`) for every seat in its search |
//! | `<dir>:sims=N,heuristic=W` | the same, its leaf values `(1 - W) x network + W x` the alpha-beta players' evaluation, judged on the board as it stands (`,judge=quiescence`: after the pending captures are played out); a measuring instrument, not a model ([`LeafValues`]) |
//! | `engine:<command line>` | an external engine speaking the engine protocol, started with that command line (its budget is its own) |
//! | `engine:tc=B+I <command line>` | the same on a clock, sent with each `go` (`wtime`/`btime`/`winc`/`binc`) |
//!
//! `tc=B+I` gives a checkpoint, `mcts` or `alphabeta` player a clock instead of a fixed budget
//! (`DIR:tc=10+0.1`, `alphabeta:tc=5+0.05`): `B` seconds for the game and `I` more after each of
//! its moves ([`TimeControl`]); each move takes the time the engine protocol's time management
//! gives it, searching until then (with `sims=`/`depth=`/`ms=` as well, whichever ends first).
//!
//! `sims=` may be left out (then [`DEFAULT_SIMS`]), `depth=` too (then [`DEFAULT_DEPTH`], or no
//! limit but the time with `ms=`); `draw=` too (then the fair share, the score
//! a draw earns). `draw=` is the contempt of [`DrawScore`]: a model trained with
//! `selfplay.draw_score = { fixed = X }` searched as it was trained. A checkpoint is only a path
//! here: whether it exists is found out when it is loaded
//! ([`super::ArenaError::MissingCheckpoint`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use thiserror::Error;

use super::clock::TimeControl;
use classical::leaf_heuristic::Judge;
use search::DrawScore;

/// Simulations of a searching player whose spec gives no `sims=`.
pub const DEFAULT_SIMS: u32 = 64;

/// Plies of an `alphabeta` player whose spec gives neither `depth=` nor `ms=`.
pub const DEFAULT_DEPTH: u32 = 2;

/// The most simulations a spec may ask a searching player for.
pub const MAX_SIMS: u32 = 1_000_000;

/// The deepest `depth=` an `alphabeta` player without `ms=` may search: each ply multiplies the
/// time by about the branching factor (docs/results.md), so deeper fixed depths would not finish;
/// with `ms=`, the time bounds the search and `depth=` may go to [`classical::alphabeta::MAX_DEPTH`].
pub const MAX_FIXED_DEPTH: u32 = 8;

/// The longest `ms=` a move may take: ten minutes.
pub const MAX_MS: u32 = 600_000;

/// The most moves a `cutoff=` playout may run (games end well before).
pub const MAX_CUTOFF: u32 = 10_000;

/// A contestant, parsed but not loaded.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// A checkpoint directory (e.g. `data/run/models/gen-0007`) searched with `sims` simulations,
    /// draws scored `draw` in its search, its leaves valued as `values` says.
    /// With a `clock`, each move searches until its time is up (`sims` per leg at most).
    Checkpoint {
        dir: PathBuf,
        sims: u32,
        draw: DrawScore,
        values: LeafValues,
        clock: Option<TimeControl>,
    },
    /// Uniform prior, random-rollout values, `sims` simulations; with `cutoff`, each playout
    /// stops after that many moves and is scored by the heuristic.
    Mcts { sims: u32, cutoff: Option<u32>, clock: Option<TimeControl> },
    /// Iterative-deepening alpha-beta: at most `depth` plies, and at most `ms` milliseconds a
    /// move when given, or the move's share of its `clock` (at least one of the three is set).
    AlphaBeta { depth: Option<u32>, ms: Option<u32>, clock: Option<TimeControl> },
    /// A uniformly random legal move.
    Random,
    /// One-ply greedy: captures, then castle progress.
    Greedy,
    /// An external engine: the command line that starts it (a program and its arguments,
    /// split at whitespace), and the clock its `go` commands carry.
    Engine { command: String, clock: Option<TimeControl> },
}

/// Where a checkpoint player's leaf values come from.
///
/// `Heuristic` is a measuring instrument rather than a model: it says how strong the network's
/// prior and search would be if its value head judged positions as well as the alpha-beta
/// players' evaluation does (docs/experiments.md, "What the value head is worth to the search").
/// Such a player is not the checkpoint alone, so it is named with its option in every table and
/// record.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum LeafValues {
    /// The network's value head.
    #[default]
    Network,
    /// `(1 - weight) x network + weight x heuristic` per seat ([`classical::HeuristicMix`]), the
    /// heuristic judging each leaf as `judge` says; `weight` in `(0, 1]`.
    Heuristic { weight: f32, judge: Judge },
}

/// Why a player spec does not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("empty player spec")]
    Empty,
    #[error(
        "unknown player kind `{0}` (expected random, greedy, mcts:sims=N[,cutoff=K], \
         alphabeta:depth=N[,ms=T], engine:<command line>, or a checkpoint directory path \
         containing `/`, e.g. data/run/models/gen-0007:sims=200)"
    )]
    UnknownKind(String),
    #[error("bad `{0}` in a player spec: sims must be a whole number of at least 1")]
    BadSims(String),
    #[error("bad `{0}` in a player spec: draw must be a number from 0 to 1")]
    BadDraw(String),
    #[error("bad `{0}` in a player spec: it must be a whole number of at least 1")]
    BadCount(String),
    #[error("bad `{0}` in a player spec: heuristic must be a number above 0 and at most 1")]
    BadHeuristic(String),
    #[error("bad `{0}` in a player spec: judge must be static or quiescence")]
    BadJudge(String),
    #[error("`{0}` in a player spec needs heuristic=W: it says how the heuristic judges leaves")]
    JudgeWithoutHeuristic(String),
    #[error("bad `{option}` in a player spec: at most {max}{why}")]
    TooLarge { option: String, max: u32, why: &'static str },
    #[error("unknown option `{option}` for player `{kind}` (it takes {allowed})")]
    UnknownOption { kind: String, option: String, allowed: String },
    #[error("player `{0}` takes no options")]
    NoOptions(String),
    #[error(
        "`engine:` needs the command line that starts the engine, e.g. engine:camelot-zero engine --sims 100"
    )]
    EmptyEngine,
    #[error("bad `{option}` in a player spec: {why}")]
    BadClock { option: String, why: String },
}

impl PlayerSpec {
    /// Simulations per searched decision, for the searching players.
    pub fn sims(&self) -> Option<u32> {
        match self {
            PlayerSpec::Checkpoint { sims, .. } | PlayerSpec::Mcts { sims, .. } => Some(*sims),
            PlayerSpec::Random
            | PlayerSpec::Greedy
            | PlayerSpec::AlphaBeta { .. }
            | PlayerSpec::Engine { .. } => None,
        }
    }

    /// The player's clock, when it plays on one.
    pub fn clock(&self) -> Option<TimeControl> {
        match self {
            PlayerSpec::Checkpoint { clock, .. }
            | PlayerSpec::Mcts { clock, .. }
            | PlayerSpec::AlphaBeta { clock, .. }
            | PlayerSpec::Engine { clock, .. } => *clock,
            PlayerSpec::Random | PlayerSpec::Greedy => None,
        }
    }

    /// The checkpoint directory, for a checkpoint player.
    pub fn checkpoint(&self) -> Option<&Path> {
        match self {
            PlayerSpec::Checkpoint { dir, .. } => Some(dir),
            _ => None,
        }
    }

    /// The short name used in tables and in records: the checkpoint's last path component
    /// (e.g. `gen-0007:sims=64`), otherwise the spec as written in canonical form.
    pub fn short_name(&self) -> String {
        match self {
            PlayerSpec::Checkpoint { dir, sims, draw, values, clock } => {
                let name = dir.file_name().map_or_else(
                    || dir.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                format!("{name}:{}", checkpoint_options(*sims, *draw, *values, *clock))
            }
            // The program's file name and its arguments.
            PlayerSpec::Engine { command, clock } => {
                let mut words = command.split_whitespace();
                let program = words.next().unwrap_or_default();
                let name =
                    Path::new(program).file_name().map_or(program.into(), |n| n.to_string_lossy());
                let rest: Vec<&str> = words.collect();
                let clock = clock.map(|c| format!("tc={c} ")).unwrap_or_default();
                format!("engine:{clock}{name} {}", rest.join(" ")).trim_end().to_string()
            }
            other => other.to_string(),
        }
    }
}

/// Canonical text, which parses back to the same spec.
impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Checkpoint { dir, sims, draw, values, clock } => {
                let options = checkpoint_options(*sims, *draw, *values, *clock);
                write!(f, "{}:{options}", dir.display())
            }
            PlayerSpec::Mcts { sims, cutoff, clock } => {
                let parts = [sims_option(*sims, *clock), cutoff.map(|k| format!("cutoff={k}"))];
                write!(f, "mcts:{}", options(parts, *clock))
            }
            PlayerSpec::AlphaBeta { depth, ms, clock } => {
                let parts = [depth.map(|d| format!("depth={d}")), ms.map(|t| format!("ms={t}"))];
                write!(f, "alphabeta:{}", options(parts, *clock))
            }
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Engine { command, clock: None } => write!(f, "engine:{command}"),
            PlayerSpec::Engine { command, clock: Some(c) } => write!(f, "engine:tc={c} {command}"),
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(SpecError::Empty);
        }
        if let Some(command) = s.strip_prefix("engine:") {
            // Everything after the prefix is the command line (it may hold `:` and `=`), after
            // a first word `tc=B+I`.
            let command = command.trim();
            let (clock, command) = match command.split_once(char::is_whitespace) {
                Some((first, rest)) if first.starts_with("tc=") => {
                    (Some(parse_clock(first)?), rest.trim())
                }
                _ if command.starts_with("tc=") => return Err(SpecError::EmptyEngine),
                _ => (None, command),
            };
            return match command {
                "" => Err(SpecError::EmptyEngine),
                command => Ok(PlayerSpec::Engine { command: command.to_string(), clock }),
            };
        }
        // Options follow the last `:` when what follows looks like `key=value` (so a path with a
        // `:` of its own still works).
        let (base, options) = match s.rsplit_once(':') {
            Some((base, opts)) if opts.contains('=') || opts.is_empty() => (base, Some(opts)),
            _ => (s, None),
        };
        match base {
            "random" | "greedy" if options.is_some() => Err(SpecError::NoOptions(base.into())),
            "random" => Ok(PlayerSpec::Random),
            "greedy" => Ok(PlayerSpec::Greedy),
            "mcts" => {
                let o = SearchOptions::parse("mcts", options, &["sims", "cutoff", "tc"])?;
                Ok(PlayerSpec::Mcts { sims: o.sims(), cutoff: o.cutoff, clock: o.clock })
            }
            "alphabeta" => {
                let o = SearchOptions::parse("alphabeta", options, &["depth", "ms", "tc"])?;
                let timed = o.ms.is_some() || o.clock.is_some();
                let max = if timed { classical::alphabeta::MAX_DEPTH } else { MAX_FIXED_DEPTH };
                if let Some(depth) = o.depth.filter(|&d| d > max) {
                    let why = if timed {
                        ""
                    } else {
                        " without ms=T (each ply multiplies the time; ms= bounds it)"
                    };
                    return Err(SpecError::TooLarge { option: format!("depth={depth}"), max, why });
                }
                let depth = if timed { o.depth } else { o.depth.or(Some(DEFAULT_DEPTH)) };
                Ok(PlayerSpec::AlphaBeta { depth, ms: o.ms, clock: o.clock })
            }
            path if path.contains('/') || path.contains(std::path::MAIN_SEPARATOR) => {
                let keys = ["sims", "draw", "heuristic", "judge", "tc"];
                let o = SearchOptions::parse(path, options, &keys)?;
                let values = match (o.heuristic, o.judge) {
                    (None, None) => LeafValues::Network,
                    (None, Some(judge)) => {
                        let text = format!("judge={}", judge_name(judge));
                        return Err(SpecError::JudgeWithoutHeuristic(text));
                    }
                    (Some(weight), judge) => {
                        LeafValues::Heuristic { weight, judge: judge.unwrap_or_default() }
                    }
                };
                Ok(PlayerSpec::Checkpoint {
                    dir: PathBuf::from(path),
                    sims: o.sims(),
                    draw: o.draw,
                    values,
                    clock: o.clock,
                })
            }
            other => Err(SpecError::UnknownKind(other.to_string())),
        }
    }
}

/// A checkpoint player's options as they parse back: its simulations, draw score, leaf values
/// and clock.
fn checkpoint_options(
    sims: u32,
    draw: DrawScore,
    values: LeafValues,
    clock: Option<TimeControl>,
) -> String {
    let rest = format!("{}{}", draw_option(draw), values_option(values));
    let rest = (!rest.is_empty()).then(|| rest[1..].to_string());
    options([sims_option(sims, clock), rest], clock)
}

/// `sims=N`, unless the player is on a clock and `N` is the most there is (the clock's
/// default).
fn sims_option(sims: u32, clock: Option<TimeControl>) -> Option<String> {
    (clock.is_none() || sims != MAX_SIMS).then(|| format!("sims={sims}"))
}

/// The options given, then the clock's `tc=`, joined by commas.
fn options<const N: usize>(parts: [Option<String>; N], clock: Option<TimeControl>) -> String {
    let clock = clock.map(|c| format!("tc={c}"));
    parts.into_iter().chain([clock]).flatten().collect::<Vec<_>>().join(",")
}

/// The clock of option `tc=B+I`.
fn parse_clock(opt: &str) -> Result<TimeControl, SpecError> {
    let value = opt.split_once('=').map_or("", |(_, v)| v);
    value.parse().map_err(|why| SpecError::BadClock { option: opt.to_string(), why })
}

/// `,draw=X` for a draw score other than the fair share, else nothing.
fn draw_option(draw: DrawScore) -> String {
    match draw {
        DrawScore::Share => String::new(),
        DrawScore::Fixed(x) => format!(",draw={x}"),
    }
}

/// `,heuristic=W` (and `,judge=quiescence`) for heuristic leaf values, else nothing.
fn values_option(values: LeafValues) -> String {
    match values {
        LeafValues::Network => String::new(),
        LeafValues::Heuristic { weight, judge: Judge::Static } => format!(",heuristic={weight}"),
        LeafValues::Heuristic { weight, judge } => {
            format!(",heuristic={weight},judge={}", judge_name(judge))
        }
    }
}

/// The `judge=` value of `judge`.
fn judge_name(judge: Judge) -> &'static str {
    match judge {
        Judge::Static => "static",
        Judge::Quiescence => "quiescence",
    }
}

/// The `key=value` options of a searching player.
/// `n`, the value of option `opt`, if it is at most `max`.
fn at_most(opt: &str, n: u32, max: u32) -> Result<u32, SpecError> {
    if n > max {
        return Err(SpecError::TooLarge { option: opt.to_string(), max, why: "" });
    }
    Ok(n)
}

struct SearchOptions {
    sims: Option<u32>,
    draw: DrawScore,
    heuristic: Option<f32>,
    judge: Option<Judge>,
    cutoff: Option<u32>,
    depth: Option<u32>,
    ms: Option<u32>,
    clock: Option<TimeControl>,
}

impl SearchOptions {
    /// The simulations given, else [`DEFAULT_SIMS`], or on a clock [`MAX_SIMS`] (the clock
    /// ends each search).
    fn sims(&self) -> u32 {
        let default = if self.clock.is_some() { MAX_SIMS } else { DEFAULT_SIMS };
        self.sims.unwrap_or(default)
    }

    /// Parses `options` (comma-separated, `None` = all defaults), taking only the keys in
    /// `allowed`.
    fn parse(
        kind: &str,
        options: Option<&str>,
        allowed: &[&'static str],
    ) -> Result<Self, SpecError> {
        let mut o = SearchOptions {
            sims: None,
            draw: DrawScore::Share,
            heuristic: None,
            judge: None,
            cutoff: None,
            depth: None,
            ms: None,
            clock: None,
        };
        let count = |opt: &str, n: &str| {
            n.parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| SpecError::BadCount(opt.to_string()))
        };
        for opt in options.into_iter().flat_map(|opts| opts.split(',')) {
            let (key, value) = opt.split_once('=').unwrap_or((opt, ""));
            match key {
                _ if !allowed.contains(&key) => {
                    let keys: Vec<String> = allowed.iter().map(|k| format!("{k}=")).collect();
                    return Err(SpecError::UnknownOption {
                        kind: kind.to_string(),
                        option: opt.to_string(),
                        allowed: keys.join(", "),
                    });
                }
                "sims" => {
                    let sims = value
                        .parse::<u32>()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| SpecError::BadSims(opt.to_string()))?;
                    o.sims = Some(at_most(opt, sims, MAX_SIMS)?);
                }
                "tc" => o.clock = Some(parse_clock(opt)?),
                "draw" => {
                    let x = value
                        .parse::<f32>()
                        .ok()
                        .filter(|&x| DrawScore::Fixed(x).problem().is_none())
                        .ok_or_else(|| SpecError::BadDraw(opt.to_string()))?;
                    o.draw = DrawScore::Fixed(x);
                }
                "heuristic" => {
                    let w = value
                        .parse::<f32>()
                        .ok()
                        .filter(|&w| w > 0.0 && w <= 1.0)
                        .ok_or_else(|| SpecError::BadHeuristic(opt.to_string()))?;
                    o.heuristic = Some(w);
                }
                "judge" => {
                    let judge = [Judge::Static, Judge::Quiescence]
                        .into_iter()
                        .find(|&j| judge_name(j) == value)
                        .ok_or_else(|| SpecError::BadJudge(opt.to_string()))?;
                    o.judge = Some(judge);
                }
                "cutoff" => o.cutoff = Some(at_most(opt, count(opt, value)?, MAX_CUTOFF)?),
                "depth" => o.depth = Some(count(opt, value)?),
                "ms" => o.ms = Some(at_most(opt, count(opt, value)?, MAX_MS)?),
                _ => unreachable!("every allowed key is handled"),
            }
        }
        Ok(o)
    }
}

#[cfg(test)]
#[path = "spec_tests.rs"]
mod tests;
