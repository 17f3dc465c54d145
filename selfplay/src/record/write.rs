//! [`write_shard`]: validate a shard, then write its two files with the atomic-rename protocol
//! described in the [module docs](super).

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use super::batch::{
    CHUNK_ROWS, chunks, game_weight, games_batch, position_weight, positions_batch,
};
use super::layout::{ShardPaths, tmp_path};
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
    publish(&tmp, &paths.positions, dir)?;

    let weights = shard.games.iter().map(|g| game_weight(run, g));
    let batches = chunks(&paths.games, weights)?
        .into_iter()
        .map(|(start, end)| games_batch(&paths.games, &shard.games[start..end], run, generation));
    let tmp = write_tmp(&paths.games, games_schema(), batches)?;
    // Checked again just before the rename that makes the shard complete, which is the step
    // that must never replace an existing games file.
    if let Err(e) = refuse_existing(&paths.games) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    publish(&tmp, &paths.games, dir)?;
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

fn refuse_existing(games: &Path) -> Result<(), RecordError> {
    match games.try_exists() {
        Ok(false) => Ok(()),
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

/// Writes the batches to the temporary name of `path`, fsynced; returns that name. Removes it
/// on failure.
fn write_tmp(
    path: &Path,
    schema: SchemaRef,
    batches: impl Iterator<Item = Result<RecordBatch, RecordError>>,
) -> Result<PathBuf, RecordError> {
    let tmp = tmp_path(path);
    let result = write_file(&tmp, schema, batches);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map(|()| tmp)
}

fn write_file(
    tmp: &Path,
    schema: SchemaRef,
    batches: impl Iterator<Item = Result<RecordBatch, RecordError>>,
) -> Result<(), RecordError> {
    let parquet_error = |e: parquet::errors::ParquetError| RecordError::Write {
        path: tmp.to_path_buf(),
        message: e.to_string(),
    };
    let file = File::create(tmp).map_err(|e| RecordError::io(tmp, e))?;
    let mut writer =
        ArrowWriter::try_new(file, schema, Some(properties())).map_err(parquet_error)?;
    for batch in batches {
        writer.write(&batch?).map_err(parquet_error)?;
    }
    // `into_inner` writes the footer and hands back the file so it can be fsynced.
    let file = writer.into_inner().map_err(parquet_error)?;
    file.sync_all().map_err(|e| RecordError::io(tmp, e))
}

/// Renames `tmp` to `path` and makes the rename durable.
fn publish(tmp: &Path, path: &Path, dir: &Path) -> Result<(), RecordError> {
    if let Err(e) = std::fs::rename(tmp, path) {
        let _ = std::fs::remove_file(tmp);
        return Err(RecordError::io(path, e));
    }
    sync_dir(dir)
}

/// Fsyncs a directory so that renames in it survive a crash (POSIX; elsewhere a no-op).
fn sync_dir(dir: &Path) -> Result<(), RecordError> {
    // A bare file name has the empty path as its directory.
    #[cfg(unix)]
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    #[cfg(unix)]
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| RecordError::io(dir, e))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}
