//! The learner's side of the workers: publishing models and collecting shards.
//!
//! The learner works in a local run directory. For a folder location that directory *is* the
//! location: workers' shards appear in it. For an S3 location it is a local copy (the cache):
//! models and the learner's files are uploaded after they are written, and workers' shards are
//! downloaded into it before they are counted or trained on.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use location::{Location, Store};
use records::read_games;

use super::pointer::LatestModel;
use super::shard_key::WorkerShard;
use crate::generation_dir_name;
use crate::run::{RunError, RunEvent, Stage};

/// The games a generation of the learner waits for.
#[derive(Clone, Debug)]
pub struct WantedGames<'a> {
    /// The run's name, which every game record carries.
    pub run: &'a str,
    /// The run's variant (`VariantKind::as_str`).
    pub variant: &'a str,
    /// The generation whose games are wanted.
    pub generation: u32,
    /// The model that must have played them (`gen-NNNN`).
    pub model: String,
    /// The name the games of the run's classical teacher are recorded under
    /// (`selfplay.teacher`, e.g. `alphabeta:depth=2`; empty when it is off): the workers play
    /// its share of the generation as the learner would, so those games are wanted too, and
    /// so are its sparring games with the model (`gen-0003 vs alphabeta:depth=2`).
    pub teacher: String,
    /// How many.
    pub games: u64,
    /// The first generation of the replay window: its shards and the newer ones are collected
    /// (late shards of older models included).
    pub window_first: u32,
}

/// The workers of a run, seen from the learner.
pub struct WorkerHub {
    store: Store,
    /// Where the learner works: the location itself, or its local copy.
    run_dir: PathBuf,
    /// Shard keys refused already (not looked at again).
    rejected: RefCell<BTreeSet<String>>,
    /// Shard keys (of games files) checked and accepted already, with their games.
    accepted: RefCell<BTreeMap<String, u64>>,
    /// Time spent waiting for games, for the learner's idle share.
    waited: RefCell<Duration>,
}

impl WorkerHub {
    /// The hub of the run at `location`, worked on in `run_dir` (for a folder location, the
    /// folder itself).
    pub fn new(location: &Location, run_dir: &Path) -> Result<WorkerHub, RunError> {
        Ok(WorkerHub {
            store: Store::open(location)?,
            run_dir: run_dir.to_path_buf(),
            rejected: RefCell::new(BTreeSet::new()),
            accepted: RefCell::new(BTreeMap::new()),
            waited: RefCell::new(Duration::ZERO),
        })
    }

    fn remote(&self) -> bool {
        self.store.location().local().is_none()
    }

    /// The time spent waiting for workers' games so far.
    pub fn waited(&self) -> Duration {
        *self.waited.borrow()
    }

    /// Uploads a file of the run directory (S3 only; a folder location has it already).
    pub fn upload(&self, relative: &str) -> Result<(), RunError> {
        let path = self.run_dir.join(relative);
        if !self.remote() || !path.exists() {
            return Ok(());
        }
        let bytes = std::fs::read(&path).map_err(crate::run::error::io("reading", &path))?;
        Ok(self.store.put(relative, bytes)?)
    }

    /// Asks the workers for generation `g`'s games, played by model `model` (its files are
    /// uploaded first), by moving the pointer; `finished` tells them the run has all its
    /// generations.
    pub fn publish(&self, g: u32, model: u32, finished: bool) -> Result<(), RunError> {
        let relative = format!("models/{}", generation_dir_name(model));
        self.upload_tree(&relative)?;
        let meta = model::checkpoint::read_meta(&self.run_dir.join(&relative))?;
        let pointer = LatestModel {
            generation: g,
            model,
            tensors_fnv1a64: meta.tensors_fnv1a64.unwrap_or_default(),
            finished,
        };
        pointer.write(&self.store)
    }

    /// Uploads what a finished generation wrote (S3 only): the model it trained (`model`), its
    /// ladder games and the two metrics files.
    pub fn upload_generation(&self, model: u32) -> Result<(), RunError> {
        self.upload_tree(&format!("models/{}", generation_dir_name(model)))?;
        self.upload_tree(&format!("ladder/{}", generation_dir_name(model)))?;
        self.upload(crate::GENERATION_METRICS_FILE)?;
        self.upload(crate::STEP_METRICS_FILE)
    }

    /// Uploads the files of a folder of the run directory, `net.json` last (S3 only; a worker
    /// that sees a model's `net.json` finds the weights it describes).
    pub fn upload_tree(&self, relative: &str) -> Result<(), RunError> {
        let dir = self.run_dir.join(relative);
        if !self.remote() || !dir.is_dir() {
            return Ok(());
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(crate::run::error::io("reading", &dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort_by_key(|p| p.file_name().is_some_and(|n| n == model::checkpoint::META_FILE));
        for path in files {
            let name = path.file_name().expect("a file").to_string_lossy();
            self.upload(&format!("{relative}/{name}"))?;
        }
        Ok(())
    }

    /// Brings the run's files from an S3 location into the run directory before the learner
    /// starts (a learner resumed on another machine): the config, the run information, the
    /// metrics files, every model and every ladder. Files already there are kept.
    pub fn download_state(&self) -> Result<(), RunError> {
        if !self.remote() {
            return Ok(());
        }
        let mut keys = Vec::new();
        for prefix in ["models", "ladder"] {
            keys.extend(self.store.list(prefix)?);
        }
        keys.extend(
            [
                crate::run::CONFIG_FILE,
                crate::run::RUN_INFO_FILE,
                crate::GENERATION_METRICS_FILE,
                crate::STEP_METRICS_FILE,
            ]
            .map(String::from),
        );
        for key in keys {
            if key == super::pointer::LATEST_KEY {
                continue;
            }
            let path = self.run_dir.join(&key);
            if path.exists() {
                continue;
            }
            if let Some(bytes) = self.store.get(&key)? {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(crate::run::error::io("creating", parent))?;
                }
                storage::write_atomic(&path, &bytes)?;
            }
        }
        Ok(())
    }

    /// Waits until generation `wanted.generation` holds at least `wanted.games` games in
    /// accepted shards, bringing the shards of the replay window's generations into the run
    /// directory on the way and refusing foreign ones. Reports [`RunEvent::Waiting`] while it
    /// waits; `stop` ends the wait with [`RunError::Interrupted`].
    pub fn wait_for_games(
        &self,
        wanted: &WantedGames<'_>,
        stop: Option<&AtomicBool>,
        on_event: &mut impl FnMut(RunEvent<'_>),
    ) -> Result<u64, RunError> {
        let (g, needed) = (wanted.generation, wanted.games);
        let started = Instant::now();
        let result = loop {
            for generation in wanted.window_first..=g {
                self.collect(generation, wanted, on_event)?;
            }
            let have = self.games_of(g);
            if have >= needed {
                break Ok(have);
            }
            on_event(RunEvent::Waiting { generation: g, games: have, needed });
            if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
                break Err(RunError::Interrupted {
                    stage: Stage::SelfPlay,
                    generation: g,
                    run_dir: self.run_dir.clone(),
                });
            }
            std::thread::sleep(self.store.location().poll_interval());
        };
        *self.waited.borrow_mut() += started.elapsed();
        result
    }

    /// Games of generation `g` in accepted shards.
    fn games_of(&self, g: u32) -> u64 {
        let prefix = format!("games/{}/", generation_dir_name(g));
        self.accepted.borrow().iter().filter(|(k, _)| k.starts_with(&prefix)).map(|(_, n)| n).sum()
    }

    /// Checks every new shard of generation `g` (and, from S3, copies it into the run
    /// directory); a shard of another run, variant, generation or model, or one that does not
    /// read, is moved to `games/gen-g/rejected/w-ID/` (never trained on), reported, and
    /// answered with a notice in the location ([`WorkerShard::rejection_key`]) that stops its
    /// worker.
    fn collect(
        &self,
        g: u32,
        wanted: &WantedGames<'_>,
        on_event: &mut impl FnMut(RunEvent<'_>),
    ) -> Result<(), RunError> {
        // The wanted generation's games must be of the wanted model; the late shards of older
        // generations are checked for run, variant and generation only.
        let model = (g == wanted.generation).then_some(wanted.model.as_str());
        let prefix = format!("games/{}", generation_dir_name(g));
        for key in self.store.list(&prefix)? {
            let Some(shard) = WorkerShard::parse(&key).filter(|s| s.generation == g) else {
                continue;
            };
            if self.accepted.borrow().contains_key(&key) || self.rejected.borrow().contains(&key) {
                continue;
            }
            let (_, positions_key) = shard.keys();
            let local_games = self.run_dir.join(&key);
            let local_positions = self.run_dir.join(&positions_key);
            if self.remote() {
                let (Some(games), Some(positions)) =
                    (self.store.get(&key)?, self.store.get(&positions_key)?)
                else {
                    continue; // the positions file comes first; a missing one is a shard in flight
                };
                for (path, bytes) in [(&local_positions, positions), (&local_games, games)] {
                    if let Some(parent) = path.parent() {
                        std::fs::create_dir_all(parent)
                            .map_err(crate::run::error::io("creating", parent))?;
                    }
                    storage::write_atomic(path, &bytes)?;
                }
            } else if !local_positions.exists() {
                continue;
            }
            match check(&local_games, &local_positions, g, model, wanted) {
                Ok(games) => {
                    self.accepted.borrow_mut().insert(key, games);
                }
                Err(why) => {
                    // The notice first, then the files aside: a worker numbers its shards
                    // after every shard file and notice it finds (`next_shard`), so a refused
                    // shard must never be neither, or a worker started in between takes its
                    // number again, reads the old notice as its new shard's, and this hub
                    // skips the new shard as refused already. The worker reads the notice
                    // and stops: every shard it plays would be refused for the same reason.
                    self.store.put(&shard.rejection_key(), why.clone().into_bytes())?;
                    let folder = WorkerShard::rejected_folder(g, &shard.worker);
                    let aside = self.run_dir.join(&folder);
                    std::fs::create_dir_all(&aside)
                        .map_err(crate::run::error::io("creating", &aside))?;
                    for path in [&local_positions, &local_games] {
                        let target = aside.join(path.file_name().expect("a file"));
                        std::fs::rename(path, &target)
                            .map_err(crate::run::error::io("moving", path))?;
                    }
                    on_event(RunEvent::ShardRejected { key: &key, why: &why });
                    self.rejected.borrow_mut().insert(key);
                }
            }
        }
        Ok(())
    }
}

/// Why the shard of files `games` and `positions` cannot be trained on as generation `g` of
/// the wanted run and variant (played by `model`, when known, or by the run's teacher), if it
/// cannot; else its number of games.
fn check(
    games: &Path,
    positions: &Path,
    g: u32,
    model: Option<&str>,
    wanted: &WantedGames<'_>,
) -> Result<u64, String> {
    let records = read_games(games).map_err(|e| e.to_string())?;
    records::read_positions(positions).map_err(|e| e.to_string())?;
    for game in &records {
        if game.run != wanted.run {
            return Err(format!("a game of run {:?}, not {:?}", game.run, wanted.run));
        }
        if game.variant != wanted.variant {
            return Err(format!("a {} game in a {} run", game.variant, wanted.variant));
        }
        if game.generation != g {
            return Err(format!(
                "a game of generation {} in the folder of generation {g}",
                game.generation
            ));
        }
        if let Some(model) = model
            && !played_by(&game.model, model, &wanted.teacher)
        {
            return Err(format!("a game played by {}, not by {model}", game.model));
        }
    }
    Ok(records.len() as u64)
}

/// Whether a game whose record names `players` (its `model`: one player, or one per seat) was
/// played by `model` and the run's `teacher` (empty when it has none) alone: the model's
/// games, the teacher's, and those where it sparred with the model.
fn played_by(players: &str, model: &str, teacher: &str) -> bool {
    records::model_players(players).all(|p| p == model || (!teacher.is_empty() && p == teacher))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_shard_is_noticed_before_its_files_leave_the_workers_folder() {
        // (tests/distributed.rs's refused worker, restarted the moment its folder was empty,
        // once took the number of a shard whose notice was not written yet, and stopped on
        // that notice while the learner waited for its games.) Moving the games file aside
        // fails here, a folder standing in its place: the notice must be there already.
        let dir = crate::testutil::scratch_dir("hub-notice-first");
        let hub = WorkerHub::new(&Location::Local(dir.to_path_buf()), dir.path()).unwrap();
        let shard = WorkerShard { generation: 0, worker: "r".into(), index: 0 };
        let (games, positions) = shard.keys();
        std::fs::create_dir_all(dir.join(&games).parent().unwrap()).unwrap();
        std::fs::write(dir.join(&positions), b"not parquet").unwrap();
        std::fs::write(dir.join(&games), b"not parquet").unwrap();
        let aside = dir.join(WorkerShard::rejected_folder(0, "r"));
        std::fs::create_dir_all(aside.join("games-000000.parquet/x")).unwrap();
        let wanted = WantedGames {
            run: "run",
            variant: "camelot",
            generation: 0,
            model: "gen-0000".into(),
            teacher: String::new(),
            games: 1,
            window_first: 0,
        };
        let err = hub.collect(0, &wanted, &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("moving"), "{err}");
        assert!(dir.join(&games).exists(), "the games file stayed in the worker's folder");
        let notice = std::fs::read_to_string(dir.join(shard.rejection_key())).unwrap();
        assert!(notice.contains("games-000000.parquet"), "{notice}");
    }

    #[test]
    fn the_models_the_teachers_and_their_sparring_games_are_wanted_and_no_other() {
        let ab = "alphabeta:depth=2";
        for players in
            ["gen-0003", ab, "gen-0003 vs alphabeta:depth=2", "alphabeta:depth=2 vs gen-0003"]
        {
            assert!(played_by(players, "gen-0003", ab), "{players}");
        }
        for players in [
            "gen-0002",
            "alphabeta:depth=3",
            "gen-0002 vs alphabeta:depth=2",
            "gen-0003 vs random",
            "gen-0003 vs",
            "",
        ] {
            assert!(!played_by(players, "gen-0003", ab), "{players}");
        }
        // Without a teacher only the model's own games.
        assert!(played_by("gen-0003", "gen-0003", ""));
        assert!(!played_by(ab, "gen-0003", ""));
        assert!(!played_by("gen-0003 vs ", "gen-0003", ""));
    }
}
