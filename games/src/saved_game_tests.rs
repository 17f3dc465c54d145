use proptest::prelude::*;

use super::*;
use crate::{CamelotRules, Game, TriCamelotRules};

/// `n` moves of a game of `V` from its start, each the `pick`-th legal move (mod their count),
/// stopping early if the game ends.
fn some_moves<V: Variant>(n: usize, picks: &[usize]) -> Vec<String> {
    let mut state: State<V> = V::START.parse().unwrap();
    let mut moves = Vec::new();
    for i in 0..n {
        if state.outcome().is_some() {
            break;
        }
        let legal: Vec<String> =
            state.continuations().map(|m| state.position().notation(m)).collect();
        let m = legal[picks[i % picks.len()] % legal.len()].clone();
        state = state.after_move(&m).unwrap();
        moves.push(m);
    }
    moves
}

#[test]
fn writes_and_reads_back_the_same_game() {
    let mut game = SavedGame::new(VariantKind::Camelot, "start");
    game.moves = some_moves::<CamelotRules>(6, &[3, 17, 5]);
    game.comments = vec!["a \"quiet\" game".into(), "first".into(), String::new(), "x } y".into()];
    game.result = Some(vec![0.5, 0.5]);
    game.termination = Some("move-limit".into());
    game.tags = vec![("Event".into(), "club \\ night \"2\"".into())];
    let text = game.to_string();
    assert!(
        text.starts_with("[Game \"camelot\"]\n[Start \"start\"]\n[Result \"1/2-1/2\"]\n"),
        "{text}"
    );
    let back: SavedGame = text.parse().unwrap();
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.result, game.result);
    assert_eq!(back.termination, game.termination);
    assert_eq!(back.tags, game.tags);
    assert_eq!(back.comment(0), "a \"quiet\" game");
    assert_eq!(back.comment(1), "first");
    assert_eq!(back.comment(2), "");
    // A `}` would end the comment: it is written as `)`.
    assert_eq!(back.comment(3), "x ) y");
    assert_eq!(back.comments.len(), back.moves.len() + 1);
    assert_eq!(back.to_string(), text);
}

#[test]
fn reads_what_people_write_move_numbers_and_all() {
    let text = "[Game \"camelot\"]\n\n1. F6-F8 {centre} G11-G9\n2. E7-E8\n";
    let game: SavedGame = text.parse().unwrap();
    assert_eq!(game.moves, ["F6-F8", "G11-G9", "E7-E8"]);
    assert_eq!(game.comment(1), "centre");
    assert_eq!(game.result, None);
    let states = game.states::<CamelotRules>(RuleOptions::default()).unwrap();
    assert_eq!(states.len(), 4);
    assert_eq!(states[3].last_move().as_deref(), Some("E7-E8"));
}

#[test]
fn reads_the_format_play_saved_before_tags() {
    let moves = some_moves::<TriCamelotRules>(4, &[1, 2]);
    let text = format!("{}\n{}\n", TriCamelotRules::START, moves.join("\n"));
    let game: SavedGame = text.parse().unwrap();
    assert_eq!(game.variant, VariantKind::Tricamelot);
    assert_eq!(game.start, TriCamelotRules::START);
    assert_eq!(game.moves, moves);
    game.states::<TriCamelotRules>(RuleOptions::default()).unwrap();
}

#[test]
fn a_start_position_names_its_game() {
    let text = format!("[Start \"{}\"]\n\n", CamelotRules::START);
    assert_eq!(text.parse::<SavedGame>().unwrap().variant, VariantKind::Camelot);
    let mismatch = format!("[Game \"tricamelot\"]\n{text}");
    assert!(matches!(mismatch.parse::<SavedGame>(), Err(SavedGameError::GameMismatch { .. })));
    assert_eq!("F6-F8\n".parse::<SavedGame>(), Err(SavedGameError::NoGame));
}

#[test]
fn results_of_both_games() {
    assert_eq!(parse_result("1-0").unwrap(), Some(vec![1.0, 0.0]));
    assert_eq!(parse_result("½-½").unwrap(), Some(vec![0.5, 0.5]));
    assert_eq!(parse_result("1/3-1/3-1/3").unwrap(), Some(vec![1.0 / 3.0; 3]));
    assert_eq!(result_text(Some(&[0.0, 1.0, 0.0])), "0-1-0");
    assert_eq!(result_text(Some(&[2.0 / 3.0, 1.0 / 3.0])), "2/3-1/3");
    assert_eq!(result_text(None), "*");
    for bad in ["", "1", "2-0", "1-x", "1/0-0", "-1-0"] {
        assert!(parse_result(bad).is_err(), "{bad}");
    }
}

#[test]
fn bad_text_is_refused_with_where() {
    let cases = [
        ("[Game camelot]\n", "line 1: bad tag"),
        ("[Game \"chess\"]\n", "line 1: unknown game `chess`"),
        ("[Game \"camelot\"]\n[Result \"1-0-0\"]\n", "has 3 shares, but camelot has 2 seats"),
        ("[Game \"camelot\"]\n\nF6-F8 {open\n", "not closed"),
        ("[Game \"camelot\"]\n[Result \"2-0\"]\n", "bad result `2-0`"),
    ];
    for (text, expected) in cases {
        let message = text.parse::<SavedGame>().unwrap_err().to_string();
        assert!(message.contains(expected), "{text:?}: {message}");
    }
}

/// What the page and Python build from their own input is checked as a read file is.
#[test]
fn a_game_built_in_code_is_checked_as_one_read() {
    let mut game = SavedGame::new(VariantKind::Camelot, "start");
    assert_eq!(game.check(), Ok(()));
    game.result = Some(vec![1.0, 0.0, 0.0]);
    assert!(matches!(game.check(), Err(SavedGameError::ResultSeats { got: 3, seats: 2, .. })));
    game.result = Some(vec![1.5, 0.0]);
    assert_eq!(game.check(), Err(SavedGameError::ResultShare("1.5-0".into())));
    game.result = Some(vec![0.5, 0.5]);
    game.tags = vec![("Event".into(), "x".into()), ("a b".into(), "y".into())];
    assert_eq!(game.check(), Err(SavedGameError::BadTagName("a b".into())));
    assert!(valid_tag_name("White_2") && !valid_tag_name("") && !valid_tag_name("a-b"));
}

/// A game the rules ended records their verdict; one already adjudicated keeps its own.
#[test]
fn a_finished_game_records_the_rules_result() {
    let over: State<CamelotRules> = "camelot B W:KC6,MD6 B: cm=0,0".parse().unwrap();
    let verdict = over.outcome().expect("Black has no piece left");
    let mut game = SavedGame::new(VariantKind::Camelot, over.to_string());
    game.finish_from(&over);
    assert_eq!(game.result, Some(verdict.shares(2)));
    assert_eq!(game.termination.as_deref(), Some(verdict.termination.as_str()));
    let mut adjudicated = SavedGame::new(VariantKind::Camelot, over.to_string());
    adjudicated.result = Some(vec![0.5, 0.5]);
    adjudicated.finish_from(&over);
    assert_eq!((adjudicated.result, adjudicated.termination), (Some(vec![0.5, 0.5]), None));
    let mut going_on = SavedGame::new(VariantKind::Camelot, "start");
    going_on.finish_from(&CamelotRules::START.parse::<State<CamelotRules>>().unwrap());
    assert_eq!(going_on.result, None);
}

#[test]
fn an_illegal_move_is_named_by_its_number() {
    let game: SavedGame = "[Game \"camelot\"]\n\nF6-F8 F8-F9\n".parse().unwrap();
    let error = game.states::<CamelotRules>(RuleOptions::default()).unwrap_err();
    assert!(matches!(error, SavedGameError::BadMove { number: 2, .. }), "{error}");
    assert!(error.to_string().starts_with("move 2 `F8-F9`"), "{error}");
    let bad_start: SavedGame = "[Game \"camelot\"]\n[Start \"camelot Q\"]\n".parse().unwrap();
    assert!(matches!(
        bad_start.states::<CamelotRules>(RuleOptions::default()),
        Err(SavedGameError::BadStart(_))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any legal game of either variant, with any comments, reads back to the same moves,
    /// comments and final position.
    #[test]
    fn any_game_round_trips(
        tri in any::<bool>(),
        n in 0usize..40,
        picks in proptest::collection::vec(0usize..1000, 1..8),
        comment in "[a-z {}\"\\\\]{0,12}",
    ) {
        let (variant, moves) = if tri {
            (VariantKind::Tricamelot, some_moves::<TriCamelotRules>(n, &picks))
        } else {
            (VariantKind::Camelot, some_moves::<CamelotRules>(n, &picks))
        };
        let mut game = SavedGame::new(variant, "start");
        game.comments = (0..=moves.len()).map(|i| if i % 3 == 0 { comment.clone() } else { String::new() }).collect();
        game.moves = moves;
        let back: SavedGame = game.to_string().parse().unwrap();
        prop_assert_eq!(&back.moves, &game.moves);
        for i in 0..=game.moves.len() {
            prop_assert_eq!(back.comment(i), comment_text(game.comment(i)));
        }
        let ends = |g: &SavedGame| if tri {
            g.states::<TriCamelotRules>(RuleOptions::default()).unwrap().last().unwrap().to_string()
        } else {
            g.states::<CamelotRules>(RuleOptions::default()).unwrap().last().unwrap().to_string()
        };
        prop_assert_eq!(ends(&back), ends(&game));
    }
}
