//! A table of strings printed either as aligned text or as CSV.

/// Rows of cells under a header; every row has the header's length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// How many leading columns [`Table::text`] aligns left (the others are numbers).
    pub left_columns: usize,
}

impl Table {
    pub fn new(header: &[&str]) -> Self {
        let header = header.iter().map(|h| h.to_string()).collect();
        Table { header, rows: Vec::new(), left_columns: 1 }
    }

    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len());
        self.rows.push(row);
    }

    /// Columns padded to their widest cell, two spaces apart: the first `left_columns`
    /// left-aligned, the others right-aligned; each line ends with a newline and carries no
    /// trailing spaces.
    pub fn text(&self) -> String {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|c| {
                let cells =
                    std::iter::once(&self.header).chain(&self.rows).map(|r| r[c].chars().count());
                cells.max().unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = String::new();
            for (c, cell) in row.iter().enumerate() {
                let gap = if c == 0 { "" } else { "  " };
                if c < self.left_columns {
                    line.push_str(&format!("{gap}{cell:<w$}", w = widths[c]));
                } else {
                    line.push_str(&format!("{gap}{cell:>w$}", w = widths[c]));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// RFC 4180 CSV: a header line, then one line per row; cells holding a comma, a quote or a
    /// line break are quoted (quotes doubled).
    pub fn csv(&self) -> String {
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let cells: Vec<String> = row.iter().map(|c| csv_cell(c)).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }
}

fn csv_cell(cell: &str) -> String {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_aligns_and_csv_quotes() {
        let mut t = Table::new(&["line", "games"]);
        t.push(vec!["D7-D5".into(), "12".into()]);
        t.push(vec!["  C11-C9".into(), "3".into()]);
        assert_eq!(t.text(), "line      games\nD7-D5        12\n  C11-C9      3\n");
        t.left_columns = 2;
        assert_eq!(t.text(), "line      games\nD7-D5     12\n  C11-C9  3\n");
        t.push(vec!["a,\"b\"".into(), "1".into()]);
        assert_eq!(t.csv().lines().last(), Some("\"a,\"\"b\"\"\",1"));
    }
}
