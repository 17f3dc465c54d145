//! The range check that the `[train]` options' `validate` methods share. Each returns its
//! error as (key under its section, problem), which `RunConfig` turns into a config error.

/// `Ok` where `value` is above 0 and at most 1 (a NaN is not), else the error for `key`:
/// "must be above 0 and at most 1" followed by `note` (empty, or what a value means).
pub(crate) fn above_zero_at_most_one(
    key: &str,
    value: f64,
    note: &str,
) -> Result<(), (String, String)> {
    if value > 0.0 && value <= 1.0 {
        Ok(())
    } else {
        Err((key.to_string(), format!("must be above 0 and at most 1{note}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_and_nan() {
        assert_eq!(above_zero_at_most_one("k", 1.0, ""), Ok(()));
        assert_eq!(above_zero_at_most_one("k", 1e-9, ""), Ok(()));
        let err = |v| above_zero_at_most_one("k", v, " (why)").unwrap_err();
        for v in [0.0, -0.5, 1.0 + 1e-12, f64::NAN, f64::INFINITY] {
            assert_eq!(
                err(v),
                ("k".to_string(), "must be above 0 and at most 1 (why)".to_string())
            );
        }
    }
}
