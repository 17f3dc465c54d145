//! The `[ladder]` section of a run configuration: the short arena played after each
//! generation (the new model against the previous one and against a fixed baseline), and
//! optional gating of which model plays the next self-play.

use selfplay::arena::PlayerSpec;
use serde::{Deserialize, Serialize};

/// The ladder after each generation. `games = 0` turns it off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LadderConfig {
    /// Games of each of the two matches (new model against the previous one, and against the
    /// baseline); 0 = no ladder. A multiple of 2 (Camelot) or 6 (Tri-Camelot) plays every
    /// seating equally often.
    pub games: u32,
    /// Run the ladder after every this many generations (and after the last one). Gating needs
    /// 1.
    pub every_generations: u32,
    /// Simulations per decision of the networks' searches.
    pub simulations: u32,
    /// The fixed baseline: a classical player as in `arena` (`random`, `greedy`,
    /// `alphabeta:depth=N`, `mcts:sims=N[,cutoff=K]`), or `anchors`: the anchor of the
    /// absolute Elo scale nearest the previous measured model's absolute Elo (see
    /// [`LadderConfig::baseline_choice`]). Against an anchor the model also gets an absolute Elo.
    pub baseline: String,
    /// Complete moves after which a ladder game is a draw.
    pub max_moves: u32,
    /// Random complete moves at the start of each game (shared by the games of a round).
    pub opening_moves: u32,
    /// Which model plays the next generation's self-play.
    pub gating: Gating,
    /// When the value probe measures a new model: after every generation, or with the ladder
    /// only (every model's checkpoint is kept, so `stats values` can probe the others later).
    pub probe: ProbeCadence,
}

/// When the value probe (`generations.csv`'s `probe_*` columns) measures a new model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeCadence {
    /// Every new model (about 2 s of a b4c32 network on one core).
    #[default]
    EveryGeneration,
    /// The models the ladder measures.
    WithLadder,
}

/// `baseline = "anchors"`.
pub const ANCHORS: &str = "anchors";

/// The ladder's second opponent.
#[derive(Clone, Debug, PartialEq)]
pub enum Baseline {
    /// Always this player.
    Fixed(PlayerSpec),
    /// The anchor of the stored table (`selfplay::arena::anchors`) whose Elo is nearest the
    /// absolute Elo of the previous measured model (0 for `gen-0000`).
    Anchors,
}

/// Which model plays self-play: always the newest, or the newest one that beat its
/// predecessor (AlphaGo Zero's evaluator). Training always continues from the newest weights.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Gating {
    /// Every new model is promoted.
    Off,
    /// A new model is promoted only if its score against the current best (½ = even, draws
    /// count ½, three players by head-to-head placement) is at least `score`.
    Threshold { score: f64 },
}

impl Default for LadderConfig {
    fn default() -> Self {
        LadderConfig {
            games: 0,
            every_generations: 1,
            simulations: 16,
            baseline: "mcts:sims=16".into(),
            max_moves: 400,
            opening_moves: 4,
            gating: Gating::Off,
            probe: ProbeCadence::EveryGeneration,
        }
    }
}

impl LadderConfig {
    /// Whether the ladder runs at all.
    pub fn enabled(&self) -> bool {
        self.games > 0
    }

    /// Whether model `gen-g` (g >= 1) is measured: every `every_generations`, and the last
    /// (`last`) model of a run.
    pub fn measures(&self, g: u32, last: u32) -> bool {
        self.enabled() && g > 0 && (g.is_multiple_of(self.every_generations.max(1)) || g == last)
    }

    /// Whether the value probe measures model `gen-g`, which the ladder measures or not
    /// (`ladder_measures`).
    pub fn probes(&self, ladder_measures: bool) -> bool {
        match self.probe {
            ProbeCadence::EveryGeneration => true,
            ProbeCadence::WithLadder => ladder_measures,
        }
    }

    /// The baseline: a fixed player, or the anchors.
    pub fn baseline_choice(&self) -> Result<Baseline, String> {
        if self.baseline == ANCHORS {
            return Ok(Baseline::Anchors);
        }
        let spec: PlayerSpec = self.baseline.parse().map_err(|e| format!("{e}"))?;
        if spec.checkpoint().is_some() || matches!(spec, PlayerSpec::Engine { .. }) {
            return Err("must be `anchors` or a classical player such as greedy, \
                 alphabeta:depth=2 or mcts:sims=N (a fixed player, not a checkpoint or an engine)"
                .into());
        }
        Ok(Baseline::Fixed(spec))
    }

    /// Range checks; the error is (`ladder.key`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let bad = |key: &str, problem: &str| Err((format!("ladder.{key}"), problem.to_string()));
        if let Err(problem) = self.baseline_choice() {
            return bad("baseline", &problem);
        }
        let counts = [
            ("games", u64::from(self.games), 0, selfplay::MAX_GAMES),
            (
                "simulations",
                u64::from(self.simulations),
                1,
                u64::from(search::mcts::MAX_SIMULATIONS),
            ),
            (
                "every_generations",
                u64::from(self.every_generations),
                1,
                search::bounds::MAX_GENERATIONS,
            ),
            ("max_moves", u64::from(self.max_moves), 1, search::bounds::MAX_MOVES),
        ];
        for (key, value, min, max) in counts {
            if let Some(problem) = search::bounds::outside(value, min, max) {
                return bad(key, &problem);
            }
        }
        if self.opening_moves >= self.max_moves {
            return bad("opening_moves", "must be below max_moves");
        }
        if let Gating::Threshold { score } = self.gating {
            if !(0.0..=1.0).contains(&score) {
                return bad("gating.threshold.score", "must be between 0 and 1");
            }
            if !self.enabled() {
                return bad("gating", "needs the ladder: set ladder.games above 0");
            }
            if self.every_generations != 1 {
                return bad("every_generations", "must be 1 with gating (every model is judged)");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<LadderConfig, String> {
        let c: LadderConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        c.validate().map_err(|(k, p)| format!("{k}: {p}"))?;
        Ok(c)
    }

    #[test]
    fn gating_is_an_enum_and_its_preconditions_are_checked() {
        let c = parse("games = 10\ngating = { threshold = { score = 0.55 } }").unwrap();
        assert_eq!(c.gating, Gating::Threshold { score: 0.55 });
        assert_eq!(parse("games = 10\ngating = \"off\"").unwrap().gating, Gating::Off);
        let e = parse("gating = { threshold = { score = 0.55 } }").unwrap_err();
        assert!(e.contains("ladder.gating") && e.contains("games"), "{e}");
        let e = parse("games = 4\nevery_generations = 2\ngating = { threshold = { score = 0.5 } }")
            .unwrap_err();
        assert!(e.contains("every_generations"), "{e}");
        let e = parse("games = 4\ngating = { threshold = { score = 1.5 } }").unwrap_err();
        assert!(e.contains("score"), "{e}");
    }

    #[test]
    fn the_baseline_is_a_fixed_player() {
        assert!(parse("baseline = \"greedy\"").is_ok());
        assert!(parse("baseline = \"random\"").is_ok());
        let e = parse("baseline = \"data/run/models/gen-0001:sims=3\"").unwrap_err();
        assert!(e.contains("ladder.baseline") && e.contains("checkpoint"), "{e}");
        assert!(parse("baseline = \"alphabeta:depth=2\"").is_ok());
        let c = parse("baseline = \"anchors\"").unwrap();
        assert_eq!(c.baseline_choice(), Ok(Baseline::Anchors));
        let e = parse("baseline = \"engine:foo\"").unwrap_err();
        assert!(e.contains("engine"), "{e}");
        let e = parse("baseline = \"alphazero\"").unwrap_err();
        assert!(e.contains("ladder.baseline") && e.contains("alphazero"), "{e}");
    }

    #[test]
    fn which_generations_are_measured() {
        let c = LadderConfig { games: 4, every_generations: 3, ..LadderConfig::default() };
        let measured: Vec<u32> = (0..=10).filter(|&g| c.measures(g, 10)).collect();
        assert_eq!(measured, vec![3, 6, 9, 10]);
        assert!(!LadderConfig::default().measures(3, 10), "off by default");
    }

    #[test]
    fn the_probe_measures_every_model_or_the_ladders() {
        let every = parse("games = 4").unwrap();
        assert!(every.probes(false) && every.probes(true), "every generation by default");
        let with = parse("games = 4\nevery_generations = 8\nprobe = \"with_ladder\"").unwrap();
        assert!(!with.probes(false) && with.probes(true));
        let e = parse("probe = \"sometimes\"").unwrap_err();
        assert!(e.contains("with_ladder"), "{e}");
    }
}
