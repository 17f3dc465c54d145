//! Readers: [`read_games`], [`read_positions`] and [`read_shard`].
//!
//! Each file is checked in this order before a value is used: it opens ([`RecordError::Io`]),
//! it is parquet ([`RecordError::Corrupt`]), its metadata does not announce another schema
//! version, its columns have the expected types ([`RecordError::SchemaMismatch`]); then every
//! row's `schema_version` ([`RecordError::WrongSchemaVersion`]) and values
//! ([`RecordError::InvalidValue`]).

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_array::types::{Float32Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_schema::Schema;
use games::Termination;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};

use super::columns::Columns;
use super::layout::ShardPaths;
use super::quiet_panics::quietly;
use super::schema::{VERSION_KEY, check_schema, col, games_schema, positions_schema};
use super::source::StrictFile;
use super::thrift_check;
use super::{GameRecord, PositionRow, RecordError, SCHEMA_VERSION, Shard, validate};

/// Reads a games file (any name), validating every row and refusing duplicate game ids.
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, RecordError> {
    let mut games = Vec::new();
    for_each_batch(path, &games_schema(), |c| read_games_batch(c, &mut games))?;
    validate::game_index(path, &games)?;
    Ok(games)
}

/// Reads a positions file (any name), validating every row against its `variant` column.
pub fn read_positions(path: &Path) -> Result<Vec<PositionRow>, RecordError> {
    read_positions_in(path, None)
}

/// Reads the shard whose games file is `games_path` (named `games-NNNNNN.parquet`; the positions
/// file is found beside it). On top of each file's checks, every position must belong to a game
/// of the shard and repeat its run, generation and variant, and all games must share one run and
/// generation.
pub fn read_shard(games_path: &Path) -> Result<Shard, RecordError> {
    let paths = ShardPaths::from_games_path(games_path)?;
    let games = read_games(&paths.games)?;
    if let Some(first) = games.first() {
        let stray =
            games.iter().position(|g| g.run != first.run || g.generation != first.generation);
        if let Some(row) = stray {
            let message = "games of more than one run or generation in one shard";
            return Err(RecordError::invalid(&paths.games, row, message));
        }
    }
    if !paths.positions.exists() {
        return Err(RecordError::MissingPositions { path: paths.games });
    }
    let context =
        ShardContext { games: &games, index: validate::game_index(&paths.games, &games)? };
    let positions = read_positions_in(&paths.positions, Some(&context))?;
    Ok(Shard { games, positions })
}

/// The games a positions file is checked against when read as part of a shard.
struct ShardContext<'a> {
    games: &'a [GameRecord],
    index: HashMap<u64, usize>,
}

fn read_positions_in(
    path: &Path,
    shard: Option<&ShardContext<'_>>,
) -> Result<Vec<PositionRow>, RecordError> {
    let mut positions = Vec::new();
    for_each_batch(path, &positions_schema(), |c| read_positions_batch(c, shard, &mut positions))?;
    Ok(positions)
}

/// Opens `path`, checks its schema against `expected`, and hands each batch (with only the
/// expected columns, after the `schema_version` check) to `f`.
///
/// The parquet crate does not promise to be panic-free on hostile input, so a panic inside it is
/// caught and reported as [`RecordError::Corrupt`]: a bad file must never bring down a trainer
/// (and with [`install_quiet_panic_hook`](super::install_quiet_panic_hook) it prints nothing).
fn for_each_batch(
    path: &Path,
    expected: &Schema,
    mut f: impl FnMut(&Columns<'_>) -> Result<(), RecordError>,
) -> Result<(), RecordError> {
    let file = StrictFile::read(path).map_err(|e| RecordError::io(path, e))?;
    let guarded = catch_unwind(AssertUnwindSafe(|| {
        quietly(|| {
            // The footer and page headers are walked before parquet parses them (see thrift_check).
            thrift_check::check_footer(&file).map_err(|e| RecordError::corrupt(path, e))?;
            let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::default())
                .map_err(|e| RecordError::corrupt(path, e))?;
            thrift_check::check_pages(&file, metadata.metadata())
                .map_err(|e| RecordError::corrupt(path, e))?;
            let builder = ParquetRecordBatchReaderBuilder::new_with_metadata(file, metadata);
            check_version_metadata(path, builder.metadata().file_metadata().key_value_metadata())?;
            check_schema(path, expected, builder.schema())?;
            let names = expected.fields().iter().map(|f| f.name().as_str());
            let mask = ProjectionMask::columns(builder.parquet_schema(), names);
            let reader =
                builder.with_projection(mask).build().map_err(|e| RecordError::corrupt(path, e))?;
            let mut first_row = 0;
            for batch in reader {
                let batch: RecordBatch = batch.map_err(|e| RecordError::corrupt(path, e))?;
                let columns = Columns { path, batch: &batch, first_row };
                check_row_versions(&columns)?;
                f(&columns)?;
                first_row += batch.num_rows();
            }
            Ok(())
        })
    }));
    guarded.unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        Err(RecordError::corrupt(path, format!("parquet reader panicked: {message}")))
    })
}

/// A file whose metadata announces another version is refused before its schema is compared, so
/// that a file from a newer writer says "version" rather than "column X changed".
fn check_version_metadata(
    path: &Path,
    metadata: Option<&Vec<parquet::file::metadata::KeyValue>>,
) -> Result<(), RecordError> {
    let entry = metadata.into_iter().flatten().find(|kv| kv.key == VERSION_KEY);
    let Some(value) = entry.map(|kv| kv.value.as_deref().unwrap_or("")) else { return Ok(()) };
    match value.parse::<u16>() {
        Ok(SCHEMA_VERSION) => Ok(()),
        Ok(found) => Err(RecordError::WrongSchemaVersion {
            path: path.to_path_buf(),
            found,
            expected: SCHEMA_VERSION,
        }),
        Err(_) => Err(RecordError::corrupt(path, format!("bad {VERSION_KEY} {value:?}"))),
    }
}

fn check_row_versions(columns: &Columns<'_>) -> Result<(), RecordError> {
    let versions = columns.primitives::<UInt16Type>(col::SCHEMA_VERSION)?;
    match versions.iter().find(|&&v| v != SCHEMA_VERSION) {
        None => Ok(()),
        Some(&found) => Err(RecordError::WrongSchemaVersion {
            path: columns.path.to_path_buf(),
            found,
            expected: SCHEMA_VERSION,
        }),
    }
}

fn read_games_batch(c: &Columns<'_>, out: &mut Vec<GameRecord>) -> Result<(), RecordError> {
    let run = c.strings(col::RUN)?;
    let generation = c.primitives::<UInt32Type>(col::GENERATION)?;
    let game_id = c.primitives::<UInt64Type>(col::GAME_ID)?;
    let variant = c.strings(col::VARIANT)?;
    let seed = c.primitives::<UInt64Type>(col::SEED)?;
    let start_position = c.strings(col::START_POSITION)?;
    let moves = c.string_list(col::MOVES)?;
    let result = c.primitive_list::<Float32Type>(col::RESULT)?;
    let termination = c.strings(col::TERMINATION)?;
    let plies = c.primitives::<UInt32Type>(col::PLIES)?;
    let model = c.strings(col::MODEL)?;
    for row in 0..c.batch.num_rows() {
        let name = termination.value(row);
        let termination = name.parse::<Termination>().map_err(|_| {
            RecordError::invalid(c.path, c.first_row + row, format!("unknown termination {name:?}"))
        })?;
        let game = GameRecord {
            run: run.value(row).to_string(),
            generation: generation[row],
            game_id: game_id[row],
            variant: variant.value(row).to_string(),
            seed: seed[row],
            start_position: start_position.value(row).to_string(),
            moves: c.string_list_row(&moves, row)?,
            result: c.list_row(&result, row)?,
            termination,
            plies: plies[row],
            model: model.value(row).to_string(),
        };
        validate::game(c.path, c.first_row + row, &game)?;
        out.push(game);
    }
    Ok(())
}

fn read_positions_batch(
    c: &Columns<'_>,
    shard: Option<&ShardContext<'_>>,
    out: &mut Vec<PositionRow>,
) -> Result<(), RecordError> {
    let run = c.strings(col::RUN)?;
    let generation = c.primitives::<UInt32Type>(col::GENERATION)?;
    let game_id = c.primitives::<UInt64Type>(col::GAME_ID)?;
    let variant = c.strings(col::VARIANT)?;
    let ply = c.primitives::<UInt32Type>(col::PLY)?;
    let move_number = c.primitives::<UInt32Type>(col::MOVE_NUMBER)?;
    let position = c.strings(col::POSITION)?;
    let mover = c.primitives::<UInt8Type>(col::MOVER)?;
    let actions = c.primitive_list::<UInt16Type>(col::POLICY_ACTIONS)?;
    let target = c.primitive_list::<Float32Type>(col::POLICY_TARGET)?;
    let root_values = c.primitive_list::<Float32Type>(col::ROOT_VALUES)?;
    let net_values = c.primitive_list::<Float32Type>(col::NET_VALUES)?;
    let result = c.primitive_list::<Float32Type>(col::RESULT)?;
    let full_search = c.bools(col::FULL_SEARCH)?;
    for row in 0..c.batch.num_rows() {
        let file_row = c.first_row + row;
        if let Some(shard) = shard {
            let game =
                &shard.games[validate::game_of(c.path, file_row, &shard.index, game_id[row])?];
            if run.value(row) != game.run
                || generation[row] != game.generation
                || variant.value(row) != game.variant
            {
                let message =
                    format!("run, generation or variant differ from game {}", game.game_id);
                return Err(RecordError::invalid(c.path, file_row, message));
            }
        }
        let seats = validate::seats(c.path, file_row, variant.value(row))?;
        let position = PositionRow {
            game_id: game_id[row],
            ply: ply[row],
            move_number: move_number[row],
            position: position.value(row).to_string(),
            mover: mover[row],
            policy_actions: c.list_row(&actions, row)?,
            policy_target: c.list_row(&target, row)?,
            root_values: c.list_row(&root_values, row)?,
            net_values: c.list_row(&net_values, row)?,
            result: c.list_row(&result, row)?,
            full_search: full_search.value(row),
        };
        validate::position(c.path, file_row, &position, seats)?;
        out.push(position);
    }
    Ok(())
}
