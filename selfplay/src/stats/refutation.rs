//! Why a losing first leg loses, whether the search looked at the refutation, and whether the
//! value head tells a losing leg from a safe one: the instruments `stats blunders` adds to its
//! share of losing choices (issue #83).
//!
//! A leg the judge calls losing ([`TacticalPosition::losing`]) is refuted by the opponent's best
//! reply to the mover's best complete move through it: alpha-beta at the judge's depth picks
//! the move, one ply and quiescence the reply. The reply's [`Refutation`] class tells whether the
//! opponent's node was forced: an optional Knight's Charge leaves its visits to the opponent's
//! prior, a compulsory capture does not.

use classical::{AlphaBeta, AlphaBetaLimits};
use games::{Action, Game, Move, MoveKind, State, Variant};
use rayon::prelude::*;
use search::mcts::{NodeId, Search};
use search::{Evaluator, TacticsFilter};

use super::tactical_set::{TacticalPosition, TacticalSet};

/// States evaluated per network call.
const BATCH: usize = 256;

/// Transposition-table entries of a judge's searcher (its searches are one or two plies).
const TABLE: usize = 1 << 12;

/// How the opponent's best reply refutes a losing leg.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refutation {
    /// A Knight's Charge where no capture was compulsory: the opponent's node is not forced, so
    /// the search leaves the Charge to the opponent's prior.
    OptionalCharge,
    /// A capture the opponent had to make (some piece could jump from where it stood).
    CompulsoryCapture,
    /// A reply that captures nothing at once: a threat, or a line longer than one move.
    Other,
}

impl Refutation {
    /// Every class, in the order reports list them.
    pub const ALL: [Refutation; 3] =
        [Refutation::OptionalCharge, Refutation::CompulsoryCapture, Refutation::Other];

    /// The class's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Refutation::OptionalCharge => "optional_charge",
            Refutation::CompulsoryCapture => "compulsory_capture",
            Refutation::Other => "other",
        }
    }
}

/// The line by which a leg loses: the mover's best complete move through it and the opponent's
/// best reply (none when the move ends the game).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub own: Move,
    pub reply: Option<Move>,
    pub refutation: Refutation,
}

/// The line by which `leg` (a legal action of `state`) loses, judged by `searcher` at `depth`
/// plies for the mover's move and one ply for the reply, each with quiescence.
pub fn refute<V: Variant>(
    searcher: &mut AlphaBeta<V>,
    state: &State<V>,
    leg: Action,
    depth: u32,
) -> Line {
    let own: Vec<Move> =
        state.continuations().filter(|m| state.next_action(m) == leg).cloned().collect();
    let scores = searcher.move_scores(state.position(), &own, depth);
    let own = own[first_max(&scores)].clone();
    let mut pos = state.position().clone();
    pos.play(&own);
    let after = State::new(pos);
    if after.outcome().is_some() || after.moves().is_empty() {
        return Line { own, reply: None, refutation: Refutation::Other };
    }
    let replies = after.moves().to_vec();
    let scores = searcher.move_scores(after.position(), &replies, 1);
    let reply = replies[first_max(&scores)].clone();
    let refutation = match (reply.is_capture(), after.must_capture(), reply.kind()) {
        (false, _, _) => Refutation::Other,
        (true, false, MoveKind::Charge) => Refutation::OptionalCharge,
        (true, _, _) => Refutation::CompulsoryCapture,
    };
    Line { own, reply: Some(reply), refutation }
}

/// The index of the first largest of `scores` (which is not empty).
fn first_max(scores: &[i32]) -> usize {
    let best = scores.iter().max().expect("a legal action begins a move");
    scores.iter().position(|s| s == best).expect("the maximum is among them")
}

/// Each position's losing legs refuted ([`refute`]), in legal-action order (`None` for a safe
/// leg), judged by `filter` (which must be on; all `None` otherwise).
pub fn refutations<V: Variant>(
    set: &TacticalSet<V>,
    filter: TacticsFilter,
) -> Vec<Vec<Option<Line>>> {
    let TacticsFilter::AlphaBeta { depth, .. } = filter else {
        return set.positions.iter().map(|p| vec![None; p.legal.len()]).collect();
    };
    let searcher = || AlphaBeta::<V>::with_table(AlphaBetaLimits { depth, time: None }, TABLE);
    set.positions
        .par_iter()
        .map_init(searcher, |searcher, p| {
            let line = |(&a, &l): (&Action, &bool)| l.then(|| refute(searcher, &p.state, a, depth));
            p.legal.iter().zip(&p.losing).map(line).collect()
        })
        .collect()
}

/// The visits the search gave the refutation of `line`: the opponent's first leg of the reply,
/// reached through the legs of the mover's move; 0 where the tree does not reach it.
pub fn refutation_visits<V: Variant>(search: &Search<State<V>>, line: &Line) -> u32 {
    let Some(reply) = &line.reply else { return 0 };
    let tree = search.tree();
    let mut state = search.root_state().clone();
    let mut node = NodeId::ROOT;
    let step = |state: &mut State<V>, node: &mut NodeId, m: &Move| {
        let a = state.next_action(m);
        let child = tree.children(*node).find(|&c| tree.node(c).action == Some(a));
        state.play(a);
        child.map(|c| *node = c).is_some()
    };
    let mover = state.to_move();
    while state.to_move() == mover && state.outcome().is_none() {
        if !step(&mut state, &mut node, &line.own) {
            return 0;
        }
    }
    let a = state.next_action(reply);
    tree.children(node).find(|&c| tree.node(c).action == Some(a)).map_or(0, |c| tree.node(c).n)
}

/// How often the value head scores a losing leg below a safe one of the same position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Discrimination {
    /// Over every (losing, safe) pair of legs of every position: the share where the network's
    /// value of the position after the losing leg, for the mover, is below the safe leg's (a tie
    /// counts half). `None` without pairs.
    pub all: Option<f64>,
    pub pairs: usize,
    /// The same over the pairs whose losing leg an optional Charge refutes.
    pub charge_pending: Option<f64>,
    pub charge_pairs: usize,
}

/// The value head's [`Discrimination`] on `set`, with `lines` from [`refutations`]: one network
/// value per legal leg (the position after it), in batches of 256.
pub fn value_discrimination<V: Variant, E: Evaluator<State<V>> + ?Sized>(
    set: &TacticalSet<V>,
    lines: &[Vec<Option<Line>>],
    evaluator: &mut E,
) -> Discrimination {
    let after = |p: &TacticalPosition<V>, a: Action| {
        let mut s = p.state.clone();
        s.play(a);
        s
    };
    let children: Vec<State<V>> =
        set.positions.iter().flat_map(|p| p.legal.iter().map(move |&a| after(p, a))).collect();
    let mut values = Vec::with_capacity(children.len());
    for batch in children.chunks(BATCH) {
        for (s, e) in batch.iter().zip(evaluator.evaluate(batch)) {
            // A finished game has its returns, not an evaluation.
            values.push(s.returns().unwrap_or(e.values));
        }
    }
    let (mut all, mut charge) = ((0.0, 0), (0.0, 0));
    let mut next = 0;
    for (p, lines) in set.positions.iter().zip(lines) {
        let mover = p.state.to_move().index();
        let v: Vec<f32> = values[next..next + p.legal.len()].iter().map(|v| v.0[mover]).collect();
        next += p.legal.len();
        for (i, line) in lines.iter().enumerate().filter(|(i, _)| p.losing[*i]) {
            let charged = line.as_ref().is_some_and(|l| l.refutation == Refutation::OptionalCharge);
            for j in (0..v.len()).filter(|&j| !p.losing[j]) {
                let below = match v[i].partial_cmp(&v[j]) {
                    Some(std::cmp::Ordering::Less) => 1.0,
                    Some(std::cmp::Ordering::Equal) => 0.5,
                    _ => 0.0,
                };
                all = (all.0 + below, all.1 + 1);
                if charged {
                    charge = (charge.0 + below, charge.1 + 1);
                }
            }
        }
    }
    let share = |(sum, n): (f64, usize)| (n > 0).then(|| sum / n as f64);
    Discrimination {
        all: share(all),
        pairs: all.1,
        charge_pending: share(charge),
        charge_pairs: charge.1,
    }
}

#[cfg(test)]
mod tests {
    use games::{Camelot, CamelotRules, Values};
    use search::Evaluation;
    use search::mcts::{Captures, PlaySearch};
    use search::testing::FnEvaluator;

    use super::*;
    use crate::stats::blunders::search_blunders;
    use crate::stats::blunders::tactical_positions;
    use crate::stats::blunders::tests::{FILTER, game, pointing};

    /// White's E6-D7 walks into Black's optional Charge D10-D8xD6 (over its Man D9; the strict
    /// canter rule keeps the Knight from stopping on D8); White's other moves lose nothing.
    const CHARGE: &str = "camelot W W:KA4,ME6,ML4 B:KD10,MD9,ML13 cm=0,0";
    /// White's F7-F8 walks into Black's compulsory F9xF7.
    const JUMPABLE: &str = "camelot W W:KA4,ME4,MF7 B:KA13,MF9,ML13 cm=0,0";

    fn set(start: &str) -> TacticalSet<CamelotRules> {
        tactical_positions::<CamelotRules>(&[game(1, start, &["A4-A5"])], FILTER, 10, 0, None)
            .unwrap()
    }

    fn line_of(set: &TacticalSet<CamelotRules>, leg: &str) -> Line {
        let p = &set.positions[0];
        let a = p.state.parse_action(leg).unwrap();
        let i = p.legal.iter().position(|&b| b == a).unwrap();
        refutations(set, FILTER)[0][i].clone().expect("a losing leg")
    }

    #[test]
    fn refutations_are_classed_by_whether_the_reply_was_forced() {
        let charge = set(CHARGE);
        let line = line_of(&charge, "E6>D7");
        let g = &CamelotRules::tables().geometry;
        assert_eq!(line.own.notation(g), "E6-D7");
        assert_eq!(line.reply.as_ref().map(|m| m.notation(g)).as_deref(), Some("D10-D8xD6"));
        assert_eq!(line.refutation, Refutation::OptionalCharge);
        let jump = line_of(&set(JUMPABLE), "F7>F8");
        assert_eq!(jump.refutation, Refutation::CompulsoryCapture);
        // Safe legs have no line.
        let p = &charge.positions[0];
        let lines = refutations(&charge, FILTER);
        assert!(p.losing.iter().zip(&lines[0]).all(|(&l, line)| l == line.is_some()));
    }

    #[test]
    fn an_optional_charge_goes_unvisited_unless_captures_go_first() {
        let set = set(CHARGE);
        let lines = refutations(&set, FILTER);
        let plain = PlaySearch::default();
        let found = search_blunders(&set, &lines, &plain, 8, &mut pointing("E6>D7"), || {});
        let found = found.unwrap();
        assert_eq!((found.losing, found.by_class), (1.0, [1.0, 0.0, 0.0]));
        assert_eq!(found.unvisited, 1.0, "Black's uniform prior leaves D10>D8 alone at 8");
        let first = PlaySearch { captures: Captures::First, ..plain };
        let found = search_blunders(&set, &lines, &first, 8, &mut pointing("E6>D7"), || {});
        assert_eq!(found.unwrap().unvisited, 0.0);
    }

    /// Values that see a capture only when it is compulsory: 0.9 for a mover who must capture;
    /// uniform priors.
    fn sees_jumps() -> FnEvaluator<impl FnMut(&Camelot) -> Evaluation> {
        FnEvaluator(|s: &Camelot| {
            let mut legal = Vec::new();
            s.legal_actions(&mut legal);
            let mut e = Evaluation::uniform(legal.len(), 2);
            let me = if s.must_capture() { 0.9 } else { 0.5 };
            e.values = if s.to_move().index() == 0 {
                Values([me, 1.0 - me, 0.0])
            } else {
                Values([1.0 - me, me, 0.0])
            };
            e
        })
    }

    #[test]
    fn a_value_blind_to_optional_charges_discriminates_no_better_than_a_coin() {
        let jumpable = set(JUMPABLE);
        let d = value_discrimination(&jumpable, &refutations(&jumpable, FILTER), &mut sees_jumps());
        assert!(d.pairs > 0 && d.all.unwrap() > 0.5, "{d:?}");
        let charge = set(CHARGE);
        let d = value_discrimination(&charge, &refutations(&charge, FILTER), &mut sees_jumps());
        assert_eq!((d.all, d.charge_pending), (Some(0.5), Some(0.5)), "{d:?}");
        assert_eq!(d.pairs, d.charge_pairs);
        let uniform =
            value_discrimination(&charge, &refutations(&charge, FILTER), &mut pointing("A4>A5"));
        assert_eq!(uniform.all, Some(0.5));
    }
}
