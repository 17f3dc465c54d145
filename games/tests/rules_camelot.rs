//! Rule tests for 2-player Camelot, first half (the end of the game, the leg interface and
//! symmetry are in `rules_camelot_end.rs`): one test per rule of RULES.md §2-§3, each on a small
//! hand-built position whose legal moves were derived by hand from the rules (board: files A-L,
//! ranks 1-16; rank 1: F G, rank 2: C-J, rank 3: B-K, ranks 4-13: A-L, rank 14: B-K, rank 15:
//! C-J, rank 16: F G; White's castle F1 G1, Black's F16 G16).
//!
//! The comment above each position lists the derivation, so that a failure can be checked
//! against the rules rather than against the engine.

mod common;

use common::*;
use games::{CamelotPosition, CamelotRules, KnightCanter, MoveError, Player};

const BLACK: Player = Player(1);

// ---------------------------------------------------------------------------------------------
// §2 Moves
// ---------------------------------------------------------------------------------------------

/// Plain move: one step to an empty adjacent square, in any of the 8 directions, only onto
/// squares that exist.
#[test]
fn plain_move() {
    // F8: all 8 neighbours empty. A4: A3 does not exist (rank 3 is B-K), so only A5, B3, B4, B5.
    let mut pos = camelot("camelot W W:MA4,MF8 B:MK14,ML13 cm=0,0");
    assert_moves(
        &pos,
        &[
            "A4-A5", "A4-B3", "A4-B4", "A4-B5", "F8-E7", "F8-E8", "F8-E9", "F8-F7", "F8-F9",
            "F8-G7", "F8-G8", "F8-G9",
        ],
    );
    assert_play(&mut pos, "F8-F9", "camelot B W:MA4,MF9 B:MK14,ML13 cm=0,0");
    assert_eq!(pos.to_move(), BLACK);
    // Black's moves: K14 (rank 14 is B-K, rank 15 is C-J): J13, J14, J15, K13, L13 is occupied,
    // L14/L15 do not exist, K15 does not exist. L13: K12, L12, K13, K14 occupied, L14 missing.
    // Canters: K14 over L13 -> M12 (no such file); L13 over K14 -> J15 (exists, empty).
    assert_moves(
        &pos,
        &["K14-J13", "K14-J14", "K14-J15", "K14-K13", "L13-J15", "L13-K12", "L13-K13", "L13-L12"],
    );
}

/// Canter: a leap over a friendly piece to the empty square beyond; chained, turning after each
/// leap, stopping after any leap.
#[test]
fn canter_chained_turning_stop_anywhere() {
    // C4 -(over C5, N)- C6 -(over D7, NE)- E8 -(over F8, E)- G8. Plain: B3 C3 D3 B4 D4 B5 D5.
    let pos = camelot("camelot W W:MC4,MC5,MD7,MF8 B:MK14,ML13 cm=0,0");
    assert_moves_from(
        &pos,
        "C4",
        &[
            "C4-B3",
            "C4-B4",
            "C4-B5",
            "C4-C3",
            "C4-D3",
            "C4-D4",
            "C4-D5",
            "C4-C6",
            "C4-C6-E8",
            "C4-C6-E8-G8",
        ],
    );
    // No leap over an empty square or an enemy is a canter; a canter never takes anything.
    let after = "camelot B W:MC5,MD7,MF8,MG8 B:MK14,ML13 cm=0,0";
    assert_play(&mut pos.clone(), "C4-C6-E8-G8", after);
}

/// A canter may not end on its start square, and there is one canter per (start, end), written
/// with the canonical path: ties between shortest paths go to the smallest landing sequence by
/// square index (rank first, then file).
#[test]
fn canter_not_on_start_square_and_canonical_tie_break() {
    // D4 with friends D5, E4, E6, F5: D4-D6 (over D5), D4-F4 (over E4); F6 two ways:
    // D4-D6-F6 (over E6) and D4-F4-F6 (over F5): F4 (rank 4) < D6 (rank 6), so D4-F4-F6.
    // From F4 over E4, and from D6 over D5, the canter comes back to D4: never a move.
    // Plain: C3 D3 E3 C4 C5 E5 (D5, E4 occupied).
    let pos = camelot("camelot W W:MD4,MD5,ME4,ME6,MF5 B:MK14,ML13 cm=0,0");
    assert_moves_from(
        &pos,
        "D4",
        &["D4-C3", "D4-C4", "D4-C5", "D4-D3", "D4-E3", "D4-E5", "D4-D6", "D4-F4", "D4-F4-F6"],
    );
    assert!(matches!(pos.parse_move("D4-D6-F6"), Err(MoveError::Illegal(_))));
    assert_unique_moves(&pos);
}

/// The canonical path has the fewest leaps first, and only then the smallest landing sequence.
#[test]
fn canter_canonical_path_fewest_leaps() {
    // D6 with friends D7, E6, E7: D8 directly (over D7) and also D6-F6-D8 (over E6 then E7),
    // whose landing sequence (F6, D8) starts lower, but one leap beats two: D6-D8.
    // Plain: C5 C6 C7 D5 E5.
    let pos = camelot("camelot W W:MD6,MD7,ME6,ME7 B:MK14,ML13 cm=0,0");
    assert_moves_from(
        &pos,
        "D6",
        &["D6-C5", "D6-C6", "D6-C7", "D6-D5", "D6-E5", "D6-D8", "D6-F6", "D6-F8"],
    );
    assert_unique_moves(&pos);
    assert_unique_moves(&CamelotPosition::start());
}

/// Jump and compulsory capture: a leap over an enemy piece removes it at once; when any piece
/// can jump, the move must capture.
#[test]
fn jump_and_compulsory_capture() {
    // D4 jumps D5 to D6; H8 (no enemy next to it) may not make a plain move.
    let mut pos = camelot("camelot W W:MD4,MH8 B:MD5,MK14,ML13 cm=0,0");
    assert_moves(&pos, &["D4xD6"]);
    assert_play(&mut pos, "D4xD6", "camelot B W:MD6,MH8 B:MK14,ML13 cm=0,0");

    // The same for Black, moving down the board: D9 jumps D8 to D7.
    let pos = camelot("camelot B W:MD8,MK4 B:MD9,ML13 cm=0,0");
    assert_moves(&pos, &["D9xD7"]);
}

/// Jump continuation: the jumping piece must go on while it can; any capture may be chosen (no
/// majority rule), and every branch is its own move.
#[test]
fn jump_continuation_and_free_choice() {
    // D4xD6, then from D6 either over D7 to D8 or over E6 to F6 (both end there). Stopping on
    // D6 is not a move. H8xH10 captures only one piece and is legal too.
    let pos = camelot("camelot W W:MD4,MH8 B:MD5,MD7,ME6,MH9 cm=0,0");
    assert_moves(&pos, &["D4xD6xD8", "D4xD6xF6", "H8xH10"]);
    assert!(matches!(pos.parse_move("D4xD6"), Err(MoveError::Illegal(_))));
}

/// Every distinct jump path is its own move, even when two capture the same pieces; and the
/// moving piece is lifted, so a jump chain may land on its own start square.
#[test]
fn distinct_jump_paths_and_landing_on_start_square() {
    // Enemies D5, E6, F5, E4 around the empty E5: clockwise D4xD6xF6xF4xD4 and anticlockwise
    // D4xF4xF6xD6xD4, both ending on D4 (the start, empty while the piece moves).
    let mut pos = camelot("camelot W W:MD4,MK13 B:MD5,ME4,ME6,MF5,MA13 cm=0,0");
    assert_moves(&pos, &["D4xD6xF6xF4xD4", "D4xF4xF6xD6xD4"]);
    assert_play(&mut pos, "D4xD6xF6xF4xD4", "camelot B W:MD4,MK13 B:MA13 cm=0,0");
}

/// Optional Charge: when the only captures are Knight's Charges, capturing is optional, so all
/// non-captures are legal as well. Also: a multi-leap canter part and a multi-jump part.
#[test]
fn optional_charge() {
    // No piece stands next to an enemy. Knight F5: plain E4 E5 E6 F4 G4 G5 G6; canter F5-F7
    // (F7 has no enemy neighbour). F9 is next to G10 (jump to H11), so under `strict` there is
    // no pure canter F5-F7-F9 (it ends on a square from which the Knight could jump); the Charge
    // is F5-F7-F9xH11 (G10), then it must go on: xF13 (over G12), xD11 (over E12).
    let pos = camelot("camelot W W:KF5,MF6,MF8 B:ME12,MG10,MG12,ML13 cm=0,0");
    assert_moves_from(
        &pos,
        "F5",
        &[
            "F5-E4",
            "F5-E5",
            "F5-E6",
            "F5-F4",
            "F5-G4",
            "F5-G5",
            "F5-G6",
            "F5-F7",
            "F5-F7-F9xH11xF13xD11",
        ],
    );
    // Other pieces' non-captures are legal too.
    let all = notations(&pos);
    assert!(all.contains(&"F8-F9".to_string()) && all.contains(&"F6-F4".to_string()));
    // The jump part must continue: stopping early is not a move.
    assert!(pos.parse_move("F5-F7-F9xH11").is_err());
}

/// Never a canter after a jump (not in a plain jump, not in a Charge).
#[test]
fn never_canter_after_jump() {
    // D4xD6; from D6 a leap over the friendly D7 to D8 would be a canter after a jump.
    let pos = camelot("camelot W W:KD4,MD7 B:MD5,ML13 cm=0,0");
    assert_moves(&pos, &["D4xD6"]);
    assert!(matches!(pos.parse_move("D4xD6-D8"), Err(MoveError::Malformed(..))));
}

/// Knight's canter restriction, `strict` (default) and `final-square`: the same position gives
/// different move lists; Men are never restricted; Charges are not restricted.
#[test]
fn knight_canter_strict_and_final_square() {
    // Knight C4; friends C5, D5, D7, E7; enemy B7 (jumpable from C6 to A8 and from C8 to A6).
    // Canter graph from C4: C6 (over C5), E6 (over D5); from C6: E4 (over D5), E8 (over D7);
    // from E6: C8 (over D7), E8 (over E7). Jump squares: C6, C8. E8 is reached by C4-C6-E8 and
    // C4-E6-E8; C6 < E6, so the canonical path is C4-C6-E8 unless C6 is forbidden.
    // strict: C6 and C8 may be neither passed nor ended on: C4-E6, C4-E6-E8 (E4 unreachable).
    // final-square: only ends are restricted: C4-E6, C4-C6-E4, C4-C6-E8.
    // Charges (either option): C4-C6xA8, C4-E6-C8xA6. Plain: B3 C3 D3 B4 D4 B5.
    let s = "camelot W W:KC4,MC5,MD5,MD7,ME7 B:MB7 cm=0,0";
    let plain = ["C4-B3", "C4-B4", "C4-B5", "C4-C3", "C4-D3", "C4-D4"];
    let charges = ["C4-C6xA8", "C4-E6-C8xA6"];
    let mut strict: Vec<&str> = vec!["C4-E6", "C4-E6-E8"];
    strict.extend(plain);
    strict.extend(charges);
    let mut final_square: Vec<&str> = vec!["C4-E6", "C4-C6-E4", "C4-C6-E8"];
    final_square.extend(plain);
    final_square.extend(charges);
    assert_moves_from(&camelot(s), "C4", &strict);
    assert_moves_from(&camelot_with(s, KnightCanter::Strict), "C4", &strict);
    assert_moves_from(&camelot_with(s, KnightCanter::FinalSquare), "C4", &final_square);

    // A Man on C4 is never restricted: every canter end, no Charge.
    let s = "camelot W W:MC4,MC5,MD5,MD7,ME7 B:MB7 cm=0,0";
    let mut men: Vec<&str> = vec!["C4-C6", "C4-E6", "C4-C6-E4", "C4-C6-E8", "C4-E6-C8"];
    men.extend(plain);
    for kc in BOTH_OPTIONS {
        assert_moves_from(&camelot_with(s, kc), "C4", &men);
    }
}

/// Rules of §2 that one position's legal moves show, each derived by hand.
const MOVE_RULES: &[MoveCase] = &[
    // Knight F8: direct jump over E8 to D8. Canter over G8 to H8, then jump over I9 to J10.
    // G8 has no enemy next to it.
    MoveCase {
        rule: "Knight's Charge instead of a jump: when a direct jump exists (capture is \
               compulsory), a Knight's Charges are legal captures too.",
        position: "camelot W W:KF8,MG8 B:ME8,MI9 cm=0,0",
        moves: &["F8xD8", "F8-H8xJ10"],
    },
    // Knight D4, friends E4 and F5, enemies E6 and D5. Direct jump: D4xD6 (D5), then from D6
    // over E6 to F6, from F6 nothing (F5 is a friend, E5/G5.. empty) -> D4xD6xF6.
    // Charge D4-F4-F6 (over E4 then F5) then xD6 (over E6) then xD4 (over D5, onto the start
    // square, empty while the Knight moves): D4-F4-F6xD6xD4. From D4 nothing more.
    // The canter end F4 has no enemy neighbour. Other White pieces: E4 jumps D5 to C6 (then
    // nothing), F5 jumps E6 to D7 (then nothing).
    MoveCase {
        rule: "The moving piece is lifted: a canter may pass through its start square (never \
               end there), and a Charge's jump part may land on it.",
        position: "camelot W W:KD4,ME4,MF5 B:MD5,ME6,ML13 cm=0,0",
        moves: &["D4xD6xF6", "D4-F4-F6xD6xD4", "E4xC6", "F5xD7"],
    },
];

#[test]
fn move_rules_on_hand_built_positions() {
    assert_move_cases::<CamelotRules>(MOVE_RULES);
}

// ---------------------------------------------------------------------------------------------
// §3 Castles
// ---------------------------------------------------------------------------------------------

const OWN_CASTLE_ENTRY: &str = "Own castle: no plain move or canter may land on it (not even \
    the canter part of a Charge); only a jump may enter it.";

const OWN_CASTLE_LEAVE: &str = "A piece of the mover standing in its own castle must be the one \
    to move, and this comes before compulsory capture elsewhere.";

/// Rules of §3 (own castle) that one position's legal moves show, each derived by hand.
const OWN_CASTLE_RULES: &[MoveCase] = &[
    // F2: plain E2 G2 E3 G3 (F1 and G1 are White's castle, E1 does not exist, F3 is a friend);
    // canter F2-F4. F3: plain E2 G2 E3 G3 E4 F4 G4; the canter over F2 would land on F1: no.
    MoveCase {
        rule: OWN_CASTLE_ENTRY,
        position: "camelot W W:MF2,MF3 B:MK14,ML13 cm=0,0",
        moves: &[
            "F2-E2", "F2-E3", "F2-G2", "F2-G3", "F2-F4", "F3-E2", "F3-E3", "F3-E4", "F3-F4",
            "F3-G2", "F3-G3", "F3-G4",
        ],
    },
    // Knight F3: the Charge F3-F1xH3 (canter over F2 into the castle, jump over G2) is not
    // legal. F2 must capture: F2xH2 (over G2); G2 is also next to F3 but the square beyond
    // (H1) does not exist.
    MoveCase {
        rule: OWN_CASTLE_ENTRY,
        position: "camelot W W:KF3,MF2 B:MG2,ML13 cm=0,0",
        moves: &["F2xH2"],
    },
    // A jump may enter it: F3 over F2 to F1, and the move ends there (no further jump).
    MoveCase {
        rule: OWN_CASTLE_ENTRY,
        position: "camelot W W:MF3,MK4 B:MF2,MA13,MB13 cm=0,0",
        moves: &["F3xF1"],
    },
    // F3xF1 (over F2), then from F1 over G2 to H3: the move must go on. (F3 over G2 would land
    // on H1, which does not exist.)
    MoveCase {
        rule: "A piece that jumps into its own castle and can jump again must continue (out of \
               it).",
        position: "camelot W W:MF3,MK4 B:MF2,MG2,MA13 cm=0,0",
        moves: &["F3xF1xH3"],
    },
    // F1 cannot jump; D8 could jump D9, but the castle piece must leave: E2, F2, G2 (G1 is the
    // castle).
    MoveCase {
        rule: OWN_CASTLE_LEAVE,
        position: "camelot W W:MD8,MF1 B:MD9,ML13 cm=0,0",
        moves: &["F1-E2", "F1-F2", "F1-G2"],
    },
    // It may leave by a canter too: over F2 to F3.
    MoveCase {
        rule: OWN_CASTLE_LEAVE,
        position: "camelot W W:MD8,MF1,MF2 B:MD9,ML13 cm=0,0",
        moves: &["F1-E2", "F1-F3", "F1-G2"],
    },
    // Black's castle works the same way: G16 must leave (F15 G15 H15; F16 is the castle).
    MoveCase {
        rule: OWN_CASTLE_LEAVE,
        position: "camelot B W:MD8,MK4 B:MD9,MG16 cm=0,0",
        moves: &["G16-F15", "G16-G15", "G16-H15"],
    },
    // Knight F1 can jump G2 to H3. It may instead Charge: canter over E2 to D3, jump C4 to B5.
    // No plain move, no canter-only move, and not D8xD10 (the castle comes first).
    MoveCase {
        rule: "Leaving the own castle: by a jump (or a Knight's Charge) if the piece can jump.",
        position: "camelot W W:KF1,MD8,ME2 B:MC4,MD9,MG2 cm=0,0",
        moves: &["F1xH3", "F1-D3xB5"],
    },
    // F1: E2 F2 G2 occupied by Black with D3 F3 H3 behind them occupied, G1 is the own castle.
    MoveCase {
        rule: "If the piece in its own castle cannot move at all, the obligation lapses for \
               that turn and the normal rules apply (here: compulsory capture elsewhere).",
        position: "camelot W W:MD8,MF1 B:MD3,MD9,ME2,MF2,MF3,MG2,MH3 cm=0,0",
        moves: &["D8xD10"],
    },
];

#[test]
fn own_castle_rules_on_hand_built_positions() {
    assert_move_cases::<CamelotRules>(OWN_CASTLE_RULES);
}

/// The own-castle obligation played out: a piece that jumped into its own castle must be the one
/// to move on its owner's next turn.
#[test]
fn own_castle_must_leave_next_turn() {
    // F3xF1 ends in the castle; after Black's reply White must move the F1 piece (K4's moves
    // are not legal).
    let mut pos = camelot("camelot W W:MF3,MK4 B:MF2,MA13,MB13 cm=0,0");
    play(&mut pos, "F3xF1");
    play(&mut pos, "A13-A12");
    assert_moves(&pos, &["F1-E2", "F1-F2", "F1-G2"]);
}

/// Opponent's castle: entering it by any move ends the move there; a piece inside may never
/// leave (only castle moves), so it has no jumps and creates no capture obligation.
#[test]
fn opponent_castle_entry_ends_move_and_no_leaving() {
    // H14 canters over G15 into F16; from F16 a further leap over E15 to D14 would be possible
    // on an ordinary square, but the move ends in the castle. Plain: G13 H13 I13 G14 I14 H15 I15.
    let pos = camelot("camelot W W:ME15,MG15,MH14 B:MA4,MB4 cm=0,0");
    assert_moves_from(
        &pos,
        "H14",
        &["H14-G13", "H14-G14", "H14-H13", "H14-H15", "H14-I13", "H14-I14", "H14-I15", "H14-F16"],
    );
    assert!(notations(&pos).contains(&"G15-G16".to_string()), "a plain move may enter");

    // A jump into it ends the move too: E14xG16 (over F15); the continuation over G15 to G14
    // does not exist.
    let pos = camelot("camelot W W:ME14,MK4 B:MF15,MG15,MA13 cm=0,0");
    assert_moves(&pos, &["E14xG16"]);

    // G16 is inside Black's castle: its only move is the castle move G16-F16; it cannot jump
    // G15 (to G14), so nothing is compulsory and D4 moves freely (C3 D3 E3 C4 E4 C5 D5 E5).
    let d4 = ["D4-C3", "D4-C4", "D4-C5", "D4-D3", "D4-D5", "D4-E3", "D4-E4", "D4-E5"];
    let pos = camelot("camelot W W:MD4,MG16 B:MG15,ML13 cm=0,0");
    let mut expected = vec!["G16-F16"];
    expected.extend(d4);
    assert_moves(&pos, &expected);
    // With both castle moves used, G16 has no move at all.
    let pos = camelot("camelot W W:MD4,MG16 B:MG15,ML13 cm=2,0");
    assert_moves(&pos, &d4);
}

/// Castle moves: plain moves between the two squares of the opponent's castle, at most two per
/// player (counted in `cm=`), not while a capture is compulsory.
#[test]
fn castle_moves_limited_and_counted() {
    let mut pos = camelot("camelot W W:MD4,MF16 B:MK14,ML13 cm=0,0");
    assert!(notations(&pos).contains(&"F16-G16".to_string()));
    assert_play(&mut pos, "F16-G16", "camelot B W:MD4,MG16 B:MK14,ML13 cm=1,0");
    assert_eq!(pos.castle_moves(), [1, 0]);
    play(&mut pos, "L13-L12");
    play(&mut pos, "G16-F16");
    assert_eq!(pos.castle_moves(), [2, 0]);
    assert_play(&mut pos, "L12-L11", "camelot W W:MD4,MF16 B:MK14,ML11 cm=2,0");
    assert!(!notations(&pos).iter().any(|n| n.starts_with("F16")), "no third castle move");
    // Ordinary moves do not count.
    play(&mut pos, "D4-D5");
    assert_eq!(pos.castle_moves(), [2, 0]);

    // Black: its castle moves are in White's castle and count in the second number.
    let mut pos = camelot("camelot B W:MD4,MK4 B:MG1,ML13 cm=2,1");
    assert!(notations(&pos).contains(&"G1-F1".to_string()));
    play(&mut pos, "G1-F1");
    assert_eq!(pos.castle_moves(), [2, 2]);
    play(&mut pos, "K4-K5");
    assert!(!notations(&pos).iter().any(|n| n.starts_with("F1")));

    // Not during compulsory capture.
    let pos = camelot("camelot W W:MD8,MF16 B:MD9,ML13 cm=0,0");
    assert_moves(&pos, &["D8xD10"]);
}

/// A piece in any castle can never be captured (the square beyond it is off the board).
#[test]
fn pieces_in_castles_cannot_be_captured() {
    // Black F1 in White's castle, next to White E2 and F2: no jump exists (beyond is off the
    // board), so White moves freely. E2: D2 D3 E3 F3, canter E2-G2 (over F2). F2: G2 E3 F3 G3
    // (G1 is White's own castle), canter F2-D2 (over E2).
    let pos = camelot("camelot W W:ME2,MF2 B:MF1,ML13 cm=0,0");
    assert_moves(
        &pos,
        &["E2-D2", "E2-D3", "E2-E3", "E2-F3", "E2-G2", "F2-D2", "F2-E3", "F2-F3", "F2-G2", "F2-G3"],
    );
    // Black F16 in its own castle next to White F15, G15, and E15: no capture either.
    let pos = camelot("camelot W W:ME15,MF15,MG15 B:MF16,ML13 cm=0,0");
    let all = notations(&pos);
    assert!(!all.is_empty() && all.iter().all(|n| !n.contains('x')), "{all:?}");
    assert!(all.contains(&"G15-G16".to_string()));
}
