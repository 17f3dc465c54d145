//! JSON laid out for reading: one member per line, except that an array or object that fits on
//! its line, or holds only short plain values (numbers, square names), stays on one line (so a
//! 2,561-entry action table is 2,561 lines, not 20,000).

/// Lines are kept within this many columns where a container fits.
const WIDTH: usize = 100;
/// A container of plain values this short each (numbers, square names) stays on one line
/// whatever its length.
const SHORT: usize = 16;

/// Re-lays out compact JSON text (as `serde_json::to_string` writes it, keys in the order they
/// were serialised). `compact` must be valid JSON without insignificant whitespace.
pub fn pretty(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    write_value(compact, 0, 0, &mut out);
    out.push('\n');
    out
}

/// Writes the value `v` (a complete JSON value) on a line indented `indent` columns whose first
/// `key` columns after the indent hold its key (`"name": `).
fn write_value(v: &str, indent: usize, key: usize, out: &mut String) {
    let open = v.as_bytes()[0];
    if !matches!(open, b'{' | b'[') {
        out.push_str(v);
        return;
    }
    let members = split_members(&v[1..v.len() - 1]);
    let nested = members.iter().any(|m| member_value(m, open).starts_with(['{', '[']));
    let short = members.iter().all(|m| m.len() <= SHORT);
    if indent + key + v.len() <= WIDTH || (!nested && short) {
        out.push_str(v);
        return;
    }
    out.push(open as char);
    for (i, m) in members.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&" ".repeat(indent + 2));
        let value = member_value(m, open);
        let key = m.len() - value.len();
        if key > 0 {
            out.push_str(&m[..key]);
            out.push(' ');
        }
        write_value(value, indent + 2, key + usize::from(key > 0), out);
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push(if open == b'{' { '}' } else { ']' });
}

/// The value part of an object member (`"key":value`) or an array element.
fn member_value(m: &str, open: u8) -> &str {
    if open == b'{' { &m[value_start(m)..] } else { m }
}

/// Where the value starts in `"key":value` (after the key's closing quote and the colon).
fn value_start(m: &str) -> usize {
    let b = m.as_bytes();
    let mut i = 1;
    while b[i] != b'"' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 2
}

/// Splits the inside of a container at its top-level commas.
fn split_members(inner: &str) -> Vec<&str> {
    let (b, mut out, mut start, mut depth, mut in_string) = (inner.as_bytes(), vec![], 0, 0, false);
    let mut i = 0;
    while i < b.len() {
        match (in_string, b[i]) {
            (true, b'\\') => i += 1,
            (true, b'"') | (false, b'"') => in_string = !in_string,
            (false, b'{' | b'[') => depth += 1,
            (false, b'}' | b']') => depth -= 1,
            (false, b',') if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !inner.is_empty() {
        out.push(&inner[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_containers_stay_on_one_line_and_the_text_parses_back() {
        let long: Vec<String> = (0..30).map(|i| format!("square-{i}")).collect();
        let value = serde_json::json!({
            "name": "a \"quoted\", {tricky} [string]",
            "shape": ["batch", 13, 16, 12],
            "rows": [{"index": 0, "to": "F2"}, {"index": 1, "to": null}],
            "long": long,
            "sentences": ["a long sentence that does not fit on one line with the next one", "and a second one"],
            "nested": {"deeper": [{"x": long}]},
            "empty": [],
        });
        let compact = serde_json::to_string(&value).unwrap();
        let text = pretty(&compact);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), value);
        assert!(
            text.contains(
                "\n  \"rows\": [{\"index\":0,\"to\":\"F2\"},{\"index\":1,\"to\":null}],\n"
            ),
            "{text}"
        );
        assert!(text.contains("\n  \"long\": [\"square-0\","), "{text}");
        assert!(text.contains("\n  \"sentences\": [\n    \"a long"), "{text}");
        assert!(
            text.contains("\n    \"deeper\": [\n      {\n        \"x\": [\"square-0\","),
            "{text}"
        );
    }
}
