//! Records to Arrow record batches (the writer's half of the conversion).
//!
//! Rows are cut into chunks of at most [`CHUNK_ROWS`] rows and about [`CHUNK_WEIGHT`] bytes of
//! variable-length data; each chunk becomes one batch and one parquet row group. The byte bound
//! also keeps every Arrow offset (an `i32`) far from overflow, so the builders below cannot panic.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, PrimitiveBuilder, StringBuilder};
use arrow_array::types::{ArrowPrimitiveType, Float32Type, UInt16Type};
use arrow_array::{
    ArrayRef, BooleanArray, RecordBatch, StringArray, UInt8Array, UInt16Array, UInt32Array,
    UInt64Array,
};
use arrow_schema::{DataType, Field};

use super::schema::{games_schema, positions_schema};
use super::{GameRecord, PositionRow, RecordError, SCHEMA_VERSION};

/// Most rows in one row group: small enough to read a slice of a shard cheaply.
pub(crate) const CHUNK_ROWS: usize = 16_384;
/// Rough byte bound of one chunk's strings and list items.
const CHUNK_WEIGHT: usize = 64 << 20;
/// A single row heavier than this cannot be stored (Arrow's `i32` offsets).
const MAX_ROW_WEIGHT: usize = i32::MAX as usize / 2;

/// Bytes of variable-length data a game adds to its batch (an upper bound for every column).
pub(crate) fn game_weight(run: &str, game: &GameRecord) -> usize {
    let moves: usize = game.moves.iter().map(|m| m.len() + 1).sum();
    run.len() + game.variant.len() + game.start_position.len() + game.model.len() + moves + 32
}

/// Bytes of variable-length data a position adds to its batch.
pub(crate) fn position_weight(run: &str, variant: &str, position: &PositionRow) -> usize {
    let lists = 2 * position.policy_actions.len()
        + 4 * position.policy_target.len()
        + 4 * (position.root_values.len() + position.net_values.len() + position.result.len());
    run.len() + variant.len() + position.position.len() + lists
}

/// Splits `weights` into consecutive chunks `(start, end)` within the bounds above.
pub(crate) fn chunks(
    path: &Path,
    weights: impl IntoIterator<Item = usize>,
) -> Result<Vec<(usize, usize)>, RecordError> {
    let (mut out, mut start, mut weight, mut end) = (Vec::new(), 0, 0usize, 0);
    for (row, w) in weights.into_iter().enumerate() {
        if w > MAX_ROW_WEIGHT {
            return Err(RecordError::invalid(path, row, format!("row too large ({w} bytes)")));
        }
        if row > start && (row - start == CHUNK_ROWS || weight + w > CHUNK_WEIGHT) {
            out.push((start, row));
            (start, weight) = (row, 0);
        }
        weight += w;
        end = row + 1;
    }
    if end > start {
        out.push((start, end));
    }
    Ok(out)
}

fn item(data_type: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", data_type, false))
}

fn string_list<'a>(rows: impl Iterator<Item = &'a [String]>) -> ArrayRef {
    let mut builder = ListBuilder::new(StringBuilder::new()).with_field(item(DataType::Utf8));
    for row in rows {
        builder.values().extend(row.iter().map(Some));
        builder.append(true);
    }
    Arc::new(builder.finish())
}

fn primitive_list<'a, T: ArrowPrimitiveType>(
    rows: impl Iterator<Item = &'a [T::Native]>,
) -> ArrayRef {
    let mut builder = ListBuilder::new(PrimitiveBuilder::<T>::new()).with_field(item(T::DATA_TYPE));
    for row in rows {
        builder.values().append_slice(row);
        builder.append(true);
    }
    Arc::new(builder.finish())
}

fn repeated(value: &str, rows: usize) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(std::iter::repeat_n(value, rows)))
}

fn batch_error(path: &Path, e: arrow_schema::ArrowError) -> RecordError {
    RecordError::Write { path: path.to_path_buf(), message: e.to_string() }
}

/// One batch of the games table.
pub(crate) fn games_batch(
    path: &Path,
    games: &[GameRecord],
    run: &str,
    generation: u32,
) -> Result<RecordBatch, RecordError> {
    let n = games.len();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt16Array::from(vec![SCHEMA_VERSION; n])),
        repeated(run, n),
        Arc::new(UInt32Array::from(vec![generation; n])),
        Arc::new(UInt64Array::from_iter_values(games.iter().map(|g| g.game_id))),
        Arc::new(StringArray::from_iter_values(games.iter().map(|g| &g.variant))),
        Arc::new(UInt64Array::from_iter_values(games.iter().map(|g| g.seed))),
        Arc::new(StringArray::from_iter_values(games.iter().map(|g| &g.start_position))),
        string_list(games.iter().map(|g| g.moves.as_slice())),
        primitive_list::<Float32Type>(games.iter().map(|g| g.result.as_slice())),
        Arc::new(StringArray::from_iter_values(games.iter().map(|g| g.termination.as_str()))),
        Arc::new(UInt32Array::from_iter_values(games.iter().map(|g| g.plies))),
        Arc::new(StringArray::from_iter_values(games.iter().map(|g| &g.model))),
    ];
    RecordBatch::try_new(games_schema(), columns).map_err(|e| batch_error(path, e))
}

/// One batch of the positions table; `variants[i]` is the variant of `positions[i]`'s game.
pub(crate) fn positions_batch(
    path: &Path,
    positions: &[PositionRow],
    variants: &[&str],
    run: &str,
    generation: u32,
) -> Result<RecordBatch, RecordError> {
    let n = positions.len();
    let p = positions;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt16Array::from(vec![SCHEMA_VERSION; n])),
        repeated(run, n),
        Arc::new(UInt32Array::from(vec![generation; n])),
        Arc::new(UInt64Array::from_iter_values(p.iter().map(|r| r.game_id))),
        Arc::new(StringArray::from_iter_values(variants)),
        Arc::new(UInt32Array::from_iter_values(p.iter().map(|r| r.ply))),
        Arc::new(UInt32Array::from_iter_values(p.iter().map(|r| r.move_number))),
        Arc::new(StringArray::from_iter_values(p.iter().map(|r| &r.position))),
        Arc::new(UInt8Array::from_iter_values(p.iter().map(|r| r.mover))),
        primitive_list::<UInt16Type>(p.iter().map(|r| r.policy_actions.as_slice())),
        primitive_list::<Float32Type>(p.iter().map(|r| r.policy_target.as_slice())),
        primitive_list::<Float32Type>(p.iter().map(|r| r.root_values.as_slice())),
        primitive_list::<Float32Type>(p.iter().map(|r| r.net_values.as_slice())),
        primitive_list::<Float32Type>(p.iter().map(|r| r.result.as_slice())),
        Arc::new(BooleanArray::from(p.iter().map(|r| r.full_search).collect::<Vec<_>>())),
    ];
    RecordBatch::try_new(positions_schema(), columns).map_err(|e| batch_error(path, e))
}
