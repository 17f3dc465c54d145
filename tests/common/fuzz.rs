//! The fuzzers' proptest configuration, one for the fuzz tests of every crate
//! (`games/tests/parse_props.rs`, `model/tests/fuzz_checkpoint.rs`,
//! `records/tests/fuzz_records.rs`, `train/tests/fuzz_config.rs`), each of which includes this
//! file with `#[path]` and builds it with its own proptest dev-dependency.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::test_runner::{Config, RngSeed};

/// `FUZZ_CASES` cases per property (`ci_cases` when unset: what CI runs), drawn from a fixed seed
/// so that every CI run plays the same cases; `PROPTEST_RNG_SEED=S` draws others (an exploring
/// run: a fresh S each time).
pub fn config(ci_cases: u32) -> Config {
    let cases = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(ci_cases);
    // The default reads PROPTEST_RNG_SEED; without it proptest would draw a random seed.
    let default = Config::default();
    let rng_seed = match default.rng_seed {
        RngSeed::Random => RngSeed::Fixed(1),
        chosen => chosen,
    };
    Config { cases, rng_seed, ..default }
}

/// The folder of the fuzz test binary that includes this file, `name` in Cargo's scratch folder
/// for integration tests, emptied at its first use in each run (so that runs do not pile folders
/// up in the system's temporary directory). One per binary: the first call's `name` holds.
#[allow(dead_code)] // the fuzzers that write no files (configs, positions) do not call it
pub fn scratch(name: &str) -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        dir
    })
}
