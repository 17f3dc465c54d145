//! The run's CSV files (`metrics.csv`, `generations.csv`) as tables: a header and rows of text
//! fields, with columns looked up by name, so that columns added later (the Elo of the ladder,
//! say) are found without changing this reader.

use std::path::{Path, PathBuf};

use crate::run_data::RunDataError;

/// A CSV file read whole: its header and its rows, every row as long as the header.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The file it was read from (for messages).
    pub path: PathBuf,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Reads `path`. A missing file is `Ok(None)` (a run that has not written it yet); an empty
    /// header, an unterminated quote or a row with another number of fields than the header is
    /// bad input naming the file and the line. A last line without its newline (a row torn by a
    /// crash, which the run itself cuts off when it continues) is ignored.
    pub fn read(path: &Path) -> Result<Option<Table>, RunDataError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(RunDataError::Bad(format!("{}: not a text file", path.display())));
            }
            Err(e) => {
                return Err(RunDataError::Io { path: path.to_path_buf(), source: e });
            }
        };
        Table::parse(path, &text).map(Some)
    }

    /// Parses the text of a CSV file (see [`Table::read`]).
    pub fn parse(path: &Path, text: &str) -> Result<Table, RunDataError> {
        let bad = |line: usize, what: String| {
            RunDataError::Bad(format!(
                "{}: line {line}: {what} (not a metrics file of a run?)",
                path.display()
            ))
        };
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        let mut lines = whole.lines().enumerate().map(|(i, l)| (i + 1, l));
        let header = match lines.next() {
            Some((n, l)) => split_fields(l).ok_or_else(|| bad(n, "unterminated quote".into()))?,
            None => {
                return Err(RunDataError::Bad(format!(
                    "{}: empty file, no header",
                    path.display()
                )));
            }
        };
        if header.iter().any(String::is_empty) {
            return Err(bad(1, format!("an empty column name in the header {header:?}")));
        }
        let mut rows = Vec::new();
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let row = split_fields(line).ok_or_else(|| bad(n, "unterminated quote".into()))?;
            if row.len() != header.len() {
                return Err(bad(n, format!("{} fields for {} columns", row.len(), header.len())));
            }
            rows.push(row);
        }
        Ok(Table { path: path.to_path_buf(), header, rows })
    }

    /// The index of column `name`, if the file has it.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// Column `name` as numbers, one per row: `None` for an empty field. A missing column or a
    /// field that is not a number is bad input naming the file, the line and the column.
    pub fn numbers(&self, name: &str) -> Result<Vec<Option<f64>>, RunDataError> {
        let c = self.column(name).ok_or_else(|| {
            RunDataError::Bad(format!(
                "{}: no column `{name}` (a file from another version?)",
                self.path.display()
            ))
        })?;
        self.rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let field = row[c].trim();
                if field.is_empty() {
                    return Ok(None);
                }
                field.parse::<f64>().map(Some).map_err(|_| {
                    RunDataError::Bad(format!(
                        "{}: line {}: column `{name}` is {field:?}, not a number",
                        self.path.display(),
                        i + 2
                    ))
                })
            })
            .collect()
    }

    /// Column `name` as numbers where every field must be present (see [`Table::numbers`]).
    pub fn required_numbers(&self, name: &str) -> Result<Vec<f64>, RunDataError> {
        let values = self.numbers(name)?;
        values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.ok_or_else(|| {
                    RunDataError::Bad(format!(
                        "{}: line {}: column `{name}` is empty",
                        self.path.display(),
                        i + 2
                    ))
                })
            })
            .collect()
    }
}

/// The fields of one CSV line (RFC 4180 quoting: `"a,b"`, `""` for a quote inside quotes), or
/// `None` for an unterminated quote.
fn split_fields(line: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.trim_end_matches('\r').chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => fields.push(std::mem::take(&mut field)),
            (_, c) => field.push(c),
        }
    }
    if quoted {
        return None;
    }
    fields.push(field);
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Table, RunDataError> {
        Table::parse(Path::new("g.csv"), text)
    }

    #[test]
    fn columns_are_found_by_name_and_quoted_fields_split_right() {
        let t = parse("generation,note,elo\n0,\"a,b\",\n1,\"say \"\"hi\"\"\",12.5\n").unwrap();
        assert_eq!(t.rows[0][1], "a,b");
        assert_eq!(t.rows[1][1], "say \"hi\"");
        assert_eq!(t.numbers("elo").unwrap(), [None, Some(12.5)]);
        assert_eq!(t.required_numbers("generation").unwrap(), [0.0, 1.0]);
        assert!(
            t.required_numbers("elo")
                .unwrap_err()
                .to_string()
                .contains("line 2: column `elo` is empty")
        );
    }

    #[test]
    fn a_torn_last_row_is_ignored_and_a_header_only_file_has_no_rows() {
        assert_eq!(parse("a,b\n1,2\n3,").unwrap().rows, [["1", "2"]]);
        assert!(parse("a,b\n").unwrap().rows.is_empty());
    }

    #[test]
    fn malformed_files_name_the_file_line_and_problem() {
        let e = parse("a,b\n1,2\n1,2,3\n").unwrap_err().to_string();
        assert!(e.contains("g.csv: line 3: 3 fields for 2 columns"), "{e}");
        let e = parse("a,b\n1,x\n").unwrap().numbers("b").unwrap_err().to_string();
        assert!(e.contains("line 2: column `b` is \"x\", not a number"), "{e}");
        assert!(parse("").unwrap_err().to_string().contains("empty file"));
        assert!(parse("a,,b\n").unwrap_err().to_string().contains("empty column name"));
        assert!(parse("a,b\n\"1,2\n").unwrap_err().to_string().contains("unterminated quote"));
        assert!(
            parse("a\n").unwrap().numbers("z").unwrap_err().to_string().contains("no column `z`")
        );
    }
}
