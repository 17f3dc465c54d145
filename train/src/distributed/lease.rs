//! `learner.lease`: one learner per run. The holder rewrites its heartbeat every
//! [`HEARTBEAT`]; a lease whose heartbeat is older than [`LEASE_TIMEOUT`] belongs to a learner
//! that is gone (killed, its machine down) and is taken over, and so is one whose process is
//! gone from this machine. (The heartbeat is the holder's
//! clock: machines sharing a run must keep their clocks within a few seconds, as NTP does.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use location::{Location, Store};
use serde::{Deserialize, Serialize};

use crate::run::RunError;

/// The lease's key.
pub const LEASE_KEY: &str = "learner.lease";
/// How often the holder renews its heartbeat.
pub const HEARTBEAT: Duration = Duration::from_secs(10);
/// After how long without a heartbeat a lease is stale.
pub const LEASE_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Holder {
    host: String,
    pid: u32,
    /// The process's start in clock ticks since boot (with the pid, it tells a reused pid).
    #[serde(default)]
    process_start: Option<u64>,
    started_unix: u64,
    heartbeat_unix: u64,
}

impl Holder {
    /// Stale: no heartbeat for [`LEASE_TIMEOUT`], or the holder's process is gone from this
    /// machine (a learner killed and started again here need not wait).
    fn is_stale(&self) -> bool {
        now().saturating_sub(self.heartbeat_unix) >= LEASE_TIMEOUT.as_secs()
            || storage::process_is_gone(&self.host, self.pid, self.process_start)
    }
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The held lease; dropping it stops the heartbeat and releases the lease.
pub struct LearnerLease {
    stop: Arc<AtomicBool>,
    heartbeat: Option<JoinHandle<()>>,
    location: Location,
    me: Holder,
}

impl LearnerLease {
    /// Takes the lease of the run at `location`: refused ([`RunError::LeaseHeld`], naming the
    /// holder) while another learner's heartbeat is fresh; a stale lease is taken over.
    pub fn acquire(location: &Location) -> Result<LearnerLease, RunError> {
        let store = Store::open(location)?;
        let t = now();
        let pid = std::process::id();
        let me = Holder {
            host: storage::host_name(),
            pid,
            process_start: storage::process_start(pid),
            started_unix: t,
            heartbeat_unix: t,
        };
        let text = |h: &Holder| toml::to_string(h).expect("plain fields").into_bytes();
        let held = |h: Holder| RunError::LeaseHeld {
            location: location.to_string(),
            holder: format!(
                "pid {} on {} (started at unix time {}, last heartbeat {} s ago)",
                h.pid,
                h.host,
                h.started_unix,
                now().saturating_sub(h.heartbeat_unix)
            ),
        };
        match store.get(LEASE_KEY)? {
            None => {
                if !store.put_new(LEASE_KEY, text(&me))? {
                    // Another learner took it between our read and our write.
                    let other = read_holder(&store)?;
                    return Err(held(other));
                }
            }
            Some(bytes) => {
                let other: Option<Holder> = toml::from_str(&String::from_utf8_lossy(&bytes)).ok();
                match other {
                    Some(h) if !h.is_stale() => return Err(held(h)),
                    // Stale (or unreadable): taken over.
                    _ => store.put(LEASE_KEY, text(&me))?,
                }
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        let heartbeat = {
            let (stop, location, mut me) = (stop.clone(), location.clone(), me.clone());
            std::thread::spawn(move || {
                let Ok(store) = Store::open(&location) else { return };
                let mut waited = Duration::ZERO;
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(200));
                    waited += Duration::from_millis(200);
                    if waited >= HEARTBEAT {
                        waited = Duration::ZERO;
                        me.heartbeat_unix = now();
                        let _ =
                            store.put(LEASE_KEY, toml::to_string(&me).expect("plain").into_bytes());
                    }
                }
            })
        };
        Ok(LearnerLease { stop, heartbeat: Some(heartbeat), location: location.clone(), me })
    }
}

fn read_holder(store: &Store) -> Result<Holder, RunError> {
    let bytes = store.get(LEASE_KEY)?.unwrap_or_default();
    toml::from_str(&String::from_utf8_lossy(&bytes)).map_err(|e| RunError::BadObject {
        location: store.location().to_string(),
        key: LEASE_KEY.into(),
        message: e.to_string(),
    })
}

impl Drop for LearnerLease {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.heartbeat.take() {
            let _ = h.join();
        }
        // Released only if still ours.
        if let Ok(store) = Store::open(&self.location)
            && let Ok(holder) = read_holder(&store)
            && holder.pid == self.me.pid
            && holder.host == self.me.host
            && holder.started_unix == self.me.started_unix
        {
            let _ = store.delete(LEASE_KEY);
        }
    }
}
