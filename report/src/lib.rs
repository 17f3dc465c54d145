//! How a run and its records look to a person: the views any front end shows, so the command
//! line, a learner writing its page after every generation (issue #17) and other front ends
//! render the same tables, charts and page without copying them.
//!
//! - [`stats`]: the opening tree and the summary of recorded games as aligned text, CSV and
//!   JSON, and the chart of the first moves;
//! - [`charts`]: line and bar charts as PNG or SVG files (a bundled font, no system fonts);
//! - [`page`]: the run report, every chart of a run directory and one self-contained
//!   `index.html`.
//!
//! The numbers come from the libraries below (`selfplay::stats`, `train::run_data`); this crate
//! only draws and formats them.

pub mod charts;
pub mod page;
pub mod stats;

pub use page::{PAGE_FILE, ReportError, ReportSummary, write_report};
