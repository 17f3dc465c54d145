//! The replay window: the positions of the newest generations of a run, sampled into training
//! batches (uniformly, or by the weights [`crate::sampling`] gives the rows).
//!
//! A run keeps its self-play shards in `<run>/games/gen-NNNN/{games,positions}-NNNNNN.parquet`.
//! [`ReplayWindow::load`] takes the newest `window_generations` generation folders present,
//! reads the positions of every complete shard in them (`records`), and keeps what
//! training needs of each row in memory. [`ReplayWindow::sample_batch`] then draws positions
//! with replacement from a seeded RNG (uniformly unless [`ReplayWindow::set_draw_weights`] gave
//! weights) and encodes them (in parallel, deterministically) with a random board symmetry.
//!
//! **Policy weights.** Decisions made with a cheap search under playout cap randomisation
//! (`full_search == false`) are value targets only. Their policy weight is 0, and the full-search
//! rows of the batch get weight `B / full_rows`, applied by scaling their policy target rows (the
//! batch's [`Batch::train_policy`]). The network's loss averages over all `B` rows, so its
//! policy term is then exactly the mean cross-entropy over the full-search rows, whatever their
//! fraction; a batch without any has no policy term.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use games::{Encoding, RuleOptions};
use model::{MOVES_LEFT_CLASSES, TrainBatch, moves_left_class};
use rand::Rng;
use rand::rngs::StdRng;
use rayon::prelude::*;
use records::{PositionRow, RecordError, list_generation_shards, read_positions};

use crate::generations::list_generation_dirs;
use crate::moves_left::MovesLeftTarget;
use crate::targets::{Record, SampleError, SampleSlot, TrainGame, encode_record};
use crate::value_target::ValueTarget;

/// Why the window cannot be loaded or sampled; every variant names the file or folder.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("cannot list {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("no self-play generations in {} (expected gen-NNNN folders)", path.display())]
    NoGenerations { path: PathBuf },
    #[error("no positions to train on in {} (generations {first}..={last} hold no complete shard with positions)", path.display())]
    Empty { path: PathBuf, first: u32, last: u32 },
    #[error("{}: row {row}: {source}", path.display())]
    BadRow { path: PathBuf, row: usize, source: SampleError },
    #[error("window_generations must be at least 1")]
    ZeroWindow,
    #[error("batch size must be at least 1")]
    ZeroBatch,
    #[error("draw weights: expected {rows} finite weights of at least 0, not all 0 (got {got})")]
    BadWeights { rows: usize, got: usize },
}

impl DatasetError {
    /// Whether the run directory holds something unusable (bad input) rather than failing to
    /// be read.
    pub fn is_bad_input(&self) -> bool {
        match self {
            DatasetError::Io { .. } => false,
            DatasetError::Record(e) => e.is_bad_input(),
            _ => true,
        }
    }
}

/// Where a window row came from (for error messages and tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowSource {
    pub generation: u32,
    /// Index into [`ReplayWindow::files`].
    pub file: u32,
    /// Row within the file.
    pub row: u32,
}

/// The positions of the newest generations of a run, ready to sample.
#[derive(Debug)]
pub struct ReplayWindow<G> {
    records: Vec<Record>,
    sources: Vec<RowSource>,
    files: Vec<PathBuf>,
    generations: Vec<u32>,
    options: RuleOptions,
    /// The share of every value target from the search's root values (`set_search_weight`).
    search_weight: f32,
    /// The encoding batches are written in (`set_encoding`).
    encoding: Encoding,
    /// Running sums of the rows' draw weights (`set_draw_weights`); `None` draws uniformly.
    cumulative_weights: Option<Vec<f64>>,
    /// The moves-left target the batches carry (`set_moves_left_target`).
    moves_left_target: MovesLeftTarget,
    _game: PhantomData<fn() -> G>,
}

impl<G: TrainGame> ReplayWindow<G> {
    /// Reads the newest `window_generations` generations under `<run_dir>/games`.
    ///
    /// Errors: no generation folder ([`DatasetError::NoGenerations`]), no position in the window
    /// ([`DatasetError::Empty`]), and any unreadable or corrupt shard ([`DatasetError::Record`],
    /// naming the file: nothing is skipped). Leftovers of interrupted shard writes are ignored
    /// as the record layer defines.
    ///
    /// Each record's [`Record::outcome_weight`] comes from `value_target` and the distance of
    /// its decision to the end of its game (the game's last `move_number` in the same file).
    pub fn load(
        run_dir: &Path,
        window_generations: u32,
        options: RuleOptions,
        value_target: ValueTarget,
    ) -> Result<Self, DatasetError> {
        if window_generations == 0 {
            return Err(DatasetError::ZeroWindow);
        }
        let games_dir = run_dir.join("games");
        let dirs = list_generation_dirs(&games_dir)
            .map_err(|source| DatasetError::Io { path: games_dir.clone(), source })?;
        if dirs.is_empty() {
            return Err(DatasetError::NoGenerations { path: games_dir });
        }
        let newest = &dirs[dirs.len().saturating_sub(window_generations as usize)..];
        let mut files = Vec::new();
        for (g, dir) in newest {
            for shard in list_generation_shards(dir)? {
                files.push((*g, shard.positions));
            }
        }
        let tables: Vec<Vec<(RowKey, Record)>> = files
            .par_iter()
            .map(|(_, path)| -> Result<Vec<(RowKey, Record)>, RecordError> {
                Ok(records_of(read_positions(path)?, value_target))
            })
            .collect::<Result<_, RecordError>>()?;
        // Rows in (generation, game id, ply) order, whatever shards the games were written
        // in: a generation played in two sessions (interrupted and resumed) must give the same
        // window, so the same batches, as one played at once.
        let mut rows: Vec<(u32, RowKey, RowSource, Record)> = Vec::new();
        for (file, ((generation, _), table)) in files.iter().zip(tables).enumerate() {
            for (row, (key, record)) in table.into_iter().enumerate() {
                let source =
                    RowSource { generation: *generation, file: file as u32, row: row as u32 };
                rows.push((*generation, key, source, record));
            }
        }
        rows.sort_by_key(|(generation, key, _, _)| (*generation, *key));
        let (sources, records): (Vec<RowSource>, Vec<Record>) =
            rows.into_iter().map(|(_, _, source, record)| (source, record)).unzip();
        let generations = newest.iter().map(|(g, _)| *g).collect::<Vec<_>>();
        if records.is_empty() {
            return Err(DatasetError::Empty {
                path: games_dir,
                first: generations[0],
                last: *generations.last().expect("not empty"),
            });
        }
        let files = files.into_iter().map(|(_, path)| path).collect();
        Ok(ReplayWindow {
            records,
            sources,
            files,
            generations,
            options,
            search_weight: 0.0,
            encoding: Encoding::Basic,
            cumulative_weights: None,
            moves_left_target: MovesLeftTarget::Off,
            _game: PhantomData,
        })
    }

    /// Positions in the window.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Always false: an empty window is an error when loading.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The generations in the window, oldest first.
    pub fn generations(&self) -> &[u32] {
        &self.generations
    }

    /// The positions files read ([`RowSource::file`] indexes them).
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Row `i`'s origin.
    pub fn source(&self, i: usize) -> &RowSource {
        &self.sources[i]
    }

    /// Row `i`.
    pub fn record(&self, i: usize) -> &Record {
        &self.records[i]
    }

    /// Mixes the search's root values into every row's value target at `weight` in `[0, 1]`
    /// (`train.search_value_weight`; see [`crate::targets::search_value_target`]); 0 after
    /// `load`.
    pub fn set_search_weight(&mut self, weight: f32) {
        self.search_weight = weight;
    }

    /// Writes the planes of every batch in `encoding` from now on (the network's; basic after
    /// `load`). [`train_generation`](crate::train_generation) sets its network's.
    pub fn set_encoding(&mut self, encoding: Encoding) {
        self.encoding = encoding;
    }

    /// Gives every batch the moves-left head's target from now on (`train.moves_left_target`;
    /// see [`crate::moves_left`]), or none when it is off (as after `load`).
    /// [`train_generation`](crate::train_generation) sets its config's.
    pub fn set_moves_left_target(&mut self, target: MovesLeftTarget) {
        self.moves_left_target = target;
    }

    /// Draws rows in proportion to `weights` (one per row, each finite and at least 0, not all
    /// 0) from now on; `None` draws uniformly again (as after `load`).
    pub fn set_draw_weights(&mut self, weights: Option<Vec<f64>>) -> Result<(), DatasetError> {
        let Some(weights) = weights else {
            self.cumulative_weights = None;
            return Ok(());
        };
        let usable = weights.iter().all(|w| w.is_finite() && *w >= 0.0);
        if weights.len() != self.records.len() || !usable || !weights.iter().any(|&w| w > 0.0) {
            return Err(DatasetError::BadWeights { rows: self.records.len(), got: weights.len() });
        }
        let mut sum = 0.0;
        self.cumulative_weights = Some(
            weights
                .into_iter()
                .map(|w| {
                    sum += w;
                    sum
                })
                .collect(),
        );
        Ok(())
    }

    /// Draws `batch_size` rows (with replacement; uniformly, or by the draw weights) and, when
    /// `augment` and the game has symmetries, a uniform random symmetry for each, then encodes
    /// them. The same RNG state, window and weights give the same batch.
    pub fn sample_batch(
        &self,
        rng: &mut StdRng,
        batch_size: usize,
        augment: bool,
    ) -> Result<Batch, DatasetError> {
        if batch_size == 0 {
            return Err(DatasetError::ZeroBatch);
        }
        let symmetries = if augment { G::symmetries() } else { 1 };
        let mut rows = Vec::with_capacity(batch_size);
        let mut syms = Vec::with_capacity(batch_size);
        for _ in 0..batch_size {
            rows.push(match &self.cumulative_weights {
                None => rng.random_range(0..self.records.len()),
                Some(sums) => {
                    let total = *sums.last().expect("one weight per row, not empty");
                    let u = rng.random_range(0.0..total);
                    // The first row whose running sum passes u (rows of weight 0 never do).
                    sums.partition_point(|&s| s <= u).min(sums.len() - 1)
                }
            });
            syms.push(if symmetries > 1 { rng.random_range(0..symmetries) } else { 0 });
        }
        self.encode_batch(rows, syms)
    }

    /// Encodes the given window rows under the given symmetries (one per row).
    pub fn encode_batch(&self, rows: Vec<usize>, syms: Vec<usize>) -> Result<Batch, DatasetError> {
        let records: Vec<&Record> = rows.iter().map(|&r| &self.records[r]).collect();
        let mut batch =
            Batch::encode::<G>(&records, &syms, self.encoding, self.options, self.search_weight)
                .map_err(|(i, source)| self.bad_row(rows[i], source))?;
        if let Some(weight) = self.moves_left_target.weight() {
            let class = |row: usize| moves_left_class(self.records[row].moves_to_end);
            batch.moves_left_target = one_hot(&rows, MOVES_LEFT_CLASSES, class);
            batch.moves_left_weight = weight;
        }
        batch.rows = rows;
        Ok(batch)
    }

    fn bad_row(&self, i: usize, source: SampleError) -> DatasetError {
        let s = &self.sources[i];
        DatasetError::BadRow {
            path: self.files[s.file as usize].clone(),
            row: s.row as usize,
            source,
        }
    }
}

/// One-hot rows `[rows.len(), classes]`, row `i` on `class(rows[i])`.
fn one_hot(rows: &[usize], classes: usize, class: impl Fn(usize) -> usize) -> Vec<f32> {
    let mut out = vec![0.0; rows.len() * classes];
    for (slot, &row) in out.chunks_exact_mut(classes).zip(rows) {
        slot[class(row)] = 1.0;
    }
    out
}

/// The records of one positions file, with outcome weights from the distance of each decision
/// to its game's end: `moves_to_end = last move_number of the game + 1 - move_number`.
/// A position row's place in its generation: (game id, ply).
type RowKey = (u64, u32);

fn records_of(rows: Vec<PositionRow>, value_target: ValueTarget) -> Vec<(RowKey, Record)> {
    let mut last_move: HashMap<u64, u32> = HashMap::new();
    for row in &rows {
        let last = last_move.entry(row.game_id).or_insert(row.move_number);
        *last = (*last).max(row.move_number);
    }
    rows.into_iter()
        .map(|row| {
            let moves_to_end = last_move[&row.game_id] + 1 - row.move_number;
            let key = (row.game_id, row.ply);
            let mut record = Record::from(row);
            record.outcome_weight = value_target.outcome_weight(moves_to_end);
            record.moves_to_end = moves_to_end;
            (key, record)
        })
        .collect()
}

/// One encoded training batch of `size` positions (row-major slices).
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    pub size: usize,
    /// `[B, planes, H, W]`
    pub planes: Vec<f32>,
    /// `[B, A]`: each row the (transformed) visit distribution, whatever its weight.
    pub policy_target: Vec<f32>,
    /// `[B, A]`: `policy_target` rows times `policy_weight`: what the loss sees.
    pub train_policy: Vec<f32>,
    /// `[B]`: 0 for cheap-search rows, `B / full_rows` for full-search rows (see module docs).
    pub policy_weight: Vec<f32>,
    /// `[B, A]`
    pub legal: Vec<bool>,
    /// `[B, V]`
    pub value_target: Vec<f32>,
    /// `[B, K]`: the moves-left head's one-hot targets (empty when it is not trained; see
    /// [`ReplayWindow::set_moves_left_target`]), and their loss weight.
    pub moves_left_target: Vec<f32>,
    pub moves_left_weight: f32,
    /// `[B]`: the window rows drawn (empty for [`Batch::encode`]), and the symmetry applied
    /// to each.
    pub rows: Vec<usize>,
    pub syms: Vec<usize>,
}

impl Batch {
    /// Encodes `records` in `encoding`, record `i` under symmetry `syms[i]` and with `search_weight` of its
    /// value target from its root values, and sets the policy weights (see the module docs).
    /// `rows` is left empty. A record that cannot be encoded is an error with its index.
    pub fn encode<G: TrainGame>(
        records: &[&Record],
        syms: &[usize],
        encoding: Encoding,
        options: RuleOptions,
        search_weight: f32,
    ) -> Result<Batch, (usize, SampleError)> {
        assert_eq!(records.len(), syms.len(), "one symmetry per record");
        let l = G::layout(encoding);
        let (b, n, a, v) = (records.len(), l.input_len(), l.num_actions(), l.value_classes);
        let mut batch = Batch {
            size: b,
            planes: vec![0.0; b * n],
            policy_target: vec![0.0; b * a],
            train_policy: Vec::new(),
            policy_weight: vec![0.0; b],
            legal: vec![false; b * a],
            value_target: vec![0.0; b * v],
            moves_left_target: Vec::new(),
            moves_left_weight: 0.0,
            rows: Vec::new(),
            syms: syms.to_vec(),
        };
        batch
            .planes
            .par_chunks_mut(n)
            .zip(batch.policy_target.par_chunks_mut(a))
            .zip(batch.legal.par_chunks_mut(a))
            .zip(batch.value_target.par_chunks_mut(v))
            .zip(records.par_iter().zip(syms.par_iter()).enumerate())
            .try_for_each(|((((planes, policy), legal), value), (i, (record, &sym)))| {
                let slot = SampleSlot { encoding, planes, policy, legal, value };
                encode_record::<G>(record, sym, options, search_weight, slot).map_err(|e| (i, e))
            })?;
        let full = records.iter().filter(|r| r.full_search).count();
        let weight = if full == 0 { 0.0 } else { b as f32 / full as f32 };
        for (w, r) in batch.policy_weight.iter_mut().zip(records) {
            *w = if r.full_search { weight } else { 0.0 };
        }
        batch.train_policy = batch
            .policy_target
            .chunks(a)
            .zip(&batch.policy_weight)
            .flat_map(|(row, &w)| row.iter().map(move |&p| p * w))
            .collect();
        Ok(batch)
    }

    /// Row `i`'s legal action indices (into its `[A]` slices), in order.
    pub fn legal_actions(&self, i: usize) -> Vec<usize> {
        let a = self.legal.len() / self.size;
        (0..a).filter(|&k| self.legal[i * a + k]).collect()
    }

    /// The batch as the model's training step takes it (policy target = `train_policy`).
    pub fn as_train_batch(&self) -> TrainBatch<'_> {
        TrainBatch {
            batch: self.size,
            planes: &self.planes,
            policy_target: &self.train_policy,
            legal: &self.legal,
            value_target: &self.value_target,
            moves_left: (!self.moves_left_target.is_empty()).then_some(model::AuxTerm {
                target: &self.moves_left_target,
                weight: self.moves_left_weight,
            }),
        }
    }
}

#[cfg(test)]
mod tests;
