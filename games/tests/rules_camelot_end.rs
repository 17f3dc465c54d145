//! Rule tests for 2-player Camelot, second half: the end of the game (RULES.md §4), the leg
//! interface, and symmetry. The first half (moves and castles, §2-§3) is `rules_camelot.rs`,
//! whose module docs describe the board and how the positions were derived.

mod common;

use common::*;
use games::{
    Camelot, CamelotPosition, CamelotRules, Game, GameOver, MoveError, Outcome, Player,
    PositionError, Termination,
};

const WHITE: Player = Player(0);
const BLACK: Player = Player(1);

fn over(winner: Option<Player>, termination: Termination) -> Option<GameOver> {
    let outcome = winner.map_or(Outcome::Draw, Outcome::Win);
    Some(GameOver { outcome, termination })
}

// ---------------------------------------------------------------------------------------------
// §4 End of game
// ---------------------------------------------------------------------------------------------

/// Rule 1: a player with pieces on both squares of the opponent's castle wins.
#[test]
fn end_castle_occupied_wins() {
    let mut pos = camelot("camelot W W:MD4,MF16,MG15 B:MK14,ML13 cm=0,0");
    assert_outcome_after(&mut pos, "G15-G16", over(Some(WHITE), Termination::Castle));
    assert!(pos.legal_moves().is_empty());

    let mut pos = camelot("camelot B W:MD4,ME4 B:MF1,MG2 cm=0,0");
    assert_outcome_after(&mut pos, "G2-G1", over(Some(BLACK), Termination::Castle));

    // Checked before rule 3: E14xG16 takes Black's last piece and fills the castle.
    let mut pos = camelot("camelot W W:ME14,MF16 B:MF15 cm=0,0");
    assert_moves(&pos, &["E14xG16"]);
    assert_outcome_after(&mut pos, "E14xG16", over(Some(WHITE), Termination::Castle));
}

/// Rule 2: if neither player has more than one piece, the game is drawn (before rule 3).
#[test]
fn end_neither_more_than_one_piece_draws() {
    let pos = camelot("camelot W W:MD4 B:MK10 cm=0,0");
    assert_eq!(pos.outcome(), over(None, Termination::Draw));
    assert!(pos.legal_moves().is_empty());

    // White captures Black's last two pieces but is left with one piece: draw, not capture-all.
    let mut pos = camelot("camelot W W:MD4 B:MD5,MD7 cm=0,0");
    assert_moves(&pos, &["D4xD6xD8"]);
    assert_outcome_after(&mut pos, "D4xD6xD8", over(None, Termination::Draw));
}

/// Rule 3: a player who captures all opposing pieces wins if he has two or more left.
#[test]
fn end_capture_all_wins() {
    let mut pos = camelot("camelot W W:MD4,MK4 B:MD5 cm=0,0");
    assert_outcome_after(&mut pos, "D4xD6", over(Some(WHITE), Termination::CaptureAll));

    let mut pos = camelot("camelot B W:MD4 B:MD5,MK13 cm=0,0");
    assert_outcome_after(&mut pos, "D5xD3", over(Some(BLACK), Termination::CaptureAll));
}

/// Rule 4: a player to move with no legal move loses if the opponent has two or more pieces.
/// (The other branch, a draw when the opponent has at most one piece while the mover has two or
/// more and all are stuck, needs a large blocked position and is not covered here.)
#[test]
fn end_no_legal_move_loses() {
    // Black's only piece is in White's castle with both castle moves used: no move.
    let pos = camelot("camelot B W:MK10,MK12 B:MF1 cm=0,2");
    assert_eq!(pos.outcome(), over(Some(WHITE), Termination::NoMove));
    assert!(pos.legal_moves().is_empty());

    // The same reached by a move.
    let mut pos = camelot("camelot W W:MK10,MK12 B:MF1 cm=0,2");
    assert_outcome_after(&mut pos, "K10-K9", over(Some(WHITE), Termination::NoMove));

    // With one castle move left, F1-G1 is a legal move and the game goes on.
    let pos = camelot("camelot B W:MK10,MK12 B:MF1 cm=0,1");
    assert_eq!(pos.outcome(), None);
    assert_moves(&pos, &["F1-G1"]);
}

// ---------------------------------------------------------------------------------------------
// The leg interface
// ---------------------------------------------------------------------------------------------

/// A Charge played leg by leg: end-move is offered exactly where stopping is optional.
#[test]
fn leg_interface_charge_playthrough() {
    let pos = camelot("camelot W W:KF5,MF6,MF8 B:ME12,MG10,MG12,ML13 cm=0,0");
    let mut game = Camelot::new(pos.clone());
    assert_eq!(game.to_move(), WHITE);
    let start = actions(&game);
    assert!(!start.contains(&"end".to_string()), "no end-move before the first leg");
    assert!(start.contains(&"F5>F7".to_string()) && start.contains(&"F5>E4".to_string()));

    act(&mut game, "F5>F7");
    assert_eq!(landed(&game), ["F5", "F7"]);
    // F5-F7 is a complete canter, and the Charge goes on: both end-move and the next leap.
    assert_eq!(actions(&game), ["F7>F9", "end"]);
    let mut stop = game.clone();
    act(&mut stop, "end");
    assert_move_complete(&stop, "camelot B W:KF7,MF6,MF8 B:ME12,MG10,MG12,ML13 cm=0,0");
    act(&mut game, "F7>F9");
    // F5-F7-F9 is not a legal canter under `strict` (F9 is a jump square): the jump must follow.
    assert_eq!(actions(&game), ["F9>H11"]);
    act(&mut game, "F9>H11");
    assert_eq!(actions(&game), ["H11>F13"]);
    act(&mut game, "H11>F13");
    assert_eq!(landed(&game), ["F5", "F7", "F9", "H11", "F13"]);
    assert_eq!(actions(&game), ["F13>D11"]);
    act(&mut game, "F13>D11");
    // The move is complete by itself: Black to move.
    assert_move_complete(&game, "camelot B W:KD11,MF6,MF8 B:ML13 cm=0,0");
    assert_eq!(game.outcome(), None);

    // A chained canter: end-move after each leap that could go on.
    let mut game = Camelot::new(camelot("camelot W W:MC4,MC5,MD7,MF8 B:MK14,ML13 cm=0,0"));
    act(&mut game, "C4>C6");
    assert_eq!(actions(&game), ["C6>E8", "end"]);
    act(&mut game, "C6>E8");
    assert_eq!(actions(&game), ["E8>G8", "end"]);
    act(&mut game, "E8>G8");
    assert_move_complete(&game, "camelot B W:MC5,MD7,MF8,MG8 B:MK14,ML13 cm=0,0");

    // A jump chain: never an end-move in the middle.
    let mut game = Camelot::new(camelot("camelot W W:MD4,MH8 B:MD5,MD7,ME6,MH9 cm=0,0"));
    assert_eq!(actions(&game), ["D4>D6", "H8>H10"]);
    act(&mut game, "D4>D6");
    assert_eq!(actions(&game), ["D6>D8", "D6>F6"]);
    act(&mut game, "D6>F6");
    assert_move_complete(&game, "camelot B W:MF6,MH8 B:MD7,MH9 cm=0,0");
}

/// Asserts that White's move is complete: no cell landed on, Black to move, the position `after`.
#[track_caller]
fn assert_move_complete(game: &Camelot, after: &str) {
    assert!(game.landed().is_empty(), "a move in progress in `{game}`");
    assert_eq!(game.to_move(), BLACK);
    assert_eq!(game.position().to_string(), after);
}

// ---------------------------------------------------------------------------------------------
// Symmetry (a cheap way to find asymmetric bugs): the left-right mirror keeps the colours; the
// 180-degree turn swaps them (and the castle-move counts).
// ---------------------------------------------------------------------------------------------

fn mirror(sq: &str) -> String {
    let (f, r) = coords(sq);
    name(11 - f, r)
}

fn turn(sq: &str) -> String {
    let (f, r) = coords(sq);
    name(11 - f, 17 - r)
}

fn transform(pos: &CamelotPosition, map: fn(&str) -> String, swap: bool) -> CamelotPosition {
    let s = pos.to_string();
    let side = s.split_whitespace().nth(1).unwrap().chars().next().unwrap();
    let cm = s.split_whitespace().last().unwrap();
    let (a, b) = cm.strip_prefix("cm=").unwrap().split_once(',').unwrap();
    let other = |c: char| if c == 'W' { 'B' } else { 'W' };
    let pieces: Vec<(char, char, String)> = pieces_of(&s)
        .into_iter()
        .map(|(p, k, sq)| (if swap { other(p) } else { p }, k, map(&sq)))
        .collect();
    let side = if swap { other(side) } else { side };
    let cm = if swap { format!("cm={b},{a}") } else { format!("cm={a},{b}") };
    camelot(&position_string("camelot", side, &['W', 'B'], &pieces, &cm))
}

#[test]
fn symmetry_mirror_and_turn() {
    let start = CamelotPosition::start();
    assert_eq!(transform(&start, mirror, false).to_string(), start.to_string());
    let turned = transform(&start, turn, true);
    assert_eq!(turned.to_string(), start.to_string().replacen("camelot W", "camelot B", 1));

    walk_games::<CamelotRules>(6, 80, 13, |pos| {
        for (map, swap) in [(mirror as fn(&str) -> String, false), (turn, true)] {
            let image = transform(pos, map, swap);
            assert_eq!(
                move_keys(pos, map),
                move_keys(&image, |s| s.to_string()),
                "image of `{pos}` is `{image}`"
            );
            let flip = |o: Option<GameOver>| {
                o.map(|g| match g.outcome {
                    Outcome::Win(p) if swap => {
                        GameOver { outcome: Outcome::Win(Player(1 - p.0)), ..g }
                    }
                    _ => g,
                })
            };
            assert_eq!(flip(pos.outcome()), image.outcome(), "outcome of `{pos}`");
        }
    });
}

// ---------------------------------------------------------------------------------------------
// §5 Parsing
// ---------------------------------------------------------------------------------------------

#[test]
fn position_parse_errors() {
    let err = |s: &str| s.parse::<CamelotPosition>().expect_err(s);
    assert_eq!(err("camelot W W:MA1 B:MD5,ME5 cm=0,0"), PositionError::UnknownSquare("A1".into()));
    assert_eq!(
        err("camelot W W:MD4 B:MG16,MH16 cm=0,0"),
        PositionError::UnknownSquare("H16".into())
    );
    assert_eq!(err("camelot W W:MD4,KD4 B:MD9 cm=0,0"), PositionError::Occupied("D4".into()));
    assert_eq!(err("camelot W W:MD4 B:MD4,ME9 cm=0,0"), PositionError::Occupied("D4".into()));
    assert_eq!(err("camelot W W:MD4 X:MD5 cm=0,0"), PositionError::BadPlayerToken("X:MD5".into()));
    assert!(
        matches!(err("camelot X W:MD4 B:MD5 cm=0,0"), PositionError::BadSide(s, _) if s == "X")
    );
    assert!(
        matches!(err("camelot R W:MD4 B:MD5 cm=0,0"), PositionError::BadSide(s, _) if s == "R")
    );
    assert_eq!(err("camelot W W:MD4 W:MD5 cm=0,0"), PositionError::DuplicatePlayer('W'));
    assert_eq!(err("camelot W W:MD4 cm=0,0"), PositionError::MissingPlayer('B'));
    assert_eq!(
        err("camelot W W:MA4,MA5,MA6,MA7,MA8,MA9,MA10,MA11,MA12,MA13,MB4 B:MD9,ME9 cm=0,0"),
        PositionError::TooManyPieces { player: "White", kind: "Men", count: 11, max: 10 }
    );
    assert_eq!(
        err("camelot W W:MD4 B:KA4,KA5,KA6,KA7,KA8 cm=0,0"),
        PositionError::TooManyPieces { player: "Black", kind: "Knights", count: 5, max: 4 }
    );
    for cm in ["cm=3,0", "cm=0,3", "cm=1", "cm=a,b", "cm=1,1,1", "cm=-1,0"] {
        let s = format!("camelot W W:MD4 B:MD9,ME9 {cm}");
        assert_eq!(err(&s), PositionError::BadCastleMoves(cm.into()), "{s}");
    }
    assert!(matches!(err("camelot W W:XD4 B:MD9 cm=0,0"), PositionError::BadPiece(_)));
    assert!(matches!(
        err("tricamelot B B:MF5 R:MD9 G:MH9"),
        PositionError::WrongVariant { expected: "camelot", .. }
    ));
    // Accepted in any order, printed canonically (Knights then Men, by file then rank; cm=0,0
    // when absent).
    let pos = camelot("camelot B B:MI11,KC11 W:ME6,MD6,KJ6,KC6");
    assert_eq!(pos.to_string(), "camelot B W:KC6,KJ6,MD6,ME6 B:KC11,MI11 cm=0,0");
}

#[test]
fn move_parse_errors() {
    let start = CamelotPosition::start();
    // C6-C8: C7 is empty, so it is no canter. D6xD8: there is nothing to jump.
    assert_eq!(start.parse_move("C6-C8"), Err(MoveError::Illegal("C6-C8".into())));
    assert_eq!(start.parse_move("D6xD8"), Err(MoveError::Illegal("D6xD8".into())));
    // C6-C7 is legal, D7-D5-B7 too (canter over D6, then over C6).
    assert!(start.parse_move("C6-C7").is_ok());
    assert!(start.parse_move("D7-D5-B7").is_ok());
    for bad in ["C6", "", "A1-A2", "C6--C7", "D7xD9-D11", "c6-c7", "C6-C7-"] {
        assert!(matches!(start.parse_move(bad), Err(MoveError::Malformed(..))), "{bad}");
    }
    let over = camelot("camelot W W:MD4 B:MK10 cm=0,0");
    assert_eq!(over.parse_move("D4-D5"), Err(MoveError::GameOver));
}

// ---- Decisions this engine takes where RULES.md leaves room (see docs/rules.md). ----

/// The engine's decisions on leaving the own castle, each shown by one position's legal moves.
const OWN_CASTLE_DECISIONS: &[MoveCase] = &[
    MoveCase {
        rule: "Two of the mover's pieces in its own castle, only one with a jump: the move must \
               be a capture by that piece (F1 jumps NW over E2 to D3); G1 may not leave by a \
               plain move, and the Man on A5 with its own jump elsewhere may not move at all.",
        position: "camelot W W:MF1,MG1,MA5 B:ME2,MA6,MK13 cm=0,0",
        moves: &["F1xD3"],
    },
    MoveCase {
        rule: "Two of the mover's pieces in its own castle, neither with a jump: either may \
               leave, by any move, and nothing else moves.",
        position: "camelot W W:MF1,MG1,MA4 B:MK12,MK13 cm=0,0",
        moves: &["F1-E2", "F1-F2", "F1-G2", "G1-F2", "G1-G2", "G1-H2"],
    },
    MoveCase {
        rule: "A Knight in its own castle with no direct jump but a Charge (over its Man on F2 \
               to F3, then over Black's F4 to F5): it leaves by any of its moves, the Charge \
               among them and not forced; the pure canter to F3 is not a move (strict: F3 is a \
               square it could jump from), and the direct jump A5xA7 elsewhere is not allowed, \
               since the castle obligation comes first.",
        position: "camelot W W:KF1,MF2,MA5 B:MF4,MA6 cm=0,0",
        moves: &["F1-E2", "F1-F3xF5", "F1-G2"],
    },
];

#[test]
fn own_castle_decisions_on_hand_built_positions() {
    assert_move_cases::<CamelotRules>(OWN_CASTLE_DECISIONS);
}

/// Material (for move-limit adjudication, not a rule of the game): pieces per seat, Knights and
/// Men alike, updated by each leg of a move in progress. White's Man on D6 must jump D7 and then
/// D9 (two legs); after the first leg Black has lost one of his two pieces.
#[test]
fn material_counts_pieces_per_seat_between_legs() {
    assert_eq!(Camelot::initial().material(), Some([14, 14, 0]));
    let mut s: Camelot = "camelot W W:MD6,KA4 B:MD7,MD9 cm=0,0".parse().unwrap();
    assert_eq!(s.material(), Some([2, 2, 0]));
    let leg = s.parse_action("D6>D8").unwrap();
    s.play(leg);
    assert_eq!(s.last_move(), None, "the move goes on");
    assert_eq!(s.material(), Some([2, 1, 0]));
}

/// Wins in one (for the search's `win_check`): G15-G16 fills White's goal castle; with the
/// castle empty a single entry does not win; the capture of Black's last piece wins, and after
/// its first leg the next leg is the winning action.
#[test]
fn winning_action_finds_castle_and_capture_wins_in_one() {
    let castle: Camelot = "camelot W W:MD4,MF16,MG15 B:MK14,ML13 cm=0,0".parse().unwrap();
    assert_eq!(castle.winning_action(), Some(castle.parse_action("G15>G16").unwrap()));
    let empty: Camelot = "camelot W W:MD4,MF15,MG14 B:MK14,ML13 cm=0,0".parse().unwrap();
    assert_eq!(empty.winning_action(), None, "one piece in the castle is no win");
    let mut chain: Camelot = "camelot W W:MD6,KA4 B:MD7,MD9 cm=0,0".parse().unwrap();
    let first = chain.parse_action("D6>D8").unwrap();
    assert_eq!(chain.winning_action(), Some(first));
    chain.play(first);
    assert_eq!(chain.winning_action(), Some(chain.parse_action("D8>D10").unwrap()));
    chain.play(chain.winning_action().unwrap());
    assert_eq!(chain.outcome().map(|o| o.outcome), Some(Outcome::Win(WHITE)));
    assert_eq!(chain.winning_action(), None, "the game is over");
}

/// Positions where the mover must capture (for the search's `forced_legs = "pass_captures"`):
/// a compulsory jump, the chain's second leg; not a quiet position or a finished game.
#[test]
fn must_capture_holds_while_every_continuation_captures() {
    let mut chain: Camelot = "camelot W W:MD6,KA4 B:MD7,MD9 cm=0,0".parse().unwrap();
    assert!(chain.must_capture());
    chain.play(chain.parse_action("D6>D8").unwrap());
    assert!(chain.must_capture(), "the chain must go on");
    chain.play(chain.parse_action("D8>D10").unwrap());
    assert!(!chain.must_capture(), "the game is over");
    assert!(!Camelot::initial().must_capture());
}
