//! Rule options: decisions that other sites make the other way (RULES.md, marked **option**).

use std::fmt;
use std::str::FromStr;

/// How a Knight's pure canter is restricted next to capturable enemies (RULES.md §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KnightCanter {
    /// A Knight's pure canter may neither pass through nor end on a cell from which it could jump.
    #[default]
    Strict,
    /// Only the final cell of a Knight's pure canter is restricted.
    FinalSquare,
}

impl KnightCanter {
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
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "strict" => Ok(KnightCanter::Strict),
            "final-square" => Ok(KnightCanter::FinalSquare),
            _ => {
                Err(format!("unknown knight_canter option `{s}` (expected strict or final-square)"))
            }
        }
    }
}

/// All rule options of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    pub knight_canter: KnightCanter,
}
