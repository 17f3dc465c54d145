//! The training side of camelot-zero: the run configuration, and (issue 5) the replay window,
//! losses and the generation loop.

pub mod config;

pub use config::{
    ConfigError, GameConfig, KnightCanterName, NetSection, RunConfig, RunSection, TrainConfig,
    VariantName,
};
