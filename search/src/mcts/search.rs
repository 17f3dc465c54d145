//! [`Search`]: MCTS over one game, split into [`Search::gather`] and [`Search::apply`] so that a
//! driver can gather one leaf from each of many games, evaluate them all in ONE batched call,
//! and apply the results (kZero's `zero_step_gather` / `zero_step_apply`, lc0's multigame).
//!
//! A simulation walks from the root to a node not yet evaluated. If that node's game is over,
//! its returns are backed up at once and `gather` returns `None`; otherwise `gather` returns the
//! [`Leaf`] and the simulation finishes when its [`Evaluation`] is applied. **Values are per seat
//! everywhere** (max^n): every node on the path adds the same absolute per-seat values, and each
//! node's selection maximises the Q of the player to move at that node.

use games::{Game, Outcome, Values};
use rand::Rng;

use super::config::{ForcedLegs, MctsConfig, RootNoise, Selection, WinCheck};
use super::error::SearchError;
use super::gumbel::{GumbelRoot, Sigma};
use super::moves_left::{along_path, ends_move};
use super::policy::add_root_noise;
use super::select::Puct;
use super::summary::{SearchKind, SearchSummary};
use super::tactical::{Captures, Certainty, chosen_child};
use super::tactics_filter::RootFilter;
use super::tree::{NodeId, NodeKind, Tree};
use crate::draw_score::DrawScore;
use crate::evaluator::{Evaluation, Evaluator};

/// A state waiting for evaluation. Evaluate `state` and hand the result to [`Search::apply`]
/// together with this leaf.
#[derive(Clone, Debug)]
pub struct Leaf<G: Game> {
    /// The state to evaluate (unfinished).
    pub state: G,
    /// Its legal actions, in `legal_actions` order: the evaluation's policy must match them.
    pub legal: Vec<G::Action>,
    node: NodeId,
    serial: u64,
}

impl<G: Game> Leaf<G> {
    /// Whether this is the root of its search (the position the search chooses a move in).
    pub fn is_root(&self) -> bool {
        self.node == NodeId::ROOT
    }
}

/// MCTS over one game, with the tree kept between moves.
///
/// Protocol per move: optionally [`Search::set_budget`]; then, while not [`Search::is_done`],
/// [`Search::gather`] and, for each leaf, [`Search::apply`]; then [`Search::summary`], choose an
/// action, and [`Search::advance`]. A root with exactly one legal action can be advanced
/// without searching ([`Search::forced_action`]). At most one leaf is in flight: `gather`
/// returns the same leaf again until it is applied.
#[derive(Debug)]
pub struct Search<G: Game> {
    config: MctsConfig,
    root_state: G,
    root_legal: Vec<G::Action>,
    tree: Tree<G::Action>,
    /// Simulations to run for this move, and whether that is the full search.
    budget: u32,
    kind: SearchKind,
    /// Simulations finished this move (the root's own evaluation is not one).
    done: u32,
    /// Root preparation happens at the first `gather` after the root is expanded, because it
    /// needs the random generator: root noise once per move (this flag), Gumbel sampling
    /// whenever `gumbel` is unset (once per move and budget).
    root_noise_done: bool,
    gumbel: Option<GumbelRoot>,
    pending: Option<Leaf<G>>,
    serial: u64,
    /// The nodes from the root to the pending leaf.
    path: Vec<NodeId>,
    /// For each node of `path`, whether the action into it ended a move (the turn passed or the
    /// game ended): the moves-left backup counts them. Kept only with the utility on.
    new_move: Vec<bool>,
    /// Scratch for the path's moves left.
    moves_left: Vec<f32>,
    /// How drawn end positions reached by the search are scored.
    draw_score: DrawScore,
    /// Applied to the prior of every root a move is chosen at (None: the evaluator's prior).
    root_filter: Option<Box<dyn RootFilter<G>>>,
    /// Scratch for the capture gains of a node's actions.
    gains: Vec<f32>,
}

impl<G: Game> Search<G> {
    /// A search from `root` with a fresh tree and a full budget.
    pub fn new(root: G, config: MctsConfig) -> Result<Self, SearchError> {
        config.validate()?;
        let mut root_legal = Vec::new();
        root.legal_actions(&mut root_legal);
        Ok(Search {
            budget: config.simulations,
            config,
            root_state: root,
            root_legal,
            tree: Tree::new(),
            kind: SearchKind::Full,
            done: 0,
            root_noise_done: false,
            gumbel: None,
            pending: None,
            serial: 0,
            path: Vec::new(),
            new_move: Vec::new(),
            moves_left: Vec::new(),
            draw_score: DrawScore::Share,
            root_filter: None,
            gains: Vec::new(),
        })
    }

    /// Filters the prior of every root this search chooses a move at with `filter`: a fresh
    /// root's evaluation when it is applied ([`Leaf::is_root`]), and the root a later
    /// [`Search::advance`] keeps, unless its action is forced ([`Search::forced_action`]).
    /// When the filter lowers the prior of a kept child that the kept statistics visited, the
    /// tree is dropped and the root evaluated afresh, since visits won under the old prior
    /// would count for that child. Set it before the first `gather`: a root already evaluated
    /// is not filtered.
    pub fn set_root_filter(&mut self, filter: Box<dyn RootFilter<G>>) {
        self.root_filter = Some(filter);
    }

    /// Scores drawn end positions the search reaches with `draw_score` (the fair share by
    /// default); self-play sets it with the evaluator's (`selfplay.draw_score`).
    pub fn set_draw_score(&mut self, draw_score: DrawScore) {
        self.draw_score = draw_score;
    }

    /// The position being searched.
    pub fn root_state(&self) -> &G {
        &self.root_state
    }

    /// The options.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The tree (read only).
    pub fn tree(&self) -> &Tree<G::Action> {
        &self.tree
    }

    /// Simulations finished for this move.
    pub fn simulations_done(&self) -> u32 {
        self.done
    }

    /// The action to play at the root without a search: the only legal one, or with
    /// `win_check = "in_one"` the next action of a move that wins at once.
    pub fn forced_action(&self) -> Option<G::Action> {
        match self.root_legal.as_slice() {
            [] => None,
            [only] => Some(*only),
            _ if self.config.win_check == WinCheck::InOne => self.root_state.winning_action(),
            _ => None,
        }
    }

    /// Sets this move's number of simulations and whether it is a full search (playout cap
    /// randomization). Call before the first `gather` of a move; `advance` resets the budget to
    /// the configured full search.
    pub fn set_budget(&mut self, simulations: u32, kind: SearchKind) {
        self.budget = simulations.max(1);
        self.kind = kind;
        // The Gumbel schedule depends on the budget. Root noise, once mixed in, stays.
        self.gumbel = None;
    }

    /// Whether this move's search is complete (always, when the game is over at the root).
    pub fn is_done(&self) -> bool {
        self.root_legal.is_empty() || self.done >= self.budget
    }

    /// Runs one simulation down to an unevaluated leaf and returns it, or `None` when the
    /// simulation ended in a finished game (already backed up) or the search is done.
    /// While a leaf is waiting for [`Search::apply`], returns that leaf again.
    pub fn gather(&mut self, rng: &mut impl Rng) -> Option<Leaf<G>> {
        if let Some(leaf) = &self.pending {
            return Some(leaf.clone());
        }
        if self.is_done() {
            return None;
        }
        if self.tree.node(NodeId::ROOT).kind == NodeKind::Expanded {
            self.prepare_root(rng);
        }
        self.path.clear();
        self.path.push(NodeId::ROOT);
        self.new_move.clear();
        self.new_move.push(false);
        let mut state = self.root_state.clone();
        let mut id = NodeId::ROOT;
        loop {
            match self.tree.node(id).kind {
                NodeKind::Expanded | NodeKind::Passed
                    if id != NodeId::ROOT && self.tree.node(id).proven.is_some() =>
                {
                    // Proven (`certainty = "propagate"`): its returns are known.
                    let returns = self.tree.node(id).proven.unwrap_or_default();
                    self.finish(returns, None);
                    return None;
                }
                NodeKind::Expanded | NodeKind::Passed => {
                    let i = self.select(id);
                    let child = self.tree.child(id, i);
                    let before = state.to_move();
                    if let Some(a) = self.tree.node(child).action {
                        state.play(a);
                    }
                    self.path.push(child);
                    if self.config.moves_left.is_on() {
                        self.new_move.push(ends_move(before, &state));
                    }
                    id = child;
                }
                NodeKind::Terminal => {
                    let returns = self.tree.node(id).value;
                    // The end of the game, or a win the win check found one move early.
                    let moves_left = if state.returns().is_some() { 0.0 } else { 1.0 };
                    self.finish(returns, Some(moves_left));
                    return None;
                }
                NodeKind::Unexpanded => {
                    let mut legal = Vec::new();
                    state.legal_actions(&mut legal);
                    if legal.is_empty() {
                        let returns = self
                            .draw_score
                            .rescore(state.returns().unwrap_or_default(), G::NUM_PLAYERS);
                        self.tree.set_terminal(id, returns);
                        self.finish(returns, Some(0.0));
                        return None;
                    }
                    if id != NodeId::ROOT
                        && self.config.win_check == WinCheck::InOne
                        && state.winning_action().is_some()
                    {
                        // The mover wins with its next move: a win, whatever the evaluator
                        // would say, and the move that allowed it is seen to lose.
                        let returns = Outcome::Win(state.to_move()).values(G::NUM_PLAYERS);
                        self.tree.set_terminal(id, returns);
                        self.finish(returns, Some(1.0));
                        return None;
                    }
                    if id != NodeId::ROOT && self.config.forced_legs.passes(&state, &legal) {
                        // A forced leg (a compulsory capture, the only way on), or with
                        // `PassCaptures` any capture: the simulation passes through without
                        // spending an evaluation and the node takes the value found below it
                        // (`finish`). Capture chains are then searched as deep as the budget
                        // reaches, and the network judges positions whose material is settled.
                        self.tree.pass(id, state.to_move(), &legal);
                        self.set_gains(id, &state, &legal);
                        continue;
                    }
                    self.serial += 1;
                    let leaf = Leaf { state, legal, node: id, serial: self.serial };
                    self.pending = Some(leaf.clone());
                    return Some(leaf);
                }
            }
        }
    }

    /// Expands the leaf with its evaluation and backs the values up the path. The policy is
    /// renormalised (a policy of all zeros becomes uniform); at the root, it is filtered first
    /// by the root filter if any ([`Search::set_root_filter`]).
    pub fn apply(&mut self, leaf: Leaf<G>, mut eval: Evaluation) -> Result<(), SearchError> {
        match &self.pending {
            Some(p) if p.serial == leaf.serial && p.node == leaf.node => {}
            _ => return Err(SearchError::StaleLeaf),
        }
        if eval.policy.len() != leaf.legal.len() {
            return Err(SearchError::PolicyLength {
                expected: leaf.legal.len(),
                got: eval.policy.len(),
            });
        }
        let finite = |x: &f32| x.is_finite() && *x >= 0.0;
        if !eval.policy.iter().all(finite)
            || !eval.values.0.iter().all(finite)
            || !eval.moves_left.iter().all(finite)
        {
            return Err(SearchError::BadEvaluation);
        }
        self.pending = None;
        if leaf.is_root()
            && let Some(filter) = self.root_filter.as_mut()
        {
            filter.filter(&leaf.state, &leaf.legal, &mut eval.policy);
        }
        let total: f32 = eval.policy.iter().sum();
        let uniform = 1.0 / leaf.legal.len() as f32;
        let priors = eval.policy.iter().map(|&p| if total > 0.0 { p / total } else { uniform });
        let to_move = leaf.state.to_move();
        self.tree.expand(leaf.node, to_move, eval.values, leaf.legal.iter().copied().zip(priors));
        self.set_gains(leaf.node, &leaf.state, &leaf.legal);
        self.finish(eval.values, eval.moves_left);
        Ok(())
    }

    /// Runs this move's search to the end with `evaluator`, one state per call (tests, arena,
    /// analysis; self-play batches across games with `gather`/`apply` instead).
    pub fn run<E: Evaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        rng: &mut impl Rng,
    ) -> Result<SearchSummary<G::Action>, SearchError> {
        self.run_watched(evaluator, rng, |_| true)
    }

    /// [`Search::run`], calling `go_on` after each evaluated simulation (a reader that shows the
    /// search while it thinks); stops early, with what was found so far, when it returns false.
    pub fn run_watched<E: Evaluator<G> + ?Sized>(
        &mut self,
        evaluator: &mut E,
        rng: &mut impl Rng,
        mut go_on: impl FnMut(&Self) -> bool,
    ) -> Result<SearchSummary<G::Action>, SearchError> {
        if self.root_legal.is_empty() {
            return Err(SearchError::GameOver);
        }
        while !self.is_done() {
            if let Some(leaf) = self.gather(rng) {
                let mut evals = evaluator.evaluate(std::slice::from_ref(&leaf.state));
                let got = evals.len();
                let eval = match evals.pop() {
                    Some(e) if got == 1 => e,
                    _ => return Err(SearchError::EvaluatorCount { expected: 1, got }),
                };
                self.apply(leaf, eval)?;
                if !go_on(self) {
                    break;
                }
            }
        }
        self.summary()
    }

    /// Plays `action` at the root and keeps its subtree as the new tree (tree reuse), its prior
    /// filtered by the root filter if any. Starts a new move: full budget, no pending leaf.
    pub fn advance(&mut self, action: G::Action) -> Result<(), SearchError> {
        if !self.root_legal.contains(&action) {
            return Err(SearchError::IllegalAction(self.root_state.action_to_string(action)));
        }
        self.root_state.play(action);
        self.root_state.legal_actions(&mut self.root_legal);
        let root = NodeId::ROOT;
        let child = self.tree.children(root).find(|&c| self.tree.node(c).action == Some(action));
        // The subtree is kept only under a root the evaluator judged: a passed node's priors
        // are not the evaluator's (with a single action it may stay: the driver plays that
        // without a search), and a node the win check scored was never expanded.
        let judged = |c: NodeId| {
            let node = self.tree.node(c);
            match node.kind {
                NodeKind::Passed => node.num_children() <= 1,
                NodeKind::Terminal => false,
                NodeKind::Expanded | NodeKind::Unexpanded => true,
            }
        };
        self.tree = match child {
            Some(c) if judged(c) => self.tree.subtree(c),
            _ => Tree::new(),
        };
        self.budget = self.config.simulations;
        self.kind = SearchKind::Full;
        self.done = 0;
        self.root_noise_done = false;
        self.gumbel = None;
        self.pending = None;
        if self.root_filter.is_some() && self.forced_action().is_none() {
            self.filter_kept_root();
        }
        Ok(())
    }

    /// The root filter on the prior of the root `advance` kept expanded (its children's
    /// actions and priors); see [`Search::set_root_filter`]. A root not expanded is filtered
    /// when its evaluation is applied.
    fn filter_kept_root(&mut self) {
        let root = NodeId::ROOT;
        let Some(filter) = self.root_filter.as_mut() else { return };
        if self.tree.node(root).kind != NodeKind::Expanded {
            return;
        }
        let children: Vec<NodeId> = self.tree.children(root).collect();
        let actions: Vec<G::Action> =
            children.iter().filter_map(|&c| self.tree.node(c).action).collect();
        debug_assert_eq!(actions.len(), children.len(), "every child has its action");
        let mut priors: Vec<f32> = children.iter().map(|&c| self.tree.node(c).prior).collect();
        if !filter.filter(&self.root_state, &actions, &mut priors) {
            return;
        }
        // Lowered beyond rounding: renormalising the kept priors may move them by an ulp.
        let lowered = |c: NodeId, p: f32| p < self.tree.node(c).prior * (1.0 - 1e-4);
        if children.iter().zip(&priors).any(|(&c, &p)| self.tree.node(c).n > 0 && lowered(c, p)) {
            self.tree = Tree::new();
            return;
        }
        for (c, p) in children.into_iter().zip(priors) {
            self.tree.node_mut(c).prior = p;
        }
    }

    /// What the search found at the root.
    pub fn summary(&self) -> Result<SearchSummary<G::Action>, SearchError> {
        if self.root_legal.is_empty() {
            return Err(SearchError::GameOver);
        }
        let root = self.tree.node(NodeId::ROOT);
        if root.kind != NodeKind::Expanded {
            return Err(SearchError::NotEvaluated);
        }
        let mover = root.to_move;
        let children: Vec<_> =
            self.tree.children(NodeId::ROOT).map(|c| self.tree.node(c)).collect();
        let visits: Vec<u32> = children.iter().map(|c| c.n).collect();
        let priors: Vec<f32> = children.iter().map(|c| c.prior).collect();
        let total: u32 = visits.iter().sum();
        let (improved_policy, selected) = match (self.sigma(), &self.gumbel) {
            (Some(sigma), Some(g)) => (
                sigma.improved_policy(&self.tree, NodeId::ROOT),
                Some(g.selected(&self.tree, &sigma)),
            ),
            (Some(sigma), None) => (sigma.improved_policy(&self.tree, NodeId::ROOT), None),
            _ if total == 0 => (priors.clone(), None),
            _ => (visits.iter().map(|&n| n as f32 / total as f32).collect(), None),
        };
        Ok(SearchSummary {
            actions: self.root_legal.clone(),
            visits,
            priors,
            q: children.iter().map(|c| c.q(mover)).collect(),
            improved_policy,
            mover,
            root_values: root.q_values(),
            net_values: root.value,
            kind: self.kind,
            simulations: self.done,
            selected,
            chosen: chosen_child(&self.tree, self.config.certainty, self.config.move_choice),
        })
    }

    /// Records the capture gains of the children of `id` (`state`'s legal actions `legal`) when
    /// captures are tried first.
    fn set_gains(&mut self, id: NodeId, state: &G, legal: &[G::Action]) {
        if self.config.captures == Captures::First {
            state.capture_gains(legal, &mut self.gains);
            self.tree.set_gains(id, &self.gains);
        }
    }

    /// The unvisited capture with the largest gain among the children of `id` (not a proven
    /// loss for its mover), when captures are tried first.
    fn capture_first(&self, id: NodeId) -> Option<usize> {
        if self.config.captures != Captures::First {
            return None;
        }
        let mover = self.tree.node(id).to_move;
        let children = self.tree.children(id).map(|c| self.tree.node(c));
        let unvisited = children
            .enumerate()
            .filter(|(_, c)| c.n == 0 && c.gain > 0.0 && !c.proven_loss_for(mover));
        unvisited
            .fold(None, |best: Option<(usize, f32)>, (i, c)| match best {
                Some((_, g)) if g >= c.gain => best,
                _ => Some((i, c.gain)),
            })
            .map(|(i, _)| i)
    }

    /// Root noise (full PUCT searches, once per move) and Gumbel sampling (when unset).
    fn prepare_root(&mut self, rng: &mut impl Rng) {
        match self.config.selection {
            Selection::Puct => {
                if self.root_noise_done {
                    return;
                }
                self.root_noise_done = true;
                if self.kind == SearchKind::Full && self.config.root_noise != RootNoise::None {
                    let children: Vec<NodeId> = self.tree.children(NodeId::ROOT).collect();
                    let mut priors: Vec<f32> =
                        children.iter().map(|&c| self.tree.node(c).prior).collect();
                    add_root_noise(&mut priors, self.config.root_noise, rng);
                    for (c, p) in children.into_iter().zip(priors) {
                        self.tree.node_mut(c).prior = p;
                    }
                }
            }
            Selection::Gumbel { considered_actions, .. } => {
                if self.gumbel.is_some() {
                    return;
                }
                self.gumbel = Some(GumbelRoot::new(
                    &self.tree,
                    considered_actions as usize,
                    self.budget as usize,
                    rng,
                ));
            }
        }
    }

    fn sigma(&self) -> Option<Sigma> {
        match self.config.selection {
            Selection::Puct => None,
            Selection::Gumbel { c_visit, c_scale, q_transform, .. } => Some(Sigma {
                c_visit,
                c_scale,
                q_transform,
                moves_left: self.config.moves_left,
                players: G::NUM_PLAYERS,
            }),
        }
    }

    /// The child (index in child order) a simulation takes at expanded node `id`.
    fn select(&self, id: NodeId) -> usize {
        let gumbel_root = id == NodeId::ROOT && self.gumbel.is_some();
        if !gumbel_root && let Some(i) = self.capture_first(id) {
            return i;
        }
        match (self.sigma(), &self.gumbel) {
            (Some(sigma), Some(g)) if id == NodeId::ROOT => {
                g.select_root(&self.tree, &sigma, self.done)
            }
            (Some(sigma), _) => sigma.select_interior(&self.tree, id),
            (None, _) => Puct {
                c_puct_init: self.config.c_puct_init,
                c_puct_base: self.config.c_puct_base,
                fpu: self.config.fpu,
                moves_left: self.config.moves_left,
                players: G::NUM_PLAYERS,
                certainty: self.config.certainty,
            }
            .select(&self.tree, id),
        }
    }

    /// Gives the nodes this simulation passed through for the first time (passed, never
    /// visited: they sit just above the leaf) `values`, the values of the position below them,
    /// as their own evaluator values.
    fn value_passed_nodes(&mut self, values: Values) {
        for &id in self.path.iter().rev().skip(1) {
            let node = self.tree.node_mut(id);
            if node.n > 0 || node.kind != NodeKind::Passed {
                break;
            }
            node.value = values;
        }
    }

    /// Backs `values` (and, when the moves-left utility is on, the leaf's `moves_left`) up the
    /// current path and counts the simulation (unless it only evaluated the root).
    fn finish(&mut self, values: Values, moves_left: Option<f32>) {
        if self.config.forced_legs != ForcedLegs::Evaluate {
            self.value_passed_nodes(values);
        }
        self.tree.backup(&self.path, values);
        if self.config.certainty == Certainty::Propagate {
            // Only the nodes on this path can have changed: prove upwards while they prove.
            for &id in self.path.iter().rev() {
                if !self.tree.prove(id) {
                    break;
                }
            }
        }
        if let (true, Some(m)) = (self.config.moves_left.is_on(), moves_left) {
            along_path(m, &self.new_move, &mut self.moves_left);
            self.tree.backup_moves_left(&self.path, &self.moves_left);
        }
        if self.path.len() > 1 {
            self.done += 1;
        }
    }
}
