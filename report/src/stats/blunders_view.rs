//! [`Blunders`] as text, CSV and JSON: one row per model, the same figures in all three.

use serde_json::{Value, json};

use super::table::Table;
use super::{TableView, json_array};
use selfplay::stats::blunders::Blunders;

impl TableView for Blunders {
    /// The table; `text` selects the short headers and three decimals of the text output over the
    /// CSV's column names and full precision.
    fn table(&self, text: bool) -> Table {
        let header: Vec<&str> = match (text, searched(self)) {
            (true, true) => vec!["model", "prior mass", "prior top", "sims", "search top"],
            (true, false) => vec!["model", "prior mass", "prior top"],
            (false, true) => vec!["model", "prior_mass", "prior_top", "sims", "search_top"],
            (false, false) => vec!["model", "prior_mass", "prior_top"],
        };
        let number = |x: f64| if text { format!("{x:.3}") } else { x.to_string() };
        let mut t = Table::new(&header);
        t.left_columns = 1;
        for m in &self.models {
            let mut cells = vec![m.model.clone(), number(m.prior.mass), number(m.prior.top)];
            if let Some((sims, share)) = m.search {
                cells.extend([sims.to_string(), number(share)]);
            }
            t.push(cells);
        }
        t
    }

    /// What was measured on which positions.
    fn heading(&self) -> String {
        let search = if searched(self) {
            "; search top: the share where the model's search (of sims simulations) chooses one"
        } else {
            ""
        };
        let mover =
            self.mover.as_ref().map_or_else(String::new, |m| format!(" with `{m}` to move"));
        format!(
            "{} tactical {} positions{mover} (of {} judged, {} in the games): some moves lose {} or more \
             (hundredths of a Man) against the best by alpha-beta depth {} and quiescence, some do \
             not. A uniform prior puts {:.3} on the losing moves.\n\
             prior mass: the network's mean prior on them; prior top: the share of positions where \
             its most probable move is one{search}",
            self.positions,
            self.variant,
            self.judged,
            self.candidates,
            self.margin,
            self.depth,
            self.uniform_mass,
        )
    }

    /// The JSON output.
    fn json(&self) -> Value {
        let models = json_array(&self.models, |m| {
            json!({
                "model": m.model,
                "prior_mass": m.prior.mass,
                "prior_top": m.prior.top,
                "sims": m.search.map(|(n, _)| n),
                "search_top": m.search.map(|(_, share)| share),
            })
        });
        json!({
            "variant": self.variant,
            "depth": self.depth,
            "margin": self.margin,
            "positions": self.positions,
            "judged": self.judged,
            "candidates": self.candidates,
            "uniform_mass": self.uniform_mass,
            "mover": self.mover,
            "models": models,
        })
    }
}

/// Whether the models' searches were measured (all or none are).
fn searched(b: &Blunders) -> bool {
    b.models.iter().any(|m| m.search.is_some())
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
        let plain = blunders(None).text();
        assert!(plain.contains("2 tactical camelot positions (of 5 judged, 9 in the games)"));
        assert!(plain.contains("0.125") && !plain.contains("search top"), "{plain}");
        let searched = blunders(Some((64, 0.0))).text();
        assert!(searched.contains("(of sims simulations)") && searched.contains("search top"));
        assert_eq!(
            blunders(Some((64, 0.0))).csv(),
            "model,prior_mass,prior_top,sims,search_top\ngen-0003,0.125,0.5,64,0\n"
        );
        let j = blunders(None).json();
        assert_eq!(j["models"][0]["search_top"], Value::Null);
        assert_eq!(blunders(Some((16, 0.25))).json()["models"][0]["sims"], 16);
        assert_eq!(j["uniform_mass"], 0.25);
        let mut named = blunders(None);
        named.mover = Some("gen-0003:sims=64".into());
        assert!(
            named.text().contains("2 tactical camelot positions with `gen-0003:sims=64` to move")
        );
    }
}
