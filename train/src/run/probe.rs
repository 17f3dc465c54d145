//! The value probe of every new model: its value head on a fixed set of positions from
//! classical games, by the mover's material balance (`selfplay::stats::values`), as the
//! `probe_*` columns of `generations.csv` and a line after each generation.
//!
//! The set is the games of `alphabeta:depth=2` against `depth=1` (Camelot) or against two
//! `depth=1` (Tri-Camelot), kept with the project under `assets/probe/` and built into the
//! program; a run writes it once to `<run>/probe/games-000000.parquet` and reads it from there,
//! so a run directory carries the positions its models were measured on. The figures of a model
//! are saved beside it (`models/gen-NNNN/probe.toml`), so a resumed run writes its rows again.

use std::path::Path;

use games::{State, Variant};
use model::DeviceKind;
use records::collection::SourcedGame;
use search::DrawScore;
use selfplay::stats::values::{MAX_BALANCE, ProbePosition, buckets, model_values, probe_positions};
use serde::{Deserialize, Serialize};

use super::ModelFile;
use super::error::{RunError, io};
use crate::{EvaluatorFactory, Source};

/// Where a run keeps its probe set.
pub const PROBE_DIR: &str = "probe";
/// The probe set's games file in [`PROBE_DIR`].
pub const PROBE_GAMES: &str = "games-000000.parquet";
/// A model's figures in its checkpoint folder.
pub const PROBE_FILE: &str = "probe.toml";
/// At most this many of the set's positions are evaluated (evenly spaced through the games):
/// about a second of a b4c32 network on one core.
pub const MAX_POSITIONS: usize = 4000;

/// The probe games built into the program, by variant name.
fn built_in(variant: &str) -> Option<&'static [u8]> {
    match variant {
        "camelot" => Some(include_bytes!("../../../assets/probe/camelot/games-000000.parquet")),
        "tricamelot" => {
            Some(include_bytes!("../../../assets/probe/tricamelot/games-000000.parquet"))
        }
        _ => None,
    }
}

/// The positions a run's models are probed on, with what they scored in their games.
pub struct ProbeSet<V: Variant> {
    positions: Vec<ProbePosition<V>>,
    /// The games' mean score for the mover at -2, 0 and +2 Men.
    games: [f64; 3],
}

impl<V: Variant> ProbeSet<V> {
    /// The run's probe set: `<run_dir>/probe/games-000000.parquet`, written from the built-in
    /// set first when missing. `None` for a variant without one.
    pub fn load(run_dir: &Path) -> Result<Option<Self>, RunError> {
        let Some(bytes) = built_in(V::NAME) else { return Ok(None) };
        let dir = run_dir.join(PROBE_DIR);
        let path = dir.join(PROBE_GAMES);
        if !path.exists() {
            std::fs::create_dir_all(&dir).map_err(io("creating", &dir))?;
            model::write_atomic(&path, bytes)?;
        }
        let games: Vec<SourcedGame> = records::read_games(&path)?
            .into_iter()
            .map(|record| SourcedGame { file: path.clone(), record })
            .collect();
        let bad = |message: String| RunError::Probe { path: path.clone(), message };
        let all = probe_positions::<V>(&games).map_err(|e| bad(e.to_string()))?;
        if all.is_empty() {
            return Err(bad("no positions".into()));
        }
        let step = all.len().div_ceil(MAX_POSITIONS);
        let positions: Vec<ProbePosition<V>> = all.into_iter().step_by(step).collect();
        let b = buckets(&positions);
        let at = |k: i32| b[(k + MAX_BALANCE) as usize].score;
        Ok(Some(ProbeSet { games: [at(-2), at(0), at(2)], positions }))
    }

    /// The value head of the checkpoint in `model_dir` on the set.
    pub fn measure(&self, model_dir: &Path, device: DeviceKind) -> Result<ProbeResult, RunError> {
        let source = Source::Checkpoint(model_dir.to_path_buf());
        let factory = EvaluatorFactory::new::<State<V>>(&source, device, 0)?;
        // A draw worth 0 to every seat: the seats' values are their win probabilities.
        let mut evaluator = factory.make::<State<V>>(DrawScore::Fixed(0.0));
        let m = model_values("model", &self.positions, &mut evaluator);
        let at = |k: i32| m.expected[(k + MAX_BALANCE) as usize];
        Ok(ProbeResult {
            down2: at(-2),
            even: at(0),
            up2: at(2),
            far_draw: m.far_draw,
            games: self.games,
        })
    }
}

/// A model's figures on the probe set (see [`ProbeSet::measure`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProbeResult {
    /// The value head's mean expected score for the mover (a draw at the fair share) two Men
    /// down, at even material and two Men up (`None` where the set has no such position).
    pub down2: Option<f64>,
    pub even: Option<f64>,
    pub up2: Option<f64>,
    /// The mean draw mass 16 or more moves from the end of decided games.
    pub far_draw: Option<f64>,
    /// What the set's games scored for the mover at -2, 0 and +2 Men.
    pub games: [f64; 3],
}

impl ProbeResult {
    /// The columns in `generations.csv`.
    pub const CSV_HEADER: [&'static str; 4] =
        ["probe_down2", "probe_even", "probe_up2", "probe_far_draw"];

    /// The cells of a row (empty for a model without figures).
    pub fn csv_cells(result: Option<&ProbeResult>) -> Vec<String> {
        let cell = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.4}"));
        match result {
            Some(r) => [r.down2, r.even, r.up2, r.far_draw].into_iter().map(cell).collect(),
            None => vec![String::new(); Self::CSV_HEADER.len()],
        }
    }

    /// The line printed after a generation's.
    pub fn line(&self, generation: u32) -> String {
        let f = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.2}"));
        let [d, e, u] = self.games;
        format!(
            "probe gen-{generation:04}: value {}/{}/{} at -2/0/+2 Men (the games scored \
             {d:.2}/{e:.2}/{u:.2}), draw mass far from the end {}",
            f(self.down2),
            f(self.even),
            f(self.up2),
            f(self.far_draw)
        )
    }
}

impl ModelFile for ProbeResult {
    const FILE: &'static str = PROBE_FILE;
    const WHAT: &'static str = "a value probe result";
}

#[cfg(test)]
mod tests {
    use games::{CamelotRules, TriCamelotRules};

    use super::*;
    use crate::testutil::scratch_dir;

    #[test]
    fn the_built_in_sets_load_and_their_games_see_material() {
        let dir = scratch_dir("probe-set");
        let set = ProbeSet::<CamelotRules>::load(&dir).unwrap().unwrap();
        assert!(dir.join(PROBE_DIR).join(PROBE_GAMES).is_file());
        assert!(set.positions.len() > 1000 && set.positions.len() <= MAX_POSITIONS);
        // In alpha-beta's games two Men down scores well below two Men up.
        let [down, even, up] = set.games;
        assert!(down < 0.4 && up > 0.6 && down < even && even < up, "{:?}", set.games);
        // Loaded again from the run's copy: the same positions.
        let again = ProbeSet::<CamelotRules>::load(&dir).unwrap().unwrap();
        assert_eq!(again.positions.len(), set.positions.len());
        let tri = ProbeSet::<TriCamelotRules>::load(&scratch_dir("probe-set-tri")).unwrap();
        assert!(tri.unwrap().positions.len() > 500);
    }

    #[test]
    fn a_damaged_copy_in_the_run_is_named() {
        let dir = scratch_dir("probe-set-bad");
        std::fs::create_dir_all(dir.join(PROBE_DIR)).unwrap();
        std::fs::write(dir.join(PROBE_DIR).join(PROBE_GAMES), b"not parquet").unwrap();
        let Err(e) = ProbeSet::<CamelotRules>::load(&dir) else { panic!("accepted") };
        assert!(e.is_bad_input(), "{e}");
    }

    #[test]
    fn results_round_trip_and_fill_their_cells() {
        let dir = scratch_dir("probe-result");
        let r = ProbeResult {
            down2: Some(0.3),
            even: Some(0.5),
            up2: None,
            far_draw: Some(0.01),
            games: [0.32, 0.5, 0.73],
        };
        r.write(&dir).unwrap();
        assert_eq!(ProbeResult::read(&dir).unwrap(), Some(r.clone()));
        assert_eq!(ProbeResult::read(&dir.join("none")).unwrap(), None);
        assert_eq!(ProbeResult::csv_cells(Some(&r)), ["0.3000", "0.5000", "", "0.0100"]);
        assert_eq!(ProbeResult::csv_cells(None), ["", "", "", ""]);
        let line = r.line(7);
        assert!(line.contains("gen-0007: value 0.30/0.50/- at -2/0/+2 Men"), "{line}");
        assert!(line.contains("scored 0.32/0.50/0.73"), "{line}");
    }
}
