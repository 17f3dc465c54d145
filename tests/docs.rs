//! The docs against the program. Every subcommand that README.md and docs/*.md show being run
//! (`cargo run --release -- <sub> …` or `camelot-zero <sub> …`, in a code span or a fenced
//! block) must exist: `camelot-zero <sub> --help`, and for a command with subcommands of its own
//! (`stats openings`, `bench net`) `camelot-zero <sub> <subsub> --help`, exits 0. Every relative
//! link in README.md, docs/*.md and configs/README.md must reach a file or folder and, with a
//! `#anchor`, one of the target's headings under GitHub's anchor rules. The docs are prose beside
//! the code: without this nothing stops them drifting from the CLI when a command is renamed, or
//! from each other when a section moves. Failures are reported together, each with file and line.

mod common;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use common::bin;

/// The ways the docs run the program; the subcommand's name follows.
const PREFIXES: [&str; 2] = ["cargo run --release -- ", "camelot-zero "];

/// README.md and docs/*.md, in that order (docs/ sorted).
fn docs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("reads docs/")
        .map(|e| e.expect("reads docs/").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files.insert(0, root.join("README.md"));
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` relative to the package root, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display().to_string()
}

/// The lines of a markdown file other than fence markers: (number, text, inside a fence).
fn lines(text: &str) -> Vec<(usize, &str, bool)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else {
            out.push((i + 1, line, fenced));
        }
    }
    out
}

/// Whether `line` starts a block (list item, heading, table row), which no code span crosses.
fn starts_block(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    ["- ", "* ", "+ ", "#", "|"].into_iter().any(|p| t.starts_with(p))
        || (digits > 0 && t[digits..].starts_with(". "))
}

/// The code of a markdown file with the line each piece starts on: every line of a fenced block,
/// and every inline code span (its line breaks as spaces).
fn code(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    // The lines of the block being read, the first of them line `start`.
    let mut block: Vec<&str> = Vec::new();
    let mut start = 0;
    for (no, line, fenced) in lines(text) {
        if fenced || line.trim().is_empty() || starts_block(line) {
            spans(&block.join("\n"), start, &mut out);
            block.clear();
        }
        if fenced {
            out.push((no, line.to_string()));
        } else if !line.trim().is_empty() {
            start = if block.is_empty() { no } else { start };
            block.push(line);
        }
    }
    spans(&block.join("\n"), start, &mut out);
    out
}

/// Pushes the inline code spans of `block`, whose first line is line `start`, by CommonMark's
/// rule: a run of n backticks opens a span that the next run of exactly n closes; an opener
/// without a closer, and a backslash-escaped backtick, are plain text.
fn spans(block: &str, start: usize, out: &mut Vec<(usize, String)>) {
    let b = block.as_bytes();
    let run = |at: usize| b[at..].iter().take_while(|&&c| c == b'`').count();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += if b[i] == b'\\' { 2 } else { 1 };
            continue;
        }
        let n = run(i);
        let mut j = i + n;
        while j < b.len() && !(b[j] == b'`' && run(j) == n) {
            j += if b[j] == b'`' { run(j) } else { 1 };
        }
        if j < b.len() {
            let line = start + block[..i + n].matches('\n').count();
            out.push((line, block[i + n..j].replace('\n', " ")));
            i = j + n;
        } else {
            i += n;
        }
    }
}

/// A token that can be a subcommand's name (not an option, a path, a placeholder or a value).
fn name_like(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_lowercase())
        && t.chars().all(|c| c.is_ascii_lowercase() || c == '-')
}

/// The subcommand path (its first one or two names) of each run of the program in `code`.
fn invocations(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for prefix in PREFIXES {
        for (k, _) in code.match_indices(prefix) {
            // Not the tail of a longer word (`my-camelot-zero `).
            let before = code[..k].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || "-_.".contains(c)) {
                continue;
            }
            let names: Vec<String> = code[k + prefix.len()..]
                .split_whitespace()
                .take_while(|t| name_like(t))
                .take(2)
                .map(String::from)
                .collect();
            if !names.is_empty() {
                found.push(names);
            }
        }
    }
    found
}

/// `camelot-zero <args> --help`: its output, or why it failed.
fn help(args: &[&str]) -> Result<String, String> {
    let o = bin().args(args).arg("--help").env("NO_COLOR", "1").output().expect("runs");
    if o.status.success() {
        return Ok(String::from_utf8_lossy(&o.stdout).into_owned());
    }
    let err = String::from_utf8_lossy(&o.stderr);
    Err(format!("`camelot-zero {} --help` failed ({}): {}", args.join(" "), o.status, err.trim()))
}

/// The subcommands that clap's help lists under "Commands:" (none for a leaf command).
fn listed_subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

#[test]
fn every_command_the_docs_run_exists() {
    // Each subcommand path, with the places that show it.
    let mut paths: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for file in docs() {
        for (line, snippet) in code(&read(&file)) {
            for names in invocations(&snippet) {
                paths.entry(names).or_default().push(format!("{}:{line}", shown(&file)));
            }
        }
    }
    assert!(paths.keys().any(|p| p[0] == "run"), "found no `run` in the docs: {paths:?}");
    // Each first name's `--help`: the subcommands it lists, or why it failed.
    let mut tops: BTreeMap<String, Result<Vec<String>, String>> = BTreeMap::new();
    let mut failures = Vec::new();
    for (names, places) in &paths {
        let place = places.join(", ");
        let top = names[0].as_str();
        let listed = &*tops
            .entry(top.to_string())
            .or_insert_with(|| help(&[top]).map(|h| listed_subcommands(&h)));
        match (listed, names.get(1)) {
            (Err(e), _) => failures.push(format!("{place}: {e}")),
            // A second name only matters where the first has subcommands (`stats openings`);
            // elsewhere it is an argument (`moves start`).
            (Ok(subs), Some(sub)) if !subs.is_empty() => {
                if !subs.contains(sub) {
                    let has = subs.join(", ");
                    failures.push(format!("{place}: `{top}` has no subcommand `{sub}` ({has})"));
                } else if let Err(e) = help(&[top, sub.as_str()]) {
                    failures.push(format!("{place}: {e}"));
                }
            }
            _ => {}
        }
    }
    assert!(failures.is_empty(), "commands in the docs that fail:\n{}", failures.join("\n"));
}

/// GitHub's anchor for a heading: lowercase, punctuation other than `-` and `_` (backticks
/// included) dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    let kept = |c: &char| c.is_alphanumeric() || matches!(c, '_' | '-' | ' ');
    let hyphen = |c: char| if c == ' ' { '-' } else { c };
    heading.trim().to_lowercase().chars().filter(kept).map(hyphen).collect()
}

/// The anchors of a markdown file's headings outside fenced blocks; a repeated heading's
/// anchor takes `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for (_, line, fenced) in lines(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if fenced || !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes + 1..]);
        let (mut anchor, mut n) = (base.clone(), 0);
        while !seen.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    seen
}

/// The targets of the links `[text](target)` on a line.
fn links(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(k, _)| {
            let rest = &line[k + 2..];
            let end = rest.find(|c: char| c == ')' || c.is_whitespace())?;
            (end > 0 && rest[end..].starts_with(')')).then_some(&rest[..end])
        })
        .collect()
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let mut files = docs();
    files.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/README.md"));
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = read(file);
        for (no, line, _) in lines(&text).into_iter().filter(|&(_, _, fenced)| !fenced) {
            for link in links(line) {
                if ["http://", "https://", "mailto:"].into_iter().any(|p| link.starts_with(p)) {
                    continue;
                }
                checked += 1;
                let at = format!("{}:{no}: ({link})", shown(file));
                let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
                let target =
                    if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
                let markdown = target.is_file() && target.extension().is_some_and(|x| x == "md");
                if !target.exists() {
                    failures.push(format!("{at}: no such file or folder"));
                } else if !anchor.is_empty() && !markdown {
                    failures.push(format!("{at}: an anchor into a file that is not markdown"));
                } else if !anchor.is_empty() && !anchors(&read(&target)).contains(anchor) {
                    failures.push(format!("{at}: no heading of {} has it", shown(&target)));
                }
            }
        }
    }
    assert!(checked > 0, "found no relative links in the docs");
    assert!(failures.is_empty(), "links in the docs that fail:\n{}", failures.join("\n"));
}
