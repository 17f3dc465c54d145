//! perft data files (shakmaty's habit): every `perft` line of `tests/data/perft.txt` up to a
//! leaf limit runs in CI; the deeper ones run with `cargo test --release -- --ignored`.

use games::{CamelotRules, KnightCanter, Position, RuleOptions, TriCamelotRules, Variant, perft};

/// Leaf counts above this run only in the ignored deep test.
const CI_LEAF_LIMIT: u64 = 2_000_000;

struct Case {
    position: String,
    options: RuleOptions,
    depth: u32,
    leaves: u64,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut out = Vec::new();
    let (mut position, mut options) = (String::new(), RuleOptions::default());
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(p) = line.strip_prefix("position ") {
            position = p.to_string();
            options = RuleOptions::default();
        } else if let Some(o) = line.strip_prefix("option knight_canter=") {
            options.knight_canter = o.parse::<KnightCanter>().unwrap();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').unwrap();
            out.push(Case {
                position: position.clone(),
                options,
                depth: d.parse().unwrap(),
                leaves: n.parse().unwrap(),
            });
        } else {
            panic!("bad perft line: {line}");
        }
    }
    out
}

fn run<V: Variant>(c: &Case) -> u64 {
    let pos = Position::<V>::parse_with(&c.position, c.options).unwrap();
    perft(&pos, c.depth)
}

fn check(deep: bool) {
    let cases = cases();
    assert!(cases.len() >= 10);
    for c in cases.iter().filter(|c| (c.leaves > CI_LEAF_LIMIT) == deep) {
        let got = if c.position.starts_with("camelot ") {
            run::<CamelotRules>(c)
        } else {
            run::<TriCamelotRules>(c)
        };
        assert_eq!(got, c.leaves, "perft {} of {} ({:?})", c.depth, c.position, c.options);
    }
}

#[test]
fn perft_table() {
    check(false);
}

#[test]
#[ignore = "deep perft: minutes in debug, ~10 s in release; run with --ignored"]
fn perft_deep() {
    check(true);
}
