//! How `camelot-zero stats` shows the statistics of [`selfplay::stats`]: text tables, CSV and
//! JSON.

pub mod blunders_view;
pub mod openings_view;
pub mod summary_view;
pub mod table;
pub mod values_view;
