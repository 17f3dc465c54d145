//! Text names for the vocabulary enums ([`VariantKind`](crate::VariantKind),
//! [`KnightCanter`](crate::KnightCanter), [`Termination`](crate::Termination)): `Display` and
//! `FromStr` derived from each enum's `ALL` list and `as_str`, so every spelling is written once.

/// Implements `Display` (the `as_str` name) and `FromStr` (back again; an unknown name is an
/// [`UnknownName`](crate::UnknownName) listing every known one) for an enum that has
/// `const ALL: [Self; N]` and `const fn as_str(self) -> &'static str`. `$what` names the thing
/// in the error (`variant`, `termination`).
macro_rules! impl_names {
    ($t:ty, $what:literal) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $t {
            type Err = $crate::error::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$t>::ALL.into_iter().find(|v| v.as_str() == s).ok_or_else(|| {
                    $crate::error::UnknownName::new($what, s, <$t>::ALL.map(<$t>::as_str))
                })
            }
        }
    };
}
pub(crate) use impl_names;

#[cfg(test)]
mod tests {
    use crate::{KnightCanter, Termination, VariantKind};

    #[test]
    fn every_name_parses_back() {
        for v in VariantKind::ALL {
            assert_eq!(v.to_string().parse::<VariantKind>(), Ok(v));
        }
        for k in KnightCanter::ALL {
            assert_eq!(k.to_string().parse::<KnightCanter>(), Ok(k));
        }
        for t in Termination::ALL {
            assert_eq!(t.to_string().parse::<Termination>(), Ok(t));
            assert_eq!(t.as_str().parse::<Termination>().ok(), Some(t));
        }
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let e = |r: Result<(), crate::UnknownName>| r.unwrap_err().to_string();
        assert_eq!(
            e("chess".parse::<VariantKind>().map(drop)),
            "unknown variant `chess` (expected camelot or tricamelot)"
        );
        assert_eq!(
            e("loose".parse::<KnightCanter>().map(drop)),
            "unknown knight_canter option `loose` (expected strict or final-square)"
        );
        assert_eq!(
            e("mate".parse::<Termination>().map(drop)),
            "unknown termination `mate` (expected castle, capture-all, no-move, draw, move-limit or resign)"
        );
        assert!("mate".parse::<Termination>().is_err());
    }
}
