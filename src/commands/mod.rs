//! One module per subcommand (or group of related subcommands).

pub mod bench;
mod bench_net;
pub mod rules;
pub mod selfplay;
pub mod show;
