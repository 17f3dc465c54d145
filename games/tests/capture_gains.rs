//! `Game::capture_gains`: the material each legal action's best move captures from here on, in
//! Men (a Knight 1.4). The positions are derived by hand from RULES.md §2 on the Camelot board
//! (files A-L, ranks 1-16); each case names the moves that decide its figures.

use games::{Camelot, Game, KNIGHT_IN_MEN, TriCamelot};

/// The gains of `state`'s legal actions, by the actions' written form.
fn gains<G: Game>(state: &G) -> Vec<(String, f32)> {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let mut gains = Vec::new();
    state.capture_gains(&legal, &mut gains);
    assert_eq!(gains.len(), legal.len());
    legal.iter().map(|&a| state.action_to_string(a)).zip(gains).collect()
}

/// The actions with a gain, sorted.
fn capturing<G: Game>(state: &G) -> Vec<(String, f32)> {
    let mut v: Vec<_> = gains(state).into_iter().filter(|(_, g)| *g > 0.0).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

fn camelot(s: &str) -> Camelot {
    s.parse().unwrap()
}

fn play(state: &mut Camelot, leg: &str) {
    state.play(state.parse_action(leg).unwrap());
}

#[test]
fn a_compulsory_jump_gains_the_man_it_takes() {
    // Black's Man F9 must jump White's F8 to F7 (F7 empty): its only legal leg.
    let s = camelot("camelot B W:KA4,ME4,MF8 B:KA13,MF9,ML13 cm=0,0");
    assert_eq!(gains(&s), vec![("F9>F7".to_string(), 1.0)]);
}

#[test]
fn a_chain_counts_the_legs_still_to_come() {
    // D6xD8xD10 takes both Black Men: 2 before the first leg, 1 after it.
    let mut s = camelot("camelot W W:MD6,KA4 B:MD7,MD9 cm=0,0");
    assert_eq!(capturing(&s), vec![("D6>D8".to_string(), 2.0)]);
    play(&mut s, "D6>D8");
    assert_eq!(capturing(&s), vec![("D8>D10".to_string(), 1.0)]);
}

#[test]
fn an_optional_charge_is_a_capture_and_quiet_moves_gain_nothing() {
    // The Knight D4 canters over its Man D5 to D6 and must then jump D7 to D8 (strict canter
    // rule: it may not stop on D6, from where it could jump): D4-D6xD8, optional since no
    // piece can jump from where it stands.
    let mut s = camelot("camelot W W:KD4,MD5 B:MD7,ML13 cm=0,0");
    let all = gains(&s);
    assert!(all.len() > 5, "quiet moves are legal too: {all:?}");
    assert_eq!(capturing(&s), vec![("D4>D6".to_string(), 1.0)]);
    assert!(!s.must_capture());
    play(&mut s, "D4>D6");
    assert_eq!(capturing(&s), vec![("D6>D8".to_string(), 1.0)]);
}

#[test]
fn a_knight_is_worth_more_than_a_man() {
    let s = camelot("camelot W W:KD4,MD5 B:KD7,ML13 cm=0,0");
    assert_eq!(capturing(&s), vec![("D4>D6".to_string(), KNIGHT_IN_MEN)]);
}

#[test]
fn the_best_move_through_a_leg_sets_its_gain() {
    // Two charges share the first canter D4-D6: D4-D6xD8 (one Man) and, jumping on from D8,
    // D4-D6xD8xD10 is forced (the jump part must continue), so D4>D6 gains 2. The Man F6
    // jumps F7 to F8 alone for 1.
    let s = camelot("camelot W W:KD4,MD5,MF6 B:MD7,MD9,MF7,ML13 cm=0,0");
    let c = capturing(&s);
    assert!(c.contains(&("D4>D6".to_string(), 2.0)), "{c:?}");
    assert!(c.contains(&("F6>F8".to_string(), 1.0)), "{c:?}");
}

#[test]
fn quiet_positions_and_tricamelot_starts_gain_nothing() {
    assert!(capturing(&Camelot::initial()).is_empty());
    assert!(capturing(&TriCamelot::initial()).is_empty());
}
