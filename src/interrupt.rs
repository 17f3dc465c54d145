//! Ctrl-C: the first press asks the running stage to stop at the next safe point (finish the
//! games in flight and write their shard, or finish the training step and checkpoint); a second
//! press exits at once (nothing half-written is visible: every file is renamed into place).
//!
//! A second SIGINT within [`DEBOUNCE`] of the first counts as the same press: `timeout -s INT`
//! (without `--foreground`) and some shells deliver one interrupt twice, to the process and to
//! its process group.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<bool> = OnceLock::new();
static FIRST: Mutex<Option<Instant>> = Mutex::new(None);

/// Interrupts closer together than this are one press.
pub const DEBOUNCE: Duration = Duration::from_millis(500);

/// The stop flag, with the Ctrl-C handler installed on first use.
pub fn stop_flag() -> &'static AtomicBool {
    INSTALLED.get_or_init(|| {
        ctrlc::set_handler(|| {
            let mut first = FIRST.lock().unwrap_or_else(|e| e.into_inner());
            if STOP.swap(true, Ordering::SeqCst) {
                if first.is_some_and(|t| t.elapsed() < DEBOUNCE) {
                    return;
                }
                crate::progress::notice("interrupted again: exiting now");
                std::process::exit(130);
            }
            *first = Some(Instant::now());
            crate::progress::notice(
                "interrupted: finishing the current step (Ctrl-C again to exit now)",
            );
        })
        .is_ok()
    });
    &STOP
}
