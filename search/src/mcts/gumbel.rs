//! Gumbel root search (Danihelka, Guez, Schrittwieser, Silver 2022, "Policy improvement by
//! planning with Gumbel"; mctx's `gumbel_muzero_policy`).
//!
//! - At the root, `m` actions are sampled without replacement by Gumbel-top-k on
//!   `g(a) + logits(a)` and the simulation budget is spent by **sequential halving**: each phase
//!   visits the surviving actions equally, then keeps the better half by
//!   `g(a) + logits(a) + sigma(q(a))`. The played action is the best survivor.
//! - Below the root, selection is deterministic: `argmax_a pi'(a) - n(a) / (1 + sum_b n(b))`.
//! - The policy target is `pi' = softmax(logits + sigma(completed q))`, where unvisited actions
//!   get the mixed value `v_mix` and `sigma(q) = (c_visit + max_b n(b)) * c_scale * q`.
//!
//! q is the mean value for the node's mover (per-seat values, max^n), score shares in `[0, 1]`;
//! by default the completed q of a node's children are stretched to `[0, 1]` (min-max, as
//! mctx does) before `sigma` ([`QTransform`]).

use rand::Rng;

use super::config::QTransform;
use super::moves_left::MovesLeft;
use super::sample::gumbel;
use super::tree::{NodeId, Tree};

/// The `sigma` constants, and the moves-left utility added to the Q of visited children.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sigma {
    pub c_visit: f32,
    pub c_scale: f32,
    pub q_transform: QTransform,
    pub moves_left: MovesLeft,
    /// Seats of the game (for the moves-left utility's draw share).
    pub players: usize,
}

/// The log of a prior, floored so that a zero prior gives a very negative but finite logit.
fn logit(prior: f32) -> f32 {
    prior.max(1e-30).ln()
}

/// The completed q of each child of `id` for its mover: the child's mean value when visited
/// (plus the moves-left utility's bonus, when it is on), else
/// `v_mix = (v + sum n / sum_{visited} prior * sum_{visited} prior * q) / (1 + sum n)` with `v`
/// the evaluator's value of `id`.
pub(crate) fn completed_q<A: Copy>(
    tree: &Tree<A>,
    id: NodeId,
    moves_left: MovesLeft,
    players: usize,
) -> Vec<f32> {
    let node = tree.node(id);
    let seat = node.to_move;
    let v = node.value.0[seat.index()];
    let (mut sum_n, mut sum_prior, mut sum_prior_q) = (0.0f32, 0.0f32, 0.0f32);
    for c in tree.children(id) {
        let child = tree.node(c);
        if let Some(q) = child.q(seat) {
            sum_n += child.n as f32;
            sum_prior += child.prior;
            sum_prior_q += child.prior * q;
        }
    }
    let v_mix =
        if sum_prior > 0.0 { (v + sum_n * sum_prior_q / sum_prior) / (1.0 + sum_n) } else { v };
    tree.children(id)
        .map(|c| {
            let child = tree.node(c);
            child.q(seat).map_or(v_mix, |q| q + moves_left.bonus(node, child, q, players))
        })
        .collect()
}

/// Stretches `q` to `[0, 1]`: `(q - min) / max(max - min, 1e-8)` (mctx's `rescale_values`;
/// all 0 when every entry is the same).
fn min_max(q: &mut [f32]) {
    let lo = q.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = q.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let range = (hi - lo).max(1e-8);
    for v in q {
        *v = (*v - lo) / range;
    }
}

impl Sigma {
    /// `sigma(q)` for each child of `id`.
    fn sigma<A: Copy>(&self, tree: &Tree<A>, id: NodeId) -> Vec<f32> {
        let max_n = tree.children(id).map(|c| tree.node(c).n).max().unwrap_or(0);
        let scale = (self.c_visit + max_n as f32) * self.c_scale;
        let mut q = completed_q(tree, id, self.moves_left, self.players);
        if self.q_transform == QTransform::MinMax {
            min_max(&mut q);
        }
        q.into_iter().map(|q| scale * q).collect()
    }

    /// The improved policy `pi' = softmax(logits + sigma(completed q))` over the children of `id`.
    /// A child of prior 0 (cleared by a root filter) gets 0 while another child has a prior: its
    /// completed q alone must not give it mass (min-max can lift it to the top of the range).
    pub fn improved_policy<A: Copy>(&self, tree: &Tree<A>, id: NodeId) -> Vec<f32> {
        let open = tree.children(id).any(|c| tree.node(c).prior > 0.0);
        let scores: Vec<f32> = tree
            .children(id)
            .zip(self.sigma(tree, id))
            .map(|(c, s)| match tree.node(c).prior {
                p if open && p <= 0.0 => f32::NEG_INFINITY,
                p => logit(p) + s,
            })
            .collect();
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let exps: Vec<f32> = scores.iter().map(|s| (s - max).exp()).collect();
        let total: f32 = exps.iter().sum();
        exps.into_iter().map(|e| e / total).collect()
    }

    /// Selection below the root: the child whose visit share lags its improved policy most.
    pub fn select_interior<A: Copy>(&self, tree: &Tree<A>, id: NodeId) -> usize {
        let pi = self.improved_policy(tree, id);
        let total: u32 = tree.children(id).map(|c| tree.node(c).n).sum();
        let mut best = (0, f32::NEG_INFINITY);
        for (i, (c, p)) in tree.children(id).zip(pi).enumerate() {
            let score = p - tree.node(c).n as f32 / (1.0 + total as f32);
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }
}

/// Per-move state of the root: the sampled Gumbel scores, the considered actions and the
/// sequential-halving schedule.
#[derive(Clone, Debug)]
pub(crate) struct GumbelRoot {
    /// `g(a) + logits(a)` per root child; `-inf` for actions not considered.
    score: Vec<f32>,
    /// Root child visits when this move's search began (tree reuse keeps older visits, which
    /// count for q but not for the halving schedule).
    base: Vec<u32>,
    /// `schedule[k]`: the visits (this move) an action must have to receive simulation `k`.
    schedule: Vec<u32>,
}

impl GumbelRoot {
    /// Samples the Gumbel scores, keeps the top `considered` actions (of those with a prior
    /// above 0) and plans `simulations`.
    pub fn new<A: Copy>(
        tree: &Tree<A>,
        considered: usize,
        simulations: usize,
        rng: &mut impl Rng,
    ) -> Self {
        let root = NodeId::ROOT;
        let priors: Vec<f32> = tree.children(root).map(|c| tree.node(c).prior).collect();
        let mut score: Vec<f32> = priors.iter().map(|&p| gumbel(rng) + logit(p)).collect();
        // An action of prior 0 (cleared by a root filter) is not considered while others are.
        let open = priors.iter().filter(|&&p| p > 0.0).count();
        if open > 0 {
            for (s, _) in score.iter_mut().zip(&priors).filter(|(_, p)| **p <= 0.0) {
                *s = f32::NEG_INFINITY;
            }
        }
        let m = considered.clamp(1, open.max(1));
        let mut order: Vec<usize> = (0..score.len()).collect();
        order.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
        for &i in &order[m.min(order.len())..] {
            score[i] = f32::NEG_INFINITY;
        }
        let base = tree.children(root).map(|c| tree.node(c).n).collect();
        GumbelRoot { score, base, schedule: halving_schedule(m, simulations) }
    }

    fn visits_this_move<A: Copy>(&self, tree: &Tree<A>) -> Vec<u32> {
        tree.children(NodeId::ROOT).zip(&self.base).map(|(c, b)| tree.node(c).n - b).collect()
    }

    /// The considered action with the best `score + sigma` among those with exactly `target`
    /// visits this move, or with the most visits when `target` is `None`.
    fn best<A: Copy>(&self, tree: &Tree<A>, sigma: &Sigma, target: Option<u32>) -> usize {
        let visits = self.visits_this_move(tree);
        let considered = |i: &usize| self.score[*i] > f32::NEG_INFINITY;
        let idx = 0..visits.len();
        let target = match target {
            Some(t) if idx.clone().filter(considered).any(|i| visits[i] == t) => t,
            // Off schedule (cannot happen when every simulation is counted): least visited.
            Some(_) => idx.clone().filter(considered).map(|i| visits[i]).min().unwrap_or(0),
            None => idx.clone().filter(considered).map(|i| visits[i]).max().unwrap_or(0),
        };
        let s = sigma.sigma(tree, NodeId::ROOT);
        let mut best = (0, f32::NEG_INFINITY);
        for i in idx.filter(considered).filter(|&i| visits[i] == target) {
            if self.score[i] + s[i] > best.1 {
                best = (i, self.score[i] + s[i]);
            }
        }
        best.0
    }

    /// The root child for simulation number `k` of this move.
    pub fn select_root<A: Copy>(&self, tree: &Tree<A>, sigma: &Sigma, k: u32) -> usize {
        let target = self.schedule.get(k as usize).copied().unwrap_or(u32::MAX);
        self.best(tree, sigma, Some(target))
    }

    /// The action to play: the best of the most visited survivors.
    pub fn selected<A: Copy>(&self, tree: &Tree<A>, sigma: &Sigma) -> usize {
        self.best(tree, sigma, None)
    }
}

/// Sequential halving as a schedule over `n` simulations with `m` considered actions: entry `k`
/// is the visit count (within the move) of the actions eligible for simulation `k`.
///
/// There are `ceil(log2 m)` phases; a phase with `alive` survivors gives each of them
/// `max(1, n / (phases * alive))` more visits, then halves `alive` (never below 2). Survivors of
/// a phase all have the same visit count, so "eligible" is "has exactly that many visits", and
/// the best eligible action by `g + logits + sigma(q)` takes each simulation in turn.
pub(crate) fn halving_schedule(m: usize, n: usize) -> Vec<u32> {
    if m <= 1 {
        return (0..n as u32).collect();
    }
    let phases = m.next_power_of_two().trailing_zeros() as usize;
    let mut schedule = Vec::with_capacity(n);
    let (mut alive, mut level) = (m, 0u32);
    while schedule.len() < n {
        let rounds = (n / (phases * alive)).max(1);
        for _ in 0..rounds {
            schedule.extend(std::iter::repeat_n(level, alive));
            level += 1;
        }
        alive = (alive / 2).max(2);
    }
    schedule.truncate(n);
    schedule
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{Player, Values};

    #[test]
    fn halving_schedule_splits_the_budget_into_phases() {
        // 4 actions, 16 simulations: 2 phases; 2 rounds of 4, then 4 rounds of 2.
        assert_eq!(halving_schedule(4, 16), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        // Too few simulations for every phase: one visit each as far as the budget goes.
        assert_eq!(halving_schedule(8, 6), [0; 6]);
        assert_eq!(halving_schedule(1, 3), [0, 1, 2]);
        assert_eq!(halving_schedule(3, 7), [0, 0, 0, 1, 1, 2, 2]);
    }

    /// The paper's constants (`c_visit = 50`, `c_scale = 1`), two players, no moves-left.
    fn paper_sigma(q_transform: QTransform) -> Sigma {
        Sigma { c_visit: 50.0, c_scale: 1.0, q_transform, moves_left: MovesLeft::Off, players: 2 }
    }

    /// A root for seat 0 with evaluator value 0.5, children priors 0.5/0.3/0.2, child 1
    /// visited twice with q = 1 for seat 0.
    fn tree() -> Tree<u8> {
        let mut t = Tree::new();
        t.expand(NodeId::ROOT, Player(0), Values([0.5, 0.5, 0.0]), (0..3u8).zip([0.5, 0.3, 0.2]));
        t.backup(&[NodeId::ROOT], Values([0.5, 0.5, 0.0]));
        let c1 = t.child(NodeId::ROOT, 1);
        for _ in 0..2 {
            t.backup(&[NodeId::ROOT, c1], Values([1.0, 0.0, 0.0]));
        }
        t
    }

    #[test]
    fn completed_q_mixes_the_value_for_unvisited_actions() {
        let q = completed_q(&tree(), NodeId::ROOT, MovesLeft::Off, 2);
        // v_mix = (0.5 + 2 / 0.3 * 0.3 * 1.0) / 3 = 2.5 / 3.
        let v_mix = 2.5 / 3.0;
        assert!((q[0] - v_mix).abs() < 1e-6 && (q[2] - v_mix).abs() < 1e-6);
        assert_eq!(q[1], 1.0);
    }

    #[test]
    fn improved_policy_favours_the_better_q_and_sums_to_one() {
        let sigma = paper_sigma(QTransform::Raw);
        let pi = sigma.improved_policy(&tree(), NodeId::ROOT);
        assert!((pi.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(pi[1] > 0.99, "{pi:?}");
        // With no visits at all the improved policy is the prior.
        let mut t = Tree::new();
        t.expand(NodeId::ROOT, Player(0), Values([0.5, 0.5, 0.0]), (0..3u8).zip([0.5, 0.3, 0.2]));
        let pi = sigma.improved_policy(&t, NodeId::ROOT);
        assert!(pi.iter().zip([0.5, 0.3, 0.2]).all(|(a, b)| (a - b).abs() < 1e-5), "{pi:?}");
    }

    /// Two children visited with q 0.52 and 0.48 (for seat 0), one unvisited: raw shares
    /// leave the improved policy near the prior; min-max stretches the gap to the whole range.
    #[test]
    fn min_max_rescaling_sharpens_small_value_differences() {
        let mut t = Tree::new();
        t.expand(NodeId::ROOT, Player(0), Values([0.5, 0.5, 0.0]), (0..3u8).zip([0.4, 0.4, 0.2]));
        t.backup(&[NodeId::ROOT], Values([0.5, 0.5, 0.0]));
        for (i, v) in [(0, 0.48), (1, 0.52)] {
            let c = t.child(NodeId::ROOT, i);
            t.backup(&[NodeId::ROOT, c], Values([v, 1.0 - v, 0.0]));
        }
        let raw = paper_sigma(QTransform::Raw).improved_policy(&t, NodeId::ROOT);
        let stretched = paper_sigma(QTransform::MinMax).improved_policy(&t, NodeId::ROOT);
        // Raw: sigma differs by 51 * 0.04 = 2.04 logits between the two visited children.
        assert!(raw[1] > raw[0] && raw[1] < 0.85, "{raw:?}");
        // Min-max: 51 logits; the better child takes everything.
        assert!(stretched[1] > 0.999, "{stretched:?}");
        assert!((stretched.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        // Equal q everywhere: no preference added, the improved policy is the prior.
        let mut q = [0.3f32, 0.3, 0.3];
        min_max(&mut q);
        assert_eq!(q, [0.0; 3]);
    }

    #[test]
    fn interior_selection_follows_the_improved_policy() {
        let sigma = paper_sigma(QTransform::Raw);
        // The improved policy is almost all on child 1, which has both child visits: still the
        // largest deficit (about 1 - 2/3 against about 0 for the others).
        assert_eq!(sigma.select_interior(&tree(), NodeId::ROOT), 1);
    }
}
