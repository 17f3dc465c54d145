//! One module per subcommand (or group of related subcommands).

pub mod analyze;
pub mod arena;
pub mod bench;
mod bench_net;
pub mod device;
pub mod engine;
pub mod export;
pub mod learner;
pub mod play;
pub mod rate;
pub mod replay;
pub mod report;
pub mod rules;
pub mod run;
pub mod selfplay;
pub mod serve;
pub mod show;
pub mod stats;
pub mod train;
pub mod worker;
