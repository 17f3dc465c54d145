//! The shipped configs explain, the ledger narrates (issue #86). Every `configs/*.toml` keeps its
//! whole-line comments under half of its lines, and `configs/camelot-cpu.toml` stays under 100
//! lines in all: a comment says what a key does, and the history of a value (its measured
//! figures, what was tried) lives in the ledger, docs/experiments.md. So every `lever XX` a config
//! cites must be a row of the ledger's tables (a line starting `| XX |`). And the README's
//! headline figures and docs/results.md must be of one configuration: each names it on a line
//! starting `Figures of the configuration of YYYY-MM-DD`, and the dates agree. Failures are
//! reported together, each with file and line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The line that names the configuration whose figures a page reports; the date follows.
const MARKER: &str = "Figures of the configuration of ";

/// The most lines `configs/camelot-cpu.toml` may have.
const CPU_CONFIG_MAX_LINES: usize = 99;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` relative to the package root, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// The shipped configs, `configs/*.toml`, sorted.
fn configs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("configs"))
        .expect("reads configs/")
        .map(|e| e.expect("reads configs/").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "found {} configs in configs/", files.len());
    files
}

/// Whether a line is a comment as a whole: its first non-blank character is `#`.
fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// A lever's name at the start of `word`: one to three capital letters that no letter or digit
/// follows (`CC`, `AK,`, `CA's`), after an opening parenthesis or backtick.
fn lever_name(word: &str) -> Option<&str> {
    let word = word.trim_start_matches(['(', '`']);
    let caps = word.len() - word.trim_start_matches(|c: char| c.is_ascii_uppercase()).len();
    let after = &word[caps..];
    let named = (1..=3).contains(&caps) && !after.starts_with(|c: char| c.is_alphanumeric());
    named.then_some(&word[..caps])
}

/// The levers a line cites: the name after each word `lever` (`lever CC`), and the names after
/// each word `levers`, joined by `and`, `or` or `to` (`levers AI and AN`, `levers AU to AX`).
fn cited_levers(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut cited = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let bare = word.trim_matches(|c: char| !c.is_alphanumeric()).to_ascii_lowercase();
        if bare != "lever" && bare != "levers" {
            continue;
        }
        for next in &words[i + 1..] {
            if bare == "levers" && matches!(*next, "and" | "or" | "to") {
                continue;
            }
            match lever_name(next) {
                Some(name) => cited.push(name.to_string()),
                None => break,
            }
            if bare == "lever" {
                break;
            }
        }
    }
    cited
}

/// The levers of the ledger: the first cell of every table row of docs/experiments.md whose
/// first cell is one to three capital letters.
fn ledger_rows() -> BTreeSet<String> {
    read(&root().join("docs/experiments.md"))
        .lines()
        .filter_map(|line| {
            let name = line.strip_prefix("| ")?.split(" |").next()?;
            let lever =
                (1..=3).contains(&name.len()) && name.chars().all(|c| c.is_ascii_uppercase());
            lever.then(|| name.to_string())
        })
        .collect()
}

#[test]
fn every_config_is_less_than_half_comments() {
    let mut failures = Vec::new();
    for file in configs() {
        let text = read(&file);
        let lines: Vec<&str> = text.lines().collect();
        let comments = lines.iter().filter(|l| is_comment(l)).count();
        if 2 * comments < lines.len() {
            continue;
        }
        // The longest block of comment lines (its length and first line): where to cut first.
        let (mut longest, mut run) = ((0, 0), (0, 0));
        for (i, line) in lines.iter().enumerate() {
            run = match (is_comment(line), run.0) {
                (false, _) => (0, 0),
                (true, 0) => (1, i + 1),
                (true, n) => (n + 1, run.1),
            };
            if run.0 > longest.0 {
                longest = run;
            }
        }
        failures.push(format!(
            "{}:{}: {comments} of its {} lines are whole-line comments, not fewer than half \
             (the longest block, {} lines, starts here); say what a key does in a line or two \
             and move its history to docs/experiments.md",
            shown(&file),
            longest.1,
            lines.len(),
            longest.0,
        ));
    }
    assert!(failures.is_empty(), "configs that narrate:\n{}", failures.join("\n"));
}

#[test]
fn the_cpu_config_is_under_100_lines() {
    let file = root().join("configs/camelot-cpu.toml");
    let lines = read(&file).lines().count();
    assert!(
        lines <= CPU_CONFIG_MAX_LINES,
        "{}:{}: {lines} lines, at most {CPU_CONFIG_MAX_LINES} allowed; move history to \
         docs/experiments.md",
        shown(&file),
        CPU_CONFIG_MAX_LINES + 1,
    );
}

#[test]
fn every_lever_a_config_cites_is_a_row_of_the_ledger() {
    let rows = ledger_rows();
    assert!(rows.contains("CC"), "found no lever rows in docs/experiments.md: {rows:?}");
    let mut failures = Vec::new();
    let mut cited = 0;
    for file in configs() {
        let text = read(&file);
        for (i, line) in text.lines().enumerate() {
            for lever in cited_levers(line) {
                cited += 1;
                if !rows.contains(&lever) {
                    failures.push(format!(
                        "{}:{}: cites lever {lever}, which is no row of docs/experiments.md \
                         (a line starting `| {lever} |`)",
                        shown(&file),
                        i + 1,
                    ));
                }
            }
        }
    }
    assert!(cited > 0, "no config cites a lever (`lever XX`)");
    assert!(failures.is_empty(), "levers the ledger does not have:\n{}", failures.join("\n"));
}

#[test]
fn lever_citations_are_read_as_written() {
    assert_eq!(cited_levers("window_generations = 16      # the replay window: lever CC"), ["CC"]);
    assert_eq!(
        cited_levers("# levers AI and AN, then (lever CA's objective)."),
        ["AI", "AN", "CA"]
    );
    assert_eq!(cited_levers("# levers AU to AX; lever ZZZ"), ["AU", "AX", "ZZZ"]);
    let none: [&str; 0] = [];
    assert_eq!(cited_levers("# names its lever in the ledger; levers measured in Camelot"), none);
    assert_eq!(cited_levers("# leverage CC, lever Camelot, lever CPUS"), none);
}

/// Whether `s` is a date written `YYYY-MM-DD`.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b.iter()
            .enumerate()
            .all(|(i, c)| if i == 4 || i == 7 { *c == b'-' } else { c.is_ascii_digit() })
}

#[test]
fn the_readme_and_the_results_page_report_one_configuration() {
    let mut failures = Vec::new();
    // Each marker line: where it is and the date it names.
    let mut named: Vec<(String, String)> = Vec::new();
    for file in [root().join("README.md"), root().join("docs/results.md")] {
        let text = read(&file);
        let before = named.len();
        for (i, line) in text.lines().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix(MARKER) else { continue };
            let date: String = rest.chars().take(10).collect();
            let at = format!("{}:{}", shown(&file), i + 1);
            if !is_date(&date) {
                failures.push(format!("{at}: `{MARKER}` is followed by `{date}`, not YYYY-MM-DD"));
            }
            named.push((at, date));
        }
        if named.len() == before {
            failures.push(format!("{}: no line starts with `{MARKER}YYYY-MM-DD`", shown(&file)));
        }
    }
    if let Some((first_at, first)) = named.first() {
        for (at, date) in named.iter().skip(1) {
            if date != first {
                failures
                    .push(format!("{at}: the configuration of {date}, but {first_at}: of {first}"));
            }
        }
    }
    assert!(failures.is_empty(), "figures of different configurations:\n{}", failures.join("\n"));
}
