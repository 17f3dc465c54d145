//! Rule tests for 3-player Tri-Camelot, each on a small hand-built position whose legal moves
//! were derived by hand from RULES.md.
//!
//! The board (73 hexagons, doubled coordinates; neighbours of (f, r): (f, r±2), (f±1, r±1)):
//!
//! ```text
//! r1: F          r7: D F H        r13: B D F H J
//! r2: E G        r8: C E G I      r14: A C E G I K
//! r3: D F H      r9: B D F H J    r15: B D F H J
//! r4: E G        r10: C E G I     r16: A C E G I K
//! r5: D F H      r11: B D F H J   r17: B D F H J
//! r6: C E G I    r12: A C E G I K r18: C E G I
//! ```
//!
//! Castles: Blue F1, Red A16, Green K16. Targets: Blue -> A16, Red -> K16, Green -> F1.
//! Forbidden: Blue K16, Red F1, Green A16.

mod common;

use std::collections::BTreeSet;

use common::*;
use games::{
    Game, GameOver, MoveError, Outcome, Player, PositionError, Termination, TriCamelot,
    TriCamelotPosition, TriCamelotRules,
};

const BLUE: Player = Player(0);
const RED: Player = Player(1);
const GREEN: Player = Player(2);

fn win(p: Player, termination: Termination) -> Option<GameOver> {
    Some(GameOver { outcome: Outcome::Win(p), termination })
}

/// Jumps go over either opponent, and one jump chain may take pieces of both.
#[test]
fn jumps_over_either_opponent() {
    // Blue F9: over Red F11 to F13, then over Green G14 to H15 (must continue); or over Green
    // G10 to H11 (then nothing).
    let mut pos = tri("tricamelot B B:MF9 R:MF11 G:MG10,MG14");
    assert_moves(&pos, &["F9xF13xH15", "F9xH11"]);
    assert_play(&mut pos, "F9xF13xH15", "tricamelot G B:MH15 R: G:MG10");
    // Red was taken entirely: it is skipped, Green moves next.
    assert_eq!(pos.to_move(), GREEN);

    // Red F11: over Blue F9 to F7, or over Green G12 to H13.
    let pos = tri("tricamelot R B:MF9,MH5 R:MB13,MF11 G:MG12,MI18");
    assert_moves_from(&pos, "F11", &["F11xF7", "F11xH13"]);
    assert_moves(&pos, &["F11xF7", "F11xH13"]);
}

/// Landing on the target castle by a plain move wins at once (each player has his own target).
#[test]
fn target_castle_plain_move_wins() {
    let mut pos = tri("tricamelot B B:MA14,MF5 R:MD9,MD13 G:MH13");
    assert!(notations(&pos).contains(&"A14-A16".to_string()));
    assert_outcome_after(&mut pos, "A14-A16", win(BLUE, Termination::Castle));
    assert!(pos.legal_moves().is_empty());

    let mut pos = tri("tricamelot R B:MF5 R:MK14 G:MH9");
    assert_outcome_after(&mut pos, "K14-K16", win(RED, Termination::Castle));

    let mut pos = tri("tricamelot G B:MH5 R:MB13 G:MF3");
    assert_outcome_after(&mut pos, "F3-F1", win(GREEN, Termination::Castle));
}

/// A canter that reaches the target ends there and wins, even where it could go on; via the leg
/// interface the game is over right after that leg.
#[test]
fn target_castle_reached_by_canter_ends_move_and_wins() {
    // C14 over B15 lands on A16; from A16 a leap over B17 to C18 would be a canter elsewhere.
    // Plain: C12 C16 B13 D13 D15 (B15 is occupied).
    let pos = tri("tricamelot B B:MB15,MB17,MC14 R:MD9 G:MH13");
    assert_moves_from(
        &pos,
        "C14",
        &["C14-B13", "C14-C12", "C14-C16", "C14-D13", "C14-D15", "C14-A16"],
    );

    let mut game = TriCamelot::new(pos);
    act(&mut game, "C14>A16");
    assert_eq!(game.outcome(), win(BLUE, Termination::Castle));
    assert!(actions(&game).is_empty());
}

/// A jump chain that reaches the target ends there and wins, even where it could jump on; via
/// the leg interface the game is over right after that leg.
#[test]
fn target_castle_reached_by_jump_chain_ends_move_and_wins() {
    // E12 over Red D13 to C14, over Green B15 to A16 (target): the move ends, although a jump
    // over Red B17 to C18 would follow on an ordinary square.
    let s = "tricamelot B B:ME12 R:MB17,MD13 G:MB15";
    let pos = tri(s);
    assert_moves(&pos, &["E12xC14xA16"]);

    let mut game = TriCamelot::new(pos);
    act(&mut game, "E12>C14");
    assert_eq!(game.outcome(), None);
    assert_eq!(actions(&game), ["C14>A16"]);
    act(&mut game, "C14>A16");
    assert_eq!(game.outcome(), win(BLUE, Termination::Castle));
    assert!(actions(&game).is_empty());
}

const FORBIDDEN_CASTLE: &str = "The castle of the opponent to the right is never entered: no \
    plain move, no canter, no jump; a jump that would land there does not exist and creates no \
    capture obligation.";

const OWN_CASTLE_ENTRY: &str =
    "Own castle: no plain move or canter lands on it; a jump may, and must jump on out if it can.";

/// Castle rules that one position's legal moves show, each derived by hand.
const CASTLE_RULES: &[MoveCase] = &[
    // Blue K14: K12 is Blue, K16 is forbidden -> J13, J15. Blue K12: K10 does not exist -> J11,
    // J13; the canter over K14 would land on K16.
    MoveCase {
        rule: FORBIDDEN_CASTLE,
        position: "tricamelot B B:MK12,MK14 R:MD9 G:MH9",
        moves: &["K12-J11", "K12-J13", "K14-J13", "K14-J15"],
    },
    // Blue K12 next to Red K14: the jump would land on K16, so it does not exist and nothing is
    // compulsory: every plain move is legal.
    MoveCase {
        rule: FORBIDDEN_CASTLE,
        position: "tricamelot B B:MF5,MK12 R:MD9,MK14 G:MH9",
        moves: &["F5-E4", "F5-E6", "F5-F3", "F5-F7", "F5-G4", "F5-G6", "K12-J11", "K12-J13"],
    },
    // Red: F1 is forbidden. E2: E4 D3 (D1, E0 do not exist), canter over F3 to G4.
    // F3: F5 E4 G2 G4.
    MoveCase {
        rule: FORBIDDEN_CASTLE,
        position: "tricamelot R B:MH9 R:ME2,MF3 G:MH13",
        moves: &["E2-D3", "E2-E4", "E2-G4", "F3-E4", "F3-F5", "F3-G2", "F3-G4"],
    },
    // Green: A16 is forbidden.
    MoveCase {
        rule: FORBIDDEN_CASTLE,
        position: "tricamelot G B:MF5 R:MD9 G:MA14",
        moves: &["A14-A12", "A14-B13", "A14-B15"],
    },
    // F3: E2 E4 G2 G4 (F1 own castle), canter F3-F7 over F5. F5: E4 E6 F7 G4 G6; the canter over
    // F3 would land on F1.
    MoveCase {
        rule: OWN_CASTLE_ENTRY,
        position: "tricamelot B B:MF3,MF5 R:MD17 G:MH17",
        moves: &[
            "F3-E2", "F3-E4", "F3-F7", "F3-G2", "F3-G4", "F5-E4", "F5-E6", "F5-F7", "F5-G4",
            "F5-G6",
        ],
    },
    // F5 jumps Red F3 into F1, then must jump Green G2 out to H3.
    MoveCase {
        rule: OWN_CASTLE_ENTRY,
        position: "tricamelot B B:MF5,MH5 R:MD17,MF3 G:MG2,MH17",
        moves: &["F5xF1xH3"],
    },
    // F1 cannot jump; F9 could jump Red F11, but F1 must leave: E2 F3 G2.
    MoveCase {
        rule: "A piece in its own castle must leave on its owner's next turn, before compulsory \
               capture elsewhere.",
        position: "tricamelot B B:MF1,MF9 R:MD17,MF11 G:MH17",
        moves: &["F1-E2", "F1-F3", "F1-G2"],
    },
];

#[test]
fn castle_rules_on_hand_built_positions() {
    assert_move_cases::<TriCamelotRules>(CASTLE_RULES);
}

/// The own-castle obligation played out: a piece that jumped into its own castle must be the one
/// to move on its owner's next turn.
#[test]
fn own_castle_must_leave_next_turn() {
    // F5xF1 ends in the castle; after Red and Green, Blue must move F1.
    let mut pos = tri("tricamelot B B:MF5,MH5 R:MD17,MF3 G:MH17");
    assert_moves(&pos, &["F5xF1"]);
    play(&mut pos, "F5xF1");
    play(&mut pos, "D17-D15");
    play(&mut pos, "H17-H15");
    assert_eq!(pos.to_move(), BLUE);
    assert_moves(&pos, &["F1-E2", "F1-F3", "F1-G2"]);
}

/// A player with no pieces is skipped in turn order (written `R:`).
#[test]
fn elimination_player_without_pieces_is_skipped() {
    let mut pos = tri("tricamelot B B:MF5 R: G:MH13,MH9");
    assert_play(&mut pos, "F5-F7", "tricamelot G B:MF7 R: G:MH9,MH13");
    assert_eq!(pos.to_move(), GREEN);
    play(&mut pos, "H9-H11");
    assert_eq!(pos.to_move(), BLUE);
    assert_eq!(pos.outcome(), None);
}

/// A player with no legal move on his turn is eliminated (his pieces are removed) and play goes
/// on with the next player.
#[test]
fn elimination_player_without_moves_is_removed() {
    // Red's only piece is in its own castle A16, hemmed in by Green A14 B15 B17 with Blue A12
    // C14 C18 behind them: no step, no jump. After Blue's F5-F7, Red is eliminated.
    let mut pos = tri("tricamelot B B:MA12,MC14,MC18,MF5 R:MA16 G:MA14,MB15,MB17");
    assert_outcome_after(&mut pos, "F5-F7", None);
    assert_eq!(pos.to_move(), GREEN);
    assert_eq!(pos.to_string(), "tricamelot G B:MA12,MC14,MC18,MF7 R: G:MA14,MB15,MB17");
    // Green must capture: B15 over Blue C14 to D13 (A14 over A12 and B17 over C18 would leave
    // the board). Then Blue moves (Red is skipped).
    assert_moves(&pos, &["B15xD13"]);
    play(&mut pos, "B15xD13");
    assert_eq!(pos.to_move(), BLUE);
    // Targets never change: Red's castle A16, now empty, is still Blue's target. Blue must
    // capture: A12 over Green A14, or C18 over Green B17, both landing on A16 and winning.
    assert_moves(&pos, &["A12xA16", "C18xA16"]);
    assert_outcome_after(&mut pos, "C18xA16", win(BLUE, Termination::Castle));
}

/// A Knight's Charge, the rules' own example F5-F9-H11xF13xD11: canter over F7, then jumps over
/// Red G10, Green G12, Red E12 (pieces of both opponents). No piece stands next to an enemy, so
/// the Charge is optional; F9 is a jump square, so there is no pure canter F5-F9.
#[test]
fn knight_charge_rules_example() {
    let mut pos = tri("tricamelot B B:KF5,MF7 R:ME12,MG10 G:MG12,MI18");
    assert_moves_from(
        &pos,
        "F5",
        &["F5-E4", "F5-E6", "F5-F3", "F5-G4", "F5-G6", "F5-F9xH11xF13xD11"],
    );
    assert_play(&mut pos, "F5-F9xH11xF13xD11", "tricamelot G B:KD11,MF7 R: G:MI18");
}

/// The last player with pieces wins: by capture (capture-all) or when the others are
/// eliminated.
#[test]
fn last_player_with_pieces_wins() {
    let mut pos = tri("tricamelot B B:MF5,MF9 R:MF11 G:");
    assert_moves(&pos, &["F9xF13"]);
    assert_outcome_after(&mut pos, "F9xF13", win(BLUE, Termination::CaptureAll));
    assert!(pos.legal_moves().is_empty());

    // Red (Green already out) cannot move and is eliminated: Blue is the last player left.
    // RULES.md does not name the termination of this case; only the winner is checked.
    let mut pos = tri("tricamelot B B:KA14,KB15,KB17,MA12,MC14,MC18,MF5 R:MA16 G:");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "F5-F7");
    let over = pos.outcome().expect("the game is over");
    assert_eq!(over.outcome, Outcome::Win(BLUE));
}

// ---------------------------------------------------------------------------------------------
// The 120-degree rotation: Blue -> Green -> Red -> Blue.
// ---------------------------------------------------------------------------------------------

const HEXES: &str = "F1 E2 G2 D3 F3 H3 E4 G4 D5 F5 H5 C6 E6 G6 I6 D7 F7 H7 C8 E8 G8 I8 B9 D9 F9 \
    H9 J9 C10 E10 G10 I10 B11 D11 F11 H11 J11 A12 C12 E12 G12 I12 K12 B13 D13 F13 H13 J13 A14 C14 \
    E14 G14 I14 K14 B15 D15 F15 H15 J15 A16 C16 E16 G16 I16 K16 B17 D17 F17 H17 J17 C18 E18 G18 I18";

/// Rotation by 120 degrees about the centre F11, in doubled coordinates relative to the centre:
/// (df, dr) -> (-(df + dr) / 2, (3 df - dr) / 2).
fn rot(sq: &str) -> String {
    let (f, r) = coords(sq);
    let (df, dr) = (f - 5, r - 11);
    name(5 - (df + dr) / 2, 11 + (3 * df - dr) / 2)
}

fn rot2(sq: &str) -> String {
    rot(&rot(sq))
}

/// The colour a rotated piece takes: Blue's side becomes Green's, Green's Red's, Red's Blue's.
fn sigma(p: char) -> char {
    match p {
        'B' => 'G',
        'G' => 'R',
        'R' => 'B',
        _ => panic!("player {p}"),
    }
}

fn seat(p: char) -> Player {
    Player("BRG".find(p).unwrap() as u8)
}

fn letter(p: Player) -> char {
    "BRG".as_bytes()[p.index()] as char
}

fn rotate_position(pos: &TriCamelotPosition) -> TriCamelotPosition {
    let s = pos.to_string();
    let side = s.split_whitespace().nth(1).unwrap().chars().next().unwrap();
    let pieces: Vec<(char, char, String)> =
        pieces_of(&s).into_iter().map(|(p, k, sq)| (sigma(p), k, rot(&sq))).collect();
    tri(&position_string("tricamelot", sigma(side), &['B', 'R', 'G'], &pieces, ""))
}

#[test]
fn rotation_maps_board_and_castles() {
    let hexes: BTreeSet<String> = HEXES.split_whitespace().map(String::from).collect();
    assert_eq!(hexes.len(), 73);
    let image: BTreeSet<String> = hexes.iter().map(|h| rot(h)).collect();
    assert_eq!(image, hexes);
    // Blue's castle -> Green's, Green's -> Red's, Red's -> Blue's.
    assert_eq!(rot("F1"), "K16");
    assert_eq!(rot("K16"), "A16");
    assert_eq!(rot("A16"), "F1");
    for h in &hexes {
        assert_eq!(rot(&rot2(h)), *h);
    }
}

/// The start position rotated, with the colours permuted, is the start position (with the side
/// to move permuted too); and the three players have the same moves up to the rotation.
#[test]
fn rotation_symmetry_of_start_position() {
    let start = TriCamelotPosition::start();
    assert_eq!(start.legal_moves().len(), 36);
    let rotated = rotate_position(&start);
    assert_eq!(rotated.to_string(), start.to_string().replacen("tricamelot B", "tricamelot G", 1));
    let with_side = |side: char| {
        tri(&start.to_string().replacen("tricamelot B", &format!("tricamelot {side}"), 1))
    };
    let (blue, red, green) = (with_side('B'), with_side('R'), with_side('G'));
    assert_eq!(blue.legal_moves().len(), 36);
    assert_eq!(red.legal_moves().len(), 36);
    assert_eq!(green.legal_moves().len(), 36);
    // Blue's moves rotated are Green's; Red's rotated are Blue's; Green's rotated are Red's.
    let id = |s: &str| s.to_string();
    assert_eq!(move_keys(&blue, rot), move_keys(&green, id));
    assert_eq!(move_keys(&red, rot), move_keys(&blue, id));
    assert_eq!(move_keys(&green, rot), move_keys(&red, id));
}

/// Along pseudo-random games, every position and its rotation have the same legal moves up to
/// the rotation, and the same outcome up to the colour permutation.
#[test]
fn rotation_symmetry_along_games() {
    walk_games::<TriCamelotRules>(8, 120, 5, |pos| {
        let image = rotate_position(pos);
        let image2 = rotate_position(&image);
        assert_eq!(move_keys(pos, rot), move_keys(&image, |s| s.to_string()), "`{pos}`");
        assert_eq!(move_keys(pos, rot2), move_keys(&image2, |s| s.to_string()), "`{pos}`");
        let mapped = pos.outcome().map(|g| match g.outcome {
            Outcome::Win(p) => GameOver { outcome: Outcome::Win(seat(sigma(letter(p)))), ..g },
            Outcome::Draw => g,
        });
        assert_eq!(mapped, image.outcome(), "outcome of `{pos}`");
    });
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

#[test]
fn position_parse_errors() {
    let err = |s: &str| s.parse::<TriCamelotPosition>().expect_err(s);
    assert_eq!(err("tricamelot B B:MF2 R:MD9 G:MH9"), PositionError::UnknownSquare("F2".into()));
    assert_eq!(err("tricamelot B B:ML12 R:MD9 G:MH9"), PositionError::UnknownSquare("L12".into()));
    assert_eq!(err("tricamelot B B:MF5 R:MF5 G:MH9"), PositionError::Occupied("F5".into()));
    assert_eq!(
        err("tricamelot B B:MF5 W:MD9 G:MH9"),
        PositionError::BadPlayerToken("W:MD9".into())
    );
    assert!(
        matches!(err("tricamelot W B:MF5 R:MD9 G:MH9"), PositionError::BadSide(s, _) if s == "W")
    );
    assert_eq!(err("tricamelot B B:MF5 G:MH9"), PositionError::MissingPlayer('R'));
    assert_eq!(
        err("tricamelot B B:KF5,KF7,KF9,KF11 R:MD9 G:MH9"),
        PositionError::TooManyPieces { player: "Blue", kind: "Knights", count: 4, max: 3 }
    );
    assert_eq!(
        err("tricamelot B B:MF5 R:MB9,MB11,MB13,MB15,MB17,MD9 G:MH9"),
        PositionError::TooManyPieces { player: "Red", kind: "Men", count: 6, max: 5 }
    );
    assert!(matches!(
        err("tricamelot B B:MF5 R:MD9 G:MH9 cm=0,0"),
        PositionError::UnexpectedCastleMoves(..)
    ));
    assert!(matches!(
        err("tricamelot B B:MK16,MF5 R:MD9 G:MH9"),
        PositionError::ForbiddenCastle { player: "Blue", .. }
    ));
    assert!(matches!(err("tricamelot R B:MF5 R: G:MH9"), PositionError::SideWithoutPieces("Red")));
}

#[test]
fn move_parse_errors() {
    let start = TriCamelotPosition::start();
    assert_eq!(start.parse_move("F5-F1"), Err(MoveError::Illegal("F5-F1".into())));
    assert!(start.parse_move("F7-F9").is_ok());
    for bad in ["F2-F4", "F7", "F7xF11-F13", "K18-K16"] {
        assert!(matches!(start.parse_move(bad), Err(MoveError::Malformed(..))), "{bad}");
    }
}

/// Material (for move-limit adjudication): pieces per seat; 3 Knights and 5 Men each at the start.
#[test]
fn material_counts_pieces_per_seat() {
    assert_eq!(TriCamelot::initial().material(), Some([8, 8, 8]));
    let s: TriCamelot = "tricamelot G B:MH15 R: G:MG10,KG14".parse().unwrap();
    assert_eq!(s.material(), Some([1, 0, 2]));
}
