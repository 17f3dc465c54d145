//! Turning command-line text into positions: the `start` shorthand, `--variant`, rule options,
//! and the error type that makes the program exit with status 2.

use std::fmt;

use clap::{Args, ValueEnum};
use games::{KnightCanter, Position, RuleOptions, Variant};

/// Bad user input: reported in one line, exit status 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Reads a run config; a broken one is bad input (exit status 2).
pub fn load_config(path: &std::path::Path) -> anyhow::Result<train::RunConfig> {
    train::RunConfig::load(path).map_err(|e| BadInput(e.to_string()).into())
}

/// The two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    Camelot,
    Tricamelot,
}

/// Rule option as a command-line value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum KnightCanterArg {
    #[default]
    Strict,
    FinalSquare,
}

/// A position given on the command line.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// A position string (RULES.md §5), or `start` for the start position of `--variant`.
    pub position: String,
    /// The variant of `start` (a position string names its own variant).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// How a Knight's pure canter is restricted next to capturable enemies.
    #[arg(long, value_enum, default_value_t)]
    pub knight_canter: KnightCanterArg,
}

impl PositionArgs {
    /// Which variant the position is, checking `--variant` against the string.
    pub fn variant(&self) -> Result<VariantArg, BadInput> {
        let named = match self.position.split_whitespace().next() {
            Some("start") if self.position.trim() == "start" => None,
            Some("camelot") => Some(VariantArg::Camelot),
            Some("tricamelot") => Some(VariantArg::Tricamelot),
            Some(other) => {
                return Err(BadInput(format!(
                    "unknown variant `{other}` at the start of the position (expected `camelot`, `tricamelot` or `start`)"
                )));
            }
            None => return Err(BadInput("empty position string".into())),
        };
        match (named, self.variant) {
            (None, None) => Err(BadInput("`start` needs --variant camelot|tricamelot".into())),
            (None, Some(v)) | (Some(v), None) => Ok(v),
            (Some(a), Some(b)) if a == b => Ok(a),
            (Some(a), Some(b)) => {
                Err(BadInput(format!("the position is a {a:?} position but --variant says {b:?}")))
            }
        }
    }

    /// The rule options.
    pub fn options(&self) -> RuleOptions {
        let knight_canter = match self.knight_canter {
            KnightCanterArg::Strict => KnightCanter::Strict,
            KnightCanterArg::FinalSquare => KnightCanter::FinalSquare,
        };
        RuleOptions { knight_canter }
    }

    /// Parses the position as variant `V`.
    pub fn position<V: Variant>(&self) -> Result<Position<V>, BadInput> {
        let s = if self.position.trim() == "start" { V::START } else { &self.position };
        Position::parse_with(s, self.options()).map_err(|e| BadInput(format!("bad position: {e}")))
    }
}

/// Calls `$body` with `V` bound to the variant of `$args`.
macro_rules! with_variant {
    ($args:expr, |$v:ident| $body:expr) => {
        match $args.variant()? {
            $crate::input::VariantArg::Camelot => {
                type $v = games::CamelotRules;
                $body
            }
            $crate::input::VariantArg::Tricamelot => {
                type $v = games::TriCamelotRules;
                $body
            }
        }
    };
}
pub(crate) use with_variant;
