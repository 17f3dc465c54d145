//! Property tests: the position, move and action parsers never panic, whatever the input, and
//! reject or accept consistently (anything accepted prints back to a string that parses to the
//! same position).
//!
//! Cases: `FUZZ_CASES` (default 3000 per property). For a longer run:
//! `FUZZ_CASES=300000 PROPTEST_RNG_SEED=$RANDOM cargo test --release -p games --test parse_props`.

use games::{Camelot, CamelotPosition, TriCamelot, TriCamelotPosition};
use proptest::prelude::*;

#[path = "../../tests/common/fuzz.rs"]
mod fuzz;

/// Strings built from the pieces of real position strings, to get past the first checks.
fn position_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("camelot".to_string()),
        Just("tricamelot".to_string()),
        "[WBRGX]",
        "[WBRG]:",
        "[WBRG]:([KMQ][A-M][0-9]{1,2},){0,6}[KM][A-L][0-9]{1,2}",
        "cm=[0-3],[0-3]",
        "cm=[0-9,]{0,4}",
        "move=[A-L][0-9]{1,2}([-x][A-L][0-9]{1,2}){0,3}",
        ".{0,6}",
    ];
    prop::collection::vec(token, 0..7).prop_map(|t| t.join(" "))
}

fn check_position_text(s: &str) {
    if let Ok(p) = s.parse::<CamelotPosition>() {
        assert_eq!(p.to_string().parse::<CamelotPosition>().unwrap(), p);
    }
    if let Ok(p) = s.parse::<TriCamelotPosition>() {
        assert_eq!(p.to_string().parse::<TriCamelotPosition>().unwrap(), p);
    }
    if let Ok(st) = s.parse::<Camelot>() {
        assert_eq!(st.to_string().parse::<Camelot>().unwrap().to_string(), st.to_string());
    }
    let _ = s.parse::<TriCamelot>();
}

proptest! {
    #![proptest_config(fuzz::config(3000))]

    #[test]
    fn position_parser_never_panics_on_any_text(s in ".{0,80}") {
        check_position_text(&s);
    }

    #[test]
    fn position_parser_never_panics_on_position_like_text(s in position_like()) {
        check_position_text(&s);
    }

    #[test]
    fn move_parser_never_panics(s in "([A-M][0-9]{1,2}[-x]?){0,5}|.{0,20}") {
        let c = CamelotPosition::start();
        if let Ok(m) = c.parse_move(&s) {
            prop_assert_eq!(c.notation(&m), s.clone());
        }
        let t = TriCamelotPosition::start();
        if let Ok(m) = t.parse_move(&s) {
            prop_assert_eq!(t.notation(&m), s.clone());
        }
    }

    #[test]
    fn action_parser_never_panics(s in "[A-M][0-9]{1,2}>[A-M][0-9]{1,2}|end|.{0,10}") {
        let _ = Camelot::initial_state().parse_action(&s);
        let _ = TriCamelot::initial_state().parse_action(&s);
    }
}

trait Initial {
    fn initial_state() -> Self;
}

impl<G: games::Game> Initial for G {
    fn initial_state() -> Self {
        G::initial()
    }
}
