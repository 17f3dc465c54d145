//! Fuzzing the configuration parser: arbitrary text, and real configurations with lines
//! dropped, repeated and their values replaced, never make [`RunConfig::parse`] panic or hang;
//! whatever it accepts is valid and prints back to the same configuration.
//!
//! Cases: `FUZZ_CASES` (default 2000 per property; CI runs the default). For a longer run:
//! `FUZZ_CASES=200000 PROPTEST_RNG_SEED=$RANDOM cargo test --release -p train --test fuzz_config`.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use train::RunConfig;

#[path = "../../tests/common/fuzz.rs"]
mod fuzz;

/// The lines of the shipped configurations.
fn config_lines() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let mut lines = Vec::new();
    for name in ["smoke-camelot.toml", "camelot-cpu.toml", "tricamelot-cpu.toml"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        lines.extend(text.lines().map(String::from));
    }
    lines
}

/// A value a fuzzed key may get.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| x.to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("4294967296".to_string()),
        Just("1e309".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        "\"[a-z0-9:=,. ]{0,12}\"",
        Just("{ gumbel = { considered_actions = 0 } }".to_string()),
        Just("{ endgames = { fraction = 2.0, min_pieces = 9, max_pieces = 1 } }".to_string()),
        Just("{ threshold = { score = -1 } }".to_string()),
        Just("[]".to_string()),
        Just("true".to_string()),
    ]
}

/// A shipped configuration with some lines dropped or repeated and some values replaced.
fn mutated_config() -> impl Strategy<Value = String> {
    let lines = config_lines();
    let n = lines.len();
    prop::collection::vec((0..n, 0u8..4, value()), 1..60).prop_map(move |edits| {
        let mut out: Vec<String> = lines[..n / 3].to_vec();
        for (i, kind, v) in edits {
            let line = &lines[i];
            match kind {
                0 => {}
                1 => out.push(line.clone()),
                _ => match line.split_once('=') {
                    Some((key, _)) if !line.trim_start().starts_with('#') => {
                        out.push(format!("{key}= {v}"))
                    }
                    _ => out.push(line.clone()),
                },
            }
        }
        out.join("\n")
    })
}

fn check(text: &str) {
    let t = Instant::now();
    if let Ok(config) = RunConfig::parse(text, "fuzz.toml") {
        assert!(config.validate().is_ok());
        let printed = toml::to_string(&config).unwrap();
        let again = RunConfig::parse(&printed, "printed.toml").unwrap();
        assert_eq!(again, config, "{printed}");
    }
    assert!(t.elapsed() < Duration::from_secs(2), "slow on {text:?}");
}

proptest! {
    #![proptest_config(fuzz::config(2000))]

    #[test]
    fn any_text_is_parsed_or_refused_without_a_panic(text in ".{0,300}") {
        check(&text);
    }

    #[test]
    fn mutated_configurations_are_parsed_or_refused_without_a_panic(text in mutated_config()) {
        check(&text);
    }
}
