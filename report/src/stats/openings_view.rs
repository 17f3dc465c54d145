//! [`Openings`] as text, CSV and JSON ([`TableView`]), and its chart.
//!
//! - text: a heading, then one line per opening line, indented two spaces per move of depth;
//! - CSV: one row per line, with the whole line (moves separated by spaces) in the first column;
//! - JSON: an object with the totals and a `lines` array in the same order, each with its `moves`.

use serde_json::{Value, json};

use super::TableView;
use super::table::Table;
use selfplay::stats::openings::{OpeningLine, Openings};

impl TableView for Openings {
    /// The text table (one line per opening line, its last move indented two spaces per move
    /// of depth) or the CSV's (the whole line in the first column, full precision).
    fn table(&self, text: bool) -> Table {
        if text { text_table(self) } else { csv_table(self) }
    }

    /// The totals, and how the lines were chosen and scored.
    fn heading(&self) -> String {
        let o = self;
        let wins: Vec<String> =
            o.seats.iter().zip(&o.outcomes.wins).map(|(s, w)| format!("{s} {w}")).collect();
        let mut out = format!(
            "{} {} games from the start position ({}, draws {}, mean length {:.1} moves)",
            o.games,
            o.variant,
            wins.join(", "),
            o.outcomes.draws,
            o.mean_length
        );
        if o.other_starts > 0 {
            out.push_str(&format!("; left out: {} from other positions", games(o.other_starts)));
        }
        if o.games == 0 && o.other_starts > 0 {
            // Say why the tree is empty: a run's games that begin with random moves
            // (`[selfplay] start = { openings = … }`) all start from other positions.
            out.push_str(
                "\nno game starts from the start position, so the tree is empty: self-play games \
                 that begin with random moves (`[selfplay] start = { openings = ... }`) start \
                 from other positions; games from the start position (an arena or ladder match, \
                 `--opening-moves 0`) give a tree",
            );
        }
        out.push_str(&format!(
            "\nlines of up to {} moves played in at least {}; score: mean result of the mover \
             (the seat that played the line's last move; draw = 1/{}), 95% Wilson interval",
            o.depth,
            games(o.min_games.max(1)),
            o.seats.len()
        ));
        out
    }

    /// The totals and a `lines` array in the table's order (what `scripts/check_stats.py`
    /// reads).
    fn json(&self) -> Value {
        let o = self;
        json!({
            "variant": o.variant,
            "seats": o.seats,
            "depth": o.depth,
            "min_games": o.min_games,
            "games": o.games,
            "other_starts": o.other_starts,
            "wins": o.outcomes.wins,
            "draws": o.outcomes.draws,
            "mean_length": o.mean_length,
            "lines": o.lines.iter().map(|l| line_json(o, l)).collect::<Vec<_>>(),
        })
    }
}

fn text_table(o: &Openings) -> Table {
    let mut header = vec!["line", "games", "%parent", "%all", "mover"];
    header.extend(o.seats);
    header.extend(["draws", "score", "95% interval", "length"]);
    let mut table = Table::new(&header);
    for line in &o.lines {
        let indent = "  ".repeat(line.moves.len() - 1);
        let mut row = vec![
            format!("{indent}{}", line.moves.last().map_or("", String::as_str)),
            line.games.to_string(),
            format!("{:.1}", 100.0 * line.share_of_parent),
            format!("{:.1}", 100.0 * line.share_of_all),
            o.seats.get(line.mover).unwrap_or(&"?").to_string(),
        ];
        row.extend(line.outcomes.wins.iter().map(usize::to_string));
        row.extend([
            line.outcomes.draws.to_string(),
            format!("{:.3}", line.score),
            format!("{:.3}-{:.3}", line.interval.0, line.interval.1),
            format!("{:.1}", line.mean_length),
        ]);
        table.push(row);
    }
    table
}

fn games(n: usize) -> String {
    if n == 1 { "1 game".into() } else { format!("{n} games") }
}

fn csv_table(o: &Openings) -> Table {
    let wins: Vec<String> = o.seats.iter().map(|s| format!("wins_{s}")).collect();
    let mut header =
        vec!["line", "depth", "move", "games", "share_of_parent", "share_of_all", "mover"];
    header.extend(wins.iter().map(String::as_str));
    header.extend(["draws", "score", "score_low", "score_high", "mean_length"]);
    let mut table = Table::new(&header);
    for line in &o.lines {
        let mut row = vec![
            line.moves.join(" "),
            line.moves.len().to_string(),
            line.moves.last().cloned().unwrap_or_default(),
            line.games.to_string(),
            line.share_of_parent.to_string(),
            line.share_of_all.to_string(),
            o.seats.get(line.mover).unwrap_or(&"?").to_string(),
        ];
        row.extend(line.outcomes.wins.iter().map(usize::to_string));
        row.extend([
            line.outcomes.draws.to_string(),
            line.score.to_string(),
            line.interval.0.to_string(),
            line.interval.1.to_string(),
            line.mean_length.to_string(),
        ]);
        table.push(row);
    }
    table
}

fn line_json(o: &Openings, l: &OpeningLine) -> Value {
    json!({
        "moves": l.moves,
        "games": l.games,
        "share_of_parent": l.share_of_parent,
        "share_of_all": l.share_of_all,
        "mover": o.seats.get(l.mover).unwrap_or(&"?"),
        "wins": l.outcomes.wins,
        "draws": l.outcomes.draws,
        "score": l.score,
        "score_low": l.interval.0,
        "score_high": l.interval.1,
        "mean_length": l.mean_length,
    })
}

/// How many first moves [`chart`] shows at most.
pub const CHART_MOVES: usize = 10;

/// A bar chart (PNG or SVG, by `path`'s extension) of the most played first moves, at most
/// [`CHART_MOVES`], each labelled with its number of games, its bar the score of the seat that
/// played it with the 95% interval as an error bar.
pub fn chart(o: &Openings, path: &std::path::Path) -> Result<(), crate::charts::ChartError> {
    use crate::charts::{Bar, bar_chart};
    let first: Vec<&OpeningLine> =
        o.lines.iter().filter(|l| l.moves.len() == 1).take(CHART_MOVES).collect();
    let seat = first.first().and_then(|l| o.seats.get(l.mover)).unwrap_or(&o.seats[0]);
    let bars: Vec<Bar> = first
        .iter()
        .map(|l| {
            Bar::new(format!("{} ({})", l.moves[0], l.games), l.score)
                .with_interval(l.interval.0, l.interval.1)
        })
        .collect();
    let title = format!(
        "Most played first moves of {} {} games: score of {seat} (95% interval)",
        o.games, o.variant
    );
    bar_chart(path, &title, &format!("score of {seat}"), &bars)
}

#[cfg(test)]
mod tests {
    use selfplay::stats::tally::Outcomes;

    use super::*;

    #[test]
    fn an_empty_tree_says_why_and_how_to_get_one() {
        let tree = |games, other_starts| Openings {
            variant: "tricamelot",
            seats: &["Blue", "Red", "Green"],
            depth: 4,
            min_games: 1,
            games,
            outcomes: Outcomes::new(3),
            mean_length: 0.0,
            other_starts,
            lines: Vec::new(),
        };
        let why = "no game starts from the start position";
        let heading = tree(0, 64).heading();
        assert!(heading.contains(why) && heading.contains("--opening-moves 0"), "{heading}");
        assert!(!tree(3, 64).heading().contains(why));
        assert!(!tree(0, 0).heading().contains(why));
    }
}
