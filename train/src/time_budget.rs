//! [`TimeBudget`]: how long a run may train, written as in `60m`, `1h30m`, `90s` or `2h`
//! (the `run --time` option and the config's `run.time_budget`).
//!
//! The generation loop starts a generation only when the time this invocation has used, plus
//! the time the previous generation took, still fits in the budget; the run then ends cleanly
//! between generations (every file complete) and reports, and the same command with a larger
//! budget (or none) continues it.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// A wall-clock budget of at least one second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimeBudget(pub Duration);

/// Why a budget does not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "bad time budget `{0}`: write hours, minutes and seconds as in 60m, 1h30m, 90s or 2h (at least 1s)"
)]
pub struct BadTimeBudget(pub String);

impl FromStr for TimeBudget {
    type Err = BadTimeBudget;

    fn from_str(s: &str) -> Result<Self, BadTimeBudget> {
        let bad = || BadTimeBudget(s.to_string());
        let mut total: u64 = 0;
        let mut number = String::new();
        let mut last_unit = u64::MAX;
        for c in s.trim().chars() {
            if c.is_ascii_digit() {
                number.push(c);
                continue;
            }
            let unit = match c {
                'h' => 3600,
                'm' => 60,
                's' => 1,
                _ => return Err(bad()),
            };
            // Units in falling order, each once, each after a number.
            if number.is_empty() || unit >= last_unit {
                return Err(bad());
            }
            let n: u64 = number.parse().map_err(|_| bad())?;
            total = n.checked_mul(unit).and_then(|x| total.checked_add(x)).ok_or_else(bad)?;
            number.clear();
            last_unit = unit;
        }
        if !number.is_empty() || total == 0 {
            return Err(bad());
        }
        Ok(TimeBudget(Duration::from_secs(total)))
    }
}

/// The shortest form: `1h30m`, `60m` prints as `1h`, `90s` as `1m30s`.
impl fmt::Display for TimeBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0.as_secs();
        let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60);
        for (n, unit) in [(h, 'h'), (m, 'm'), (sec, 's')] {
            if n > 0 {
                write!(f, "{n}{unit}")?;
            }
        }
        Ok(())
    }
}

impl Serialize for TimeBudget {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for TimeBudget {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_and_print_back() {
        for (text, secs, shown) in [
            ("60m", 3600, "1h"),
            ("1h30m", 5400, "1h30m"),
            ("90s", 90, "1m30s"),
            ("2h", 7200, "2h"),
            ("1h0m5s", 3605, "1h5s"),
            (" 20m ", 1200, "20m"),
        ] {
            let b: TimeBudget = text.parse().unwrap();
            assert_eq!(b.0, Duration::from_secs(secs), "{text}");
            assert_eq!(b.to_string(), shown);
            assert_eq!(shown.parse::<TimeBudget>(), Ok(b));
        }
        for bad in [
            "",
            "60",
            "m",
            "0m",
            "1m1h",
            "5m5m",
            "1.5h",
            "-3m",
            "10 m",
            "1d",
            "99999999999999999999h",
        ] {
            let e = bad.parse::<TimeBudget>().unwrap_err();
            assert!(e.to_string().contains("60m"), "{bad}: {e}");
        }
    }
}
