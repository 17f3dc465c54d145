//! Rule options: decisions that other sites make the other way (RULES.md, marked **option**).

use std::fmt;
use std::str::FromStr;

use crate::error::UnknownName;

/// How a Knight's pure canter is restricted next to capturable enemies (RULES.md §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum KnightCanter {
    /// A Knight's pure canter may neither pass through nor end on a cell from which it could jump.
    #[default]
    Strict,
    /// Only the final cell of a Knight's pure canter is restricted.
    FinalSquare,
}

impl KnightCanter {
    /// Every option, in the order help texts list them.
    pub const ALL: [KnightCanter; 2] = [KnightCanter::Strict, KnightCanter::FinalSquare];

    /// The name in configs and on the command line (the serde spelling too).
    pub const fn as_str(self) -> &'static str {
        match self {
            KnightCanter::Strict => "strict",
            KnightCanter::FinalSquare => "final-square",
        }
    }
}

impl fmt::Display for KnightCanter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for KnightCanter {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        KnightCanter::ALL.into_iter().find(|k| k.as_str() == s).ok_or_else(|| {
            UnknownName::new("knight_canter option", s, KnightCanter::ALL.map(Self::as_str))
        })
    }
}

/// All rule options of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    pub knight_canter: KnightCanter,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in KnightCanter::ALL {
            assert_eq!(k.as_str().parse::<KnightCanter>(), Ok(k));
        }
        let e = "loose".parse::<KnightCanter>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown knight_canter option `loose` (expected strict or final-square)"
        );
    }
}
