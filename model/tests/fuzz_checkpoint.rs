//! Fuzzing checkpoint loading: `net.json` replaced by damaged or arbitrary text, and the weights
//! file damaged with `net.json`'s digest updated to match (so the bytes reach the weights
//! decoder, not only the digest check), never make `checkpoint::load` panic or hang: it returns
//! a network or an error naming the file.
//!
//! Cases: `FUZZ_CASES` (default 300 per property; CI runs the default). For a longer run:
//! `FUZZ_CASES=20000 PROPTEST_RNG_SEED=$RANDOM cargo test --release -p model --test fuzz_checkpoint`.

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use model::checkpoint::{self, META_FILE, WEIGHTS_FILE};
use model::testing::camelot_shape;
use model::{FileDigest, Net, NetConfig};
use proptest::prelude::*;

#[path = "../../tests/common/fuzz.rs"]
mod fuzz;

const VARIANT: &str = "camelot";

/// This test file's folder ([`fuzz::scratch`]).
fn scratch() -> &'static Path {
    fuzz::scratch("fuzz-checkpoint")
}

/// `net.json` and the weights of a small real checkpoint.
fn original() -> &'static (String, Vec<u8>) {
    static FILES: OnceLock<(String, Vec<u8>)> = OnceLock::new();
    FILES.get_or_init(|| {
        let config = NetConfig::preset("b4c32", camelot_shape(13)).unwrap();
        let net = Net::new(&config, &Default::default()).unwrap();
        let dir = scratch().join("original");
        checkpoint::save(&dir, &net, VARIANT).unwrap();
        checkpoint::load(&dir, VARIANT).unwrap();
        (
            std::fs::read_to_string(dir.join(META_FILE)).unwrap(),
            std::fs::read(dir.join(WEIGHTS_FILE)).unwrap(),
        )
    })
}

/// Writes the two files into a fresh folder and loads it.
fn load(name: &str, meta: &str, weights: &[u8]) {
    let dir = scratch().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(META_FILE), meta).unwrap();
    std::fs::write(dir.join(WEIGHTS_FILE), weights).unwrap();
    let t = Instant::now();
    if let Err(e) = checkpoint::load(&dir, VARIANT) {
        assert!(e.to_string().contains(&dir.display().to_string()), "names the file: {e}");
    }
    assert!(t.elapsed() < Duration::from_secs(10), "slow on damaged input");
}

/// `meta` with its weights digest made to match `weights`.
fn with_digest(meta: &str, weights: &[u8]) -> String {
    let mut json: serde_json::Value = serde_json::from_str(meta).unwrap();
    json["weights"] = serde_json::to_value(FileDigest::of(WEIGHTS_FILE, weights)).unwrap();
    json.to_string()
}

fn damage(bytes: &[u8], flips: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for &(at, x) in flips {
        let i = at % out.len();
        out[i] ^= x;
    }
    if let Some(at) = cut {
        out.truncate(at % out.len());
    }
    out
}

fn thread_name(prefix: &str) -> String {
    let id = format!("{:?}", std::thread::current().id());
    format!("{prefix}{}", id.replace(|c: char| !c.is_alphanumeric(), ""))
}

proptest! {
    #![proptest_config(fuzz::config(300))]

    #[test]
    fn damaged_weights_are_loaded_or_refused(
        flips in prop::collection::vec((any::<usize>(), 1u8..=255), 0..6),
        cut in prop::option::of(any::<usize>()),
    ) {
        let (meta, weights) = original();
        let bad = damage(weights, &flips, cut);
        load(&thread_name("w"), &with_digest(meta, &bad), &bad);
    }

    #[test]
    fn damaged_metadata_is_loaded_or_refused(
        flips in prop::collection::vec((any::<usize>(), 1u8..=127), 1..6),
        cut in prop::option::of(any::<usize>()),
    ) {
        let (meta, weights) = original();
        let bad = String::from_utf8_lossy(&damage(meta.as_bytes(), &flips, cut)).into_owned();
        load(&thread_name("m"), &bad, weights);
    }

    #[test]
    fn arbitrary_metadata_is_refused(text in ".{0,200}") {
        let (_, weights) = original();
        load(&thread_name("a"), &text, weights);
    }
}

#[test]
fn the_original_loads() {
    let (meta, weights) = original();
    load("plain", meta, weights);
    assert!(scratch().exists());
}
