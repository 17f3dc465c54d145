//! The report page, `index.html`: one self-contained file with the charts inlined as SVG, the
//! generation table, the self-play games per generation, and the run's configuration and run
//! information as text.

use games::Termination;
use train::run_data::RunData;
use train::run_data::figures::{Figure, NO_GENERATIONS};

use super::html::{escape, inline_svg, pre, table};

/// A figure as drawn: the figure and, when it has content, the text of its SVG file.
pub struct DrawnFigure<'a> {
    pub figure: &'a Figure,
    pub svg: Option<String>,
}

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1em 2em; color: #222; }
h1 { margin-bottom: 0.2em; }
.meta { color: #555; margin-top: 0; }
nav a { margin-right: 1em; }
figure { margin: 2em 0; }
figure svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { color: #444; font-size: 0.95em; }
.placeholder { border: 1px dashed #aaa; background: #fafafa; color: #666; padding: 3em; text-align: center; font-style: italic; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; white-space: nowrap; }
th { background: #f0f0f0; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f6f6f6; padding: 1em; overflow-x: auto; font-size: 0.85em; }
";

/// The whole page.
pub fn page(run: &RunData, figures: &[DrawnFigure]) -> String {
    let name = escape(&run.name());
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>camelot-zero report: {name}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>Run report: {name}</h1>\n"
    );
    out.push_str(&format!(
        "<p class=\"meta\">{} · {} finished generations · {} · written by camelot-zero {}</p>\n",
        escape(run.variant.as_deref().unwrap_or("unknown variant")),
        run.finished_generations(),
        escape(&run.dir.display().to_string()),
        env!("CARGO_PKG_VERSION"),
    ));
    out.push_str("<nav>");
    for f in figures {
        out.push_str(&format!("<a href=\"#{}\">{}</a>", f.figure.stem, escape(f.figure.title)));
    }
    out.push_str("<a href=\"#generations\">Generations</a><a href=\"#games\">Games</a>");
    out.push_str(
        "<a href=\"#config\">Configuration</a><a href=\"#run-info\">Run information</a></nav>\n",
    );
    for f in figures {
        out.push_str(&figure(f));
    }
    out.push_str(&generations_section(run));
    out.push_str(&games_section(run));
    out.push_str("<section id=\"config\">\n<h2>Configuration (config.toml)</h2>\n");
    out.push_str(&pre(&run.config_text));
    out.push_str(
        "</section>\n<section id=\"run-info\">\n<h2>Run information (run-info.toml)</h2>\n",
    );
    match &run.run_info_text {
        Some(text) => out.push_str(&pre(text)),
        None => out.push_str("<p class=\"placeholder\">no run-info.toml</p>\n"),
    }
    out.push_str("</section>\n</body>\n</html>\n");
    out
}

fn figure(f: &DrawnFigure) -> String {
    let fig = f.figure;
    let mut out = format!("<figure id=\"{}\">\n<h2>{}</h2>\n", fig.stem, escape(fig.title));
    match (&fig.content, f.svg.as_deref().and_then(inline_svg)) {
        (Ok(_), Some(svg)) => {
            out.push_str(svg);
            out.push_str(&format!(
                "\n<figcaption>{} Files: <a href=\"{s}.png\">{s}.png</a>, <a href=\"{s}.svg\">{s}.svg</a>.</figcaption>\n",
                escape(&fig.caption),
                s = fig.stem
            ));
        }
        (Err(why), _) => {
            out.push_str(&format!("<p class=\"placeholder\">{}</p>\n", escape(why)));
            out.push_str(&format!("<figcaption>{}</figcaption>\n", escape(&fig.caption)));
        }
        (Ok(_), None) => {
            out.push_str("<p class=\"placeholder\">the chart could not be inlined</p>\n")
        }
    }
    out.push_str("</figure>\n");
    out
}

fn generations_section(run: &RunData) -> String {
    let mut out =
        String::from("<section id=\"generations\">\n<h2>Generations (generations.csv)</h2>\n");
    match &run.generations {
        Some(t) if !t.rows.is_empty() => {
            out.push_str("<div class=\"scroll\">\n");
            out.push_str(&table("generations", &t.header, &t.rows));
            out.push_str("</div>\n");
        }
        _ => out.push_str(&format!("<p class=\"placeholder\">{NO_GENERATIONS}</p>\n")),
    }
    out.push_str("</section>\n");
    out
}

fn games_section(run: &RunData) -> String {
    let mut out =
        String::from("<section id=\"games\">\n<h2>Self-play games (parquet records)</h2>\n");
    if run.games.is_empty() {
        out.push_str("<p class=\"placeholder\">no games recorded yet</p>\n</section>\n");
        return out;
    }
    let mut header: Vec<String> =
        ["generation", "games", "mean moves", "median", "shortest", "longest"]
            .map(String::from)
            .to_vec();
    header.extend(Termination::ALL.iter().map(|t| t.as_str().to_string()));
    let rows: Vec<Vec<String>> = run
        .games
        .iter()
        .map(|g| {
            let mut row = vec![
                g.generation.to_string(),
                g.games.to_string(),
                format!("{:.1}", g.mean_length()),
                format!("{}", g.length_quantile(0.5)),
                format!("{}", g.length_quantile(0.0)),
                format!("{}", g.length_quantile(1.0)),
            ];
            row.extend(Termination::ALL.iter().map(|t| g.terminations[t.as_str()].to_string()));
            row
        })
        .collect();
    out.push_str("<div class=\"scroll\">\n");
    out.push_str(&table("games", &header, &rows));
    out.push_str("</div>\n</section>\n");
    out
}
