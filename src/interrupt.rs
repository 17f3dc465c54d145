//! Ctrl-C: the first press asks the running stage to stop at the next safe point (finish the
//! games in flight and write their shard, or finish the training step and checkpoint); a second
//! press exits at once (nothing half-written is visible: every file is renamed into place).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<bool> = OnceLock::new();

/// The stop flag, with the Ctrl-C handler installed on first use.
pub fn stop_flag() -> &'static AtomicBool {
    INSTALLED.get_or_init(|| {
        ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                eprintln!("\ninterrupted again: exiting now");
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: finishing the current step (Ctrl-C again to exit now)");
        })
        .is_ok()
    });
    &STOP
}
