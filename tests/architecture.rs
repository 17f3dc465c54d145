//! The shape of the code, checked: no import circles between the files of any crate, none
//! between the crates (dev-dependencies included), and the search crate built on the rules and
//! the network alone (docs/architecture.md).
//!
//! A file's imports are read as text: its `use` declarations and the `crate::`, `super::` and
//! child-module paths in its code (comments and strings left out), each resolved to the file of
//! the longest module prefix it names. An item the crate root re-exports (`crate::Item`) counts
//! as an import of the file it comes from; the root itself only declares and re-exports, a
//! module's use of what its own parent modules declare is part of the module tree (a `mod.rs`
//! may declare the error type of its children and use them), and test files (`tests.rs`,
//! `*_tests.rs`, `#[cfg(test)] mod …;`) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The workspace's member folders, from the root manifest.
fn members() -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let line = manifest.lines().find(|l| l.starts_with("members")).expect("members");
    let mut members: Vec<String> = line.split('"').skip(1).step_by(2).map(str::to_string).collect();
    members.push(".".into());
    members
}

/// A crate's source files by module path (`[]` is the root, `["driver", "slot"]` a module).
struct Crate {
    files: BTreeMap<Vec<String>, PathBuf>,
    /// Modules declared `#[cfg(test)]`, or test files by name: not part of the picture.
    tests: BTreeSet<Vec<String>>,
    /// The items each module re-exports (`pub use`), by the name they get: the module they come
    /// from.
    reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
}

fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> =
        rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments, string and char literals (so that paths named in docs
/// and messages are not read as imports).
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'"'
            || (b[i] == b'r' && b.get(i + 1).is_some_and(|&c| c == b'"' || c == b'#'))
        {
            // A string (raw strings: r"…", r#"…"#).
            let raw = b[i] == b'r';
            let mut hashes = 0;
            i += 1;
            if raw {
                while b[i] == b'#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
            }
            while i < b.len() {
                if !raw && b[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if b[i] == b'"'
                    && b[i + 1..].iter().take(hashes).filter(|&&c| c == b'#').count() == hashes
                {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

impl Crate {
    fn read(dir: &Path) -> Option<Crate> {
        let src = dir.join("src");
        if !src.join("lib.rs").exists() && !src.join("main.rs").exists() {
            return None;
        }
        let mut paths = Vec::new();
        rust_files(&src, &mut paths);
        let mut files = BTreeMap::new();
        let mut tests = BTreeSet::new();
        for path in paths {
            let module = module_path(&src, &path);
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if name == "tests" || name.ends_with("_tests") {
                tests.insert(module.clone());
            }
            files.insert(module, path);
        }
        // `#[cfg(test)] mod x;` declarations, and everything under a test module.
        for (module, path) in &files {
            let code = std::fs::read_to_string(path).unwrap();
            let lines: Vec<&str> = code.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let line = line.trim();
                if let Some(rest) =
                    line.strip_prefix("mod ").or_else(|| line.strip_prefix("pub mod "))
                    && let Some(name) = rest.strip_suffix(';')
                    && i > 0
                    && lines[i - 1].trim() == "#[cfg(test)]"
                {
                    let mut child = module.clone();
                    child.push(name.trim().to_string());
                    tests.insert(child);
                }
            }
        }
        let under_tests = |m: &[String]| (1..=m.len()).any(|n| tests.contains(&m[..n]));
        let all: Vec<_> = files.keys().filter(|m| under_tests(m)).cloned().collect();
        tests.extend(all);
        let mut krate = Crate { files, tests, reexports: BTreeMap::new() };
        let mut reexports = BTreeMap::new();
        for (module, path) in &krate.files {
            let code = code_of(&std::fs::read_to_string(path).unwrap());
            let items: BTreeMap<String, Vec<String>> = use_paths(&code)
                .into_iter()
                .filter(|u| u.public)
                .filter_map(|u| Some((u.name, krate.resolve(module, &u.path)?)))
                .filter(|(_, target)| target != module)
                .collect();
            reexports.insert(module.clone(), items);
        }
        krate.reexports = reexports;
        Some(krate)
    }

    /// The module a path used in `from` names (the longest prefix that is a file), if it is one
    /// of this crate's.
    fn resolve(&self, from: &[String], path: &[String]) -> Option<Vec<String>> {
        let (mut base, rest): (Vec<String>, &[String]) = match path.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &path[1..]),
            Some("self") => (from.to_vec(), &path[1..]),
            Some("super") => {
                let mut base = from.to_vec();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
                (base, rest)
            }
            Some(first) => {
                // A child module of `from` named without `self::`.
                let mut child = from.to_vec();
                child.push(first.to_string());
                if !self.files.contains_key(&child) {
                    return None;
                }
                (from.to_vec(), path)
            }
            None => return None,
        };
        // Down the modules the segments name; an item a module re-exports leads to the module
        // it comes from (re-exports of re-exports followed, a few steps at most).
        let mut i = 0;
        let mut steps = 0;
        while i < rest.len() && steps < 16 {
            let mut child = base.clone();
            child.push(rest[i].clone());
            if self.files.contains_key(&child) {
                base = child;
                i += 1;
                continue;
            }
            match self.reexports.get(&base).and_then(|r| r.get(&rest[i])) {
                Some(from) if *from != base => {
                    if from.last() == Some(&rest[i]) {
                        i += 1; // the re-export names a module
                    }
                    base = from.clone();
                    steps += 1;
                }
                _ => break,
            }
        }
        Some(base)
    }

    /// Each file's imports of the crate's other files (test files and the root left out).
    fn edges(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let mut edges = BTreeMap::new();
        for (module, path) in &self.files {
            if module.is_empty() || self.tests.contains(module) {
                continue;
            }
            let code = code_of(&std::fs::read_to_string(path).unwrap());
            let code = match code.find("#[cfg(test)]\nmod tests {") {
                Some(at) => &code[..at],
                None => &code[..],
            };
            let mut to = BTreeSet::new();
            let mut paths: Vec<Vec<String>> = use_paths(code).into_iter().map(|u| u.path).collect();
            paths.extend(inline_paths(&without_uses(code)));
            for p in paths {
                if let Some(target) = self.resolve(module, &p)
                    && !module.starts_with(&target)
                    && !self.tests.contains(&target)
                {
                    to.insert(target);
                }
            }
            edges.insert(module.clone(), to);
        }
        edges
    }
}

/// A path of a `use` declaration: what it names, the name it gives it here, whether it is `pub`.
#[derive(Debug, PartialEq)]
struct UsePath {
    path: Vec<String>,
    name: String,
    public: bool,
}

/// Every path of the `use` declarations in `code` (groups expanded).
fn use_paths(code: &str) -> Vec<UsePath> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let before = rest[..at].trim_end();
        let public = before.ends_with("pub") || before.ends_with(')');
        let body_start = at + 3;
        let Some(end) = rest[body_start..].find(';') else { break };
        let body =
            rest[body_start..body_start + end].split_whitespace().collect::<Vec<_>>().join(" ");
        expand(&body, &mut Vec::new(), &mut |path, name| out.push(UsePath { path, name, public }));
        rest = &rest[body_start + end..];
    }
    out
}

/// `code` without its `use` declarations.
fn without_uses(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        out.push_str(&rest[..at]);
        let Some(end) = rest[at..].find(';') else { break };
        rest = &rest[at + end + 1..];
    }
    out.push_str(rest);
    out
}

/// The position of `word` standing alone (not part of a longer name) in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if boundary(before) && after.is_some_and(char::is_whitespace) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Expands a `use` tree (`a::b::{c, d::{e, f as g}}`) into its paths and the names they get.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut impl FnMut(Vec<String>, String)) {
    let tree = tree.trim().trim_start_matches("::");
    let segments = |s: &str| -> Vec<String> {
        s.split("::").map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
    };
    if let Some(open) = tree.find('{') {
        let n = prefix.len();
        prefix.extend(segments(&tree[..open]));
        let inner = &tree[open + 1..tree.rfind('}').unwrap()];
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], prefix, out);
        prefix.truncate(n);
    } else if !tree.is_empty() {
        let mut parts = tree.split(" as ");
        let mut path = prefix.clone();
        path.extend(segments(parts.next().unwrap()).into_iter().filter(|s| s != "self"));
        let name = parts.next().map(str::trim).map(str::to_string);
        let name = name.or_else(|| path.last().cloned()).unwrap_or_default();
        out(path, name);
    }
}

/// The `crate::…`, `super::…` and `name::…` paths in code outside `use` declarations.
fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0
            || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':');
        if boundary && (chars[i].is_ascii_lowercase() || chars[i] == '_') {
            let mut j = i;
            let mut path = Vec::new();
            loop {
                let start = j;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                path.push(chars[start..j].iter().collect::<String>());
                if j + 2 < chars.len()
                    && chars[j] == ':'
                    && chars[j + 1] == ':'
                    && (chars[j + 2].is_alphanumeric() || chars[j + 2] == '_')
                {
                    j += 2;
                } else {
                    break;
                }
            }
            if path.len() > 1 {
                out.push(path);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The circles of a graph: its strongly connected components of more than one node.
fn circles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    // Tarjan's algorithm, recursive (the graphs are small).
    struct Walk<'a, N: Ord> {
        edges: &'a BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        found: Vec<Vec<N>>,
    }
    impl<N: Ord + Clone> Walk<'_, N> {
        fn visit(&mut self, v: &N) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            self.on_stack.insert(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(&w);
                    let done = &w == v;
                    component.push(w);
                    if done {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let mut report = Vec::new();
    let mut crates = 0;
    for member in members() {
        let Some(krate) = Crate::read(&root().join(&member)) else { continue };
        crates += 1;
        assert!(krate.files.len() > 1 || member == "storage", "{member}: no modules read");
        let edges = krate.edges();
        for circle in circles(&edges) {
            let mut lines = vec![format!("{member}: a circle of {} files:", circle.len())];
            for from in &circle {
                for to in edges[from].iter().filter(|t| circle.contains(t)) {
                    lines.push(format!("  {} -> {}", from.join("::"), to.join("::")));
                }
            }
            report.push(lines.join("\n"));
        }
    }
    assert!(crates >= 10, "read {crates} crates");
    assert!(report.is_empty(), "import circles:\n{}", report.join("\n"));
}

#[test]
fn the_reader_finds_a_circle_when_there_is_one() {
    // The detector on a known graph, and the path reader on known code: a test of the test.
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    edges.insert("a", ["b"].into());
    edges.insert("b", ["c"].into());
    edges.insert("c", ["a", "d"].into());
    edges.insert("d", BTreeSet::new());
    assert_eq!(circles(&edges), vec![vec!["a", "b", "c"]]);
    edges.insert("c", ["d"].into());
    assert!(circles(&edges).is_empty());
    let code = code_of(
        "use crate::a::{b, c::{D, e}};\npub use super::f as g;\nuse crate::classical::{x as y};\n// use crate::comment;\n\
         fn x() { crate::h::i(); let s = \"crate::in_string\"; }\n",
    );
    let words = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let read: Vec<(Vec<String>, String, bool)> =
        use_paths(&code).into_iter().map(|u| (u.path, u.name, u.public)).collect();
    assert_eq!(
        read,
        vec![
            (words(&["crate", "a", "b"]), "b".into(), false),
            (words(&["crate", "a", "c", "D"]), "D".into(), false),
            (words(&["crate", "a", "c", "e"]), "e".into(), false),
            (words(&["super", "f"]), "g".into(), true),
            (words(&["crate", "classical", "x"]), "y".into(), false),
        ]
    );
    assert_eq!(inline_paths(&without_uses(&code)), vec![words(&["crate", "h", "i"])]);
}

/// The workspace crates a member's manifest depends on (normal and dev dependencies).
fn workspace_dependencies(member: &str, names: &BTreeMap<String, String>) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(root().join(member).join("Cargo.toml")).unwrap();
    let mut deps = BTreeSet::new();
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]" || line == "[dev-dependencies]";
            continue;
        }
        if in_deps
            && let Some(name) = line.split(['=', '.', ' ']).next()
            && names.values().any(|n| n == name)
        {
            deps.insert(name.to_string());
        }
    }
    deps
}

#[test]
fn the_crates_form_layers_and_the_search_needs_no_player() {
    // Package names by folder.
    let mut names = BTreeMap::new();
    for member in members() {
        let manifest = std::fs::read_to_string(root().join(&member).join("Cargo.toml")).unwrap();
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .map(|n| n.trim_end_matches('"').to_string())
            .unwrap();
        names.insert(member, name);
    }
    let graph: BTreeMap<String, BTreeSet<String>> = names
        .iter()
        .map(|(member, name)| (name.clone(), workspace_dependencies(member, &names)))
        .collect();
    assert!(circles(&graph).is_empty(), "crate circles: {:?}", circles(&graph));
    // The search depends on the rules and the network only: no player, teacher or record.
    let search = &graph["search"];
    assert!(search.iter().all(|d| d == "games" || d == "model"), "search depends on {search:?}");
    // The records and the classical players need no self-play; the classical players no
    // network, so they build without burn.
    for (krate, not) in [
        ("records", &["search", "classical", "selfplay", "model"][..]),
        ("classical", &["selfplay", "records", "model", "engine"]),
        ("engine", &["selfplay", "records"]),
    ] {
        let deps = &graph[krate];
        assert!(not.iter().all(|n| !deps.contains(*n)), "{krate} depends on {deps:?}");
    }
}

#[test]
fn the_architecture_page_names_every_crate() {
    // docs/architecture.md draws the crates and has a row for each: a new crate, a renamed or a
    // removed one shows here first.
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let rows: BTreeSet<String> = page
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("/` |").map(|(name, _)| name.to_string()))
        .collect();
    let mut folders: BTreeSet<String> = members().into_iter().filter(|m| m != ".").collect();
    folders.insert("src".into());
    assert_eq!(rows, folders, "docs/architecture.md's table against the workspace's crates");
    for folder in folders.iter().filter(|f| *f != "src" && *f != "python") {
        let drawn = page.lines().any(|l| l.starts_with(&format!("{folder} ")));
        assert!(drawn, "docs/architecture.md's drawing has no {folder}");
    }
}
