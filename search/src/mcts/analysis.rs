//! What a finished search says about its root, for a reader rather than for training: each
//! action with its visits, prior and per-seat values, and the principal variation. Used by the
//! `analyze` command and by anything else that shows or answers an analysis; and the complete
//! move an engine plays ([`complete_move`]).

use games::{Game, Player, Values};
use rand::Rng;

use super::error::SearchError;
use super::policy::choose_action;
use super::search::Search;
use super::summary::SearchSummary;
use super::tree::{NodeId, Tree};
use crate::evaluator::Evaluator;

/// One root action of an [`Analysis`].
#[derive(Clone, Debug, PartialEq)]
pub struct ActionLine<A> {
    pub action: A,
    pub visits: u32,
    /// The prior as the search used it.
    pub prior: f32,
    /// The child's mean backed-up values per seat; `None` if it was never visited.
    pub values: Option<Values>,
}

/// A search's root: its actions, most visited first (ties in `legal_actions` order), and the
/// most visited line (ties to the first, as the move played).
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<A> {
    pub actions: Vec<ActionLine<A>>,
    /// The most visited line as complete moves in official notation; a move still in progress
    /// at the end is shown by its legs in parentheses. It ends at the first move that brings
    /// back a position of the line (see [`principal_line`]).
    pub principal_variation: Vec<String>,
}

impl<A: Copy> Analysis<A> {
    /// The analysis of `search`'s root after the search that returned `summary`.
    pub fn new<G: Game<Action = A>>(search: &Search<G>, summary: &SearchSummary<A>) -> Self {
        let tree = search.tree();
        let mut order: Vec<usize> = (0..summary.actions.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(summary.visits[i]));
        let actions = order
            .into_iter()
            .map(|i| {
                let child = tree.node(tree.child(NodeId(0), i));
                ActionLine {
                    action: summary.actions[i],
                    visits: summary.visits[i],
                    prior: summary.priors[i],
                    values: (child.n > 0).then(|| child.q_values()),
                }
            })
            .collect();
        Analysis { actions, principal_variation: principal_variation(search.root_state(), tree) }
    }
}

/// The most visited line of `tree` from `root` (see [`Analysis::principal_variation`]).
pub fn principal_variation<G: Game>(root: &G, tree: &Tree<G::Action>) -> Vec<String> {
    principal_line(root, tree, None).into_iter().map(|(_, m)| m).collect()
}

/// The most visited line of `tree` from `root`, each complete move with the seat that plays
/// it; with `first`, the line through that child of the root. A move still in progress at the
/// end is shown by its legs in parentheses.
///
/// The line ends with the first complete move that brings back a position already in it (the
/// same [`Game::hash`]: pieces, mover, move in progress): the search tree has no
/// transpositions, so past a repetition its most visited moves only go round the same cycle
/// (a Tri-Camelot line once ran 48 moves that way).
pub fn principal_line<G: Game>(
    root: &G,
    tree: &Tree<G::Action>,
    first: Option<NodeId>,
) -> Vec<(Player, String)> {
    let mut state = root.clone();
    let mut id = NodeId(0);
    let mut line = Vec::new();
    let mut legs = Vec::new();
    let mut mover = state.to_move();
    let mut next = first;
    let mut seen = std::collections::HashSet::from([state.hash()]);
    loop {
        // The child asked for is followed even unvisited (to name its leg); below it, and
        // without one, the most visited child while it has visits.
        let (best, forced) = match next.take() {
            Some(child) => (child, true),
            // The first of the most visited, as `choose_by_visits` plays it.
            None => match tree.children(id).min_by_key(|&c| std::cmp::Reverse(tree.node(c).n)) {
                Some(child) => (child, false),
                None => break,
            },
        };
        let node = tree.node(best);
        let Some(action) = node.action else { break };
        if node.n == 0 && !forced {
            break;
        }
        if legs.is_empty() {
            mover = state.to_move();
        }
        legs.push(state.action_to_string(action));
        state.play(action);
        if let Some(m) = state.last_move() {
            line.push((mover, m));
            legs.clear();
            if !seen.insert(state.hash()) {
                break;
            }
        }
        id = best;
    }
    if !legs.is_empty() {
        line.push((mover, format!("({})", legs.join(" "))));
    }
    line
}

/// The searching player's complete move from `search`'s root: one search per leg (a forced
/// leg is played without one; the tree kept from leg to leg), each time the most visited
/// action, until a complete move is made; returned in official notation.
pub fn complete_move<G: Game, E: Evaluator<G> + ?Sized>(
    search: Search<G>,
    evaluator: &mut E,
    rng: &mut impl Rng,
) -> Result<String, SearchError> {
    complete_move_analysed(search, evaluator, rng).map(|(m, _)| m)
}

/// The first leg's search of a [`complete_move_analysed`]: the state it searched and what it
/// found there.
#[derive(Clone, Debug)]
pub struct FirstSearch<G: Game> {
    pub root: G,
    pub summary: SearchSummary<G::Action>,
    pub analysis: Analysis<G::Action>,
}

/// [`complete_move`], with what the first searched leg found (`None` when every leg of the
/// move was forced), for a player that shows why it moved.
pub fn complete_move_analysed<G: Game, E: Evaluator<G> + ?Sized>(
    mut search: Search<G>,
    evaluator: &mut E,
    rng: &mut impl Rng,
) -> Result<(String, Option<FirstSearch<G>>), SearchError> {
    let mut state = search.root_state().clone();
    let mut first = None;
    loop {
        let action = match search.forced_action() {
            Some(a) => a,
            None => {
                let summary = search.run(evaluator, rng)?;
                let action = choose_action(&summary, 0.0, rng).ok_or(SearchError::GameOver)?;
                if first.is_none() {
                    let analysis = Analysis::new(&search, &summary);
                    first = Some(FirstSearch { root: state.clone(), summary, analysis });
                }
                action
            }
        };
        state.play(action);
        search.advance(action)?;
        if let Some(m) = state.last_move() {
            return Ok((m, first));
        }
    }
}

#[cfg(test)]
mod tests {
    use games::{CamelotRules, State, Variant};

    use super::*;

    /// Extends `path` (root first) by the child of its last node whose action completes
    /// `notation` in `state`, expanding that node with every legal action; plays it on `state`.
    fn follow(
        tree: &mut Tree<<State<CamelotRules> as Game>::Action>,
        path: &mut Vec<NodeId>,
        state: &mut State<CamelotRules>,
        notation: &str,
    ) {
        let id = *path.last().unwrap();
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let prior = 1.0 / actions.len() as f32;
        tree.expand(id, state.to_move(), Values::default(), actions.iter().map(|&a| (a, prior)));
        let i = actions
            .iter()
            .position(|&a| {
                let mut after = state.clone();
                after.play(a);
                after.last_move().as_deref() == Some(notation)
            })
            .unwrap_or_else(|| panic!("{notation} is not one action here"));
        state.play(actions[i]);
        path.push(tree.child(id, i));
    }

    /// Knights stepping out and back: the fifth move would play the cycle again, so the line
    /// stops at the fourth, which brings back the start.
    #[test]
    fn the_line_stops_where_its_position_repeats() {
        let root: State<CamelotRules> = CamelotRules::START.parse().unwrap();
        let mut tree = Tree::new();
        let mut path = vec![NodeId(0)];
        let mut state = root.clone();
        let cycle = ["C6-C7", "C11-C10", "C7-C6", "C10-C11"];
        for notation in cycle.iter().chain(&cycle[..2]) {
            follow(&mut tree, &mut path, &mut state, notation);
        }
        tree.backup(&path, Values::default());
        assert_eq!(principal_variation(&root, &tree), cycle);
        // The line through the root's first move (as the engine asks for its ponder move) too.
        let line = principal_line(&root, &tree, Some(path[1]));
        assert_eq!(line.iter().map(|(_, m)| m.as_str()).collect::<Vec<_>>(), cycle);
    }
}
