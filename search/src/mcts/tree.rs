//! The search tree: an index arena of [`Node`]s addressed by [`NodeId`], children of a node
//! stored contiguously (as in mctx's `Tree` of arrays and kZero's `Tree`).
//!
//! Names follow the AlphaZero paper: `n` (visit count), `w` (sum of backed-up values), `q = w / n`,
//! `prior`. **Values are per seat**: `w[s]` sums seat `s`'s score share over every simulation
//! through the node (max^n backup), so no value is ever negated and any number of players, or
//! the same player moving several times in a row, needs no special case.

use games::{MAX_PLAYERS, Player, Values};

/// Index of a node in its [`Tree`]. The root is always [`NodeId::ROOT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// What is known about a node's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Not evaluated yet: no children, `to_move` and `value` not set.
    Unexpanded,
    /// Evaluated; its children (one per legal action, in `legal_actions` order) exist.
    Expanded,
    /// Expanded without an evaluation (`mcts.forced_legs` passes through it): its children
    /// exist with uniform priors, and `value` is that of the first leaf found below it.
    Passed,
    /// The game is over here; `value` holds the returns.
    Terminal,
}

/// One node: the statistics of the edge leading into it, and what its expansion recorded.
#[derive(Clone, Debug)]
pub struct Node<A> {
    /// The action from the parent to this node (`None` for a root created fresh).
    pub action: Option<A>,
    /// The parent's policy for `action` (after root noise, at the root).
    pub prior: f32,
    /// Visits: simulations that went through this node.
    pub n: u32,
    /// Sum of backed-up values, per seat.
    pub w: [f32; MAX_PLAYERS],
    /// The evaluator's values at this node (the returns if terminal), per seat.
    pub value: Values,
    /// The player to move at this node's state, recorded when it was expanded; selection at
    /// this node maximises this seat's Q.
    pub to_move: Player,
    /// What is known about the node.
    pub kind: NodeKind,
    /// The material the action into this node captures on the way to the end of its move, in
    /// Men ([`games::Game::capture_gains`]); 0 unless the search orders captures first
    /// (`mcts.captures = "first"`).
    pub gain: f32,
    /// The returns of the game from here under best play, once the search has proven them
    /// (`mcts.certainty = "propagate"`; `Tree::prove`): a terminal node, or one whose mover
    /// has a proven win below it, or all of whose children are proven. A simulation that
    /// reaches a proven node backs these up without going further.
    pub proven: Option<Values>,
    /// Sum of the squares of the backed-up values, per seat (for the variance of `q`).
    w2: [f32; MAX_PLAYERS],
    /// Sum and count of the moves left backed up through the node
    /// ([`Tree::backup_moves_left`]; the simulations whose leaf had none add nothing).
    moves_left_sum: f32,
    moves_left_n: u32,
    first_child: u32,
    num_children: u32,
}

impl<A> Node<A> {
    fn new(action: Option<A>, prior: f32) -> Self {
        Node {
            action,
            prior,
            n: 0,
            w: [0.0; MAX_PLAYERS],
            value: Values::default(),
            to_move: Player(0),
            kind: NodeKind::Unexpanded,
            gain: 0.0,
            proven: None,
            w2: [0.0; MAX_PLAYERS],
            moves_left_sum: 0.0,
            moves_left_n: 0,
            first_child: 0,
            num_children: 0,
        }
    }

    /// Mean backed-up value for `seat`, or `None` before the first visit.
    pub fn q(&self, seat: Player) -> Option<f32> {
        (self.n > 0).then(|| self.w[seat.index()] / self.n as f32)
    }

    /// A lower confidence bound on `seat`'s mean value: `q - z * sqrt(var / n)`, the variance
    /// of the backed-up values with one pseudo-observation of [`PRIOR_VARIANCE`] so that a few
    /// equal values do not look certain. `None` before the first visit.
    pub fn lcb(&self, seat: Player, z: f32) -> Option<f32> {
        let q = self.q(seat)?;
        let n = self.n as f32;
        let spread = (self.w2[seat.index()] - n * q * q).max(0.0);
        let variance = (spread + PRIOR_VARIANCE) / n;
        Some(q - z * (variance / n).sqrt())
    }

    /// Whether the search proved that the game from here is lost for `seat` (a score share of
    /// 0 under best play).
    pub fn proven_loss_for(&self, seat: Player) -> bool {
        self.proven.is_some_and(|v| v.0[seat.index()] <= PROVEN_EPSILON)
    }

    /// Whether the search proved that the game from here is won by `seat`.
    pub fn proven_win_for(&self, seat: Player) -> bool {
        self.proven.is_some_and(|v| v.0[seat.index()] >= 1.0 - PROVEN_EPSILON)
    }

    /// Mean backed-up values of every seat (zeros before the first visit).
    pub fn q_values(&self) -> Values {
        let n = self.n.max(1) as f32;
        Values(self.w.map(|w| w / n))
    }

    /// The mean moves left to the game's end below this node, over the simulations that
    /// backed one up ([`crate::mcts::moves_left`]); `None` before the first.
    pub fn moves_left(&self) -> Option<f32> {
        (self.moves_left_n > 0).then(|| self.moves_left_sum / self.moves_left_n as f32)
    }

    /// How many children the node has (0 unless expanded).
    pub fn num_children(&self) -> usize {
        self.num_children as usize
    }
}

/// The variance (on the `[0, 1]` share scale) of the one pseudo-observation [`Node::lcb`] adds:
/// a share that is 0 or 1 with even odds has 0.25.
pub const PRIOR_VARIANCE: f32 = 0.1;

/// Shares this close to 0 or 1 count as a proven loss or win.
const PROVEN_EPSILON: f32 = 1e-6;

/// Nodes a chunk of the arena holds at most.
///
/// The tree grows a chunk at a time: a large search never copies its whole tree to grow it
/// (one vector of millions of nodes, doubled as it filled, stalled a search for 0.8 s at
/// 40,000 simulations and 1.7 s at 80,000: too long for an engine on the clock).
const CHUNK: usize = 1 << 15;

/// An arena of nodes; node 0 is the root.
#[derive(Clone, Debug)]
pub struct Tree<A> {
    /// The nodes, node `id` at `chunks[id / CHUNK][id % CHUNK]`; a node's children are
    /// contiguous within one chunk. The first chunk grows as a vector does (a small search's
    /// tree stays small); the later ones are allocated whole.
    chunks: Vec<Vec<Node<A>>>,
    len: usize,
}

impl<A: Copy> Default for Tree<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Copy> Tree<A> {
    /// A tree holding only an unexpanded root.
    pub fn new() -> Self {
        Tree { chunks: vec![vec![Node::new(None, 1.0)]], len: 1 }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the tree is only a root. (A tree is never empty.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The node `id`. Ids come from this tree, so they are in range.
    pub fn node(&self, id: NodeId) -> &Node<A> {
        let i = id.index();
        &self.chunks[i / CHUNK][i % CHUNK]
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> &mut Node<A> {
        let i = id.index();
        &mut self.chunks[i / CHUNK][i % CHUNK]
    }

    /// Appends `nodes` together (in a new chunk if the last has no room for all of them) and
    /// returns the id of the first.
    fn append(&mut self, nodes: impl ExactSizeIterator<Item = Node<A>>) -> u32 {
        let count = nodes.len();
        assert!(count <= CHUNK, "{count} children do not fit a chunk of the tree");
        if self.chunks.last().is_none_or(|c| c.len() + count > CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        let last = self.chunks.len() - 1;
        let chunk = &mut self.chunks[last];
        let first = last * CHUNK + chunk.len();
        chunk.extend(nodes);
        self.len += count;
        first as u32
    }

    /// The children of `id`, in the order of the legal actions they were expanded from.
    pub fn children(&self, id: NodeId) -> impl ExactSizeIterator<Item = NodeId> + use<A> {
        let node = self.node(id);
        (node.first_child..node.first_child + node.num_children).map(NodeId)
    }

    /// The `i`-th child of `id`.
    pub fn child(&self, id: NodeId, i: usize) -> NodeId {
        NodeId(self.node(id).first_child + i as u32)
    }

    /// Expands an unexpanded node without an evaluation ([`NodeKind::Passed`]): one child per
    /// action, all with the same prior; the value is set later ([`Tree::node_mut`]).
    pub(crate) fn pass(&mut self, id: NodeId, to_move: Player, actions: &[A]) {
        let prior = 1.0 / actions.len() as f32;
        self.expand(id, to_move, Values::default(), actions.iter().map(|&a| (a, prior)));
        self.node_mut(id).kind = NodeKind::Passed;
    }

    /// Expands an unexpanded node: records its mover and evaluator values and appends one child
    /// per `(action, prior)`, contiguously.
    pub(crate) fn expand(
        &mut self,
        id: NodeId,
        to_move: Player,
        value: Values,
        children: impl ExactSizeIterator<Item = (A, f32)>,
    ) {
        let count = children.len() as u32;
        let first = self.append(children.map(|(a, p)| Node::new(Some(a), p)));
        let node = self.node_mut(id);
        node.to_move = to_move;
        node.value = value;
        node.kind = NodeKind::Expanded;
        node.first_child = first;
        node.num_children = count;
    }

    /// Marks a node as the end of the game with these returns.
    pub(crate) fn set_terminal(&mut self, id: NodeId, returns: Values) {
        let node = self.node_mut(id);
        node.kind = NodeKind::Terminal;
        node.value = returns;
        node.proven = Some(returns);
    }

    /// Sets the capture gain of each child of `id` (in child order).
    pub(crate) fn set_gains(&mut self, id: NodeId, gains: &[f32]) {
        let node = self.node(id);
        debug_assert_eq!(node.num_children(), gains.len());
        // Children are contiguous: no list of their ids is needed.
        let (chunk, first) = (node.first_child as usize / CHUNK, node.first_child as usize % CHUNK);
        for (child, &g) in self.chunks[chunk][first..first + gains.len()].iter_mut().zip(gains) {
            child.gain = g;
        }
    }

    /// Proves `id` from its children where it can (MCTS-solver; Lc0's certainty propagation),
    /// max^n for the node's mover `m`: a child proven to win for `m` proves the node with that
    /// child's returns; when every child is proven, the node takes the proven returns that are
    /// best for `m`. Returns whether the node is proven (already, or now). An unexpanded or
    /// childless node is proven only if it is terminal.
    pub(crate) fn prove(&mut self, id: NodeId) -> bool {
        let node = self.node(id);
        if node.proven.is_some() {
            return true;
        }
        if node.num_children == 0 || node.kind == NodeKind::Unexpanded {
            return false;
        }
        let mover = node.to_move;
        let won = self.children(id).find(|&c| self.node(c).proven_win_for(mover));
        let mut best: Option<Values> = won.and_then(|c| self.node(c).proven);
        if best.is_none() {
            for c in self.children(id) {
                // A child not yet proven may still be better for the mover than any proven one.
                let Some(v) = self.node(c).proven else { return false };
                if best.is_none_or(|b| v.0[mover.index()] > b.0[mover.index()]) {
                    best = Some(v);
                }
            }
        }
        let Some(v) = best else { return false };
        self.node_mut(id).proven = Some(v);
        true
    }

    /// Max^n backup: every node on `path` gains a visit and adds `values`, seat by seat.
    pub(crate) fn backup(&mut self, path: &[NodeId], values: Values) {
        for &id in path {
            let node = self.node_mut(id);
            node.n += 1;
            for ((w, w2), v) in node.w.iter_mut().zip(node.w2.iter_mut()).zip(values.0) {
                *w += v;
                *w2 += v * v;
            }
        }
    }

    /// Adds each path node's moves left (`moves_left[i]` to `path[i]`; see
    /// [`crate::mcts::moves_left::along_path`]).
    pub(crate) fn backup_moves_left(&mut self, path: &[NodeId], moves_left: &[f32]) {
        for (&id, &m) in path.iter().zip(moves_left) {
            let node = self.node_mut(id);
            node.moves_left_sum += m;
            node.moves_left_n += 1;
        }
    }

    /// The subtree under `id` as a new, compact tree with `id` as its root (tree reuse).
    /// Nodes keep their statistics; children stay contiguous and in order.
    pub fn subtree(&self, id: NodeId) -> Tree<A> {
        let mut root = self.node(id).clone();
        root.action = None;
        let mut tree = Tree { chunks: vec![vec![root]], len: 1 };
        // `order[i]` is the (old, new) id of the `i`-th node copied: a breadth-first copy, so
        // each node's children are appended together when it is reached.
        let mut order = vec![(id, NodeId::ROOT)];
        let mut i = 0;
        while i < order.len() {
            let (old, new) = order[i];
            if self.node(old).num_children > 0 {
                let first = tree.append(self.children(old).map(|c| self.node(c).clone()));
                tree.node_mut(new).first_child = first;
                let copies = self.children(old).zip((first..).map(NodeId));
                order.extend(copies);
            }
            i += 1;
        }
        tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_tree() -> Tree<u8> {
        let mut t = Tree::new();
        t.expand(
            NodeId::ROOT,
            Player(0),
            Values([0.5, 0.5, 0.0]),
            [(7, 0.6), (8, 0.4)].into_iter(),
        );
        let b = t.child(NodeId::ROOT, 1);
        t.expand(b, Player(1), Values([0.2, 0.8, 0.0]), [(1, 0.3), (2, 0.7)].into_iter());
        let b2 = t.child(b, 1);
        t.backup(&[NodeId::ROOT, b, b2], Values([1.0, 0.0, 0.0]));
        t
    }

    #[test]
    fn backup_adds_per_seat_values_without_flipping() {
        let t = small_tree();
        let b = t.child(NodeId::ROOT, 1);
        assert_eq!(t.node(NodeId::ROOT).n, 1);
        assert_eq!(t.node(b).w, [1.0, 0.0, 0.0], "seat 1 moves at b, its value is not negated");
        assert_eq!(t.node(b).q(Player(0)), Some(1.0));
        assert_eq!(t.node(t.child(NodeId::ROOT, 0)).q(Player(0)), None);
    }

    /// A tree of more nodes than a chunk holds: every node reachable through its parent,
    /// each node's children contiguous, and a subtree copies across chunks.
    #[test]
    fn a_tree_larger_than_a_chunk_keeps_its_children_together() {
        let mut t: Tree<u16> = Tree::new();
        let mut frontier = vec![NodeId::ROOT];
        let mut next = Vec::new();
        while t.len() < 3 * CHUNK {
            for &id in &frontier {
                // 7 children each: chunks do not divide evenly, so some chunks end early.
                t.expand(id, Player(0), Values::default(), (0..7u16).map(|a| (a, 1.0 / 7.0)));
                next.extend(t.children(id));
            }
            frontier = std::mem::take(&mut next);
        }
        assert!(t.chunks.len() >= 3 && t.chunks.iter().all(|c| c.len() <= CHUNK));
        let mut seen = 1;
        let mut stack = vec![NodeId::ROOT];
        while let Some(id) = stack.pop() {
            let actions: Vec<_> = t.children(id).map(|c| t.node(c).action.unwrap()).collect();
            assert!(actions.is_empty() || actions == (0..7).collect::<Vec<_>>());
            seen += actions.len();
            stack.extend(t.children(id));
        }
        assert_eq!(seen, t.len());
        let s = t.subtree(t.child(NodeId::ROOT, 3));
        assert_eq!(s.len(), (t.len() - 1) / 7, "one of the root's seven equal subtrees");
        let deepest = (0..4).fold(NodeId::ROOT, |id, _| s.child(id, 6));
        assert_eq!(s.node(deepest).action, Some(6));
    }

    #[test]
    fn subtree_keeps_statistics_and_contiguous_children() {
        let t = small_tree();
        let b = t.child(NodeId::ROOT, 1);
        let s = t.subtree(b);
        assert_eq!(s.len(), 3);
        let root = s.node(NodeId::ROOT);
        assert_eq!((root.action, root.n, root.to_move), (None, 1, Player(1)));
        let actions: Vec<_> = s.children(NodeId::ROOT).map(|c| s.node(c).action).collect();
        assert_eq!(actions, vec![Some(1), Some(2)]);
        assert_eq!(s.node(s.child(NodeId::ROOT, 1)).n, 1);
    }
}
