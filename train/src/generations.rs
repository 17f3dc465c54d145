//! Per-generation folders of a run: `gen-NNNN` (the number zero-padded to at least 4 digits)
//! under `<run>/games/` (self-play shards) and `<run>/models/` (checkpoints).

use std::path::{Path, PathBuf};

/// The folder name of generation `g`: `gen-0003`.
pub fn generation_dir_name(g: u32) -> String {
    format!("gen-{g:04}")
}

/// The folder of generation `g`'s self-play shards in a run: `<run_dir>/games/gen-0003`.
pub fn generation_games_dir(run_dir: &Path, g: u32) -> PathBuf {
    run_dir.join("games").join(generation_dir_name(g))
}

/// The generation number of a canonical `gen-NNNN` name (`gen-3` and `gen-00003` are not).
pub fn parse_generation_dir_name(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("gen-")?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let g: u32 = digits.parse().ok()?;
    (generation_dir_name(g) == name).then_some(g)
}

/// The `gen-NNNN` sub-folders of `dir`, sorted by generation; other entries are ignored. A
/// missing `dir` has none.
pub fn list_generation_dirs(dir: &Path) -> std::io::Result<Vec<(u32, PathBuf)>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry?;
        let Some(g) = entry.file_name().to_str().and_then(parse_generation_dir_name) else {
            continue;
        };
        if entry.file_type()?.is_dir() {
            found.push((g, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// The newest checkpoint under `models_dir`: the highest `gen-NNNN` folder holding a
/// `net.json` (a folder without one is an unfinished write and is passed over).
pub fn newest_checkpoint(models_dir: &Path) -> std::io::Result<Option<(u32, PathBuf)>> {
    let dirs = list_generation_dirs(models_dir)?;
    Ok(dirs.into_iter().rev().find(|(_, dir)| dir.join(model::checkpoint::META_FILE).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::scratch_dir;

    #[test]
    fn names_round_trip_and_odd_names_are_ignored() {
        assert_eq!(generation_dir_name(3), "gen-0003");
        assert_eq!(generation_dir_name(12345), "gen-12345");
        assert_eq!(parse_generation_dir_name("gen-0003"), Some(3));
        assert_eq!(parse_generation_dir_name("gen-12345"), Some(12345));
        for bad in ["gen-3", "gen-00003", "gen-+003", "gen-", "xgen-0003", "gen-0003.tmp"] {
            assert_eq!(parse_generation_dir_name(bad), None, "{bad}");
        }
        let dir = scratch_dir("gen-dirs");
        for name in ["gen-0002", "gen-0010", "gen-1", "notes"] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
        }
        std::fs::write(dir.join("gen-0005"), b"a file").unwrap();
        let found: Vec<u32> =
            list_generation_dirs(&dir).unwrap().into_iter().map(|x| x.0).collect();
        assert_eq!(found, [2, 10]);
        assert!(list_generation_dirs(&dir.join("missing")).unwrap().is_empty());
        std::fs::write(dir.join("gen-0002/net.json"), b"{}").unwrap();
        assert_eq!(newest_checkpoint(&dir).unwrap().map(|x| x.0), Some(2));
    }
}
