//! [`Blunders`] as text, CSV and JSON: one row per model, the same figures in all three.

use serde_json::{Value, json};

use super::table::Table;
use selfplay::stats::blunders::Blunders;

/// The table; `text` selects the short headers and three decimals of the text output over the
/// CSV's column names and full precision.
fn table(b: &Blunders, text: bool) -> Table {
    let header: Vec<&str> = match (text, searched(b)) {
        (true, true) => vec!["model", "prior mass", "prior top", "sims", "search top"],
        (true, false) => vec!["model", "prior mass", "prior top"],
        (false, true) => vec!["model", "prior_mass", "prior_top", "sims", "search_top"],
        (false, false) => vec!["model", "prior_mass", "prior_top"],
    };
    let number = |x: f64| if text { format!("{x:.3}") } else { x.to_string() };
    let mut t = Table::new(&header);
    t.left_columns = 1;
    for m in &b.models {
        let mut cells = vec![m.model.clone(), number(m.prior.mass), number(m.prior.top)];
        if let Some((sims, share)) = m.search {
            cells.extend([sims.to_string(), number(share)]);
        }
        t.push(cells);
    }
    t
}

/// Whether the models' searches were measured (all or none are).
fn searched(b: &Blunders) -> bool {
    b.models.iter().any(|m| m.search.is_some())
}

/// The text output: what was measured on which positions, and the aligned table.
pub fn text(b: &Blunders) -> String {
    let search = if searched(b) {
        "; search top: the share where the model's search (of sims simulations) chooses one"
    } else {
        ""
    };
    let mover = b.mover.as_ref().map_or_else(String::new, |m| format!(" with `{m}` to move"));
    format!(
        "{} tactical {} positions{mover} (of {} judged, {} in the games): some moves lose {} or more \
         (hundredths of a Man) against the best by alpha-beta depth {} and quiescence, some do \
         not. A uniform prior puts {:.3} on the losing moves.\n\
         prior mass: the network's mean prior on them; prior top: the share of positions where \
         its most probable move is one{search}\n\n{}",
        b.positions,
        b.variant,
        b.judged,
        b.candidates,
        b.margin,
        b.depth,
        b.uniform_mass,
        table(b, true).text()
    )
}

/// The CSV output (figures in full precision).
pub fn csv(b: &Blunders) -> String {
    table(b, false).csv()
}

/// The JSON output.
pub fn json(b: &Blunders) -> Value {
    let models: Vec<Value> = b
        .models
        .iter()
        .map(|m| {
            json!({
                "model": m.model,
                "prior_mass": m.prior.mass,
                "prior_top": m.prior.top,
                "sims": m.search.map(|(n, _)| n),
                "search_top": m.search.map(|(_, share)| share),
            })
        })
        .collect();
    json!({
        "variant": b.variant,
        "depth": b.depth,
        "margin": b.margin,
        "positions": b.positions,
        "judged": b.judged,
        "candidates": b.candidates,
        "uniform_mass": b.uniform_mass,
        "mover": b.mover,
        "models": models,
    })
}

#[cfg(test)]
mod tests {
    use selfplay::stats::blunders::{ModelBlunders, PriorBlunders};

    use super::*;

    fn blunders(search: Option<(u32, f64)>) -> Blunders {
        Blunders {
            variant: "camelot",
            depth: 1,
            margin: 100,
            positions: 2,
            judged: 5,
            candidates: 9,
            uniform_mass: 0.25,
            mover: None,
            models: vec![ModelBlunders {
                model: "gen-0003".into(),
                prior: PriorBlunders { mass: 0.125, top: 0.5 },
                search,
            }],
        }
    }

    #[test]
    fn the_search_column_is_shown_only_when_searched() {
        let plain = text(&blunders(None));
        assert!(plain.contains("2 tactical camelot positions (of 5 judged, 9 in the games)"));
        assert!(plain.contains("0.125") && !plain.contains("search top"), "{plain}");
        let searched = text(&blunders(Some((64, 0.0))));
        assert!(searched.contains("(of sims simulations)") && searched.contains("search top"));
        assert_eq!(
            csv(&blunders(Some((64, 0.0)))),
            "model,prior_mass,prior_top,sims,search_top\ngen-0003,0.125,0.5,64,0\n"
        );
        let j = json(&blunders(None));
        assert_eq!(j["models"][0]["search_top"], Value::Null);
        assert_eq!(json(&blunders(Some((16, 0.25))))["models"][0]["sims"], 16);
        assert_eq!(j["uniform_mass"], 0.25);
        let mut named = blunders(None);
        named.mover = Some("gen-0003:sims=64".into());
        assert!(
            text(&named).contains("2 tactical camelot positions with `gen-0003:sims=64` to move")
        );
    }
}
