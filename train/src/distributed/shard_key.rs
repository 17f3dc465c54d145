//! The keys of workers' shards in a run's location: `games/gen-NNNN/w-ID/` followed by the
//! record layout's own file names ([`ShardPaths`]: `games-NNNNNN.parquet`,
//! `positions-NNNNNN.parquet`), so that a worker's folder is a shard folder like any other.

use std::path::Path;

use records::{ShardPaths, WORKER_DIR_PREFIX};

use crate::generations::{generation_dir_name, parse_generation_dir_name};

/// A worker's shard in a run's location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerShard {
    pub generation: u32,
    pub worker: String,
    pub index: u32,
}

impl WorkerShard {
    /// The keys of its games file and its positions file.
    pub fn keys(&self) -> (String, String) {
        let folder = format!(
            "games/{}/{WORKER_DIR_PREFIX}{}",
            generation_dir_name(self.generation),
            self.worker
        );
        let paths = ShardPaths::new(Path::new(&folder), self.index);
        let key = |p: &Path| p.to_string_lossy().into_owned();
        (key(&paths.games), key(&paths.positions))
    }

    /// The learner's folder for the shard when it refuses it: `games/gen-NNNN/rejected/w-ID`,
    /// where its two files are moved (in the learner's run directory) and its notice is written
    /// (in the location, for the worker to read).
    pub fn rejected_folder(generation: u32, worker: &str) -> String {
        format!("games/{}/rejected/{WORKER_DIR_PREFIX}{worker}", generation_dir_name(generation))
    }

    /// The key of the learner's notice that it refused the shard: its games file's name with
    /// `.why` added, in [`WorkerShard::rejected_folder`]; the text is the reason.
    pub fn rejection_key(&self) -> String {
        let (games, _) = self.keys();
        let file = games.rsplit('/').next().expect("a key has a file name");
        format!("{}/{file}.why", WorkerShard::rejected_folder(self.generation, &self.worker))
    }

    /// The shard a rejection notice `key` ([`WorkerShard::rejection_key`]) is about, if `key`
    /// is one.
    pub fn parse_rejection(key: &str) -> Option<WorkerShard> {
        let (folder, file) = key.strip_suffix(".why")?.rsplit_once('/')?;
        let (generation, worker) = folder.strip_prefix("games/")?.split_once("/rejected/")?;
        let shard = WorkerShard::parse(&format!("games/{generation}/{worker}/{file}"))?;
        (shard.rejection_key() == key).then_some(shard)
    }

    /// The shard whose games file is `key`, if `key` is one (a canonical games file name in a
    /// worker's folder of a generation's folder).
    pub fn parse(key: &str) -> Option<WorkerShard> {
        let mut parts = key.split('/');
        let (root, generation, folder, file) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if root != "games" || parts.next().is_some() {
            return None;
        }
        // Canonical names only (gen-0003, not gen-3; games-000001, not games-1).
        let generation = parse_generation_dir_name(generation)?;
        let worker = folder.strip_prefix(WORKER_DIR_PREFIX).filter(|w| !w.is_empty())?;
        let index = ShardPaths::from_games_path(Path::new(file)).ok()?.index;
        Some(WorkerShard { generation, worker: worker.to_string(), index })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_back_and_other_names_are_not_shards() {
        let shard = WorkerShard { generation: 3, worker: "node-7".into(), index: 12 };
        let (games, positions) = shard.keys();
        assert_eq!(games, "games/gen-0003/w-node-7/games-000012.parquet");
        assert_eq!(positions, "games/gen-0003/w-node-7/positions-000012.parquet");
        assert_eq!(WorkerShard::parse(&games), Some(shard));
        for other in [
            positions.as_str(),
            "games/gen-3/w-a/games-000001.parquet",
            "games/gen-0003/a/games-000001.parquet",
            "games/gen-0003/w-a/games-1.parquet",
            "games/gen-0003/w-a/x/games-000001.parquet",
            "games/gen-0003/games-000001.parquet",
            "games/gen-0003/rejected/w-a-games-000001.parquet",
            "games/gen-0003/rejected/w-a/games-000001.parquet",
            "games/gen-0003/w-/games-000001.parquet",
            "models/gen-0003/w-a/games-000001.parquet",
        ] {
            assert_eq!(WorkerShard::parse(other), None, "{other}");
        }
    }

    #[test]
    fn a_rejection_notice_is_beside_the_refused_files_and_is_no_shard() {
        let shard = WorkerShard { generation: 3, worker: "node-7".into(), index: 12 };
        assert_eq!(WorkerShard::rejected_folder(3, "node-7"), "games/gen-0003/rejected/w-node-7");
        let notice = shard.rejection_key();
        assert_eq!(notice, "games/gen-0003/rejected/w-node-7/games-000012.parquet.why");
        assert_eq!(WorkerShard::parse(&notice), None);
        assert_eq!(WorkerShard::parse_rejection(&notice), Some(shard.clone()));
        for other in [
            "games/gen-0003/w-node-7/games-000012.parquet",
            "games/gen-0003/rejected/w-node-7/games-000012.parquet",
            "games/gen-0003/rejected/w-node-7/positions-000012.parquet.why",
            "games/gen-0003/rejected/node-7/games-000012.parquet.why",
            "games/gen-3/rejected/w-node-7/games-000012.parquet.why",
            "games/gen-0003/x/rejected/w-node-7/games-000012.parquet.why",
        ] {
            assert_eq!(WorkerShard::parse_rejection(other), None, "{other}");
        }
        // Worker ids that prefix each other have folders of their own.
        let other = WorkerShard { generation: 3, worker: "node".into(), index: 12 };
        assert!(!notice.starts_with(&format!("{}/", WorkerShard::rejected_folder(3, "node"))));
        assert_ne!(other.rejection_key(), notice);
    }
}
