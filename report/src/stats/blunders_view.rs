//! [`Blunders`] as text, CSV and JSON: one row per model, the same figures in all three.

use serde_json::{Value, json};

use super::table::Table;
use super::{TableView, json_array};
use selfplay::stats::blunders::Blunders;
use selfplay::stats::refutation::Refutation;

impl TableView for Blunders {
    /// The table; `text` selects the short headers and three decimals of the text output over the
    /// CSV's column names and full precision.
    fn table(&self, text: bool) -> Table {
        let mut header: Vec<&str> = if text {
            vec!["model", "prior mass", "prior top", "value disc", "disc charge"]
        } else {
            vec![
                "model",
                "prior_mass",
                "prior_top",
                "value_discrimination",
                "value_discrimination_charge",
            ]
        };
        if searched(self) {
            header.extend(if text {
                ["sims", "search top", "charge", "compulsory", "other", "unvisited"]
            } else {
                [
                    "sims",
                    "search_top",
                    "search_top_optional_charge",
                    "search_top_compulsory_capture",
                    "search_top_other",
                    "search_top_refutation_unvisited",
                ]
            });
        }
        let number = |x: f64| if text { format!("{x:.3}") } else { x.to_string() };
        let maybe = |x: Option<f64>| {
            x.map_or_else(|| if text { "-".into() } else { String::new() }, number)
        };
        let mut t = Table::new(&header);
        t.left_columns = 1;
        for m in &self.models {
            let d = &m.discrimination;
            let mut cells = vec![
                m.model.clone(),
                number(m.prior.mass),
                number(m.prior.top),
                maybe(d.all),
                maybe(d.charge_pending),
            ];
            if let Some(s) = &m.search {
                cells.extend([s.simulations.to_string(), number(s.losing)]);
                cells.extend(s.by_class.map(number));
                cells.push(number(s.unvisited));
            }
            t.push(cells);
        }
        t
    }

    /// What was measured on which positions.
    fn heading(&self) -> String {
        let search = if searched(self) {
            "; search top: the share where the model's search (of sims simulations) chooses one, \
             split by how the opponent's best reply refutes it (charge: an optional Knight's \
             Charge; compulsory: a compulsory capture; other), and unvisited: the share where it \
             chooses one whose refutation its search never visited"
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
             its most probable move is one; value disc: the share of (losing, safe) pairs of legs \
             whose positions the value head scores losing below safe (0.5: a coin), and disc \
             charge the same where an optional Charge refutes the losing leg{search}",
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
            let s = m.search.as_ref();
            let by_class = s.map(|s| {
                Refutation::ALL
                    .iter()
                    .zip(s.by_class)
                    .map(|(c, share)| (c.name().to_string(), json!(share)))
                    .collect::<serde_json::Map<_, _>>()
            });
            json!({
                "model": m.model,
                "prior_mass": m.prior.mass,
                "prior_top": m.prior.top,
                "value_discrimination": m.discrimination.all,
                "value_pairs": m.discrimination.pairs,
                "value_discrimination_charge": m.discrimination.charge_pending,
                "value_pairs_charge": m.discrimination.charge_pairs,
                "sims": s.map(|s| s.simulations),
                "search_top": s.map(|s| s.losing),
                "search_top_by_refutation": by_class,
                "search_top_refutation_unvisited": s.map(|s| s.unvisited),
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
    use selfplay::stats::blunders::{ModelBlunders, PriorBlunders, SearchBlunders};
    use selfplay::stats::refutation::Discrimination;

    use super::*;

    fn found(simulations: u32, losing: f64) -> Option<SearchBlunders> {
        let by_class = [losing, 0.0, 0.0];
        Some(SearchBlunders { simulations, losing, by_class, unvisited: losing })
    }

    fn blunders(search: Option<SearchBlunders>) -> Blunders {
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
                discrimination: Discrimination {
                    all: Some(0.75),
                    pairs: 8,
                    charge_pending: None,
                    charge_pairs: 0,
                },
                search,
            }],
        }
    }

    #[test]
    fn the_search_column_is_shown_only_when_searched() {
        let plain = blunders(None).text();
        assert!(plain.contains("2 tactical camelot positions (of 5 judged, 9 in the games)"));
        assert!(plain.contains("0.125") && !plain.contains("search top"), "{plain}");
        let searched = blunders(found(64, 0.0)).text();
        assert!(searched.contains("(of sims simulations)") && searched.contains("search top"));
        assert_eq!(
            blunders(found(64, 0.5)).csv(),
            "model,prior_mass,prior_top,value_discrimination,value_discrimination_charge,sims,\
             search_top,search_top_optional_charge,search_top_compulsory_capture,search_top_other,\
             search_top_refutation_unvisited\ngen-0003,0.125,0.5,0.75,,64,0.5,0.5,0,0,0.5\n"
        );
        let j = blunders(None).json();
        assert_eq!(j["models"][0]["search_top"], Value::Null);
        assert_eq!(j["models"][0]["value_discrimination"], 0.75);
        assert_eq!(j["models"][0]["value_discrimination_charge"], Value::Null);
        let j = blunders(found(16, 0.25)).json();
        assert_eq!(j["models"][0]["sims"], 16);
        assert_eq!(j["models"][0]["search_top_by_refutation"]["optional_charge"], 0.25);
        assert_eq!(j["uniform_mass"], 0.25);
        let mut named = blunders(None);
        named.mover = Some("gen-0003:sims=64".into());
        assert!(
            named.text().contains("2 tactical camelot positions with `gen-0003:sims=64` to move")
        );
    }
}
