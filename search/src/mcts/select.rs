//! PUCT selection (AlphaZero): at a node whose mover is `p`, pick the child maximising
//!
//! `q_p(child) + c_puct(N) * prior(child) * sqrt(N) / (1 + n(child))`,
//! `c_puct(N) = c_puct_init + ln((N + c_puct_base + 1) / c_puct_base)`,
//!
//! where `N` is the parent's visit count and `q_p` the child's mean value **for the parent's
//! mover** (max^n: each player maximises their own share). Unvisited children get the
//! first-play-urgency value of [`Fpu`].

use super::config::Fpu;
use super::moves_left::MovesLeft;
use super::tactical::Certainty;
use super::tree::{NodeId, Tree};

/// The PUCT constants of one search, and the moves-left utility added to the Q of visited
/// children.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Puct {
    pub c_puct_init: f32,
    pub c_puct_base: f32,
    pub fpu: Fpu,
    pub moves_left: MovesLeft,
    /// Seats of the game (for the moves-left utility's draw share).
    pub players: usize,
    /// With `Propagate`, a proven child is scored by its proven returns, a proven loss is
    /// selected only when every child is one, and first-play urgency is never below a loss.
    pub certainty: Certainty,
}

impl Puct {
    /// AlphaZero's visit-dependent exploration constant.
    pub fn c_puct(&self, parent_n: u32) -> f32 {
        self.c_puct_init + ((parent_n as f32 + self.c_puct_base + 1.0) / self.c_puct_base).ln()
    }

    /// The Q given to unvisited children of `parent`.
    fn fpu_value<A: Copy>(&self, tree: &Tree<A>, parent: NodeId) -> f32 {
        match self.fpu {
            Fpu::Absolute(v) => v,
            Fpu::Reduction(r) => {
                let node = tree.node(parent);
                let parent_q = node.q(node.to_move).unwrap_or(node.value.0[node.to_move.index()]);
                let visited_policy: f32 = tree
                    .children(parent)
                    .map(|c| tree.node(c))
                    .filter(|c| c.n > 0)
                    .map(|c| c.prior)
                    .sum();
                parent_q - r * visited_policy.sqrt()
            }
        }
    }

    /// The index (in child order) of the child to visit next. `parent` must be expanded with
    /// at least one child; ties go to the first child (the lowest action index).
    pub fn select<A: Copy>(&self, tree: &Tree<A>, parent: NodeId) -> usize {
        let node = tree.node(parent);
        let mover = node.to_move;
        let solving = self.certainty == Certainty::Propagate;
        let fpu = self.fpu_value(tree, parent);
        let fpu = if solving { fpu.max(0.0) } else { fpu };
        let explore = self.c_puct(node.n) * (node.n as f32).sqrt();
        // (index, score, whether it is a proven loss for the mover)
        let mut best = (0, f32::NEG_INFINITY, true);
        for (i, c) in tree.children(parent).enumerate() {
            let child = tree.node(c);
            let bonus = |q: f32| q + self.moves_left.bonus(node, child, q, self.players);
            let q = match child.proven {
                Some(v) if solving => v.0[mover.index()],
                _ => child.q(mover).map_or(fpu, bonus),
            };
            let u = explore * child.prior / (1.0 + child.n as f32);
            let score = q + u;
            let loses = solving && child.proven_loss_for(mover);
            // A proven loss only while nothing else has been seen.
            if (best.2 && !loses) || (best.2 == loses && score > best.1) {
                best = (i, score, loses);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{Player, Values};

    /// A root for seat 1 with three children; child 0 visited twice with values good for seat 0.
    fn bandit(priors: [f32; 3]) -> Tree<u8> {
        let mut t = Tree::new();
        t.expand(NodeId::ROOT, Player(1), Values([0.5, 0.5, 0.0]), (0..3u8).zip(priors));
        let c0 = t.child(NodeId::ROOT, 0);
        t.backup(&[NodeId::ROOT], Values([0.5, 0.5, 0.0]));
        t.backup(&[NodeId::ROOT, c0], Values([1.0, 0.0, 0.0]));
        t.backup(&[NodeId::ROOT, c0], Values([1.0, 0.0, 0.0]));
        t
    }

    /// AlphaZero's constants, no moves-left utility.
    fn puct() -> Puct {
        Puct {
            c_puct_init: 1.25,
            c_puct_base: 19652.0,
            fpu: Fpu::Absolute(0.0),
            moves_left: MovesLeft::Off,
            players: 2,
            certainty: Certainty::Off,
        }
    }

    #[test]
    fn c_puct_grows_with_visits_from_c_puct_init() {
        let p = Puct { fpu: Fpu::Absolute(0.0), ..puct() };
        assert!((p.c_puct(0) - 1.25).abs() < 1e-4);
        assert!((p.c_puct(19652) - (1.25 + (2.0f32 + 1.0 / 19652.0).ln())).abs() < 1e-4);
    }

    #[test]
    fn selection_maximises_the_movers_q_not_seat_0s() {
        // Child 0 is great for seat 0 but worthless for seat 1, who moves here.
        let t = bandit([0.8, 0.1, 0.1]);
        let p = Puct { fpu: Fpu::Absolute(0.5), ..puct() };
        assert_ne!(p.select(&t, NodeId::ROOT), 0);
    }

    #[test]
    fn fpu_absolute_and_reduction() {
        let t = bandit([0.8, 0.1, 0.1]);
        // Optimistic FPU explores the unvisited children; the higher prior wins the tie-break.
        let p = Puct { fpu: Fpu::Absolute(1.0), ..puct() };
        assert_eq!(p.select(&t, NodeId::ROOT), 1);
        // Parent q for seat 1 is 1/6; reduced by 0.2 * sqrt(0.8).
        let p = Puct { fpu: Fpu::Reduction(0.2), ..p };
        let expected = 0.5 / 3.0 - 0.2 * 0.8f32.sqrt();
        assert!((p.fpu_value(&t, NodeId::ROOT) - expected).abs() < 1e-6);
    }

    #[test]
    fn a_proven_loss_is_selected_only_when_every_child_is_one() {
        // Seat 1 moves at the root; child 0 has the best prior and Q but is a proven loss.
        let mut t = bandit([0.8, 0.1, 0.1]);
        let c0 = t.child(NodeId::ROOT, 0);
        t.node_mut(c0).w = [0.0, 2.0, 0.0];
        let solving = Puct { fpu: Fpu::Reduction(0.2), certainty: Certainty::Propagate, ..puct() };
        let plain = Puct { certainty: Certainty::Off, ..solving };
        assert_eq!(plain.select(&t, NodeId::ROOT), 0);
        t.node_mut(c0).proven = Some(Values([1.0, 0.0, 0.0]));
        assert_eq!(plain.select(&t, NodeId::ROOT), 0, "without certainty the proof is ignored");
        assert_ne!(solving.select(&t, NodeId::ROOT), 0);
        for i in 1..3 {
            let c = t.child(NodeId::ROOT, i);
            t.node_mut(c).proven = Some(Values([1.0, 0.0, 0.0]));
        }
        assert_eq!(solving.select(&t, NodeId::ROOT), 0, "all lose: the best of them");
        // A proven win is scored 1 whatever its mean: it beats an unproven child's prior.
        let mut t = bandit([0.8, 0.1, 0.1]);
        let c2 = t.child(NodeId::ROOT, 2);
        t.backup(&[NodeId::ROOT, c2], Values([1.0, 0.0, 0.0]));
        t.node_mut(c2).proven = Some(Values([0.0, 1.0, 0.0]));
        assert_eq!(solving.select(&t, NodeId::ROOT), 2);
    }

    #[test]
    fn first_play_urgency_stays_above_a_loss_when_solving() {
        // Every visit so far was a loss for seat 1: the reduced FPU would go below 0.
        let t = bandit([0.8, 0.1, 0.1]);
        let p = Puct { fpu: Fpu::Reduction(1.0), ..puct() };
        assert!(p.fpu_value(&t, NodeId::ROOT) < 0.0);
        let mut t = t;
        let c0 = t.child(NodeId::ROOT, 0);
        t.node_mut(c0).proven = Some(Values([1.0, 0.0, 0.0]));
        let solving = Puct { certainty: Certainty::Propagate, ..p };
        assert_eq!(solving.select(&t, NodeId::ROOT), 1);
    }

    #[test]
    fn prior_breaks_ties_between_unvisited_children() {
        let mut t = Tree::new();
        t.expand(NodeId::ROOT, Player(0), Values([0.5, 0.5, 0.0]), (0..3u8).zip([0.2, 0.5, 0.3]));
        t.backup(&[NodeId::ROOT], Values([0.5, 0.5, 0.0]));
        let p = Puct { fpu: Fpu::Reduction(0.0), ..puct() };
        assert_eq!(p.select(&t, NodeId::ROOT), 1);
    }
}
