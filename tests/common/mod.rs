//! Helpers shared by the binary's end-to-end tests (`mod common;` in each test file).
// Each test file uses only some of these helpers.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub use storage::ScratchDir;

/// The built `camelot-zero` binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_camelot-zero"))
}

/// `args![a, b, ...]`: a command line as an array of `&OsStr`, each argument a `&str`, a
/// `String`, a `Path`, a `PathBuf` or a [`ScratchDir`] (or a reference to one), for [`run`] or
/// `Command::args`: `run(&args!["report", "--run", run_dir, "--out", out])`.
macro_rules! args {
    ($($arg:expr),* $(,)?) => {
        [$(::std::convert::AsRef::<::std::path::Path>::as_ref(&$arg).as_os_str()),*]
    };
}
#[allow(unused_imports)]
pub(crate) use args;

/// The path of `configs/<name>`.
pub fn config(name: &str) -> String {
    format!("{}/configs/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// [`smoke_camelot_with`] edits making a generation long enough (24 games, 2 per shard, 2 in
/// flight) for a signal to land inside it.
pub const LONG_GENERATION: [(&str, &str); 3] = [
    ("games_per_generation = 8", "games_per_generation = 24"),
    ("games_per_shard = 4", "games_per_shard = 2"),
    ("games_in_flight = 8", "games_in_flight = 2"),
];

/// Writes `<dir>/<name>.toml` (creating `dir`): configs/smoke-camelot.toml with each
/// `(from, to)` replaced, in order; each `from` must be in the text it is applied to. The path
/// of the file written.
pub fn smoke_camelot_with(dir: &Path, name: &str, edits: &[(&str, &str)]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut text_cfg = std::fs::read_to_string(config("smoke-camelot.toml")).unwrap();
    for (from, to) in edits {
        assert!(text_cfg.contains(from), "smoke-camelot.toml has no `{from}`");
        text_cfg = text_cfg.replace(from, to);
    }
    let cfg = dir.join(format!("{name}.toml"));
    std::fs::write(&cfg, text_cfg).unwrap();
    cfg
}

/// A fresh, empty scratch folder under the temporary directory, named after the test file,
/// `name` and the process, removed with everything in it when the guard is dropped (at the end
/// of the test that holds it, also when the test fails), so that test runs leave nothing behind.
pub fn scratch(name: &str) -> ScratchDir {
    ScratchDir::new(&format!("cz-{}-{name}", env!("CARGO_CRATE_NAME"))).unwrap()
}

/// A program a test started, killed (SIGKILL) and reaped when dropped unless it has been
/// waited for, so that a test failing while it runs (a panic before the wait) leaves no learner,
/// worker or run going on in the background. Derefs to the [`Child`] for `id`, `kill`,
/// `try_wait` and its pipes.
pub struct Spawned(Option<Child>);

impl Spawned {
    /// Starts `command`.
    pub fn start(command: &mut Command) -> Spawned {
        Spawned(Some(command.spawn().expect("the program starts")))
    }

    /// Starts `command` with its standard output and standard error piped.
    pub fn piped(command: &mut Command) -> Spawned {
        Spawned::start(command.stdout(Stdio::piped()).stderr(Stdio::piped()))
    }

    /// Waits for the program to exit and returns its output, as [`Child::wait_with_output`].
    pub fn wait_with_output(mut self) -> std::io::Result<Output> {
        self.0.take().expect("not waited for yet").wait_with_output()
    }

    /// Waits (at most `secs`) for the program to exit and returns its output; past the limit it
    /// is killed and the test fails, naming `what` and showing its standard error.
    pub fn finish(mut self, secs: u64, what: &str) -> Output {
        let started = Instant::now();
        while self.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(secs) {
                let _ = self.kill();
                let out = self.wait_with_output().unwrap();
                panic!("{what} did not finish in {secs} s: {}", text(&out.stderr));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.wait_with_output().unwrap()
    }
}

impl Deref for Spawned {
    type Target = Child;
    fn deref(&self) -> &Child {
        self.0.as_ref().expect("not waited for yet")
    }
}

impl DerefMut for Spawned {
    fn deref_mut(&mut self) -> &mut Child {
        self.0.as_mut().expect("not waited for yet")
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0
            && matches!(child.try_wait(), Ok(None))
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs the binary to completion.
pub fn run(args: &[impl AsRef<OsStr>]) -> Output {
    bin().args(args).output().expect("runs")
}

/// The `run` command on `cfg` and `run_dir` (more arguments can be added).
pub fn run_command(cfg: impl AsRef<Path>, run_dir: impl AsRef<Path>) -> Command {
    let mut command = bin();
    command.args(args!["run", "--config", cfg, "--run-dir", run_dir]);
    command
}

/// Runs the `run` command on `cfg` and `run_dir`, with `extra` arguments, to completion.
pub fn run_loop(cfg: impl AsRef<Path>, run_dir: impl AsRef<Path>, extra: &[&str]) -> Output {
    run_command(cfg, run_dir).args(extra).output().expect("runs")
}

/// Starts `command` with its standard input and output piped (its standard error as the
/// command says, inherited unless set).
pub fn spawn_piped(command: &mut Command) -> Child {
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("the program starts")
}

/// Runs `command` to completion with `input` on its standard input, capturing its standard
/// output and standard error.
pub fn with_input(command: &mut Command, input: &[u8]) -> Output {
    let mut child =
        Spawned::start(command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()));
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Lossy UTF-8 of captured output.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The captured standard output, which must be UTF-8 (the programs the tests run write text).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("standard output is UTF-8")
}

/// The captured standard error, which must be UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("standard error is UTF-8")
}

/// Every game recorded in the shards of `dir`, in game-id order.
pub fn games_in(dir: &Path) -> Vec<records::GameRecord> {
    let mut games: Vec<records::GameRecord> = records::list_shards(dir)
        .unwrap()
        .iter()
        .flat_map(|s| records::read_games(&s.games).unwrap())
        .collect();
    games.sort_by_key(|g| g.game_id);
    games
}
