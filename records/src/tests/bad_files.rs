//! Bad files and bad records: each gives its specific error, naming the file, and none panics.

use arrow_array::Int64Array;
use arrow_array::StringArray;
use arrow_array::UInt16Array;

use super::super::batch::positions_batch;
use super::*;

/// Deterministic pseudo-random bytes (xorshift64).
fn noise(len: usize, mut state: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

/// A good shard in a fresh directory.
fn written() -> (ScratchDir, ShardPaths) {
    let dir = temp_dir("bad");
    let paths = write_shard(dir.path(), 1, RUN, GENERATION, &sample_shard()).unwrap();
    (dir, paths)
}

fn expect_corrupt(path: &Path) {
    for err in [read_games(path).unwrap_err(), read_positions(path).unwrap_err()] {
        assert!(matches!(err, RecordError::Corrupt { .. }), "{err}");
        assert_names_file(&err, path);
    }
}

#[test]
fn truncated_random_and_empty_files_are_corrupt() {
    let (dir, paths) = written();
    for source in [&paths.games, &paths.positions] {
        let bytes = std::fs::read(source).unwrap();
        let cut = dir.path().join(format!("cut-{}", file_name(source)));
        std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
        expect_corrupt(&cut);
    }
    let random = dir.path().join("random.parquet");
    std::fs::write(&random, noise(5000, 0x1234_5678)).unwrap();
    expect_corrupt(&random);
    // Random bytes between parquet magic numbers: the footer length and metadata are garbage.
    let framed = dir.path().join("framed.parquet");
    let mut bytes = b"PAR1".to_vec();
    bytes.extend(noise(5000, 99));
    bytes.extend(b"PAR1");
    std::fs::write(&framed, bytes).unwrap();
    expect_corrupt(&framed);
    let empty = dir.path().join("empty.parquet");
    std::fs::write(&empty, b"").unwrap();
    expect_corrupt(&empty);
}

#[test]
fn damaged_files_never_panic() {
    let (dir, paths) = written();
    let bytes = std::fs::read(&paths.positions).unwrap();
    let target = dir.path().join("damaged.parquet");
    for i in 0..300 {
        let mut damaged = bytes.clone();
        let at = (i * 7919) % damaged.len();
        damaged[at] ^= 1 << (i % 8);
        if i % 5 == 0 {
            damaged.truncate(damaged.len() - i % 13);
        }
        std::fs::write(&target, &damaged).unwrap();
        // Either outcome is fine (a flipped bit in a value may still decode); a panic is not.
        let _ = read_positions(&target);
        let _ = read_games(&target);
    }
}

#[test]
fn other_schemas_are_a_mismatch_naming_the_column() {
    let (dir, paths) = written();
    let other = dir.path().join("other.parquet");
    let batch = RecordBatch::try_from_iter([
        ("a", Arc::new(Int64Array::from(vec![1, 2])) as ArrayRef),
        ("b", Arc::new(StringArray::from(vec!["x", "y"])) as ArrayRef),
    ])
    .unwrap();
    write_raw(&other, &batch, None);
    let err = read_games(&other).unwrap_err();
    match &err {
        RecordError::SchemaMismatch { column, .. } => assert_eq!(column, "schema_version"),
        _ => panic!("{err}"),
    }
    assert_names_file(&err, &other);

    let wrong_type = dir.path().join("wrong-type.parquet");
    let batch = sample_games_batch(&wrong_type);
    let plies = Arc::new(Int64Array::from(vec![3, 2, 0]));
    write_raw(&wrong_type, &replace_column(&batch, "plies", plies), Some("1"));
    let err = read_games(&wrong_type).unwrap_err();
    assert_names_file(&err, &wrong_type);
    let message = err.to_string();
    assert!(message.contains("`plies`: expected UInt32, found Int64"), "{message}");

    // The two tables are not interchangeable.
    let err = read_games(&paths.positions).unwrap_err();
    assert!(matches!(err, RecordError::SchemaMismatch { .. }), "{err}");
    assert_names_file(&err, &paths.positions);
}

#[test]
fn other_schema_versions_are_refused() {
    let dir = temp_dir("version");
    let path = dir.path().join("games-000000.parquet");
    let batch = sample_games_batch(&path);
    let version_2 =
        replace_column(&batch, "schema_version", Arc::new(UInt16Array::from(vec![2; 3])));
    // In the rows only (a writer that forgot the metadata) and in the metadata.
    for metadata in [None, Some("2")] {
        write_raw(&path, &version_2, metadata);
        let err = read_games(&path).unwrap_err();
        match &err {
            RecordError::WrongSchemaVersion { found, expected, .. } => {
                assert_eq!((*found, *expected), (2, 1))
            }
            _ => panic!("{err}"),
        }
        assert!(err.to_string().contains("schema version 2, expected 1"), "{err}");
        assert_names_file(&err, &path);
    }
}

fn expect_invalid<T: std::fmt::Debug>(result: Result<T, RecordError>, path: &Path, needle: &str) {
    let err = result.unwrap_err();
    assert!(matches!(err, RecordError::InvalidValue { .. }), "{err}");
    assert!(err.to_string().contains(needle), "{err:?} lacks {needle:?}");
    assert_names_file(&err, path);
}

#[test]
fn invalid_values_in_files_are_refused() {
    let dir = temp_dir("invalid");
    let path = dir.path().join("games-000000.parquet");
    let batch = sample_games_batch(&path);
    let termination = StringArray::from(vec!["castle", "checkmate", "draw"]);
    write_raw(&path, &replace_column(&batch, "termination", Arc::new(termination)), None);
    expect_invalid(read_games(&path), &path, "row 1: unknown termination \"checkmate\"");

    let model = StringArray::from(vec![Some("a"), Some("b"), None]);
    write_raw(&path, &replace_column(&batch, "model", Arc::new(model)), None);
    expect_invalid(read_games(&path), &path, "row 2: model is null");

    let path = dir.path().join("positions-000000.parquet");
    let good = sample_shard().positions;
    type Case = (fn(&mut PositionRow), &'static str);
    let cases: [Case; 5] = [
        (|p| p.policy_target.push(0.0), "3 policy actions but 4 policy targets"),
        (|p| p.policy_target[0] = f32::NAN, "policy target contains NaN"),
        (|p| p.policy_target = vec![1.25, -0.25, 0.0], "policy target contains -0.25"),
        (|p| p.mover = 2, "mover 2 in a 2-seat game"),
        (|p| p.root_values.push(0.0), "root_values has 3 entries for 2 seats"),
    ];
    for (spoil, needle) in cases {
        let mut rows = good.clone();
        spoil(&mut rows[2]);
        let variants = vec!["camelot"; rows.len()];
        let batch = positions_batch(&path, &rows, &variants, RUN, GENERATION).unwrap();
        write_raw(&path, &batch, Some("1"));
        expect_invalid(read_positions(&path), &path, &format!("row 2: {needle}"));
    }
}

#[test]
fn error_rows_count_across_batches() {
    let dir = temp_dir("rows");
    let path = dir.path().join("games.parquet");
    let games: Vec<_> = (0..3000).map(|id| game(id, "camelot", &[], &[0.5, 0.5])).collect();
    let batch = games_batch(&path, &games, RUN, GENERATION).unwrap();
    let termination: Vec<_> =
        (0..3000).map(|i| if i == 2500 { "stalemate" } else { "draw" }).collect();
    write_raw(
        &path,
        &replace_column(&batch, "termination", Arc::new(StringArray::from(termination))),
        None,
    );
    expect_invalid(read_games(&path), &path, "row 2500: unknown termination");
}

#[test]
fn invalid_shards_are_not_written() {
    let dir = temp_dir("refused");
    let games_path = ShardPaths::new(dir.path(), 4).games;
    let positions_path = ShardPaths::new(dir.path(), 4).positions;
    // Each break of the sample shard, the file the error names and what it says.
    type Break<'a> = (fn(&mut Shard), &'a Path, &'a str);
    let breaks: [Break; 5] = [
        (
            |s| s.positions[0].policy_target[1] = f32::NAN,
            &positions_path,
            "row 0: policy target contains NaN",
        ),
        (
            |s| s.positions[5].game_id = 99,
            &positions_path,
            "game_id 99 is not a game of this shard",
        ),
        (|s| s.games[1].game_id = 10, &games_path, "row 1: game_id 10 appears twice"),
        (|s| s.games[2].plies = 1, &games_path, "plies is 1 but there are 0 moves"),
        (|s| s.games[0].variant = "chess".to_string(), &games_path, "\"chess\""),
    ];
    for (break_it, path, message) in breaks {
        let mut shard = sample_shard();
        break_it(&mut shard);
        expect_invalid(write_shard(dir.path(), 4, RUN, GENERATION, &shard), path, message);
    }

    let written = write_shard(dir.path(), 4, "other-run", GENERATION, &sample_shard());
    expect_invalid(written, &games_path, "in a shard of run \"other-run\"");
    assert!(dir_names(dir.path()).is_empty(), "{:?}", dir_names(dir.path()));
}

#[test]
fn shards_must_be_consistent() {
    let dir = temp_dir("consistent");
    let paths = write_shard(dir.path(), 0, RUN, GENERATION, &sample_shard()).unwrap();
    // Positions of another generation put beside these games.
    let mut other = sample_shard();
    for g in &mut other.games {
        g.generation = 4;
    }
    let other_dir = dir.path().join("other");
    let other_paths = write_shard(&other_dir, 0, RUN, 4, &other).unwrap();
    std::fs::copy(&other_paths.positions, &paths.positions).unwrap();
    let err = read_shard(&paths.games);
    expect_invalid(err, &paths.positions, "row 0: run, generation or variant differ from game 10");

    let renamed = dir.path().join("games-7.parquet");
    std::fs::copy(&paths.games, &renamed).unwrap();
    let err = read_shard(&renamed).unwrap_err();
    assert!(matches!(err, RecordError::NotAShardName { .. }), "{err}");
    assert_names_file(&err, &renamed);
}
