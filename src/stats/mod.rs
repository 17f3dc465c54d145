//! Statistics over recorded games (`camelot-zero stats`): the opening tree with outcomes and
//! scores ([`openings`]) and a per-generation summary ([`summary`]), read from the parquet
//! `games` records, shown as text, CSV or JSON.

pub mod openings;
pub mod openings_view;
pub mod replay;
pub mod source;
pub mod summary;
pub mod summary_view;
pub mod table;
pub mod tally;
