//! The lock of a directory that one process at a time may work in (a run directory).
//!
//! The lock is a file created exclusively in the directory, holding who took it: process id,
//! host, the process's start time (to tell a reused process id from the holder) and the command.
//! A second process finds the file and is refused with the holder's name. A lock whose holder is
//! gone (a process killed with SIGKILL cannot remove it) is taken over: on the same host when
//! no process with that id and start time runs any more (read from `/proc`; where there is no
//! `/proc` a lock is never judged stale and the message says how to remove it).

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use crate::error::{StorageError, io};

/// Who holds a lock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockHolder {
    pub pid: u32,
    pub host: String,
    /// The process's start time in clock ticks since boot (`/proc/<pid>/stat` field 22), when
    /// known: with the pid it identifies the process even after the pid is reused.
    pub process_start: Option<u64>,
    /// When the lock was taken, in seconds since the Unix epoch.
    pub since_unix: u64,
    /// What holds it (e.g. `camelot-zero run`).
    pub command: String,
}

impl LockHolder {
    /// This process.
    pub fn current(command: &str) -> LockHolder {
        let pid = std::process::id();
        LockHolder {
            pid,
            host: host_name(),
            process_start: process_start(pid),
            since_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            command: command.to_string(),
        }
    }

    fn to_text(&self) -> String {
        let start = self.process_start.map_or(String::new(), |s| format!("process_start = {s}\n"));
        format!(
            "# Held while a process works in this directory; a stale one is taken over.\n\
             pid = {}\nhost = {:?}\n{start}since_unix = {}\ncommand = {:?}\n",
            self.pid, self.host, self.since_unix, self.command
        )
    }

    fn parse(text: &str) -> Option<LockHolder> {
        let value = |key: &str| {
            text.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
            })
        };
        Some(LockHolder {
            pid: value("pid")?.parse().ok()?,
            host: value("host")?,
            process_start: value("process_start").and_then(|s| s.parse().ok()),
            since_unix: value("since_unix")?.parse().ok()?,
            command: value("command").unwrap_or_default(),
        })
    }

    fn is_gone(&self) -> bool {
        process_is_gone(&self.host, self.pid, self.process_start)
    }
}

impl fmt::Display for LockHolder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` (pid {} on {}, since unix time {})",
            self.command, self.pid, self.host, self.since_unix
        )
    }
}

/// A held lock; dropping it removes the lock file.
#[derive(Debug)]
pub struct DirLock {
    path: PathBuf,
    holder: LockHolder,
}

impl DirLock {
    /// Takes the lock file `name` in `dir` for this process (`command` names it for others).
    /// Fails with [`StorageError::Locked`] naming the holder while a live process holds it; takes
    /// over a lock whose holder is gone. `dir` must exist.
    pub fn acquire(dir: &Path, name: &str, command: &str) -> Result<DirLock, StorageError> {
        let path = dir.join(name);
        let holder = LockHolder::current(command);
        // A few rounds: a stale lock is removed and the create retried; two processes taking over
        // the same stale lock race on the exclusive create, and one of them loses.
        for _ in 0..3 {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut file) => {
                    file.write_all(holder.to_text().as_bytes())
                        .and_then(|()| file.sync_all())
                        .map_err(io("writing", &path))?;
                    return Ok(DirLock { path, holder });
                }
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    let text = fs::read_to_string(&path).unwrap_or_default();
                    match LockHolder::parse(&text) {
                        Some(other) if other.is_gone() => {
                            let _ = fs::remove_file(&path);
                        }
                        Some(other) => {
                            return Err(StorageError::Locked {
                                dir: dir.to_path_buf(),
                                lock: path,
                                holder: other.to_string(),
                            });
                        }
                        // A holder killed between creating the file and writing it leaves it
                        // empty or torn: stale once it is older than a few seconds.
                        None if modified_secs_ago(&path) > 5 => {
                            let _ = fs::remove_file(&path);
                        }
                        None => {
                            return Err(StorageError::Locked {
                                dir: dir.to_path_buf(),
                                lock: path,
                                holder: "a process that is just starting".into(),
                            });
                        }
                    }
                }
                Err(e) => return Err(io("creating", &path)(e)),
            }
        }
        Err(StorageError::Locked {
            dir: dir.to_path_buf(),
            lock: path,
            holder: "another process taking over the same stale lock".into(),
        })
    }

    /// This process's entry in the lock.
    pub fn holder(&self) -> &LockHolder {
        &self.holder
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Only our own lock: if it was taken over meanwhile, it is not ours to remove.
        let ours = fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| LockHolder::parse(&t))
            .is_some_and(|h| h.pid == self.holder.pid && h.since_unix == self.holder.since_unix);
        if ours {
            let _ = fs::remove_file(&self.path);
        }
    }
}

fn modified_secs_ago(path: &Path) -> u64 {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .map_or(u64::MAX, |d| d.as_secs())
}

/// Whether the process `pid` of `host`, started at `process_start` (see
/// [`LockHolder::process_start`]), is known to be gone: same host, and no process with that id
/// (and start time) runs. Unknown (another host, no `/proc`) counts as alive.
pub fn process_is_gone(host: &str, pid: u32, started: Option<u64>) -> bool {
    if host != host_name() || !Path::new("/proc/self/stat").exists() {
        return false;
    }
    match (process_start(pid), started) {
        (None, _) => true,
        (Some(now), Some(then)) => now != then,
        (Some(_), None) => false,
    }
}

/// This machine's name (as `/proc/sys/kernel/hostname` or `$HOSTNAME` say).
pub fn host_name() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| fs::read_to_string("/etc/hostname").ok())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown-host".into())
}

/// The start time of process `pid` in clock ticks since boot: field 22 of `/proc/<pid>/stat`
/// (after the parenthesised command, which may hold spaces); `None` without such a process
/// (or without `/proc`).
pub fn process_start(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ScratchDir;

    #[test]
    fn a_second_holder_is_refused_with_the_holders_name() {
        let dir = ScratchDir::new("storage-lock-second").unwrap();
        let lock = DirLock::acquire(&dir, "run.lock", "camelot-zero run").unwrap();
        let err = DirLock::acquire(&dir, "run.lock", "camelot-zero run").unwrap_err();
        let message = err.to_string();
        assert!(message.contains(&format!("pid {}", std::process::id())), "{message}");
        assert!(message.contains("camelot-zero run"), "{message}");
        drop(lock);
        assert!(!dir.join("run.lock").exists(), "dropping the lock removes it");
        DirLock::acquire(&dir, "run.lock", "again").unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_lock_of_a_dead_process_is_taken_over() {
        let dir = ScratchDir::new("storage-lock-stale").unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        let dead = LockHolder { pid, process_start: Some(1), ..LockHolder::current("killed run") };
        fs::write(dir.join("run.lock"), dead.to_text()).unwrap();
        let lock = DirLock::acquire(&dir, "run.lock", "new run").unwrap();
        assert_eq!(lock.holder().pid, std::process::id());
        // A live holder with a different start time is a reused pid: also stale.
        drop(lock);
        let reused = LockHolder { process_start: Some(1), ..LockHolder::current("old") };
        fs::write(dir.join("run.lock"), reused.to_text()).unwrap();
        DirLock::acquire(&dir, "run.lock", "new run").unwrap();
    }

    #[test]
    fn a_holder_on_another_host_is_never_judged_stale() {
        let dir = ScratchDir::new("storage-lock-host").unwrap();
        let other = LockHolder { host: "elsewhere".into(), pid: 1, ..LockHolder::current("x") };
        fs::write(dir.join("run.lock"), other.to_text()).unwrap();
        let err = DirLock::acquire(&dir, "run.lock", "y").unwrap_err();
        assert!(err.to_string().contains("elsewhere"), "{err}");
    }

    #[test]
    fn the_holder_text_round_trips() {
        let h = LockHolder::current("camelot-zero run \"quoted\"");
        let back = LockHolder::parse(&h.to_text()).unwrap();
        assert_eq!(back.pid, h.pid);
        assert_eq!(back.process_start, h.process_start);
    }
}
