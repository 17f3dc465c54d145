//! How `camelot-zero stats` shows the statistics of [`selfplay::stats`]: text tables, CSV and
//! JSON.

pub mod blunders_view;
pub mod openings_view;
pub mod summary_view;
pub mod table;
pub mod values_view;

use serde_json::Value;

use table::Table;

/// A statistic shown as a table: the text output (a heading above the aligned table), the CSV
/// (the same rows in full precision) and the JSON, all from one table and one heading.
pub trait TableView {
    /// The table; `text` selects the short headers and rounded figures of the text output over
    /// the CSV's column names and full precision.
    fn table(&self, text: bool) -> Table;
    /// What the text output says above the table: what was measured and how to read it.
    fn heading(&self) -> String;
    /// The JSON output.
    fn json(&self) -> Value;

    /// The text output: the heading, a blank line and the aligned table.
    fn text(&self) -> String {
        format!("{}\n\n{}", self.heading(), self.table(true).text())
    }

    /// The CSV output (figures in full precision).
    fn csv(&self) -> String {
        self.table(false).csv()
    }
}

/// A JSON array of one value per item (the rows or models of a statistic's JSON output).
fn json_array<T>(items: &[T], value: impl Fn(&T) -> Value) -> Value {
    Value::Array(items.iter().map(value).collect())
}
