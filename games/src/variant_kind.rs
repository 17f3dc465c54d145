//! The two games by name: the one list of variant names (position strings, run configs, records,
//! the command line) and the one way from a name to its rules type, [`with_variant!`].

use crate::camelot::CamelotRules;
use crate::names::impl_names;
use crate::position::Variant;
use crate::tricamelot::TriCamelotRules;

/// Which game. Its names are [`Variant::NAME`] of the rules type, so text and type never disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum VariantKind {
    Camelot,
    Tricamelot,
}

impl VariantKind {
    /// Every variant, in the order help texts list them.
    pub const ALL: [VariantKind; 2] = [VariantKind::Camelot, VariantKind::Tricamelot];

    /// The name in position strings, configs and records (`camelot`, `tricamelot`).
    pub const fn as_str(self) -> &'static str {
        match self {
            VariantKind::Camelot => CamelotRules::NAME,
            VariantKind::Tricamelot => TriCamelotRules::NAME,
        }
    }

    /// Players at the table.
    pub const fn num_players(self) -> usize {
        match self {
            VariantKind::Camelot => CamelotRules::NUM_PLAYERS,
            VariantKind::Tricamelot => TriCamelotRules::NUM_PLAYERS,
        }
    }
}

impl_names!(VariantKind, "variant");

/// Evaluates `$body` with the type `$v` bound to the rules of `$kind` (a [`VariantKind`]):
/// `games::with_variant!(kind, V => run::<V>(args))`. The one place where a variant chosen at
/// run time becomes a type, so generic code is written once for both games.
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $v:ident => $body:expr) => {
        match $kind {
            $crate::VariantKind::Camelot => {
                type $v = $crate::CamelotRules;
                $body
            }
            $crate::VariantKind::Tricamelot => {
                type $v = $crate::TriCamelotRules;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatch_binds_the_rules_of_the_kind() {
        for v in VariantKind::ALL {
            let (name, players) = crate::with_variant!(v, V => (V::NAME, V::NUM_PLAYERS));
            assert_eq!((name, players), (v.as_str(), v.num_players()));
        }
    }
}
