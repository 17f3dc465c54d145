//! The names of the crate's fieldless setting enums ([`DeviceKind`](crate::DeviceKind),
//! [`NetEngine`](crate::NetEngine), [`Precision`](crate::Precision)), written once per enum.

use crate::error::{ModelError, Result};

/// Implements `Display` and `FromStr` for a fieldless enum from one table of its variants'
/// names: `named_enum!(Type, "what", { Variant => "name", ... })`.
///
/// `Display` writes a variant's name. `FromStr` parses a name ignoring case and surrounding
/// white space; anything else is [`ModelError::InvalidArgument`]
/// `unknown <what> "<s>"; expected "<name>" or "<name>"`. Every variant must be listed (the
/// `Display` match is exhaustive). The serde names come from the enum's own derive and are
/// checked against these by its tests.
macro_rules! named_enum {
    ($ty:ident, $what:literal, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self {
                    $($ty::$variant => $name,)+
                })
            }
        }

        impl std::str::FromStr for $ty {
            type Err = crate::error::ModelError;

            /// Parses a name written by `Display` (case-insensitive).
            fn from_str(s: &str) -> crate::error::Result<Self> {
                crate::names::parse(s, $what, &[$(($name, $ty::$variant)),+])
            }
        }
    };
}
pub(crate) use named_enum;

/// The value `table` names `s` (compared in lower case, without surrounding white space), or
/// [`ModelError::InvalidArgument`] naming `what` and the names `table` holds.
pub(crate) fn parse<T: Copy>(s: &str, what: &str, table: &[(&str, T)]) -> Result<T> {
    let wanted = s.trim().to_ascii_lowercase();
    match table.iter().find(|(name, _)| *name == wanted) {
        Some(&(_, value)) => Ok(value),
        None => {
            let names: Vec<String> = table.iter().map(|(name, _)| format!("{name:?}")).collect();
            Err(ModelError::InvalidArgument(format!(
                "unknown {what} {s:?}; expected {}",
                names.join(" or ")
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeviceKind, NetEngine, Precision};

    #[test]
    fn unknown_names_are_refused_with_the_names_expected() {
        let table = [("cpu", DeviceKind::Cpu), ("gpu", DeviceKind::Gpu)];
        assert_eq!(parse(" GPU\n", "device", &table).unwrap(), DeviceKind::Gpu);
        let err = parse("tpu", "device", &table).unwrap_err();
        assert!(matches!(err, ModelError::InvalidArgument(_)), "{err:?}");
        assert!(
            err.to_string().contains(r#"unknown device "tpu"; expected "cpu" or "gpu""#),
            "{err}"
        );
    }

    /// Each enum's names print, parse back (in any case, with white space around them) and
    /// are serde's too; `unknown` is refused.
    #[test]
    fn every_name_prints_parses_and_is_the_serde_name() {
        fn check<T>(names: &[(T, &str)], unknown: &str)
        where
            T: std::fmt::Display
                + std::str::FromStr
                + serde::Serialize
                + serde::de::DeserializeOwned
                + PartialEq
                + std::fmt::Debug,
            T::Err: std::fmt::Debug,
        {
            for (value, name) in names {
                assert_eq!(value.to_string(), *name);
                assert_eq!(&name.parse::<T>().unwrap(), value, "{name}");
                let shouted = format!(" {}\n", name.to_uppercase());
                assert_eq!(&shouted.parse::<T>().unwrap(), value, "{shouted:?}");
                let json = format!("{name:?}");
                assert_eq!(serde_json::to_string(value).unwrap(), json);
                assert_eq!(&serde_json::from_str::<T>(&json).unwrap(), value, "{json}");
            }
            assert!(unknown.parse::<T>().is_err(), "{unknown}");
        }
        check(&[(DeviceKind::Cpu, "cpu"), (DeviceKind::Gpu, "gpu")], "tpu");
        check(&[(NetEngine::Burn, "burn"), (NetEngine::Native, "native")], "onnx");
        check(&[(Precision::F32, "f32"), (Precision::F16, "f16")], "bf16");
    }
}
