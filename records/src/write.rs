//! [`write_shard`]: validate a shard, then write its two files with the atomic-rename protocol
//! described in the [module docs](super).

use std::path::Path;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use storage::TempFile;

use super::batch::{
    CHUNK_ROWS, chunks, game_weight, games_batch, position_weight, positions_batch,
};
use super::layout::ShardPaths;
use super::schema::{VERSION_KEY, games_schema, positions_schema};
use super::{RecordError, SCHEMA_VERSION, Shard, validate};

/// Writes shard `index` of `dir` (created if needed) and returns its paths.
///
/// Every game must carry `run` and `generation`; the positions get them (and their game's
/// variant) from there. The whole shard is validated before anything is written (see the
/// contracts of [`GameRecord`](super::GameRecord) and [`PositionRow`](super::PositionRow)), so an
/// invalid shard leaves the directory untouched. Fails with [`RecordError::ShardExists`] if the
/// shard is already complete; on any error no temporary file is left behind.
pub fn write_shard(
    dir: &Path,
    index: u32,
    run: &str,
    generation: u32,
    shard: &Shard,
) -> Result<ShardPaths, RecordError> {
    let paths = ShardPaths::new(dir, index);
    let variants = check(&paths, run, generation, shard)?;

    std::fs::create_dir_all(dir).map_err(|e| RecordError::io(dir, e))?;
    refuse_existing(&paths.games)?;

    let weights = shard.positions.iter().zip(&variants).map(|(p, v)| position_weight(run, v, p));
    let position_chunks = chunks(&paths.positions, weights)?;
    let batches = position_chunks.into_iter().map(|(start, end)| {
        let rows = &shard.positions[start..end];
        positions_batch(&paths.positions, rows, &variants[start..end], run, generation)
    });
    let tmp = write_tmp(&paths.positions, positions_schema(), batches)?;
    tmp.commit().map_err(storage_error)?;

    let weights = shard.games.iter().map(|g| game_weight(run, g));
    let batches = chunks(&paths.games, weights)?
        .into_iter()
        .map(|(start, end)| games_batch(&paths.games, &shard.games[start..end], run, generation));
    let tmp = write_tmp(&paths.games, games_schema(), batches)?;
    // Checked again just before the rename that makes the shard complete, which is the step
    // that must never replace an existing games file (dropping `tmp` removes it).
    refuse_existing(&paths.games)?;
    tmp.commit().map_err(storage_error)?;
    Ok(paths)
}

/// Validates the shard; returns the variant of each position's game.
fn check<'a>(
    paths: &ShardPaths,
    run: &str,
    generation: u32,
    shard: &'a Shard,
) -> Result<Vec<&'a str>, RecordError> {
    let games_path = &paths.games;
    for (row, game) in shard.games.iter().enumerate() {
        validate::game(games_path, row, game)?;
        if game.run != run || game.generation != generation {
            let message = format!(
                "game of run {:?} generation {} in a shard of run {run:?} generation {generation}",
                game.run, game.generation
            );
            return Err(RecordError::invalid(games_path, row, message));
        }
    }
    let index = validate::game_index(games_path, &shard.games)?;
    let mut variants = Vec::with_capacity(shard.positions.len());
    for (row, position) in shard.positions.iter().enumerate() {
        let game =
            &shard.games[validate::game_of(&paths.positions, row, &index, position.game_id)?];
        let seats = validate::seats(&paths.positions, row, &game.variant)?;
        validate::position(&paths.positions, row, position, seats)?;
        variants.push(game.variant.as_str());
    }
    Ok(variants)
}

/// A complete shard is never overwritten; a zero-byte games file is not a shard (see
/// [`super::ShardListing::empty_games`]) and is replaced.
fn refuse_existing(games: &Path) -> Result<(), RecordError> {
    match games.try_exists() {
        Ok(false) => Ok(()),
        Ok(true) if super::layout::is_empty_file(games) => Ok(()),
        Ok(true) => Err(RecordError::ShardExists { path: games.to_path_buf() }),
        Err(e) => Err(RecordError::io(games, e)),
    }
}

fn properties() -> WriterProperties {
    let version = KeyValue::new(VERSION_KEY.to_string(), SCHEMA_VERSION.to_string());
    WriterProperties::builder()
        // Snappy: pure Rust (`snap`), fast, and read by every parquet reader.
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(CHUNK_ROWS))
        .set_key_value_metadata(Some(vec![version]))
        .build()
}

/// Writes the batches to an exclusively created temporary of `path` (see [`storage::TempFile`]:
/// a planted link is never written through), not yet committed; on failure it is removed.
fn write_tmp(
    path: &Path,
    schema: SchemaRef,
    batches: impl Iterator<Item = Result<RecordBatch, RecordError>>,
) -> Result<TempFile, RecordError> {
    let tmp = TempFile::create(path).map_err(storage_error)?;
    let tmp_name = tmp.path().to_path_buf();
    let parquet_error = |e: parquet::errors::ParquetError| RecordError::Write {
        path: tmp_name.clone(),
        message: e.to_string(),
    };
    let mut writer =
        ArrowWriter::try_new(tmp, schema, Some(properties())).map_err(parquet_error)?;
    for batch in batches {
        writer.write(&batch?).map_err(parquet_error)?;
    }
    // `into_inner` writes the footer and hands the file back for the commit.
    writer.into_inner().map_err(parquet_error)
}

fn storage_error(e: storage::StorageError) -> RecordError {
    let path = e.path().to_path_buf();
    match e {
        storage::StorageError::Io { source, .. } => RecordError::io(&path, source),
        other => RecordError::io(&path, std::io::Error::other(other.to_string())),
    }
}
