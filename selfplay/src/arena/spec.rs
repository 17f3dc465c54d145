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
    Checkpoint { dir: PathBuf, sims: u32, draw: DrawScore, values: LeafValues },
    /// Uniform prior, random-rollout values, `sims` simulations; with `cutoff`, each playout
    /// stops after that many moves and is scored by the heuristic.
    Mcts { sims: u32, cutoff: Option<u32> },
    /// Iterative-deepening alpha-beta: at most `depth` plies, and at most `ms` milliseconds a
    /// move when given (at least one of the two is set).
    AlphaBeta { depth: Option<u32>, ms: Option<u32> },
    /// A uniformly random legal move.
    Random,
    /// One-ply greedy: captures, then castle progress.
    Greedy,
    /// An external engine: the command line that starts it (a program and its arguments,
    /// split at whitespace).
    Engine { command: String },
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
            PlayerSpec::Checkpoint { dir, sims, draw, values } => {
                let name = dir.file_name().map_or_else(
                    || dir.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                format!("{name}:sims={sims}{}", checkpoint_options(*draw, *values))
            }
            // The program's file name and its arguments.
            PlayerSpec::Engine { command } => {
                let mut words = command.split_whitespace();
                let program = words.next().unwrap_or_default();
                let name =
                    Path::new(program).file_name().map_or(program.into(), |n| n.to_string_lossy());
                let rest: Vec<&str> = words.collect();
                format!("engine:{name} {}", rest.join(" ")).trim_end().to_string()
            }
            other => other.to_string(),
        }
    }
}

/// Canonical text, which parses back to the same spec.
impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Checkpoint { dir, sims, draw, values } => {
                let options = checkpoint_options(*draw, *values);
                write!(f, "{}:sims={sims}{options}", dir.display())
            }
            PlayerSpec::Mcts { sims, cutoff: None } => write!(f, "mcts:sims={sims}"),
            PlayerSpec::Mcts { sims, cutoff: Some(k) } => write!(f, "mcts:sims={sims},cutoff={k}"),
            PlayerSpec::AlphaBeta { depth, ms } => {
                let parts: Vec<String> =
                    [depth.map(|d| format!("depth={d}")), ms.map(|t| format!("ms={t}"))]
                        .into_iter()
                        .flatten()
                        .collect();
                write!(f, "alphabeta:{}", parts.join(","))
            }
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Engine { command } => write!(f, "engine:{command}"),
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
            // Everything after the prefix is the command line (it may hold `:` and `=`).
            return match command.trim() {
                "" => Err(SpecError::EmptyEngine),
                command => Ok(PlayerSpec::Engine { command: command.to_string() }),
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
                let o = SearchOptions::parse("mcts", options, &["sims", "cutoff"])?;
                Ok(PlayerSpec::Mcts { sims: o.sims, cutoff: o.cutoff })
            }
            "alphabeta" => {
                let o = SearchOptions::parse("alphabeta", options, &["depth", "ms"])?;
                let max =
                    if o.ms.is_some() { classical::alphabeta::MAX_DEPTH } else { MAX_FIXED_DEPTH };
                if let Some(depth) = o.depth.filter(|&d| d > max) {
                    let why = if o.ms.is_some() {
                        ""
                    } else {
                        " without ms=T (each ply multiplies the time; ms= bounds it)"
                    };
                    return Err(SpecError::TooLarge { option: format!("depth={depth}"), max, why });
                }
                let depth = match (o.depth, o.ms) {
                    (None, None) => Some(DEFAULT_DEPTH),
                    (depth, _) => depth,
                };
                Ok(PlayerSpec::AlphaBeta { depth, ms: o.ms })
            }
            path if path.contains('/') || path.contains(std::path::MAIN_SEPARATOR) => {
                let keys = ["sims", "draw", "heuristic", "judge"];
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
                    sims: o.sims,
                    draw: o.draw,
                    values,
                })
            }
            other => Err(SpecError::UnknownKind(other.to_string())),
        }
    }
}

/// A checkpoint player's options after `sims=`, as they parse back: its draw score's and its
/// leaf values'.
fn checkpoint_options(draw: DrawScore, values: LeafValues) -> String {
    format!("{}{}", draw_option(draw), values_option(values))
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
    sims: u32,
    draw: DrawScore,
    heuristic: Option<f32>,
    judge: Option<Judge>,
    cutoff: Option<u32>,
    depth: Option<u32>,
    ms: Option<u32>,
}

impl SearchOptions {
    /// Parses `options` (comma-separated, `None` = all defaults), taking only the keys in
    /// `allowed`.
    fn parse(
        kind: &str,
        options: Option<&str>,
        allowed: &[&'static str],
    ) -> Result<Self, SpecError> {
        let mut o = SearchOptions {
            sims: DEFAULT_SIMS,
            draw: DrawScore::Share,
            heuristic: None,
            judge: None,
            cutoff: None,
            depth: None,
            ms: None,
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
                    o.sims = value
                        .parse::<u32>()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| SpecError::BadSims(opt.to_string()))?;
                    at_most(opt, o.sims, MAX_SIMS)?;
                }
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
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<PlayerSpec, SpecError> {
        s.parse()
    }

    #[test]
    fn every_kind_parses_and_prints_back() {
        let cases = [
            ("random", PlayerSpec::Random),
            ("greedy", PlayerSpec::Greedy),
            ("mcts:sims=32", PlayerSpec::Mcts { sims: 32, cutoff: None }),
            ("mcts:sims=200,cutoff=12", PlayerSpec::Mcts { sims: 200, cutoff: Some(12) }),
            ("alphabeta:depth=3", PlayerSpec::AlphaBeta { depth: Some(3), ms: None }),
            ("alphabeta:ms=250", PlayerSpec::AlphaBeta { depth: None, ms: Some(250) }),
            ("alphabeta:depth=5,ms=100", PlayerSpec::AlphaBeta { depth: Some(5), ms: Some(100) }),
            (
                "data/run/models/gen-0007:sims=200",
                PlayerSpec::Checkpoint {
                    dir: "data/run/models/gen-0007".into(),
                    sims: 200,
                    draw: DrawScore::Share,
                    values: LeafValues::Network,
                },
            ),
            (
                "runs/gen-0028:sims=16,draw=0.25",
                PlayerSpec::Checkpoint {
                    dir: "runs/gen-0028".into(),
                    sims: 16,
                    draw: DrawScore::Fixed(0.25),
                    values: LeafValues::Network,
                },
            ),
            (
                "runs/gen-0028:sims=64,heuristic=0.5",
                PlayerSpec::Checkpoint {
                    dir: "runs/gen-0028".into(),
                    sims: 64,
                    draw: DrawScore::Share,
                    values: LeafValues::Heuristic { weight: 0.5, judge: Judge::Static },
                },
            ),
            (
                "runs/gen-0028:sims=64,draw=0.25,heuristic=1,judge=quiescence",
                PlayerSpec::Checkpoint {
                    dir: "runs/gen-0028".into(),
                    sims: 64,
                    draw: DrawScore::Fixed(0.25),
                    values: LeafValues::Heuristic { weight: 1.0, judge: Judge::Quiescence },
                },
            ),
        ];
        for (text, spec) in cases {
            assert_eq!(parse(text), Ok(spec.clone()), "{text}");
            assert_eq!(spec.to_string(), text);
            assert_eq!(parse(&spec.to_string()), Ok(spec));
        }
        assert_eq!(parse("mcts"), Ok(PlayerSpec::Mcts { sims: DEFAULT_SIMS, cutoff: None }));
        let plain = PlayerSpec::AlphaBeta { depth: Some(DEFAULT_DEPTH), ms: None };
        assert_eq!(parse("alphabeta"), Ok(plain));
        assert_eq!(parse("alphabeta:ms=5,depth=2").unwrap().to_string(), "alphabeta:depth=2,ms=5");
        let ckpt = parse("./gen-0003").unwrap();
        assert_eq!(ckpt.sims(), Some(DEFAULT_SIMS));
        assert_eq!(ckpt.checkpoint(), Some(Path::new("./gen-0003")));
        let weird = parse("runs/a:b/gen-0001:sims=4").unwrap();
        assert_eq!(weird.checkpoint(), Some(Path::new("runs/a:b/gen-0001")));
    }

    #[test]
    fn short_names_are_what_records_carry() {
        assert_eq!(
            parse("data/r/models/gen-0007:sims=64").unwrap().short_name(),
            "gen-0007:sims=64"
        );
        assert_eq!(parse("mcts:sims=8").unwrap().short_name(), "mcts:sims=8");
        assert_eq!(
            parse("r/gen-0002:draw=0,sims=4").unwrap().short_name(),
            "gen-0002:sims=4,draw=0"
        );
        assert_eq!(PlayerSpec::Random.short_name(), "random");
        // A network with the classical evaluation's values is not the checkpoint alone.
        assert_eq!(
            parse("r/gen-0002:judge=quiescence,heuristic=1").unwrap().short_name(),
            "gen-0002:sims=64,heuristic=1,judge=quiescence"
        );
        assert_eq!(
            parse("r/gen-0002:heuristic=0.5,judge=static").unwrap().short_name(),
            "gen-0002:sims=64,heuristic=0.5"
        );
    }

    #[test]
    fn bad_specs_are_named() {
        let refused = [
            ("", SpecError::Empty),
            ("alphabet", SpecError::UnknownKind("alphabet".into())),
            ("alphabeta:depth=0", SpecError::BadCount("depth=0".into())),
            ("alphabeta:ms=x", SpecError::BadCount("ms=x".into())),
            ("mcts:cutoff=-1", SpecError::BadCount("cutoff=-1".into())),
            ("mcts:sims=0", SpecError::BadSims("sims=0".into())),
            ("mcts:sims=abc", SpecError::BadSims("sims=abc".into())),
            ("mcts:sims=-3", SpecError::BadSims("sims=-3".into())),
            ("mcts:sims=", SpecError::BadSims("sims=".into())),
            // Contempt is a share of a point.
            ("a/gen-0001:draw=1.5", SpecError::BadDraw("draw=1.5".into())),
            ("a/gen-0001:draw=-0.1", SpecError::BadDraw("draw=-0.1".into())),
            ("a/gen-0001:draw=x", SpecError::BadDraw("draw=x".into())),
            ("random:sims=3", SpecError::NoOptions("random".into())),
            ("a/g:heuristic=1,judge=deep", SpecError::BadJudge("judge=deep".into())),
            ("a/g:judge=quiescence", SpecError::JudgeWithoutHeuristic("judge=quiescence".into())),
        ];
        for (spec, error) in refused {
            assert_eq!(parse(spec), Err(error), "{spec:?}");
        }
        for bad in ["heuristic=0", "heuristic=1.5", "heuristic=-1", "heuristic=x", "heuristic="] {
            assert_eq!(parse(&format!("a/g:{bad}")), Err(SpecError::BadHeuristic(bad.into())));
        }
        // Options the kind does not take: contempt and the heuristic are a network player's only.
        for spec in ["mcts:depth=3", "mcts:sims=4,draw=0.2", "mcts:heuristic=1"] {
            assert!(matches!(parse(spec), Err(SpecError::UnknownOption { .. })), "{spec:?}");
        }
        let msg = parse("alphabeta:sims=3").unwrap_err().to_string();
        assert!(msg.contains("depth=, ms="), "{msg}");
        let msg = parse("a/gen-0001:depth=2").unwrap_err().to_string();
        assert!(msg.contains("draw="), "{msg}");
        let msg = parse("alphabet").unwrap_err().to_string();
        assert!(msg.contains("alphabeta:depth=N") && msg.contains("mcts:sims=N"), "{msg}");
    }

    #[test]
    fn searches_that_would_not_finish_are_refused() {
        let too_large = |spec: &str| match parse(spec) {
            Err(SpecError::TooLarge { option, max, .. }) => (option, max),
            other => panic!("{spec}: {other:?}"),
        };
        assert_eq!(too_large("alphabeta:depth=40"), ("depth=40".into(), MAX_FIXED_DEPTH));
        assert_eq!(too_large("alphabeta:depth=99,ms=100"), ("depth=99".into(), 64));
        assert_eq!(too_large("alphabeta:ms=600001"), ("ms=600001".into(), MAX_MS));
        assert_eq!(too_large("mcts:sims=1000001"), ("sims=1000001".into(), MAX_SIMS));
        assert_eq!(too_large("a/gen-0001:sims=4000000000"), ("sims=4000000000".into(), MAX_SIMS));
        assert_eq!(too_large("mcts:sims=8,cutoff=10001"), ("cutoff=10001".into(), MAX_CUTOFF));
        let msg = parse("alphabeta:depth=40").unwrap_err().to_string();
        assert!(msg.contains("at most 8") && msg.contains("ms="), "{msg}");
        // The limits themselves are allowed.
        for spec in [
            "alphabeta:depth=8",
            "alphabeta:depth=64,ms=1000",
            "alphabeta:ms=600000",
            "mcts:sims=1000000,cutoff=10000",
        ] {
            assert!(parse(spec).is_ok(), "{spec}");
        }
    }
}
