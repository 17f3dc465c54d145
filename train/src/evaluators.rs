//! Where positions get evaluated: a checkpoint, a random network, or no network. Used by
//! self-play, the ladder, and every front end that searches (analyze, play, arena).

use std::path::{Path, PathBuf};

use games::Encode;
use model::{DeviceKind, Net, NetConfig, Precision, Predictor};
use search::net::NetEvaluator;
use search::{BoxedEvaluator, CachedEvaluator, DrawScore, UniformEvaluator};

use crate::run::RunError;

/// The source of priors and values.
#[derive(Clone, Debug)]
pub enum Source {
    /// A checkpoint folder (`models/gen-NNNN`).
    Checkpoint(PathBuf),
    /// A network of the given shape (built for the game evaluated) with random weights from a
    /// seed: `Net::seeded`, as a run's generation 0 is made.
    Random { net: NetConfig, seed: u64 },
    /// Uniform priors and draw values (no network).
    Uniform,
}

impl Source {
    /// The model name recorded with games.
    pub fn name(&self) -> String {
        match self {
            Source::Checkpoint(dir) => dir
                .file_name()
                .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned()),
            Source::Random { .. } => "random".into(),
            Source::Uniform => "uniform".into(),
        }
    }
}

/// Builds evaluators for workers: the network is loaded once and shared.
pub struct EvaluatorFactory {
    predictor: Option<Predictor>,
    cache: usize,
}

impl EvaluatorFactory {
    /// Loads (or creates) the network of `source` for game `G` on `device`.
    pub fn new<G: Encode>(
        source: &Source,
        device: DeviceKind,
        cache: usize,
    ) -> Result<Self, RunError> {
        let predictor = match source {
            Source::Checkpoint(dir) => Some(load_predictor::<G>(dir, device)?),
            Source::Random { net, seed } => {
                let predictor =
                    Predictor::new(&Net::seeded(net, &device.device()?, *seed)?, device)?;
                NetEvaluator::<G>::new(predictor.clone())?;
                Some(predictor)
            }
            Source::Uniform => None,
        };
        Ok(EvaluatorFactory { predictor, cache })
    }

    /// The network's forward passes at `precision` ([`model::precision`]; a factory without a
    /// network is unchanged).
    pub fn with_precision(mut self, precision: Precision) -> Result<Self, RunError> {
        if let Some(p) = self.predictor.take() {
            self.predictor = Some(p.with_precision(precision)?);
        }
        Ok(self)
    }

    /// A worker's evaluator, with an evaluation cache when configured; a network scores its draw
    /// probability with `draw_score` (self-play's `selfplay.draw_score`, else the fair share).
    pub fn make<G: Encode>(&self, draw_score: DrawScore) -> BoxedEvaluator<G> {
        let inner: BoxedEvaluator<G> = match &self.predictor {
            Some(p) => Box::new(
                NetEvaluator::<G>::new(p.clone())
                    .expect("shape checked when loaded")
                    .with_draw_score(draw_score),
            ),
            None => Box::new(UniformEvaluator),
        };
        if self.cache > 0 { Box::new(CachedEvaluator::new(inner, self.cache)) } else { inner }
    }
}

/// Loads a checkpoint for game `G`, checking variant, encoding version and shape.
pub fn load_predictor<G: Encode>(dir: &Path, device: DeviceKind) -> Result<Predictor, RunError> {
    let checkpoint = model::checkpoint::load_on(dir, G::NAME, &device.device()?)
        .map_err(|source| RunError::Checkpoint { dir: dir.to_path_buf(), source })?;
    let predictor = Predictor::new(&checkpoint.net, device)?;
    NetEvaluator::<G>::new(predictor.clone())
        .map_err(|source| RunError::CheckpointShape { dir: dir.to_path_buf(), source })?;
    Ok(predictor)
}

/// Loads checkpoints as arena players' evaluators (with an evaluation cache when `cache > 0`),
/// scoring the network's draw probability with the player's draw score; the error is the
/// message of why a checkpoint could not be used.
pub fn arena_loader<V: games::Variant>(
    device: DeviceKind,
    cache: usize,
) -> impl FnMut(&Path, DrawScore) -> Result<BoxedEvaluator<games::State<V>>, String> {
    move |dir: &Path, draw: DrawScore| {
        let source = Source::Checkpoint(dir.to_path_buf());
        let factory = EvaluatorFactory::new::<games::State<V>>(&source, device, cache)
            .map_err(|e| crate::error_chain(&e))?;
        Ok(factory.make(draw))
    }
}
