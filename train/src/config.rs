//! The run configuration: one commented TOML file per run (see `configs/`), with sections
//! `[game]`, `[net]`, `[mcts]`, `[play]`, `[selfplay]`, `[train]`, `[run]` and `[ladder]`. Unknown keys are errors
//! (serde's `deny_unknown_fields`, reported by the TOML parser with the key and line), and every
//! value is range-checked by [`RunConfig::validate`], whose errors name `section.key`.

use std::path::Path;

use games::{Encoding, KnightCanter, Layout, RuleOptions, VariantKind};
use model::{DeviceKind, ModelError, NetConfig, OptimizerConfig, Precision, Preset};
use search::{MctsConfig, PlaySearch};
use selfplay::SelfPlayConfig;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::growth::Growth;
use crate::ladder::LadderConfig;
use crate::moves_left::MovesLeftTarget;
use crate::sampling::Sampling;
use crate::schedule::LrSchedule;
use crate::value_target::ValueTarget;
use crate::weight_average::WeightAverage;
use crate::window_growth::WindowGrowth;

/// Everything a run needs, as written in its TOML file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    pub game: GameConfig,
    pub net: NetSection,
    /// Self-play's search.
    #[serde(default)]
    pub mcts: MctsConfig,
    /// How the models search when they play: the ladder, and `arena`/`rate` given this config.
    #[serde(default)]
    pub play: PlaySearch,
    #[serde(default)]
    pub selfplay: SelfPlayConfig,
    #[serde(default)]
    pub train: TrainConfig,
    #[serde(default)]
    pub run: RunSection,
    #[serde(default)]
    pub ladder: LadderConfig,
}

/// Which game, with which rule options. The names are the games crate's own (`variant =
/// "camelot"`, `knight_canter = "final-square"`), through its `serde` feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    pub variant: VariantKind,
    #[serde(default)]
    pub knight_canter: KnightCanter,
}

impl GameConfig {
    /// The engine's rule options.
    pub fn rule_options(&self) -> RuleOptions {
        RuleOptions { knight_canter: self.knight_canter }
    }
}

/// The network: a named preset (`b4c32`, `b6c64`, `b10c128`, `b20c256`) on a device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetSection {
    pub preset: String,
    #[serde(default)]
    pub device: DeviceKind,
    /// The tower's depth over the run: `"off"` (default, the preset's throughout)
    /// or `{ blocks = { start = 2, every_generations = 16 } }` (see [`crate::growth`]).
    #[serde(default)]
    pub growth: Growth,
    /// The float type of self-play's forward passes on the GPU: `"f32"` (default) or `"f16"`
    /// ([`model::precision`]); training and checkpoints stay f32. `"f16"` needs `device = "gpu"`.
    #[serde(default)]
    pub precision: Precision,
    /// The input planes a new run's first network reads: `"basic"` (default) or `"tactical"`
    /// (the basic planes plus what each seat could capture, by jumps and by Knight's Charges;
    /// [`games::Encoding`]). A run keeps the encoding of its first model: every later model is
    /// trained from it.
    #[serde(default)]
    pub encoding: Encoding,
}

impl NetSection {
    /// The network of model `gen-generation` for game layout `shape`: the preset, with the
    /// tower as deep as `growth` says. The preset must be valid ([`RunConfig::validate`]).
    pub fn config_at(&self, shape: Layout, generation: u32) -> Result<NetConfig, ModelError> {
        let mut config = NetConfig::preset(&self.preset, shape)?;
        config.blocks = self.blocks_at(generation)?;
        Ok(config)
    }

    /// The residual blocks of model `gen-generation`'s tower: the preset's, as `growth` says.
    pub fn blocks_at(&self, generation: u32) -> Result<usize, ModelError> {
        Ok(self.growth.blocks(self.preset.parse::<Preset>()?.blocks(), generation))
    }
}

/// The generation loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunSection {
    /// Generations in the whole run (generation 0 plays with the random network).
    pub generations: u32,
    /// Self-play games per generation.
    pub games_per_generation: u32,
    /// Games per parquet shard (the unit that is kept when a run is interrupted).
    pub games_per_shard: u32,
    /// Seed of everything random in the run.
    pub seed: u64,
    /// Train for at most this long (`"60m"`, `"1h30m"`): no generation starts that would end
    /// past it ([`crate::TimeBudget`]); `run --time` overrides it. None: only `generations`
    /// ends the run.
    pub time_budget: Option<crate::TimeBudget>,
}

impl Default for RunSection {
    fn default() -> Self {
        RunSection {
            generations: 10,
            games_per_generation: 64,
            games_per_shard: 16,
            seed: 1,
            time_budget: None,
        }
    }
}

/// Training settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainConfig {
    /// Positions per training step.
    pub batch_size: usize,
    /// Optimizer steps after each generation's self-play.
    pub steps_per_generation: u32,
    /// Sample from the newest `window_generations` generations of positions (the least, when
    /// `window_growth` grows the window: see [`TrainConfig::window_at`]).
    pub window_generations: u32,
    /// How the window grows with the run: `"off"` (default) or
    /// `{ power = { exponent = 0.7 } }` (see [`crate::window_growth`]).
    pub window_growth: WindowGrowth,
    /// Base learning rate (see `lr_schedule`).
    pub learning_rate: f64,
    /// How the learning rate moves from `learning_rate` (default constant): e.g.
    /// `{ step_decay = { every_generations = 10, factor = 0.5 } }`,
    /// `{ sample_decay = { every_samples = 500000, factor = 0.5, floor = 0.25 } }` (by the
    /// run's training samples) or `{ cosine = { final_fraction = 0.1 } }` (within each
    /// generation).
    pub lr_schedule: LrSchedule,
    /// Weight of the value loss against the policy loss.
    pub value_weight: f32,
    /// What the value head learns: `"outcome"` (default) or
    /// `{ discounted = { per_move = 0.98 } }` (see [`crate::value_target`]).
    pub value_target: ValueTarget,
    /// The weight of the search's root value in the value target, the rest from the game's
    /// result (`value_target`): 0 (the default) trains on results alone (see
    /// [`crate::targets::search_value_target`]).
    pub search_value_weight: f32,
    /// The moves-left head's target: `"off"` (default) or
    /// `{ moves = { weight = 0.5 } }` (see [`crate::moves_left`]); the searches read the
    /// head with `[mcts] moves_left`.
    pub moves_left_target: MovesLeftTarget,
    /// How batches draw rows from the window: `"uniform"` (default) or
    /// `{ policy_surprise = { share = 0.5 } }` (see [`crate::sampling`]).
    pub sampling: Sampling,
    /// Apply a random board symmetry to each sample (Camelot's mirror; Tri-Camelot has none).
    pub augment: bool,
    /// Measure the value accuracy and the network's policy entropy on the batch every this
    /// many steps (an extra inference pass on the batch, ~1/4 of a step's time); 0 = never.
    pub probe_every: u32,
    pub optimizer: OptimizerConfig,
    /// The network each generation publishes: `"off"` (default, the trained weights) or
    /// `{ ema = { decay = D } }`, their moving average over generations ([`WeightAverage`]).
    pub weight_average: WeightAverage,
}

impl TrainConfig {
    /// The generations in generation `g`'s replay window (the window that trains model `g + 1`,
    /// its newest generation `g`): `window_generations`, grown by `window_growth` with the
    /// `g + 1` generations played.
    pub fn window_at(&self, g: u32) -> u32 {
        self.window_growth.generations(self.window_generations, g.saturating_add(1))
    }

    /// Range checks of the training settings; the error is (`train.key`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let bad = |key: &str, problem: &str| Err((format!("train.{key}"), problem.to_string()));
        let counts = [
            ("batch_size", self.batch_size as u64, 1, MAX_BATCH),
            ("steps_per_generation", u64::from(self.steps_per_generation), 0, MAX_STEPS),
            ("window_generations", u64::from(self.window_generations), 1, MAX_GENERATIONS),
            ("probe_every", u64::from(self.probe_every), 0, MAX_GENERATIONS),
        ];
        for (key, value, min, max) in counts {
            if let Some(problem) = search::bounds::outside(value, min, max) {
                return bad(key, &problem);
            }
        }
        if !(self.learning_rate > 0.0 && self.learning_rate < 10.0) {
            return bad("learning_rate", "must be above 0 and below 10");
        }
        if !(0.0..=100.0).contains(&self.value_weight) {
            return bad("value_weight", "must be from 0 to 100");
        }
        // Decay of more than the weights themselves, or momentum of 1 or more, diverges.
        let optimizer = match self.optimizer {
            OptimizerConfig::AdamW { .. } => "adamw",
            OptimizerConfig::Sgd { .. } => "sgd",
        };
        if !(0.0..=1.0).contains(&self.optimizer.weight_decay()) {
            return bad(&format!("optimizer.{optimizer}.weight_decay"), "must be from 0 to 1");
        }
        if let OptimizerConfig::Sgd { momentum, .. } = self.optimizer
            && !(0.0..1.0).contains(&momentum)
        {
            return bad("optimizer.sgd.momentum", "must be at least 0 and below 1");
        }
        if !(0.0..=1.0).contains(&self.search_value_weight) {
            return bad("search_value_weight", "must be between 0 and 1");
        }
        // Each option's own checks, its keys named under `train.<option>`.
        let checks = [
            ("value_target", self.value_target.validate()),
            ("sampling", self.sampling.validate()),
            ("moves_left_target", self.moves_left_target.validate()),
            ("weight_average", self.weight_average.validate()),
            ("lr_schedule", self.lr_schedule.validate()),
            ("window_growth", self.window_growth.validate()),
        ];
        for (option, check) in checks {
            check.map_err(|(key, problem)| (format!("train.{option}.{key}"), problem))?;
        }
        Ok(())
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            batch_size: 256,
            steps_per_generation: 100,
            window_generations: 4,
            window_growth: WindowGrowth::Off,
            learning_rate: 1e-3,
            lr_schedule: LrSchedule::Constant,
            value_weight: 1.0,
            value_target: ValueTarget::Outcome,
            search_value_weight: 0.0,
            moves_left_target: MovesLeftTarget::Off,
            sampling: Sampling::Uniform,
            augment: true,
            probe_every: 10,
            optimizer: OptimizerConfig::default(),
            weight_average: WeightAverage::Off,
        }
    }
}

/// The largest training batch: the activations of a batch of 8,192 of the largest preset fill
/// tens of gigabytes already (a batch of 10^8 grew a run to 24 GB before the kernel killed it).
pub const MAX_BATCH: u64 = 8192;
/// The most training steps a generation.
pub const MAX_STEPS: u64 = 1_000_000;
pub use search::bounds::MAX_GENERATIONS;

/// A config that cannot be used, naming the file and the problem.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("config {path} is longer than {limit} bytes: not a configuration")]
    TooLarge { path: String, limit: u64 },
    #[error("config {path}: {message}")]
    Parse { path: String, message: String },
    #[error("config {path}: {key}: {problem}")]
    Invalid { path: String, key: String, problem: String },
}

/// The longest configuration file read (a config is a few kilobytes; this stops a wrong path
/// such as `/dev/zero` from filling the memory).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

impl RunConfig {
    /// Reads, parses and validates a config file.
    pub fn load(path: &Path) -> Result<RunConfig, ConfigError> {
        let shown = path.display().to_string();
        let text = storage::read_limited(path, MAX_CONFIG_BYTES).map_err(|e| match e {
            storage::StorageError::Io { source, .. } => {
                ConfigError::Read { path: shown.clone(), source }
            }
            _ => ConfigError::TooLarge { path: shown.clone(), limit: MAX_CONFIG_BYTES },
        })?;
        Self::parse(&text, &shown)
    }

    /// Reads config text without checking its values: as written, or, when that fails and the
    /// file writes options in the form of before the one TOML style, with those rewritten
    /// ([`crate::legacy_config`]); the error is then the rewritten file's.
    pub fn from_toml(text: &str) -> Result<RunConfig, toml::de::Error> {
        toml::from_str(text).or_else(|as_written| {
            let Ok(mut doc) = text.parse::<toml::Table>() else { return Err(as_written) };
            let upgraded = crate::legacy_config::upgrade(&mut doc);
            if let Some(problem) = crate::legacy_config::retired_in_use(&doc) {
                return Err(serde::de::Error::custom(problem));
            }
            if !upgraded {
                return Err(as_written);
            }
            toml::Value::Table(doc).try_into()
        })
    }

    /// Parses and validates config text; `path` only labels errors.
    pub fn parse(text: &str, path: &str) -> Result<RunConfig, ConfigError> {
        let config: RunConfig = Self::from_toml(text).map_err(|e| ConfigError::Parse {
            path: path.to_string(),
            message: e.to_string().trim_end().replace('\n', " "),
        })?;
        config.validate().map_err(|(key, problem)| ConfigError::Invalid {
            path: path.to_string(),
            key,
            problem,
        })?;
        Ok(config)
    }

    /// Range checks; the error is (`section.key`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        let bad = |key: &str, problem: &str| Err((key.to_string(), problem.to_string()));
        let Ok(preset) = self.net.preset.parse::<Preset>() else {
            let names: Vec<String> = Preset::ALL.iter().map(|p| p.to_string()).collect();
            return bad(
                "net.preset",
                &format!("unknown preset `{}` (known: {})", self.net.preset, names.join(", ")),
            );
        };
        let growth = self.net.growth.validate(preset.blocks());
        growth.map_err(|(key, problem)| (format!("net.growth.{key}"), problem))?;
        if !self.net.device.is_built() {
            return bad(
                "net.device",
                "`gpu` needs a build with `--features gpu` (see docs/gpu.md)",
            );
        }
        if self.net.precision != Precision::F32 && self.net.device != DeviceKind::Gpu {
            return bad(
                "net.precision",
                "`f16` needs `device = \"gpu\"`: the native CPU engine runs f32 only",
            );
        }
        self.mcts.validate().map_err(|e| (format!("mcts.{}", e.key()), e.to_string()))?;
        self.play.validate().map_err(|e| (format!("play.{}", e.key()), e.to_string()))?;
        let players = self.game.variant.num_players();
        self.selfplay.validate(players).map_err(|e| (format!("selfplay.{}", e.key), e.problem))?;
        self.train.validate()?;
        self.ladder.validate()?;
        // The searches read moves left from the head the moves-left target trains: without
        // it they would get none and the option would do nothing.
        let head = self.train.moves_left_target != MovesLeftTarget::Off;
        for (key, on) in [("mcts", self.mcts.moves_left), ("play", self.play.moves_left)] {
            if on.is_on() && !head {
                return bad(
                    &format!("{key}.moves_left"),
                    "reads the moves-left head: set train.moves_left_target = { moves = { weight = ... } } too",
                );
            }
        }
        let r = &self.run;
        if let Some(problem) = search::bounds::outside(u64::from(r.generations), 1, MAX_GENERATIONS)
        {
            return bad("run.generations", &problem);
        }
        if let Some(problem) =
            search::bounds::outside(u64::from(r.games_per_shard), 1, selfplay::MAX_GAMES)
        {
            return bad("run.games_per_shard", &problem);
        }
        if r.games_per_generation == 0 {
            return bad("run.games_per_generation", "must be at least 1");
        }
        if u64::from(r.games_per_generation) > selfplay::MAX_GAMES {
            return bad(
                "run.games_per_generation",
                &format!("must be at most {} (games one session plays)", selfplay::MAX_GAMES),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "[game]\nvariant = \"camelot\"\n[net]\npreset = \"b4c32\"\n";

    #[test]
    fn the_moves_left_utility_needs_the_head_it_reads() {
        let utility = "moves_left = { utility = { slope = 0.01, cap = 0.1 } }";
        for section in ["mcts", "play"] {
            let text = format!("{MINIMAL}[{section}]\n{utility}\n");
            let error = RunConfig::parse(&text, "t.toml").unwrap_err().to_string();
            assert!(error.contains(&format!("{section}.moves_left")), "{error}");
            assert!(error.contains("train.moves_left_target"), "{error}");
            let trained =
                format!("{text}[train]\nmoves_left_target = {{ moves = {{ weight = 0.5 }} }}\n");
            RunConfig::parse(&trained, "t.toml").unwrap();
        }
    }

    #[test]
    fn a_minimal_config_takes_the_defaults() {
        let c = RunConfig::parse(MINIMAL, "t.toml").unwrap();
        assert_eq!(c.game.variant, VariantKind::Camelot);
        assert_eq!(c.run, RunSection::default());
        assert_eq!(c.net.device, DeviceKind::Cpu);
    }

    /// The config spells variants and rule options as the command line and records do.
    #[test]
    fn game_names_are_the_games_crate_names() {
        for variant in VariantKind::ALL {
            for knight_canter in KnightCanter::ALL {
                let text = format!(
                    "[game]\nvariant = \"{variant}\"\nknight_canter = \"{knight_canter}\"\n[net]\npreset = \"b4c32\"\n"
                );
                let c = RunConfig::parse(&text, "t.toml").unwrap();
                assert_eq!(c.game, GameConfig { variant, knight_canter });
            }
        }
    }

    /// Every configuration in `configs/` is valid. A GPU one, in a build without the `gpu`
    /// feature, is refused at `net.device` naming the feature, and valid once set to the CPU.
    #[test]
    fn the_shipped_configs_are_valid() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
        let mut gpu_configs = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.display().to_string();
            let gpu_line = text.lines().find(|l| l.trim_start().starts_with("device = \"gpu\""));
            match gpu_line {
                Some(line) if !DeviceKind::Gpu.is_built() => {
                    gpu_configs += 1;
                    let e = RunConfig::parse(&text, &name).unwrap_err().to_string();
                    assert!(e.contains("net.device") && e.contains("--features gpu"), "{e}");
                    let on_cpu = text.replace(line, "device = \"cpu\"");
                    RunConfig::parse(&on_cpu, &name).unwrap_or_else(|e| panic!("{e}"));
                }
                Some(_) => {
                    gpu_configs += 1;
                    RunConfig::parse(&text, &name).unwrap_or_else(|e| panic!("{e}"));
                }
                None => drop(RunConfig::parse(&text, &name).unwrap_or_else(|e| panic!("{e}"))),
            }
        }
        assert_eq!(gpu_configs, 3, "camelot-gpu.toml, camelot-gpu-6m.toml and tricamelot-gpu.toml");
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_key() {
        let e =
            RunConfig::parse(&format!("{MINIMAL}[train]\nbatch_sise = 3\n"), "t.toml").unwrap_err();
        assert!(e.to_string().contains("batch_sise"), "{e}");
        let e =
            RunConfig::parse(&format!("{MINIMAL}[train]\nbatch_size = 0\n"), "t.toml").unwrap_err();
        assert!(e.to_string().contains("train.batch_size"), "{e}");
        let e = RunConfig::parse(&MINIMAL.replace("b4c32", "b9c9"), "t.toml").unwrap_err();
        assert!(e.to_string().contains("net.preset") && e.to_string().contains("b6c64"), "{e}");
        let e = RunConfig::parse(&format!("{MINIMAL}[selfplay]\ngames_in_flight = 0\n"), "t.toml")
            .unwrap_err();
        assert!(e.to_string().contains("selfplay.games_in_flight"), "{e}");
        let half = MINIMAL.replace("\"b4c32\"\n", "\"b4c32\"\nprecision = \"f16\"\n");
        let e = RunConfig::parse(&half, "t.toml").unwrap_err();
        assert!(e.to_string().contains("net.precision") && e.to_string().contains("gpu"), "{e}");
        let e = RunConfig::parse(&half.replace("f16", "f8"), "t.toml").unwrap_err();
        assert!(e.to_string().contains("f8"), "{e}");
        let e = RunConfig::parse("[game]\nvariant = \"chess\"\n", "t.toml").unwrap_err();
        assert!(e.to_string().contains("chess"), "{e}");
        let e = RunConfig::parse(&format!("{MINIMAL}[run]\ntime_budget = \"60\"\n"), "t.toml")
            .unwrap_err();
        assert!(e.to_string().contains("time_budget") && e.to_string().contains("1h30m"), "{e}");
        let ok = RunConfig::parse(&format!("{MINIMAL}[run]\ntime_budget = \"1h30m\"\n"), "t.toml")
            .unwrap();
        assert_eq!(ok.run.time_budget, Some("90m".parse().unwrap()));
        let e =
            RunConfig::parse(&format!("{MINIMAL}[train]\nsearch_value_weight = 1.5\n"), "t.toml")
                .unwrap_err();
        assert!(e.to_string().contains("train.search_value_weight"), "{e}");
        let surprise = |share| {
            format!("{MINIMAL}[train]\nsampling = {{ policy_surprise = {{ share = {share} }} }}\n")
        };
        let ok = RunConfig::parse(&surprise("0.5"), "t.toml").unwrap();
        assert_eq!(ok.train.sampling, Sampling::PolicySurprise { share: 0.5 });
        let e = RunConfig::parse(&surprise("1.5"), "t.toml").unwrap_err();
        assert!(e.to_string().contains("train.sampling.policy_surprise.share"), "{e}");
        let growth = |start| {
            MINIMAL.replace(
                "\"b4c32\"\n",
                &format!(
                    "\"b4c32\"\ngrowth = {{ blocks = {{ start = {start}, every_generations = 4 }} }}\n"
                ),
            )
        };
        let ok = RunConfig::parse(&growth(1), "t.toml").unwrap();
        let camelot = <games::Camelot as games::Encode>::layout(Encoding::Basic).clone();
        assert_eq!(ok.net.config_at(camelot.clone(), 0).unwrap().blocks, 1);
        assert_eq!(ok.net.config_at(camelot.clone(), 4).unwrap().blocks, 2);
        assert_eq!(ok.net.config_at(camelot.clone(), 100).unwrap().blocks, 4);
        assert_eq!(ok.net.config_at(camelot, 100).unwrap().channels, 32);
        let e = RunConfig::parse(&growth(5), "t.toml").unwrap_err();
        assert!(e.to_string().contains("net.growth.blocks.start"), "{e}");
        let e = RunConfig::parse(&format!("{MINIMAL}[play]\nc_puct_init = -1.0\n"), "t.toml")
            .unwrap_err();
        assert!(e.to_string().contains("play"), "{e}");
        let e = RunConfig::parse(&format!("{MINIMAL}[play]\nsimulations = 64\n"), "t.toml")
            .unwrap_err();
        assert!(e.to_string().contains("simulations"), "{e}");
        let ok = RunConfig::parse(&format!("{MINIMAL}[play]\nforced_legs = \"pass\"\n"), "t.toml")
            .unwrap();
        assert_eq!(ok.play.forced_legs, search::ForcedLegs::Pass);
        assert_eq!(ok.play.win_check, search::WinCheck::InOne, "the rest are the defaults");
        let e = RunConfig::load(Path::new("/nonexistent/run.toml")).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/run.toml"), "{e}");
    }
}
