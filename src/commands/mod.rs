//! One module per subcommand (or group of related subcommands).

pub mod analyze;
pub mod bench;
mod bench_net;
pub mod rules;
pub mod run;
mod run_dir;
pub mod selfplay;
pub mod show;
pub mod train;
