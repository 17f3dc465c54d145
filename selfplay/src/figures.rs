//! The self-play figures of a shard folder over every session that wrote to it
//! (`selfplay.toml`): what a generation played in several sessions (after a kill, a Ctrl-C, a
//! resume) reports, instead of the figures of its last session alone.
//!
//! The file is rewritten (atomically) by [`crate::ShardWriter`] after every shard it writes, with
//! the totals of the earlier sessions plus the running totals of this one, so it counts exactly
//! the sessions' work up to their last written shard; work lost with a killed session's games in
//! flight is not counted (those games are played again and counted then).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::driver::SelfPlayStats;
use records::RecordError;

/// Totals of the self-play sessions that wrote a shard folder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionFigures {
    /// Sessions that wrote at least one shard.
    pub sessions: u32,
    /// Games written.
    pub games: u64,
    /// Wall time of the sessions, each up to its last shard, in seconds.
    pub seconds: f64,
    /// States sent to the evaluator, and the batched calls they went in.
    pub evaluations: u64,
    pub batches: u64,
    /// Evaluation-cache hits and misses (0 and 0 without a cache).
    pub cache_hits: u64,
    pub cache_misses: u64,
}

impl SessionFigures {
    /// The file's name in a shard folder.
    pub const FILE: &'static str = "selfplay.toml";

    /// Reads `dir/selfplay.toml`; `None` when there is none (a folder written before the file
    /// existed, or by hand).
    pub fn read(dir: &Path) -> Result<Option<SessionFigures>, RecordError> {
        let path = dir.join(Self::FILE);
        let text = match storage::read_limited(&path, 1 << 16) {
            Ok(text) => text,
            Err(e) if e.io_error().is_some_and(|e| e.kind() == std::io::ErrorKind::NotFound) => {
                return Ok(None);
            }
            Err(e) => return Err(RecordError::io(&path, std::io::Error::other(e.to_string()))),
        };
        toml::from_str(&text).map(Some).map_err(|e| {
            RecordError::io(&path, std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        })
    }

    /// These totals with a session's running totals added (as one more session).
    pub fn plus(&self, session: &SelfPlayStats) -> SessionFigures {
        SessionFigures {
            sessions: self.sessions + 1,
            games: self.games + session.games,
            seconds: self.seconds + session.wall_time.as_secs_f64(),
            evaluations: self.evaluations + session.evaluations,
            batches: self.batches + session.batches,
            cache_hits: self.cache_hits + session.cache_hits,
            cache_misses: self.cache_misses + session.cache_misses,
        }
    }

    /// Writes `dir/selfplay.toml` atomically.
    pub fn write(&self, dir: &Path) -> Result<(), RecordError> {
        let path = dir.join(Self::FILE);
        let text = format!(
            "# Self-play figures of the games in this folder, over every session that wrote them.\n{}",
            toml::to_string(self).expect("plain numbers serialise")
        );
        storage::write_atomic(&path, text.as_bytes())
            .map_err(|e| RecordError::io(&path, std::io::Error::other(e.to_string())))
    }

    /// Evaluations per second of the sessions' wall time.
    pub fn evaluations_per_second(&self) -> f64 {
        self.evaluations as f64 / self.seconds.max(1e-9)
    }

    /// Share of evaluations answered by the cache (0 without one).
    pub fn cache_hit_rate(&self) -> f64 {
        let n = self.cache_hits + self.cache_misses;
        if n == 0 { 0.0 } else { self.cache_hits as f64 / n as f64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn sessions_add_up_and_round_trip() {
        let dir = std::env::temp_dir().join(format!("figures-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(SessionFigures::read(&dir).unwrap(), None);
        let first = SelfPlayStats {
            games: 3,
            evaluations: 300,
            batches: 10,
            cache_hits: 30,
            cache_misses: 270,
            wall_time: Duration::from_secs(2),
            ..SelfPlayStats::default()
        };
        let second = SelfPlayStats { games: 1, wall_time: Duration::from_secs(3), ..first.clone() };
        let total = SessionFigures::default().plus(&first).plus(&second);
        assert_eq!((total.sessions, total.games, total.evaluations), (2, 4, 600));
        assert_eq!(total.evaluations_per_second(), 120.0);
        assert_eq!(total.cache_hit_rate(), 0.1);
        total.write(&dir).unwrap();
        assert_eq!(SessionFigures::read(&dir).unwrap(), Some(total));
        std::fs::write(dir.join(SessionFigures::FILE), "games = \"x\"").unwrap();
        assert!(SessionFigures::read(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
