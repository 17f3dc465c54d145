//! Rule options: decisions that other sites make the other way (RULES.md, marked **option**).

use crate::names::impl_names;

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

impl_names!(KnightCanter, "knight_canter option");

/// All rule options of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    pub knight_canter: KnightCanter,
}
