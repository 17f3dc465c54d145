//! `engine`: our engine on standard input and output, speaking the engine protocol
//! (`docs/engine-protocol.md`, [`engine`]) so that other programs can ask it for
//! moves and analyses.
//!
//! ```sh
//! camelot-zero engine --model data/camelot-cpu/models/gen-0041 --sims 400
//! ```
//!
//! With `--config`, the engine searches with that run config's `[play]` section (its tactics
//! filter, say).

use std::io::BufReader;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use engine::{EngineInfo, EvaluatorSource, serve};
use games::{State, Variant, VariantKind};
use model::DeviceKind;
use search::{DrawScore, Evaluator};
use train::{EvaluatorFactory, Source};

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// A checkpoint folder; without one, the engine searches with uniform priors and draw
    /// values (the `model` option changes it later).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Simulations per leg when `go` gives no budget (the `sims` option).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=i64::from(search::mcts::MAX_SIMULATIONS)))]
    pub sims: u32,
    /// A run configuration (TOML) whose [play] section sets how the model searches (its
    /// tactics filter, say); its other sections are not used. Without it, the [play] defaults.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// The engine's model: a checkpoint, or none.
struct ModelSource {
    model: Option<PathBuf>,
}

impl EvaluatorSource for ModelSource {
    fn evaluator<V: Variant>(&self) -> Result<Box<dyn Evaluator<State<V>>>, String> {
        let source = self.model.clone().map_or(Source::Uniform, Source::Checkpoint);
        let factory = EvaluatorFactory::new::<State<V>>(&source, DeviceKind::Cpu, 0)
            .map_err(|e| train::error_chain(&e))?;
        Ok(factory.make::<State<V>>(DrawScore::Share))
    }

    fn model(&self) -> String {
        self.model.as_ref().map_or("none".into(), |m| m.display().to_string())
    }

    fn set_model(&mut self, model: &str) -> Result<(), String> {
        self.model = match model {
            "none" => None,
            dir => {
                model::checkpoint::read_meta(std::path::Path::new(dir))
                    .map_err(|e| e.to_string())?;
                Some(PathBuf::from(dir))
            }
        };
        Ok(())
    }
}

pub fn run(args: EngineArgs) -> Result<()> {
    // The game before any `newgame` is the model's.
    let variant = match &args.model {
        Some(dir) => crate::input::checkpoint_variant(dir)?,
        None => VariantKind::Camelot,
    };
    let info = EngineInfo {
        name: "camelot-zero".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        sims: args.sims,
        variant,
        play: crate::input::play_search(args.config.as_deref())?,
    };
    let input = BufReader::new(std::io::stdin());
    serve(ModelSource { model: args.model }, info, input, std::io::stdout().lock())?;
    Ok(())
}
