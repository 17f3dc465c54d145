//! Turning command-line text into positions: the `start` shorthand, `--variant`, rule options,
//! and the error type that makes the program exit with status 2.

use std::fmt;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use games::{KnightCanter, RuleOptions, State, Variant, VariantKind};

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

/// The `[play]` section of the run config at `config`: how a model searches when it plays (the
/// defaults without one). `engine`, `analyze` and `play` read only this section.
pub fn play_search(config: Option<&std::path::Path>) -> anyhow::Result<search::PlaySearch> {
    Ok(config.map(load_config).transpose()?.map_or_else(Default::default, |c| c.play))
}

/// The configuration at `config` (if given) and the variant a command plays: `--variant`, else
/// the config's, else `default`; a `--variant` that contradicts the config's is bad input.
pub fn variant_and_config(
    variant: Option<VariantKind>,
    config: Option<&std::path::Path>,
    default: VariantKind,
) -> anyhow::Result<(VariantKind, Option<train::RunConfig>)> {
    let config = config.map(load_config).transpose()?;
    let variant = match (variant, config.as_ref().map(|c| c.game.variant)) {
        (Some(a), Some(b)) if a != b => {
            return Err(BadInput(format!(
                "--variant {a:?} contradicts the config's variant {b:?}"
            ))
            .into());
        }
        (Some(v), _) | (None, Some(v)) => v,
        (None, None) => default,
    };
    Ok((variant, config))
}

/// The variant a checkpoint folder was trained for, from its `net.json`; a missing or unreadable
/// checkpoint, or one for a variant this build does not know, is bad input (exit status 2).
pub fn checkpoint_variant(dir: &std::path::Path) -> Result<VariantKind, BadInput> {
    let meta = model::checkpoint::read_meta(dir).map_err(|e| BadInput(e.to_string()))?;
    meta.variant.parse().map_err(|_| {
        BadInput(format!("checkpoint {} is for unknown variant {:?}", dir.display(), meta.variant))
    })
}

/// A command-line parser for one of the games crate's name enums (`VariantKind`,
/// `KnightCanter`): the possible values are its `ALL` names, so `--help` and clap's "invalid
/// value" error list them exactly as a derived `ValueEnum` would, and no mirror enum is needed.
pub fn names<T, const N: usize>(
    all: [T; N],
    name: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: fmt::Debug,
{
    PossibleValuesParser::new(all.map(name))
        .map(|s| s.parse::<T>().expect("a possible value parses"))
}

/// `--games`: 1 to [`selfplay::MAX_GAMES`].
pub fn game_count() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(1..=selfplay::MAX_GAMES)
}

/// A position given on the command line.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// A position string (RULES.md §5), or `start` (the default) for the start position of
    /// `--variant` (or of the model's game, where a command takes a model).
    #[arg(default_value = "start")]
    pub position: String,
    /// The variant of `start` (a position string names its own variant).
    #[arg(long, value_parser = names(VariantKind::ALL, VariantKind::as_str))]
    pub variant: Option<VariantKind>,
    /// How a Knight's pure canter is restricted next to capturable enemies.
    #[arg(long, value_parser = names(KnightCanter::ALL, KnightCanter::as_str), default_value_t)]
    pub knight_canter: KnightCanter,
}

impl PositionArgs {
    /// [`variant`](Self::variant), where `start` without `--variant` is the game of `model`'s
    /// checkpoint (its `net.json` names it) when one is given.
    pub fn variant_or_model(
        &self,
        model: Option<&std::path::Path>,
    ) -> Result<VariantKind, BadInput> {
        match (self.variant(), model) {
            (Err(_), Some(dir)) if self.position.trim() == "start" && self.variant.is_none() => {
                let meta = model::checkpoint::read_meta(dir)
                    .map_err(|e| BadInput(format!("`start` needs --variant: {e}")))?;
                meta.variant.parse::<VariantKind>().map_err(|_| {
                    BadInput(format!("{}: unknown variant `{}`", dir.display(), meta.variant))
                })
            }
            (found, _) => found,
        }
    }

    /// Which variant the position is, checking `--variant` against the string.
    pub fn variant(&self) -> Result<VariantKind, BadInput> {
        let named = match self.position.split_whitespace().next() {
            Some("start") if self.position.trim() == "start" => None,
            Some(name) => Some(name.parse::<VariantKind>().map_err(|_| {
                BadInput(format!(
                    "unknown variant `{name}` at the start of the position (expected `camelot`, `tricamelot` or `start`)"
                ))
            })?),
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
        RuleOptions { knight_canter: self.knight_canter }
    }

    /// Parses the position as variant `V`: a position string, which may end in
    /// `move=<legs>` for a move in progress (RULES.md §5), as every command reads it.
    pub fn state<V: Variant>(&self) -> Result<State<V>, BadInput> {
        let s = if self.position.trim() == "start" { V::START } else { &self.position };
        State::parse_with(s, self.options()).map_err(|e| BadInput(format!("bad position: {e}")))
    }
}
