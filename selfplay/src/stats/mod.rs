//! Statistics over recorded games: the opening tree with outcomes and scores ([`openings`]) and
//! a per-generation summary ([`summary`]), the models' blunders ([`blunders`], why they lose:
//! [`refutation`]) and value probe
//! ([`values`]), read from the parquet `games` records
//! ([`records::collection`]) by replaying their moves ([`replay`]), with Wilson intervals ([`tally`]). How
//! they are shown (text, CSV, JSON, charts) is the front end's business.

pub mod blunders;
pub mod openings;
pub mod refutation;
pub mod replay;
pub mod summary;
pub mod tactical_set;
pub mod tally;
pub mod values;
