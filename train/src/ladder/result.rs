//! One model's ladder result ([`LadderResult`]): its figures against the opponent and the
//! baseline, whether it was promoted, its chained rating, and the `ladder.toml` file that holds
//! it in the model's folder.

use selfplay::arena::{ArenaGame, Elo, EloInterval, MatchReport, elo_interval, head_to_head};
use serde::{Deserialize, Serialize};

use crate::run::ModelFile;

/// The file in a model folder holding its ladder result.
pub const LADDER_FILE: &str = "ladder.toml";

/// One model's ladder result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderResult {
    pub generation: u32,
    /// The generation of the opponent model.
    pub opponent: u32,
    /// Games of each match.
    pub games: u32,
    pub vs_opponent: Versus,
    pub baseline: String,
    pub vs_baseline: Versus,
    /// Whether this model plays the next self-play (always, without gating).
    pub promoted: bool,
    /// Chained Elo, `gen-0000` = 0.
    pub rating: f64,
    /// The Elo on the absolute scale, when the baseline is an anchor (None in files written
    /// before it existed).
    #[serde(default)]
    pub absolute: Option<Absolute>,
}

/// A model's Elo on the absolute scale (`random` = 0) from its games against one anchor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Absolute {
    /// The anchor played, and its stored rating.
    pub anchor: String,
    pub anchor_elo: f64,
    pub elo: f64,
    /// Half the width of the 95% interval.
    pub interval: f64,
}

/// The new model's figures against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Mean per-game score, ½ = even (head-to-head placements for three players).
    pub score: f64,
    /// Score share: (wins + draws / players) / games (1/players = even).
    pub share: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    /// The new model's score share in each seat (seat 0 first; NaN for a seat it never took),
    /// which shows a model that wins only from one seat. Empty in files written before it existed.
    #[serde(default)]
    pub seat_shares: Vec<f64>,
}

impl Versus {
    pub(crate) fn new(games: &[ArenaGame], report: &MatchReport) -> Versus {
        let scores = first_player_scores(games);
        let e: EloInterval = elo_interval(&scores).expect("a ladder match has games");
        let line = &report.players[0];
        Versus {
            wins: line.overall.wins,
            draws: line.overall.draws,
            losses: line.overall.losses,
            score: e.score,
            share: line.score,
            // `+ 0.0` turns the -0 of an even score into 0.
            elo: e.elo.0 + 0.0,
            elo_low: e.low.0 + 0.0,
            elo_high: e.high.0 + 0.0,
            seat_shares: line
                .by_seat
                .iter()
                .map(|t| t.score(report.seat_names.len()).unwrap_or(f64::NAN))
                .collect(),
        }
    }

    /// The seat shares as `0.62/0.50/0.38` (`-` for a seat not taken).
    fn seats_shown(&self) -> String {
        let shown: Vec<String> = self
            .seat_shares
            .iter()
            .map(|s| if s.is_nan() { "-".into() } else { format!("{s:.2}") })
            .collect();
        shown.join("/")
    }

    fn shown(&self) -> String {
        format!(
            "{}/{}/{} score {:.2} Elo {} [{}, {}] by seat {}",
            self.wins,
            self.draws,
            self.losses,
            self.score,
            Elo(self.elo),
            Elo(self.elo_low),
            Elo(self.elo_high),
            self.seats_shown()
        )
    }
}

/// Player 0's per-game score: its mean head-to-head placement against the others.
fn first_player_scores(games: &[ArenaGame]) -> Vec<f64> {
    games
        .iter()
        .map(|g| {
            let others = g.result.len().max(2) - 1;
            (1..=others).map(|p| head_to_head(g, 0, p)).sum::<f64>() / others as f64
        })
        .collect()
}

impl LadderResult {
    /// The `generations.csv` columns.
    pub const CSV_HEADER: [&'static str; 17] = [
        "ladder_opponent",
        "score_vs_opponent",
        "elo_vs_opponent",
        "elo_vs_opponent_low",
        "elo_vs_opponent_high",
        "score_vs_baseline",
        "share_vs_baseline",
        "elo_vs_baseline",
        "elo_vs_baseline_low",
        "elo_vs_baseline_high",
        "promoted",
        "rating",
        "abs_anchor",
        "abs_elo",
        "abs_elo_low",
        "abs_elo_high",
        "seat_shares_vs_baseline",
    ];

    /// The columns' values; `None` (a generation without a ladder) gives empty cells.
    pub fn csv_cells(result: Option<&LadderResult>) -> Vec<String> {
        let Some(r) = result else { return vec![String::new(); Self::CSV_HEADER.len()] };
        let f = |x: f64| format!("{x:.1}");
        vec![
            r.opponent.to_string(),
            format!("{:.4}", r.vs_opponent.score),
            f(r.vs_opponent.elo),
            f(r.vs_opponent.elo_low),
            f(r.vs_opponent.elo_high),
            format!("{:.4}", r.vs_baseline.score),
            format!("{:.4}", r.vs_baseline.share),
            f(r.vs_baseline.elo),
            f(r.vs_baseline.elo_low),
            f(r.vs_baseline.elo_high),
            u8::from(r.promoted).to_string(),
            f(r.rating),
        ]
        .into_iter()
        .chain(match &r.absolute {
            Some(a) => [a.anchor.clone(), f(a.elo), f(a.elo - a.interval), f(a.elo + a.interval)],
            None => Default::default(),
        })
        .chain([r.vs_baseline.seats_shown()])
        .collect()
    }

    /// The summary line printed after the generation's line.
    pub fn line(&self) -> String {
        let absolute = self.absolute.as_ref().map_or(String::new(), |a| {
            format!(
                " | absolute Elo {:.0} ± {:.0} (anchor {} at {:.0})",
                a.elo, a.interval, a.anchor, a.anchor_elo
            )
        });
        format!(
            "ladder gen-{:04}: vs gen-{:04} {} | vs {} {} | {} | rating {:.0}{absolute}",
            self.generation,
            self.opponent,
            self.vs_opponent.shown(),
            self.baseline,
            self.vs_baseline.shown(),
            if self.promoted { "promoted" } else { "not promoted" },
            self.rating
        )
    }
}

impl ModelFile for LadderResult {
    const FILE: &'static str = LADDER_FILE;
    const WHAT: &'static str = "a ladder result";
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Termination;

    fn game(result: Vec<f32>) -> ArenaGame {
        ArenaGame {
            game_id: 0,
            seed: 0,
            seating: (0..result.len()).collect(),
            start_position: String::new(),
            moves: Vec::new(),
            result,
            termination: Termination::MoveLimit,
        }
    }

    #[test]
    fn the_first_players_score_is_its_mean_placement() {
        let games = [
            game(vec![1.0, 0.0]),
            game(vec![0.5, 0.5]),
            game(vec![0.0, 1.0, 0.0]),
            game(vec![1.0, 0.0, 0.0]),
            game(vec![0.0, 0.0, 1.0]),
        ];
        assert_eq!(first_player_scores(&games), vec![1.0, 0.5, 0.25, 1.0, 0.25]);
    }
}
