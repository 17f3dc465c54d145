//! Config files written before the one TOML style: nine options were written with an inner
//! `kind` (`growth = { kind = "blocks", start = 2, every_generations = 16 }`, `optimizer = { kind
//! = "adamw", weight_decay = 0.0001, momentum = 0.9 }`) where every other option is a name or a
//! table of one name holding its settings (`growth = { blocks = { start = 2, every_generations =
//! 16 } }`). [`upgrade`] rewrites the seven of them that remain in a parsed file, so that older
//! config files and the `config.toml` of older run directories keep working;
//! [`crate::RunConfig::from_toml`] applies it only to a file that does not read as it is (and
//! then reports what the rewritten file gets wrong, if anything).
//!
//! Options that are gone ([`RETIRED`]) are dropped the same way where they are off, as every
//! saved `config.toml` writes them; one that is on is an error that says what became of it.

use toml::{Table, Value};

/// The options once written `{ kind = "…", … }`, as (section, key).
const KIND_TAGGED: [(&str, &str); 8] = [
    ("net", "growth"),
    ("mcts", "moves_left"),
    ("play", "moves_left"),
    ("train", "value_target"),
    ("train", "moves_left_target"),
    ("train", "sampling"),
    ("train", "lr_schedule"),
    ("train", "optimizer"),
];

/// Options of earlier versions that are gone, as (section, key, what became of it). Each was
/// a lever measured level and removed (docs/experiments.md names the commit).
pub const RETIRED: [(&str, &str, &str); 2] = [
    ("train", "material_target", "the auxiliary material head was level (lever AU) and is gone"),
    (
        "train",
        "ownership_target",
        "the auxiliary ownership head was level (levers AV to AX) and is gone",
    ),
];

/// Whether an option's value is its `"off"`, in either form.
fn is_off(value: &Value) -> bool {
    match value {
        Value::String(name) => name == "off",
        Value::Table(t) => t.len() == 1 && t.get("kind").and_then(Value::as_str) == Some("off"),
        _ => false,
    }
}

/// The message for the first option of [`RETIRED`] that `doc` still sets to something other
/// than `"off"`, naming its key (after [`upgrade`], which drops the ones that are off).
pub fn retired_in_use(doc: &Table) -> Option<String> {
    RETIRED.iter().find_map(|&(section, key, why)| {
        let value = doc.get(section)?.as_table()?.get(key)?;
        Some(format!("{section}.{key} = {value}: {why}; remove the key (or set it to \"off\")"))
    })
}

/// Rewrites every option of [`KIND_TAGGED`] that `doc` writes in the old form: `{ kind = "a-b",
/// x = 1 }` becomes `{ a_b = { x = 1 } }`, and `{ kind = "off" }` becomes `"off"` (AdamW's old
/// `momentum`, which it never read, is dropped); drops every option of [`RETIRED`] that is off.
/// Returns whether anything was rewritten.
pub fn upgrade(doc: &mut Table) -> bool {
    let mut changed = false;
    for (section, key, _) in RETIRED {
        let Some(Value::Table(section)) = doc.get_mut(section) else { continue };
        if section.get(key).is_some_and(is_off) {
            section.remove(key);
            changed = true;
        }
    }
    for (section, key) in KIND_TAGGED {
        let Some(Value::Table(section)) = doc.get_mut(section) else { continue };
        let Some(Value::Table(option)) = section.get_mut(key) else { continue };
        let Some(Value::String(kind)) = option.get("kind").cloned() else { continue };
        option.remove("kind");
        let name = kind.replace('-', "_");
        if key == "optimizer" && name == "adamw" {
            option.remove("momentum");
        }
        let value = if option.is_empty() {
            Value::String(name)
        } else {
            Value::Table(Table::from_iter([(name, Value::Table(std::mem::take(option)))]))
        };
        section.insert(key.to_string(), value);
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RunConfig;

    #[test]
    fn the_old_form_reads_as_the_new_one() {
        let old = "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\ngrowth = { kind = \"blocks\", start = 2, \
                   every_generations = 16 }\n[mcts]\nmoves_left = { kind = \"off\" }\n[train]\n\
                   lr_schedule = { kind = \"step-decay\", every_generations = 10, factor = 0.5 }\n\
                   optimizer = { kind = \"adamw\", weight_decay = 0.0001, momentum = 0.9 }\n\
                   sampling = { kind = \"policy-surprise\", share = 0.5 }\n";
        let new = "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\ngrowth = { blocks = { start = 2, \
                   every_generations = 16 } }\n[mcts]\nmoves_left = \"off\"\n[train]\n\
                   lr_schedule = { step_decay = { every_generations = 10, factor = 0.5 } }\n\
                   optimizer = { adamw = { weight_decay = 0.0001 } }\n\
                   sampling = { policy_surprise = { share = 0.5 } }\n";
        let read = RunConfig::from_toml(old).unwrap();
        assert_eq!(read, RunConfig::from_toml(new).unwrap());
        let plain = "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\n";
        assert_ne!(read, RunConfig::from_toml(plain).unwrap());
        let mut doc: Table = old.parse().unwrap();
        assert!(upgrade(&mut doc));
        assert_eq!(doc, new.parse::<Table>().unwrap());
        // SGD keeps its momentum; a file in the new form is left alone.
        let mut sgd: Table =
            "[train]\noptimizer = { kind = \"sgd\", weight_decay = 0.001, momentum = 0.8 }"
                .parse()
                .unwrap();
        assert!(upgrade(&mut sgd));
        assert_eq!(
            sgd,
            "[train]\noptimizer = { sgd = { weight_decay = 0.001, momentum = 0.8 } }"
                .parse::<Table>()
                .unwrap()
        );
        let mut doc: Table = new.parse().unwrap();
        assert!(!upgrade(&mut doc));
    }

    #[test]
    fn a_retired_option_is_dropped_when_off_and_named_when_on() {
        let base = "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\n[train]\n";
        let plain = RunConfig::from_toml(base).unwrap();
        for off in ["material_target = \"off\"", "ownership_target = { kind = \"off\" }"] {
            assert_eq!(RunConfig::from_toml(&format!("{base}{off}\n")).unwrap(), plain, "{off}");
        }
        let on = "material_target = { swing = { moves = 4, weight = 0.5 } }";
        let error = RunConfig::from_toml(&format!("{base}{on}\n")).unwrap_err().to_string();
        assert!(error.contains("train.material_target") && error.contains("lever AU"), "{error}");
        let on = "ownership_target = { kind = \"future\", moves = 8, weight = 1.0 }";
        let error = RunConfig::from_toml(&format!("{base}{on}\n")).unwrap_err().to_string();
        assert!(error.contains("train.ownership_target") && error.contains("AV"), "{error}");
    }

    #[test]
    fn a_mistake_beside_an_old_option_is_the_error() {
        // An unknown key beside an old-form option: the message names the mistake, not the
        // old form; a file with no old form gets the message of the file as written.
        let text = "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\ngrowth = { kind = \"blocks\", start = 2, every_generations = 16 }\n\
                    [train]\nbatch_sise = 8\n";
        let error = RunConfig::from_toml(text).unwrap_err().to_string();
        assert!(error.contains("batch_sise"), "{error}");
        let plain = "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\n[train]\n\
                     batch_sise = 8\n";
        let error = RunConfig::from_toml(plain).unwrap_err().to_string();
        assert!(error.contains("batch_sise") && error.contains("line 6"), "{error}");
    }
}
