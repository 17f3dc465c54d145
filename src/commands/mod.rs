//! One module per subcommand (or group of related subcommands).

pub mod analyze;
pub mod arena;
pub mod bench;
mod bench_net;
pub mod play;
pub mod rules;
pub mod run;
mod run_dir;
pub mod selfplay;
pub mod show;
pub mod train;
