//! The model's searches: one evaluator per search over the shared network, at most
//! `permits` searches at once (the rest wait in order: tokio's semaphore is fair), each run on
//! a blocking thread so the server keeps answering while it thinks.

use classical::GuardedSearch;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use games::{State, Variant, VariantKind};
use model::DeviceKind;
use rand::SeedableRng;
use rand::rngs::StdRng;
use search::mcts::{Analysis, complete_move_analysed};
use search::{DrawScore, PlaySearch};
use train::{EvaluatorFactory, Source};

use crate::error::ServeError;
use crate::view::AnalysisView;

/// Every search of this server starts from the same seed: the same request, the same answer.
const SEED: u64 = 0;

/// The networks the server searches with: one per game at most; a game without one is searched
/// with uniform priors.
pub struct Models {
    /// Indexed by [`slot`]: the factory and the checkpoint's name.
    games: [(EvaluatorFactory, Option<String>); 2],
    play: PlaySearch,
}

fn slot(kind: VariantKind) -> usize {
    match kind {
        VariantKind::Camelot => 0,
        VariantKind::Tricamelot => 1,
    }
}

impl Models {
    /// Loads the checkpoints in `dirs` (each names its game in its metadata; at most one per
    /// game) for searches with the options `play`.
    pub fn load(dirs: &[PathBuf], play: PlaySearch) -> Result<Models, ServeError> {
        let uniform = |kind: VariantKind| {
            games::with_variant!(kind, V => EvaluatorFactory::new::<State<V>>(
                &Source::Uniform, DeviceKind::Cpu, 0))
            .map_err(|e| ServeError::Startup(train::error_chain(&e)))
        };
        let mut games =
            [(uniform(VariantKind::Camelot)?, None), (uniform(VariantKind::Tricamelot)?, None)];
        for dir in dirs {
            let meta = model::checkpoint::read_meta(dir).map_err(|e| {
                ServeError::Startup(format!("cannot read the checkpoint {}: {e}", dir.display()))
            })?;
            let kind: VariantKind = meta.variant.parse().map_err(|_| {
                ServeError::Startup(format!(
                    "the checkpoint {} is for an unknown game {:?}",
                    dir.display(),
                    meta.variant
                ))
            })?;
            let (factory, name) = &mut games[slot(kind)];
            if let Some(other) = name {
                return Err(ServeError::Startup(format!(
                    "two models for {}: {other} and {}; give one --model per game",
                    kind.as_str(),
                    dir.display()
                )));
            }
            let source = Source::Checkpoint(dir.clone());
            *factory = games::with_variant!(kind, V => EvaluatorFactory::new::<State<V>>(
                &source, DeviceKind::Cpu, 0))
            .map_err(|e| ServeError::Startup(train::error_chain(&e)))?;
            *name = Some(checkpoint_name(dir));
        }
        Ok(Models { games, play })
    }

    /// The checkpoint name of `kind`'s model; `None`: uniform priors.
    pub fn name(&self, kind: VariantKind) -> Option<String> {
        self.games[slot(kind)].1.clone()
    }

    fn evaluator<V: Variant>(&self) -> Box<dyn search::Evaluator<State<V>>> {
        let kind: VariantKind = V::NAME.parse().expect("a variant's name is a kind");
        self.games[slot(kind)].0.make::<State<V>>(DrawScore::Share)
    }

    /// The model's complete move from `state` (a move in progress is completed) with `sims`
    /// simulations per searched leg, and what its first searched leg found (`None` when every
    /// leg was forced).
    pub fn reply<V: Variant>(
        &self,
        state: &State<V>,
        sims: u32,
    ) -> Result<(String, Option<AnalysisView>), ServeError> {
        let search = self.play.search(state.clone(), sims).map_err(search_error)?;
        let mut evaluator = self.evaluator::<V>();
        let mut rng = StdRng::seed_from_u64(SEED);
        let (m, first) =
            complete_move_analysed(search, evaluator.as_mut(), &mut rng).map_err(search_error)?;
        let view = first.map(|f| AnalysisView::of(&f.root, &f.summary, &f.analysis, true));
        Ok((m, view))
    }

    /// Searches `state` with up to `sims` simulations, giving `report` what the search thinks
    /// every `every` and once more at the end (`done: true`). Stops early, without an error,
    /// when `report` returns false (the client went away).
    pub fn analyse<V: Variant>(
        &self,
        state: &State<V>,
        sims: u32,
        every: Duration,
        mut report: impl FnMut(AnalysisView) -> bool,
    ) -> Result<(), ServeError> {
        let mut search = self.play.search(state.clone(), sims).map_err(search_error)?;
        let mut evaluator = self.evaluator::<V>();
        let mut rng = StdRng::seed_from_u64(SEED);
        let mut next = Instant::now() + every;
        let mut gone = false;
        let summary = search
            .run_watched(evaluator.as_mut(), &mut rng, |search| {
                if Instant::now() < next {
                    return true;
                }
                next = Instant::now() + every;
                let Ok(summary) = search.summary() else { return true };
                let analysis = Analysis::new(search, &summary);
                gone = !report(AnalysisView::of(state, &summary, &analysis, false));
                !gone
            })
            .map_err(search_error)?;
        if !gone {
            let analysis = Analysis::new(&search, &summary);
            report(AnalysisView::of(state, &summary, &analysis, true));
        }
        Ok(())
    }
}

fn search_error(e: search::mcts::SearchError) -> ServeError {
    match e {
        search::mcts::SearchError::GameOver => ServeError::GameOver,
        e => ServeError::Search(e.to_string()),
    }
}

/// A checkpoint's name as the runs write it: its folder's name (`gen-0012`).
fn checkpoint_name(dir: &std::path::Path) -> String {
    dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{Camelot, CamelotRules, Game};

    #[test]
    fn an_analysis_stops_when_its_reader_goes_away() {
        let models = Models::load(&[], PlaySearch::default()).unwrap();
        let mut seen = Vec::new();
        models
            .analyse::<CamelotRules>(&Camelot::initial(), 1_000_000, Duration::ZERO, |view| {
                seen.push(view.simulations);
                seen.len() < 3
            })
            .unwrap();
        assert_eq!(seen.len(), 3, "no report after the reader left");
        assert!(seen[2] < 100, "stopped early, at {} simulations", seen[2]);
        assert!(
            seen.windows(2).all(|w| w[0] < w[1]),
            "the search went on between reports: {seen:?}"
        );
    }

    #[test]
    fn an_analysis_ends_with_its_whole_budget_done() {
        let models = Models::load(&[], PlaySearch::default()).unwrap();
        let mut last = None;
        models
            .analyse::<CamelotRules>(&Camelot::initial(), 300, Duration::from_secs(60), |view| {
                last = Some(view);
                true
            })
            .unwrap();
        let last = last.unwrap();
        assert_eq!((last.simulations, last.done), (300, true));
    }
}
