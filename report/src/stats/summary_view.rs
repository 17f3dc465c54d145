//! [`Summary`] as text, CSV and JSON: the same rows in all three (`termination` is `all` on a
//! generation's first row).

use serde_json::{Value, json};

use super::table::Table;
use super::{TableView, json_array};
use selfplay::stats::summary::{Summary, SummaryRow};

fn termination(row: &SummaryRow) -> &'static str {
    row.termination.map_or("all", |t| t.as_str())
}

impl TableView for Summary {
    /// The table; `text` selects the short headers and two decimals of the text output over the
    /// CSV's column names and full precision.
    fn table(&self, text: bool) -> Table {
        let wins: Vec<String> = self
            .seats
            .iter()
            .map(|seat| if text { seat.to_string() } else { format!("wins_{seat}") })
            .collect();
        let mut header = vec!["generation", "termination", "games"];
        header.extend(wins.iter().map(String::as_str));
        header.extend(if text {
            ["draws", "min", "median", "mean", "p90", "max", "captures", "castle entries"]
        } else {
            [
                "draws",
                "length_min",
                "length_median",
                "length_mean",
                "length_p90",
                "length_max",
                "captures_per_game",
                "castle_entries_per_game",
            ]
        });
        let number = |x: f64| if text { format!("{x:.2}") } else { x.to_string() };
        let mut t = Table::new(&header);
        t.left_columns = 2;
        for row in &self.rows {
            let mut cells = vec![
                row.generation.to_string(),
                termination(row).to_string(),
                row.games.to_string(),
            ];
            cells.extend(row.outcomes.wins.iter().map(usize::to_string));
            let l = &row.lengths;
            cells.extend([
                row.outcomes.draws.to_string(),
                l.min.to_string(),
                number(l.median),
                number(l.mean),
                l.p90.to_string(),
                l.max.to_string(),
                number(row.captures_per_game),
                number(row.castle_entries_per_game),
            ]);
            t.push(cells);
        }
        t
    }

    /// What the rows are.
    fn heading(&self) -> String {
        format!(
            "{} games by generation: a row for all games of the generation, then one per termination; \
             game length in moves (min, median, mean, p90, max); per game: captures (pieces taken) \
             and castle entries (moves into the goal castle)",
            self.variant,
        )
    }

    /// The JSON output.
    fn json(&self) -> Value {
        let rows = json_array(&self.rows, |r| {
            json!({
                "generation": r.generation,
                "termination": termination(r),
                "games": r.games,
                "wins": r.outcomes.wins,
                "draws": r.outcomes.draws,
                "length": {
                    "min": r.lengths.min,
                    "median": r.lengths.median,
                    "mean": r.lengths.mean,
                    "p90": r.lengths.p90,
                    "max": r.lengths.max,
                },
                "captures_per_game": r.captures_per_game,
                "castle_entries_per_game": r.castle_entries_per_game,
            })
        });
        json!({ "variant": self.variant, "seats": self.seats, "rows": rows })
    }
}
