//! The ladder: after a generation's training, the new model `gen-g` plays a short arena match
//! against its opponent (the newest promoted model before it) and one against the config's
//! fixed baseline. The result is written to `models/gen-NNNN/ladder.toml` (which also says
//! whether the model was promoted), the games to `ladder/gen-NNNN/` as parquet `games` records,
//! and the figures to the generation's row of `generations.csv`.
//!
//! * [`config`]: the `[ladder]` section ([`LadderConfig`], [`Gating`]).
//! * [`result`]: one model's result ([`LadderResult`]) and its file.
//! * [`play`]: playing a model's ladder ([`run_ladder`]) and choosing the self-play model
//!   ([`self_play_model`]).
//!
//! For Tri-Camelot the new model plays against two copies of the opponent (and of the
//! baseline); its per-game score is its mean head-to-head placement against them (1 above, ½
//! level, 0 below), so ½ is even as in Camelot.
//!
//! With `baseline = "anchors"` the baseline is the anchor of the absolute Elo scale nearest the
//! previous measured model's absolute Elo (and, after a lopsided score, the next anchor in that
//! direction as well), and any baseline that is one of the stored anchors gives the model an
//! **absolute Elo** ([`Absolute`]): the maximum-likelihood rating of its games against the
//! anchors, held at their stored ratings.
//!
//! The **rating** chains the Elo differences: `gen-0000` is 0 and a measured model is its
//! opponent's rating plus its Elo over it (its score clipped to `[1/(2n), 1 - 1/(2n)]` for `n`
//! games, so a clean sweep adds a finite amount).

pub mod config;
pub mod play;
pub mod result;

pub use config::{ANCHORS, Baseline, Gating, LadderConfig, ProbeCadence};
pub use play::{run_ladder, self_play_model};
pub use result::{Absolute, LADDER_FILE, LadderResult, Versus};
