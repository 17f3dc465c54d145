//! The capture exchange a seat could start, computed by the rules for the network's input (the
//! quiescence encoding, [`crate::Encoding::Quiescence`]): a capture-only search of a few turns
//! that says how much material a seat's best capture *sequence* wins once the others have
//! answered with their own captures. The tactical planes ([`crate::tactical_planes`]) say what
//! one capture takes; this says whether it is safe to take it, and what a compulsory capture
//! walks into, which a value head cannot read from the pieces alone.
//!
//! Each turn of the sequence, the seat to move either captures (every capturing move is
//! tried) or, when it has a quiet move and capturing wins it nothing, stops the sequence; a seat
//! that must capture (RULES.md §2) cannot stop, so a compulsory capture into a recapture counts
//! its loss. A seat without a capture ends the sequence. Each seat chooses what is best for its
//! own material (gains minus losses, Men 1, Knights 1.4 as
//! [`KNIGHT_IN_MEN`](crate::tactical_planes::KNIGHT_IN_MEN) says): in Camelot that is the
//! usual negamax quiescence, in Tri-Camelot each seat in turn looks after itself (max-n). The
//! sequence is cut after [`EXCHANGE_TURNS`] turns, or, on a board where those would take more
//! than [`EXCHANGE_NODES`] positions, after [`SHORT_EXCHANGE_TURNS`] (a capture and its answer,
//! every one of them looked at); moves that reach the same board (a Charge's canter routes) are
//! tried once. Nothing depends on the order the moves are generated in, so the figure is as
//! symmetric as the rules (a mirrored or rotated board gives the same).

use crate::board::{Board, PieceKind};
use crate::game::{MAX_PLAYERS, Player};
use crate::options::RuleOptions;
use crate::position::{Position, Variant};
use crate::tactical_planes::CAPTURE_GAIN_CAP;

/// Turns (complete moves) of an exchange looked at: a capture, its answer, the answer to that
/// and one more.
pub const EXCHANGE_TURNS: u32 = 4;

/// Positions an exchange of [`EXCHANGE_TURNS`] may expand (each one generation of moves), so
/// that a board full of captures costs no more than a few dozen move generations.
pub const EXCHANGE_NODES: u32 = 48;

/// Turns looked at where [`EXCHANGE_TURNS`] would need more than [`EXCHANGE_NODES`] positions.
pub const SHORT_EXCHANGE_TURNS: u32 = 2;

/// The outcome of the exchange a seat starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exchange {
    /// The material the seat ends up with, gains minus losses (0 when it has no capture, or
    /// captures only where it loses and may decline).
    pub net: f32,
    /// The turns looked at: [`EXCHANGE_TURNS`], or [`SHORT_EXCHANGE_TURNS`] where those
    /// needed more than [`EXCHANGE_NODES`] positions.
    pub turns: u32,
}

impl Exchange {
    /// The plane's value: `net / CAPTURE_GAIN_CAP`, within `[-1, 1]`.
    pub fn feature(&self) -> f32 {
        (self.net / CAPTURE_GAIN_CAP).clamp(-1.0, 1.0)
    }
}

/// The exchange `pos`'s player to move could start on `pos`'s board (the position as given:
/// its board, castle-move counts and rule options, with `pos.to_move` to move).
pub fn exchange<V: Variant>(pos: &Position<V>) -> Exchange {
    let me = pos.to_move.index();
    let in_men = |fifths: i32| fifths as f32 / MAN_FIFTHS as f32;
    let mut budget = EXCHANGE_NODES;
    let net = sequence(pos, EXCHANGE_TURNS, &mut budget);
    if budget > 0 {
        return Exchange { net: in_men(net[me]), turns: EXCHANGE_TURNS };
    }
    // Cut short, the long search would depend on which moves it had looked at: the short one
    // looks at all of them.
    let mut unlimited = u32::MAX;
    let net = sequence(pos, SHORT_EXCHANGE_TURNS, &mut unlimited);
    Exchange { net: in_men(net[me]), turns: SHORT_EXCHANGE_TURNS }
}

/// The exchange `seat` could start were it to move on `board` (castle-move counts and rule
/// options as in the position encoded), as the quiescence planes give it for every seat.
pub fn seat_exchange<V: Variant>(
    board: &Board,
    seat: Player,
    castle_moves: [u8; 2],
    options: RuleOptions,
) -> Exchange {
    exchange(&Position::<V>::with_mover(board, seat, castle_moves, options))
}

/// Material in fifths of a Man (a Man 5, a Knight 7: 1.4 Men, as
/// [`KNIGHT_IN_MEN`](crate::tactical_planes::KNIGHT_IN_MEN) says), so that sums
/// are exact whatever order the pieces are counted in (a mirrored board counts them in another).
type Fifths = [i32; MAX_PLAYERS];

const MAN_FIFTHS: i32 = 5;
const KNIGHT_FIFTHS: i32 = 7;

/// Whether outcome `a` (each seat's net material) is better than `b` for seat `me` of
/// `players`: more for itself; at equal material, less for the others together, then less for
/// the seat after it (so that every tie in Tri-Camelot is settled the same way whatever order
/// the moves come in).
fn better(a: &Fifths, b: &Fifths, me: usize, players: usize) -> bool {
    let others = |v: &Fifths| v[..players].iter().sum::<i32>() - v[me];
    let next = (me + 1) % players;
    let keys = |v: &Fifths| (v[me], -others(v), -v[next]);
    keys(a) > keys(b)
}

/// Each seat's material on `board`, in fifths of a Man.
fn material(board: &Board, cells: usize) -> Fifths {
    let mut m = [0; MAX_PLAYERS];
    for (_, piece) in board.pieces(cells) {
        m[piece.owner.index()] += match piece.kind {
            PieceKind::Knight => KNIGHT_FIFTHS,
            PieceKind::Man => MAN_FIFTHS,
        };
    }
    m
}

/// What the move from `before` to `after` by seat `me` gains it and costs the others: every
/// piece gone from the board is the mover's gain and its owner's loss (a capture, or in
/// Tri-Camelot the pieces of a seat the move leaves without a move, which leave the game).
fn gains(before: &Fifths, after: &Fifths, me: usize) -> Fifths {
    let mut net = [0; MAX_PLAYERS];
    for (seat, (b, a)) in before.iter().zip(after).enumerate() {
        let lost = b - a;
        net[seat] -= lost;
        net[me] += lost;
    }
    net
}

/// Each seat's net material over the best sequence from `pos` (`turns` left, `budget`
/// positions left to expand).
fn sequence<V: Variant>(pos: &Position<V>, turns: u32, budget: &mut u32) -> Fifths {
    let none = [0; MAX_PLAYERS];
    if turns == 0 || *budget == 0 || pos.over.is_some() {
        return none;
    }
    *budget -= 1;
    let cells = V::tables().geometry.num_cells();
    let me: Player = pos.to_move;
    let before = material(&pos.board, cells);
    let moves = pos.legal_moves();
    let quiet = moves.iter().any(|m| !m.is_capture());
    let mut boards_seen: Vec<u64> = Vec::new();
    let mut best: Option<Fifths> = None;
    for m in moves.iter().filter(|m| m.is_capture()) {
        if *budget == 0 {
            // Out of positions: the caller looks again, shorter.
            break;
        }
        let mut next = pos.clone();
        next.play(m);
        let hash = next.hash();
        if boards_seen.contains(&hash) {
            continue;
        }
        boards_seen.push(hash);
        let mut net = gains(&before, &material(&next.board, cells), me.index());
        for (n, rest) in net.iter_mut().zip(sequence(&next, turns - 1, budget)) {
            *n += rest;
        }
        if best.is_none_or(|b| better(&net, &b, me.index(), V::NUM_PLAYERS)) {
            best = Some(net);
        }
    }
    match best {
        // A seat that may decline a capture that wins it nothing does (in Tri-Camelot an even
        // trade would still move the others' material).
        Some(b) if quiet && b[me.index()] <= 0 => none,
        Some(b) => b,
        None => none,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::state::State;
    use crate::tactical_planes::KNIGHT_IN_MEN;
    use crate::testing::random_states;
    use crate::{CamelotRules, TriCamelotRules};

    /// Each seat's material on `board`, Men 1, Knights 1.4.
    fn material(board: &Board, cells: usize) -> [f32; MAX_PLAYERS] {
        let mut m = [0.0; MAX_PLAYERS];
        for (_, p) in board.pieces(cells) {
            m[p.owner.index()] +=
                if p.kind == crate::board::PieceKind::Knight { KNIGHT_IN_MEN } else { 1.0 };
        }
        m
    }

    /// [`better`]'s rule on material in Men (floats, so equal up to rounding).
    fn reference_better(
        a: &[f32; MAX_PLAYERS],
        b: &[f32; MAX_PLAYERS],
        me: usize,
        n: usize,
    ) -> bool {
        let keys = |v: &[f32; MAX_PLAYERS]| {
            let others: f32 = v[..n].iter().sum::<f32>() - v[me];
            [v[me], -others, -v[(me + 1) % n]]
        };
        for (x, y) in keys(a).into_iter().zip(keys(b)) {
            if (x - y).abs() > 1e-4 {
                return x > y;
            }
        }
        false
    }

    /// The states after each complete move from `s`, found by playing every leg.
    fn complete_moves<V: Variant>(s: &State<V>, out: &mut Vec<State<V>>) {
        let mut actions = Vec::new();
        s.legal_actions(&mut actions);
        for a in actions {
            let mut next = s.clone();
            next.play(a);
            if next.last_move().is_some() {
                out.push(next);
            } else {
                complete_moves(&next, out);
            }
        }
    }

    /// The second walk: every move played out leg by leg through [`State`], a capture known by
    /// the material it removes, every capture tried (no cut-off, no order, no de-duplication).
    fn reference<V: Variant>(s: &State<V>, turns: u32) -> [f32; MAX_PLAYERS] {
        let none = [0.0; MAX_PLAYERS];
        if turns == 0 || s.outcome().is_some() {
            return none;
        }
        let cells = V::tables().geometry.num_cells();
        let me = s.to_move().index();
        let before = material(s.board(), cells);
        let mut after = Vec::new();
        complete_moves(s, &mut after);
        let (mut quiet, mut best) = (false, None::<[f32; MAX_PLAYERS]>);
        for next in after {
            let now = material(next.board(), cells);
            let lost: Vec<f32> = before.iter().zip(now).map(|(b, n)| b - n).collect();
            if lost.iter().all(|&l| l.abs() < 1e-6) {
                quiet = true;
                continue;
            }
            let mut net = none;
            for (i, l) in lost.iter().enumerate() {
                net[i] -= l;
                net[me] += l;
            }
            for (n, rest) in net.iter_mut().zip(reference(&next, turns - 1)) {
                *n += rest;
            }
            if best.is_none_or(|b| reference_better(&net, &b, me, V::NUM_PLAYERS)) {
                best = Some(net);
            }
        }
        match best {
            Some(b) if quiet && b[me] < 1e-4 => none,
            Some(b) => b,
            None => none,
        }
    }

    fn agrees_with_the_reference<V: Variant>(seed: u64) -> (usize, usize) {
        let (mut compared, mut nonzero, mut shortened) = (0, 0, 0);
        for s in random_states::<V>(12, 400, seed).into_iter().step_by(7) {
            if s.outcome().is_some() {
                continue;
            }
            let pos = s.position();
            for k in 0..V::NUM_PLAYERS {
                let seat = Player(k as u8);
                let got = seat_exchange::<V>(s.board(), seat, pos.castle_moves(), pos.options());
                shortened += (got.turns == SHORT_EXCHANGE_TURNS) as usize;
                let fresh = State::new(Position::<V>::with_mover(
                    s.board(),
                    seat,
                    pos.castle_moves(),
                    pos.options(),
                ));
                let want = reference(&fresh, got.turns)[k];
                assert!((got.net - want).abs() < 1e-4, "{s}, seat {k}: {} against {want}", got.net);
                compared += 1;
                nonzero += (want != 0.0) as usize;
            }
        }
        // The long search is the rule, the short one the exception.
        assert!(shortened * 4 < compared, "{shortened} of {compared} shortened");
        (compared, nonzero)
    }

    #[test]
    fn the_exchange_agrees_with_a_second_walk_of_the_rules() {
        let (compared, nonzero) = agrees_with_the_reference::<CamelotRules>(11);
        assert!(compared >= 100 && nonzero >= 10, "camelot: {compared} compared, {nonzero} not 0");
        let (compared, nonzero) = agrees_with_the_reference::<TriCamelotRules>(12);
        assert!(
            compared >= 100 && nonzero >= 5,
            "tricamelot: {compared} compared, {nonzero} not 0"
        );
    }

    fn of(position: &str, seat: u8) -> Exchange {
        let s: State<CamelotRules> = position.parse().unwrap();
        let pos = s.position();
        seat_exchange::<CamelotRules>(s.board(), Player(seat), pos.castle_moves(), pos.options())
    }

    /// White must take E6 and is taken back from F8; with a Man on C5 the recapture goes on
    /// to take it too. Black, were it to move, takes E5 for nothing.
    #[test]
    fn a_compulsory_capture_counts_the_recapture() {
        let even = of("camelot W W:ME5,KB4 B:ME6,MF8,MG9,KK13 cm=0,0", 0);
        assert_eq!((even.net, even.turns, even.feature()), (0.0, EXCHANGE_TURNS, 0.0));
        let losing = of("camelot W W:ME5,MC5,KB10 B:ME6,MF8,MG9,KK13 cm=0,0", 0);
        assert_eq!((losing.net, losing.feature()), (-1.0, -0.25));
        assert_eq!(of("camelot W W:ME5,MC5,KB10 B:ME6,MF8,MG9,KK13 cm=0,0", 1).net, 1.0);
        // No capture at all: nothing to win or lose.
        assert_eq!(of(CamelotRules::START, 0).net, 0.0);
    }
}
