//! Every numeric key of every shipped config walked to its extremes through the config's
//! reading and validation: a value far beyond any sensible size (the largest `u32`, 10^15,
//! ±10^30) is refused with a message that names the key (or the option it is a field of),
//! never accepted to run out of memory or time later; and the small extremes (0, -1) are either
//! accepted or refused by name, never a panic.

use std::path::Path;

use toml::{Table, Value};
use train::RunConfig;

/// Keys any value of which is fine.
const UNBOUNDED: &[&str] = &["run.seed"];

/// Every `(path, value)` leaf of `table` that is a number.
fn numeric_leaves(table: &Table, prefix: &str, out: &mut Vec<(String, Value)>) {
    for (key, value) in table {
        let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match value {
            Value::Table(t) => numeric_leaves(t, &path, out),
            Value::Integer(_) | Value::Float(_) => out.push((path, value.clone())),
            _ => {}
        }
    }
}

fn set(table: &mut Table, path: &str, value: Value) {
    let mut keys: Vec<&str> = path.split('.').collect();
    let last = keys.pop().unwrap();
    let mut t = table;
    for k in keys {
        t = t.get_mut(k).and_then(Value::as_table_mut).unwrap();
    }
    t.insert(last.to_string(), value);
}

/// The shipped configs, on the CPU (the GPU ones differ in sizes, not in keys).
fn shipped() -> Vec<(String, Table)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let mut table: Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
            let net = table.get_mut("net").and_then(Value::as_table_mut).unwrap();
            net.insert("device".into(), Value::String("cpu".into()));
            net.remove("precision");
            out.push((path.file_name().unwrap().to_string_lossy().into_owned(), table));
        }
    }
    assert!(out.len() >= 5, "the shipped configs are found");
    let every = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/every-key.toml");
    out.push(("every-key.toml".into(), std::fs::read_to_string(every).unwrap().parse().unwrap()));
    out
}

#[test]
fn every_numeric_key_is_bounded_and_named() {
    let mut accepted = Vec::new();
    let mut unnamed = Vec::new();
    let mut walked = 0;
    for (name, base) in shipped() {
        RunConfig::parse(&toml::to_string(&base).unwrap(), &name).expect("the config is valid");
        let mut leaves = Vec::new();
        numeric_leaves(&base, "", &mut leaves);
        for (path, value) in leaves {
            walked += 1;
            // The error names the leaf, or the option it is a field of (`mcts.fpu` for
            // `mcts.fpu.reduction`).
            let key = path.rsplit('.').next().unwrap();
            let option = path.splitn(3, '.').take(2).collect::<Vec<_>>().join(".");
            let (huge, small): (Vec<Value>, Vec<Value>) = match value {
                Value::Integer(_) => (
                    vec![
                        Value::Integer(i64::from(u32::MAX)),
                        Value::Integer(1_000_000_000_000_000),
                    ],
                    vec![Value::Integer(0), Value::Integer(-1)],
                ),
                _ => (
                    vec![Value::Float(1e30), Value::Float(-1e30)],
                    vec![Value::Float(0.0), Value::Float(-1.0)],
                ),
            };
            for (extreme, must_refuse) in
                huge.into_iter().map(|v| (v, true)).chain(small.into_iter().map(|v| (v, false)))
            {
                let mut table = base.clone();
                set(&mut table, &path, extreme.clone());
                let text = toml::to_string(&table).unwrap();
                match RunConfig::parse(&text, &name) {
                    Ok(_) if must_refuse && !UNBOUNDED.contains(&path.as_str()) => {
                        accepted.push(format!("{name}: {path} = {extreme}"));
                    }
                    Ok(_) => {}
                    Err(e) if !e.to_string().contains(key) && !e.to_string().contains(&option) => {
                        unnamed.push(format!("{name}: {path} = {extreme}: {e}"));
                    }
                    Err(_) => {}
                }
            }
        }
    }
    assert!(walked > 100, "{walked} keys walked");
    assert!(accepted.is_empty(), "accepted without a bound:\n{}", accepted.join("\n"));
    assert!(unnamed.is_empty(), "refused without naming the key:\n{}", unnamed.join("\n"));
}
