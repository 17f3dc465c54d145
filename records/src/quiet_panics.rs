//! Keeping the parquet reader's caught panics off the terminal.
//!
//! The readers catch a panic inside the parquet crate and report the file as corrupt
//! ([`RecordError::Corrupt`](super::RecordError::Corrupt)), but Rust's panic hook runs before the
//! unwind is caught and prints "thread 'main' panicked at ..." on stderr above the program's own
//! one-line error. [`install_quiet_panic_hook`] wraps the process's hook so that a panic raised
//! inside a reader's guarded section ([`quietly`]) prints nothing; every other panic is printed
//! as before. A program that wants clean errors calls it once at start (the CLI does).

use std::cell::Cell;
use std::panic::{self, PanicHookInfo};

thread_local! {
    /// Whether this thread is inside a guarded read, whose panics become errors.
    static GUARDED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with this thread's panics marked as caught by the caller (who must catch them).
pub(crate) fn quietly<T>(f: impl FnOnce() -> T) -> T {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            GUARDED.with(|g| g.set(self.0));
        }
    }
    let _reset = Reset(GUARDED.with(|g| g.replace(true)));
    f()
}

/// Wraps `previous` so that it is not called for a panic raised inside [`quietly`].
fn quiet(
    previous: Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send>,
) -> Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send> {
    Box::new(move |info| {
        if !GUARDED.with(Cell::get) {
            previous(info);
        }
    })
}

/// Replaces the process's panic hook by one that stays silent for the panics the record readers
/// catch and calls the hook it replaces for every other. Call it once, at start.
pub fn install_quiet_panic_hook() {
    panic::set_hook(quiet(panic::take_hook()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::catch_unwind;

    thread_local! {
        static PRINTED: Cell<u32> = const { Cell::new(0) };
    }

    #[test]
    fn only_the_panics_outside_a_guarded_read_reach_the_previous_hook() {
        // A counting stand-in for the default hook; the counter is this thread's, so panics
        // of other tests running meanwhile do not count.
        let hook = quiet(Box::new(|_| PRINTED.with(|p| p.set(p.get() + 1))));
        let original = panic::take_hook();
        panic::set_hook(hook);
        let caught = catch_unwind(|| quietly(|| panic!("inside a read")));
        let after_read = PRINTED.with(Cell::get);
        let guarded_after = GUARDED.with(Cell::get);
        let outside = catch_unwind(|| panic!("a bug elsewhere"));
        let after_bug = PRINTED.with(Cell::get);
        panic::set_hook(original);
        assert!(caught.is_err() && outside.is_err());
        assert_eq!(after_read, 0, "a guarded panic prints nothing");
        assert!(!guarded_after, "the guard ends with the read, panic or not");
        assert_eq!(after_bug, 1, "any other panic is printed");
        assert_eq!(quietly(|| 7), 7);
    }
}
