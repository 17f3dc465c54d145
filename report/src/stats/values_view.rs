//! [`ValueProbe`] as text, CSV and JSON: one row per material bucket, the games' score beside
//! each model's expected score, win/(win+loss) and draw mass.

use serde_json::{Value, json};

use super::table::Table;
use super::{TableView, json_array};
use selfplay::stats::values::{FAR_MOVES, ValueProbe};

impl TableView for ValueProbe {
    /// The table (`text`: three decimals and short headers; otherwise the CSV's full precision).
    fn table(&self, text: bool) -> Table {
        let mut header = vec!["balance".to_string(), "positions".into(), "games".into()];
        for (i, m) in self.models.iter().enumerate() {
            let name = if text { format!("{}", i + 1) } else { m.model.clone() };
            for what in ["expected", "decisive", "draw"] {
                header.push(format!("{name} {what}"));
            }
        }
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let mut t = Table::new(&header);
        let number = |x: Option<f64>| match x {
            Some(x) if text => format!("{x:.3}"),
            Some(x) => x.to_string(),
            None => String::new(),
        };
        for (k, b) in self.buckets.iter().enumerate() {
            let games = (b.positions > 0).then_some(b.score);
            let mut row = vec![format!("{:+}", b.balance), b.positions.to_string(), number(games)];
            for m in &self.models {
                row.extend([number(m.expected[k]), number(m.decisive[k]), number(m.draw[k])]);
            }
            t.push(row);
        }
        t
    }

    /// What was measured, and the models' numbers.
    fn heading(&self) -> String {
        let positions: usize = self.buckets.iter().map(|b| b.positions).sum();
        let mut out = format!(
            "value probe: {positions} {} positions of {} games, by the mover's material balance \
             (Men, a Knight 1.4; clamped to ±4).\n\
             games: the games' mean score for the mover; expected: the value head's win plus draw \
             at the fair share; decisive: win / (win + loss); draw: the draw class's mass\n",
            self.variant, self.games
        );
        for (i, m) in self.models.iter().enumerate() {
            let far = m.far_draw.map_or("no such positions".to_string(), |d| format!("{d:.3}"));
            out.push_str(&format!(
                "{}: {} (draw mass {FAR_MOVES}+ moves from the end of decided games: {far})\n",
                i + 1,
                m.model
            ));
        }
        out.pop(); // Its last line's newline: the text output puts the blank line.
        out
    }

    /// The JSON output.
    fn json(&self) -> Value {
        let buckets = json_array(
            &self.buckets,
            |b| json!({ "balance": b.balance, "positions": b.positions, "score": b.score }),
        );
        let models = json_array(&self.models, |m| {
            json!({
                "model": m.model,
                "expected": m.expected,
                "decisive": m.decisive,
                "draw": m.draw,
                "far_draw": m.far_draw,
            })
        });
        json!({ "variant": self.variant, "games": self.games, "buckets": buckets, "models": models })
    }
}

#[cfg(test)]
mod tests {
    use selfplay::stats::values::{Bucket, MAX_BALANCE, ModelValues};

    use super::*;

    fn probe() -> ValueProbe {
        let n = (2 * MAX_BALANCE + 1) as usize;
        let buckets = (-MAX_BALANCE..=MAX_BALANCE)
            .map(|balance| Bucket {
                balance,
                positions: usize::from(balance.abs() <= 1) * 10,
                score: 0.5 + 0.1 * f64::from(balance),
            })
            .collect();
        let some = |x: f64| (0..n).map(|k| (k.abs_diff(4) <= 1).then_some(x)).collect();
        ValueProbe {
            variant: "camelot",
            games: 3,
            buckets,
            models: vec![ModelValues {
                model: "gen-0004".into(),
                expected: some(0.5),
                decisive: some(0.625),
                draw: some(0.25),
                far_draw: Some(0.125),
            }],
        }
    }

    #[test]
    fn every_bucket_is_a_row_and_empty_ones_stay_blank() {
        let p = probe();
        let t = p.text();
        assert!(t.contains("30 camelot positions of 3 games"), "{t}");
        assert!(
            t.contains("1: gen-0004 (draw mass 16+ moves from the end of decided games: 0.125)")
        );
        assert!(
            t.lines().any(|l| l.starts_with("+1") && l.contains("0.600") && l.contains("0.625"))
        );
        let c = p.csv();
        let lines: Vec<&str> = c.lines().collect();
        assert_eq!(
            lines[0],
            "balance,positions,games,gen-0004 expected,gen-0004 decisive,gen-0004 draw"
        );
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[1], "-4,0,,,,");
        assert_eq!(lines[5], "+0,10,0.5,0.5,0.625,0.25");
        let j = p.json();
        assert_eq!(j["buckets"].as_array().unwrap().len(), 9);
        assert_eq!(j["models"][0]["expected"][0], Value::Null);
        assert_eq!(j["models"][0]["far_draw"], 0.125);
    }
}
