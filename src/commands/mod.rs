//! One module per subcommand (or group of related subcommands).

pub mod bench;
pub mod rules;
pub mod selfplay;
pub mod show;
