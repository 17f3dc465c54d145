//! The Arrow schemas of the two tables, and the check of a file's schema against them.
//!
//! Every column is non-nullable, lists included (their items too): a record has no optional
//! field. Changing anything here means bumping [`SCHEMA_VERSION`](super::SCHEMA_VERSION); the
//! snapshot test in `tests.rs` makes that deliberate.

use std::path::Path;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};

use super::RecordError;

/// Column names, shared by the writer and the reader so they cannot drift apart.
pub(crate) mod col {
    pub const SCHEMA_VERSION: &str = "schema_version";
    pub const RUN: &str = "run";
    pub const GENERATION: &str = "generation";
    pub const GAME_ID: &str = "game_id";
    pub const VARIANT: &str = "variant";
    pub const SEED: &str = "seed";
    pub const START_POSITION: &str = "start_position";
    pub const MOVES: &str = "moves";
    pub const RESULT: &str = "result";
    pub const TERMINATION: &str = "termination";
    pub const PLIES: &str = "plies";
    pub const MODEL: &str = "model";
    pub const PLY: &str = "ply";
    pub const MOVE_NUMBER: &str = "move_number";
    pub const POSITION: &str = "position";
    pub const MOVER: &str = "mover";
    pub const POLICY_ACTIONS: &str = "policy_actions";
    pub const POLICY_TARGET: &str = "policy_target";
    pub const ROOT_VALUES: &str = "root_values";
    pub const NET_VALUES: &str = "net_values";
    pub const FULL_SEARCH: &str = "full_search";
}

/// Key of the file-level metadata entry holding the schema version.
pub(crate) const VERSION_KEY: &str = "camelot_zero.schema_version";

/// The list type used for every list column: non-null items named `item` (Arrow's convention).
pub(crate) fn list_of(item: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", item, false)))
}

fn field(name: &str, data_type: DataType) -> Field {
    Field::new(name, data_type, false)
}

/// The columns both files begin with: the schema version, then which game of which
/// generation of which run.
fn game_key_fields() -> Vec<Field> {
    vec![
        field(col::SCHEMA_VERSION, DataType::UInt16),
        field(col::RUN, DataType::Utf8),
        field(col::GENERATION, DataType::UInt32),
        field(col::GAME_ID, DataType::UInt64),
        field(col::VARIANT, DataType::Utf8),
    ]
}

/// `game_key_fields` and then `rest`.
fn schema_of(rest: Vec<Field>) -> SchemaRef {
    Arc::new(Schema::new([game_key_fields(), rest].concat()))
}

/// Schema of `games-NNNNNN.parquet`: one row per game.
pub fn games_schema() -> SchemaRef {
    schema_of(vec![
        field(col::SEED, DataType::UInt64),
        field(col::START_POSITION, DataType::Utf8),
        field(col::MOVES, list_of(DataType::Utf8)),
        field(col::RESULT, list_of(DataType::Float32)),
        field(col::TERMINATION, DataType::Utf8),
        field(col::PLIES, DataType::UInt32),
        field(col::MODEL, DataType::Utf8),
    ])
}

/// Schema of `positions-NNNNNN.parquet`: one row per searched decision.
pub fn positions_schema() -> SchemaRef {
    schema_of(vec![
        field(col::PLY, DataType::UInt32),
        field(col::MOVE_NUMBER, DataType::UInt32),
        field(col::POSITION, DataType::Utf8),
        field(col::MOVER, DataType::UInt8),
        field(col::POLICY_ACTIONS, list_of(DataType::UInt16)),
        field(col::POLICY_TARGET, list_of(DataType::Float32)),
        field(col::ROOT_VALUES, list_of(DataType::Float32)),
        field(col::NET_VALUES, list_of(DataType::Float32)),
        field(col::RESULT, list_of(DataType::Float32)),
        field(col::FULL_SEARCH, DataType::Boolean),
    ])
}

/// A readable, Arrow-version-independent description of a type: `UInt16`, `list<Float32>`.
pub(crate) fn describe_type(data_type: &DataType) -> String {
    match data_type {
        DataType::List(item) => format!("list<{}>", describe_type(item.data_type())),
        other => format!("{other:?}"),
    }
}

/// One line per field: `name: type` plus ` (nullable)` where nulls are allowed, and the item
/// nullability of lists. Used by the schema snapshot test.
#[cfg(test)]
pub(crate) fn describe_schema(schema: &Schema) -> String {
    let mut out = String::new();
    for f in schema.fields() {
        out.push_str(&format!("{}: {}", f.name(), describe_type(f.data_type())));
        if f.is_nullable() {
            out.push_str(" (nullable)");
        }
        if let DataType::List(item) = f.data_type()
            && item.is_nullable()
        {
            out.push_str(" (nullable items)");
        }
        out.push('\n');
    }
    out
}

/// Whether a file's column type can be read as the expected one. Nullability and the name of a
/// list's item field are not compared: other writers (pyarrow, polars) may declare columns
/// nullable or name items `element`; the reader rejects actual nulls value by value.
fn compatible(expected: &DataType, found: &DataType) -> bool {
    match (expected, found) {
        (DataType::List(e), DataType::List(f)) => compatible(e.data_type(), f.data_type()),
        (e, f) => e == f,
    }
}

/// Checks that every expected column is in `found` with a compatible type. Extra columns are
/// allowed (and not read).
pub(crate) fn check_schema(
    path: &Path,
    expected: &Schema,
    found: &Schema,
) -> Result<(), RecordError> {
    for want in expected.fields() {
        let mismatch = |found: String| RecordError::SchemaMismatch {
            path: path.to_path_buf(),
            column: want.name().clone(),
            expected: describe_type(want.data_type()),
            found,
        };
        match found.field_with_name(want.name()) {
            Err(_) => return Err(mismatch("no such column".to_string())),
            Ok(have) if !compatible(want.data_type(), have.data_type()) => {
                return Err(mismatch(describe_type(have.data_type())));
            }
            Ok(_) => {}
        }
    }
    Ok(())
}
