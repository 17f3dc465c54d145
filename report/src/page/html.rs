//! Small HTML building blocks for the report page: escaping, tables, preformatted text.

/// `text` with `& < > " '` escaped, safe inside an element or a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A `<table>` with a header row and one row per entry of `rows` (all cells escaped); cells
/// that parse as numbers are right-aligned.
pub fn table(class: &str, header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = format!("<table class=\"{}\">\n<thead><tr>", escape(class));
    for h in header {
        out.push_str(&format!("<th>{}</th>", escape(h)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            if cell.parse::<f64>().is_ok() {
                out.push_str(&format!("<td class=\"num\">{}</td>", escape(cell)));
            } else {
                out.push_str(&format!("<td>{}</td>", escape(cell)));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");
    out
}

/// A `<pre>` block of `text`, escaped.
pub fn pre(text: &str) -> String {
    format!("<pre>{}</pre>\n", escape(text.trim_end()))
}

/// An SVG document made ready to sit inside HTML: anything before the `<svg` element (an XML
/// declaration, a doctype) is dropped. `None` if the text has no `<svg` element.
pub fn inline_svg(svg: &str) -> Option<&str> {
    svg.find("<svg").map(|i| svg[i..].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_tables() {
        assert_eq!(escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
        let t = table("gen", &["g".into(), "note".into()], &[vec!["1".into(), "<x>".into()]]);
        assert!(t.contains("<th>note</th>"));
        assert!(t.contains("<td class=\"num\">1</td><td>&lt;x&gt;</td>"));
        assert_eq!(pre("a=<1>\n\n"), "<pre>a=&lt;1&gt;</pre>\n");
    }

    #[test]
    fn svg_prologue_is_dropped() {
        assert_eq!(
            inline_svg("<?xml version=\"1.0\"?>\n<svg x=\"1\"></svg>\n"),
            Some("<svg x=\"1\"></svg>")
        );
        assert_eq!(inline_svg("not svg"), None);
    }
}
