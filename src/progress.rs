//! Progress bars (indicatif), one style for every stage.

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps named `what`, with the rate and a free-text message.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>10} [{elapsed_precise}] {bar:30.cyan/blue} {pos}/{len} ({eta}) {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar
}
