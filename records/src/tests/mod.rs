//! Tests of the record files: round trip, schema snapshot, atomic writes, and every kind of bad
//! file.

use std::path::Path;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Field, Schema};
use games::Termination;
use parquet::arrow::ArrowWriter;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use storage::ScratchDir;

use super::batch::games_batch;
use super::schema::{VERSION_KEY, describe_schema};
use super::*;

mod bad_files;

/// A fresh directory under the system temp dir, removed on drop.
fn temp_dir(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("camelot-records-{name}")).unwrap()
}

const RUN: &str = "test-run";
const GENERATION: u32 = 3;

fn game(game_id: u64, variant: &str, moves: &[&str], result: &[f32]) -> GameRecord {
    GameRecord {
        run: RUN.to_string(),
        generation: GENERATION,
        game_id,
        variant: variant.to_string(),
        seed: 0xdead_beef_0000 + game_id,
        start_position: format!("{variant} start"),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        result: result.to_vec(),
        termination: Termination::Castle,
        plies: moves.len() as u32,
        model: "gen-0002".to_string(),
    }
}

fn position(game_id: u64, ply: u32, seats: usize, result: &[f32]) -> PositionRow {
    PositionRow {
        game_id,
        ply,
        move_number: ply / 2,
        position: format!("position {game_id}/{ply} cm=0,0 move=D7-D5"),
        mover: (ply as usize % seats) as u8,
        policy_actions: vec![3, 17, 4000 + ply as u16],
        policy_target: vec![0.5, 0.25, 0.25],
        root_values: (0..seats).map(|s| 0.1 * s as f32).collect(),
        net_values: (0..seats).map(|s| 0.2 * s as f32).collect(),
        result: result.to_vec(),
        full_search: ply % 3 != 1,
    }
}

/// Three games: Camelot with moves, Tri-Camelot (3 seats), and a Camelot game with no moves
/// and no positions.
fn sample_shard() -> Shard {
    let third = 1.0 / 3.0;
    let mut games = vec![
        game(10, "camelot", &["C8-D9", "E6-C8-C12", "H5xH9xF11"], &[1.0, 0.0]),
        game(11, "tricamelot", &["F16-G16", "D5-D6"], &[third, third, third]),
        game(12, "camelot", &[], &[0.5, 0.5]),
    ];
    games[1].termination = Termination::MoveLimit;
    games[2].termination = Termination::Resign;
    games[2].model = "random".to_string();
    let mut positions: Vec<_> = (0..4).map(|ply| position(10, ply, 2, &[1.0, 0.0])).collect();
    positions.extend((0..3).map(|ply| position(11, ply, 3, &[third, third, third])));
    positions[1].policy_actions = vec![42];
    positions[1].policy_target = vec![1.0];
    Shard { games, positions }
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Asserts the error message names the file.
fn assert_names_file(err: &RecordError, path: &Path) {
    let message = err.to_string();
    assert!(message.contains(&file_name(path)), "message {message:?} does not name {path:?}");
    assert_eq!(err.path(), path);
}

/// Writes `batch` with the plain Arrow writer, as another program could.
fn write_raw(path: &Path, batch: &RecordBatch, version_metadata: Option<&str>) {
    let metadata = version_metadata.map(|v| vec![KeyValue::new(VERSION_KEY.into(), v.to_string())]);
    let props = WriterProperties::builder().set_key_value_metadata(metadata).build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props)).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
}

/// `batch` with column `name` replaced.
fn replace_column(batch: &RecordBatch, name: &str, column: ArrayRef) -> RecordBatch {
    let index = batch.schema().index_of(name).unwrap();
    let mut columns = batch.columns().to_vec();
    columns[index] = column;
    let mut fields: Vec<Field> =
        batch.schema().fields().iter().map(|f| f.as_ref().clone()).collect();
    // Declared nullable, as other writers do: the reader must still accept the column.
    fields[index] = Field::new(name, columns[index].data_type().clone(), true);
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap()
}

fn sample_games_batch(path: &Path) -> RecordBatch {
    games_batch(path, &sample_shard().games, RUN, GENERATION).unwrap()
}

#[test]
fn round_trip() {
    let dir = temp_dir("round-trip");
    let shard = sample_shard();
    let paths = write_shard(dir.path(), 7, RUN, GENERATION, &shard).unwrap();
    assert_eq!(paths, ShardPaths::new(dir.path(), 7));
    assert_eq!(file_name(&paths.games), "games-000007.parquet");
    assert_eq!(file_name(&paths.positions), "positions-000007.parquet");
    assert_eq!(read_shard(&paths.games).unwrap(), shard);
    assert_eq!(read_games(&paths.games).unwrap(), shard.games);
    assert_eq!(read_positions(&paths.positions).unwrap(), shard.positions);
}

#[test]
fn round_trip_empty_shard_and_new_directory() {
    let dir = temp_dir("empty");
    let nested = dir.path().join("games").join("gen-0003");
    let paths = write_shard(&nested, 0, RUN, GENERATION, &Shard::default()).unwrap();
    assert_eq!(read_shard(&paths.games).unwrap(), Shard::default());
}

#[test]
fn round_trip_many_row_groups() {
    let dir = temp_dir("many");
    let games: Vec<_> = (0..50).map(|id| game(id, "camelot", &["C8-D9"], &[0.0, 1.0])).collect();
    let positions =
        (0..40_000u32).map(|i| position(u64::from(i % 50), i / 50, 2, &[0.0, 1.0])).collect();
    let shard = Shard { games, positions };
    let paths = write_shard(dir.path(), 1, RUN, GENERATION, &shard).unwrap();
    let file = std::fs::File::open(&paths.positions).unwrap();
    let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
    use parquet::file::reader::FileReader;
    assert_eq!(reader.metadata().num_row_groups(), 3);
    assert_eq!(read_shard(&paths.games).unwrap(), shard);
}

const SCHEMA_SNAPSHOT: &str = "\
games:
schema_version: UInt16
run: Utf8
generation: UInt32
game_id: UInt64
variant: Utf8
seed: UInt64
start_position: Utf8
moves: list<Utf8>
result: list<Float32>
termination: Utf8
plies: UInt32
model: Utf8
positions:
schema_version: UInt16
run: Utf8
generation: UInt32
game_id: UInt64
variant: Utf8
ply: UInt32
move_number: UInt32
position: Utf8
mover: UInt8
policy_actions: list<UInt16>
policy_target: list<Float32>
root_values: list<Float32>
net_values: list<Float32>
result: list<Float32>
full_search: Boolean
";

/// Any change to a schema must be deliberate: update this snapshot and bump `SCHEMA_VERSION`.
#[test]
fn schema_snapshot() {
    let text = format!(
        "games:\n{}positions:\n{}",
        describe_schema(&games_schema()),
        describe_schema(&positions_schema())
    );
    assert_eq!(text, SCHEMA_SNAPSHOT);
    assert_eq!(SCHEMA_VERSION, 1, "bumped the version? update the snapshot test too");
    // The written files carry exactly these schemas.
    let dir = temp_dir("snapshot");
    let paths = write_shard(dir.path(), 0, RUN, GENERATION, &sample_shard()).unwrap();
    for (path, schema) in [(&paths.games, games_schema()), (&paths.positions, positions_schema())] {
        let file = std::fs::File::open(path).unwrap();
        let builder =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        assert_eq!(builder.schema().fields(), schema.fields());
    }
}

fn dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> =
        std::fs::read_dir(dir).unwrap().map(|e| file_name(&e.unwrap().path())).collect();
    names.sort();
    names
}

#[test]
fn writes_leave_no_temporaries_and_never_overwrite() {
    let dir = temp_dir("atomic");
    let first = sample_shard();
    let paths = write_shard(dir.path(), 2, RUN, GENERATION, &first).unwrap();
    assert_eq!(dir_names(dir.path()), ["games-000002.parquet", "positions-000002.parquet"]);
    let games_bytes = std::fs::read(&paths.games).unwrap();
    let positions_bytes = std::fs::read(&paths.positions).unwrap();

    let mut second = sample_shard();
    second.games.truncate(1);
    second.positions.truncate(1);
    let err = write_shard(dir.path(), 2, RUN, GENERATION, &second).unwrap_err();
    assert!(matches!(err, RecordError::ShardExists { .. }), "{err}");
    assert_names_file(&err, &paths.games);
    assert_eq!(dir_names(dir.path()), ["games-000002.parquet", "positions-000002.parquet"]);
    assert_eq!(std::fs::read(&paths.games).unwrap(), games_bytes);
    assert_eq!(std::fs::read(&paths.positions).unwrap(), positions_bytes);
    assert_eq!(read_shard(&paths.games).unwrap(), first);
}

#[test]
fn listing_ignores_leftovers_of_interrupted_writes() {
    let dir = temp_dir("listing");
    let shard = sample_shard();
    let two = write_shard(dir.path(), 2, RUN, GENERATION, &shard).unwrap();
    let zero = write_shard(dir.path(), 0, RUN, GENERATION, &shard).unwrap();
    // An interrupted write of shard 5: positions renamed, games still a temporary.
    let five = ShardPaths::new(dir.path(), 5);
    std::fs::copy(&two.positions, &five.positions).unwrap();
    std::fs::write(dir.path().join(".games-000005.parquet.tmp"), b"half").unwrap();
    std::fs::write(dir.path().join(".positions-000009.parquet.tmp"), b"").unwrap();
    std::fs::write(dir.path().join("README.md"), b"not a shard").unwrap();

    assert_eq!(list_shards(dir.path()).unwrap(), vec![zero, two.clone()]);
    let listing = scan_shards(dir.path()).unwrap();
    assert_eq!(listing.orphan_positions, vec![five.positions.clone()]);
    assert_eq!(listing.tmp_leftovers.len(), 2);
    assert_eq!(listing.warnings(), 3);

    // A retry of the interrupted write replaces the orphan and completes the shard.
    let five_written = write_shard(dir.path(), 5, RUN, GENERATION, &shard).unwrap();
    assert_eq!(read_shard(&five_written.games).unwrap(), shard);
    assert_eq!(list_shards(dir.path()).unwrap().len(), 3);

    // A games file without positions is an error, not a warning.
    std::fs::remove_file(&two.positions).unwrap();
    let err = list_shards(dir.path()).unwrap_err();
    assert!(matches!(err, RecordError::MissingPositions { .. }), "{err}");
    assert_names_file(&err, &two.games);
    let err = read_shard(&two.games).unwrap_err();
    assert!(matches!(err, RecordError::MissingPositions { .. }), "{err}");
}

#[test]
fn listing_a_missing_directory_is_an_io_error() {
    let dir = temp_dir("missing");
    let missing = dir.path().join("nope");
    let err = list_shards(&missing).unwrap_err();
    assert!(matches!(err, RecordError::Io { .. }), "{err}");
    assert_names_file(&err, &missing);
}

/// Issue 15, defect 13: a zero-byte games file was skipped by training but refused by the
/// statistics and the run; it is now not a shard for any reader (a write cut short), and a
/// new write of its index replaces it.
#[test]
fn d13_a_zero_byte_games_file_is_a_leftover_for_every_reader() {
    let dir = temp_dir("empty-games");
    let shard = sample_shard();
    let zero = write_shard(dir.path(), 0, RUN, GENERATION, &shard).unwrap();
    let one = ShardPaths::new(dir.path(), 1);
    std::fs::copy(&zero.positions, &one.positions).unwrap();
    std::fs::write(&one.games, b"").unwrap();
    let listing = scan_shards(dir.path()).unwrap();
    assert_eq!(listing.shards, vec![zero.clone()]);
    assert_eq!(listing.empty_games, vec![one.games.clone()]);
    assert_eq!(listing.orphan_positions, vec![one.positions.clone()]);
    let again = write_shard(dir.path(), 1, RUN, GENERATION, &shard).unwrap();
    assert_eq!(read_shard(&again.games).unwrap(), shard);
    assert!(matches!(
        write_shard(dir.path(), 1, RUN, GENERATION, &shard),
        Err(RecordError::ShardExists { .. })
    ));
}
