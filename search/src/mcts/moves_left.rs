//! The moves-left utility (Leela Chess Zero's "MLH"): the search prefers the shorter of two
//! wins and the longer of two losses, from the network's moves-left head
//! ([`Evaluation::moves_left`](crate::Evaluation::moves_left)).
//!
//! Every node keeps the mean of the moves left below it ([`Node::moves_left`]): each simulation
//! that ends at an evaluated leaf with the head's answer `m` (0 at the end of the game, 1 where
//! the mover wins with its next move) adds `m` plus the moves ended between the node and the
//! leaf. When a node selects among its children, a visited child's Q for the mover gains
//!
//! `bonus = -clamp(slope × (M_child - M_node), -cap, cap) × c × |c|`,
//!
//! with `c = (players × q - 1) / (players - 1)` the child's Q centred on a draw (1 a win, -1 a
//! loss, 0 a draw): a child that ends the game sooner gains when the mover is winning and loses
//! when it is losing, and nothing changes near an even position. PUCT adds it to the Q it
//! compares; Gumbel search to the completed Q of its halving and its improved policy.
//!
//! In TOML (`[mcts]` and `[play]`): `moves_left = "off"` (the default) or
//! `moves_left = { utility = { slope = 0.004, cap = 0.04 } }` (Q is a score share in
//! `[0, 1]`, so these are half of Leela's figures per move on its `[-1, 1]` scale).

use games::{Game, Player};
use serde::{Deserialize, Serialize};

use super::tree::Node;

/// Whether the search reads the network's moves left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum MovesLeft {
    /// Moves left are ignored (and not backed up).
    #[default]
    Off,
    /// Each move of difference between a child's moves left and its parent's is worth `slope`
    /// of a Q, at most `cap` either way, scaled by how decided the child's Q is.
    Utility { slope: f32, cap: f32 },
}

impl MovesLeft {
    /// Whether the search backs moves left up.
    pub fn is_on(&self) -> bool {
        matches!(self, MovesLeft::Utility { .. })
    }

    /// What is wrong with the values, if anything.
    pub fn problem(&self) -> Option<&'static str> {
        match *self {
            MovesLeft::Off => None,
            MovesLeft::Utility { slope, cap } => {
                // The bonus is added to a score in [0, 1]: a cap beyond 1 means nothing.
                let ok = |x: f32| (0.0..=1.0).contains(&x);
                (!(ok(slope) && ok(cap))).then_some("slope and cap must be from 0 to 1")
            }
        }
    }

    /// The bonus added to `child`'s Q `q` for the mover at `parent`, in a game of `players`
    /// seats (see the module docs); 0 when off or when either node has no moves left yet.
    pub fn bonus<A: Copy>(&self, parent: &Node<A>, child: &Node<A>, q: f32, players: usize) -> f32 {
        let MovesLeft::Utility { slope, cap } = *self else { return 0.0 };
        let (Some(mine), Some(theirs)) = (parent.moves_left(), child.moves_left()) else {
            return 0.0;
        };
        let players = players.max(2) as f32;
        let centred = ((players * q - 1.0) / (players - 1.0)).clamp(-1.0, 1.0);
        -(slope * (theirs - mine)).clamp(-cap, cap) * centred * centred.abs()
    }
}

/// The moves left of each node of a simulation's path, from the leaf's: `leaf` at the leaf,
/// and one more at a node for every move ended below it (`new_move[i]`: the action into
/// path node `i` ended a move: [`ends_move`]).
pub(crate) fn along_path(leaf: f32, new_move: &[bool], out: &mut Vec<f32>) {
    out.clear();
    out.resize(new_move.len(), 0.0);
    let mut m = leaf;
    for (i, slot) in out.iter_mut().enumerate().rev() {
        *slot = m;
        if new_move[i] {
            m += 1.0;
        }
    }
}

/// Whether the action from a position whose mover was `before` to the position `after` ended
/// a move: the turn passed, or the game ended (Tri-Camelot leaves the winner to move at a castle
/// win), so that the decision before the end of the game has 1 move left, as in the head's
/// target.
pub(crate) fn ends_move<G: Game>(before: Player, after: &G) -> bool {
    after.outcome().is_some() || after.to_move() != before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::tree::{NodeId, Tree};
    use games::Values;

    #[test]
    fn a_move_ends_when_the_turn_passes_or_the_game_ends() {
        use games::toy::TicTacToe;
        let mut s = TicTacToe::parse("XX./OO./...").unwrap();
        assert!(s.outcome().is_none());
        let x = s.to_move();
        s.play(8); // X elsewhere: the turn passes to O
        assert!(ends_move(x, &s));
        assert!(!ends_move(s.to_move(), &s), "no action, the same mover");
        let mut won = TicTacToe::parse("XX./OO./...").unwrap();
        won.play(2);
        assert!(won.outcome().is_some() && ends_move(won.to_move(), &won), "the end of the game");
    }

    #[test]
    fn moves_along_a_path_count_the_moves_ended_below() {
        let mut out = Vec::new();
        // Root → a (new move) → b (the same mover's next leg) → leaf (new move); the leaf has 4.
        along_path(4.0, &[false, true, false, true], &mut out);
        assert_eq!(out, [6.0, 5.0, 5.0, 4.0]);
        along_path(0.0, &[false], &mut out);
        assert_eq!(out, [0.0]);
    }

    /// A root for seat 0 with two children, both visited with values `q` for seat 0; the first
    /// ends the game in 2 moves, the second in 12.
    fn two_children(q: f32) -> Tree<u8> {
        let mut t = Tree::new();
        let children = [(0, 0.5), (1, 0.5)].into_iter();
        t.expand(NodeId::ROOT, Player(0), Values([0.5, 0.5, 0.0]), children);
        let (a, b) = (t.child(NodeId::ROOT, 0), t.child(NodeId::ROOT, 1));
        let v = Values([q, 1.0 - q, 0.0]);
        t.backup(&[NodeId::ROOT, a], v);
        t.backup_moves_left(&[NodeId::ROOT, a], &[3.0, 2.0]);
        t.backup(&[NodeId::ROOT, b], v);
        t.backup_moves_left(&[NodeId::ROOT, b], &[13.0, 12.0]);
        t
    }

    #[test]
    fn a_winner_prefers_the_shorter_line_and_a_loser_the_longer() {
        let on = MovesLeft::Utility { slope: 0.01, cap: 0.5 };
        let bonuses = |t: &Tree<u8>, q: f32| -> Vec<f32> {
            let root = t.node(NodeId::ROOT);
            t.children(NodeId::ROOT).map(|c| on.bonus(root, t.node(c), q, 2)).collect()
        };
        // The root's mean is 8 moves: the short line is 6 moves shorter, the long 4 longer.
        let won = two_children(1.0);
        let [short, long] = bonuses(&won, 1.0)[..] else { panic!() };
        assert!((short - 0.06).abs() < 1e-6 && (long + 0.04).abs() < 1e-6, "{short} {long}");
        let [short, long] = bonuses(&two_children(0.0), 0.0)[..] else { panic!() };
        assert!(short < 0.0 && long > 0.0, "{short} {long}");
        // Even: nothing; three quarters: a quarter of the full effect.
        assert_eq!(bonuses(&two_children(0.5), 0.5), [0.0, 0.0]);
        let [short, _] = bonuses(&two_children(0.75), 0.75)[..] else { panic!() };
        assert!((short - 0.06 * 0.25).abs() < 1e-6, "{short}");
        // The cap bounds it; off, or without moves left, there is none.
        let capped = MovesLeft::Utility { slope: 1.0, cap: 0.05 };
        let (root, short) = (won.node(NodeId::ROOT), won.node(won.child(NodeId::ROOT, 0)));
        assert!((capped.bonus(root, short, 1.0, 2) - 0.05).abs() < 1e-6);
        assert_eq!(MovesLeft::Off.bonus(root, short, 1.0, 2), 0.0);
        // Three seats: a share of 1/3 is even, 1 a win.
        assert_eq!(on.bonus(root, short, 1.0 / 3.0, 3), 0.0);
        assert!((on.bonus(root, short, 1.0, 3) - 0.06).abs() < 1e-6);
        let mut plain = Tree::new();
        plain.expand(NodeId::ROOT, Player(0), Values([0.5, 0.5, 0.0]), [(0, 1.0)].into_iter());
        let only = plain.child(NodeId::ROOT, 0);
        plain.backup(&[NodeId::ROOT, only], Values([1.0, 0.0, 0.0]));
        let (root, only) = (plain.node(NodeId::ROOT), plain.node(only));
        assert_eq!(on.bonus(root, only, 1.0, 2), 0.0);
    }

    #[test]
    fn the_config_parses_and_checks_its_values() {
        let parse = |s: &str| {
            s.parse::<toml::Table>().and_then(|t| t["moves_left"].clone().try_into::<MovesLeft>())
        };
        assert_eq!(parse("moves_left = \"off\"").unwrap(), MovesLeft::Off);
        let on = parse("moves_left = { utility = { slope = 0.004, cap = 0.04 } }").unwrap();
        assert_eq!(on, MovesLeft::Utility { slope: 0.004, cap: 0.04 });
        assert!(on.is_on() && on.problem().is_none());
        assert!(parse("moves_left = { utility = { slope = 0.004 } }").is_err());
        let bad = MovesLeft::Utility { slope: -1.0, cap: 0.1 };
        assert!(bad.problem().is_some());
        assert!(MovesLeft::Utility { slope: 0.1, cap: f32::NAN }.problem().is_some());
    }
}
