//! The three options that keep a search from missing what the rules can tell it:
//!
//! ```toml
//! captures = "first"                                   # or "prior"
//! certainty = "propagate"                              # or "off"
//! move_choice = { lcb = { z = 1.96, min_share = 0.1 } }  # or "visits"
//! ```
//!
//! - [`Captures::First`]: at every node below a Gumbel root, each action that begins a capture
//!   ([`games::Game::capture_gains`]: a jump chain or a Knight's Charge, compulsory or not) gets
//!   its first visit before any other unvisited action, the largest capture first. An optional
//!   Charge the opponent's prior ignores is then still looked at, at the cost of one simulation.
//! - [`Certainty::Propagate`]: MCTS-solver (Winands et al. 2008; Lc0's certainty propagation).
//!   Terminal nodes are proven; a node whose mover has a proven win below it, or all of whose
//!   children are proven, is proven too (`Tree::prove`). A simulation stops at a proven
//!   node and backs up its proven returns; PUCT scores a proven child by those returns, never
//!   selects a proven loss while another child is not one, and never lets first-play urgency
//!   fall below a loss (0); the move played is a proven win if there is one, and never a
//!   proven loss while another move is not.
//! - [`MoveChoice::Lcb`]: at temperature 0 the move played is the one whose value has the
//!   largest lower confidence bound ([`super::Node::lcb`]) among those visited at least
//!   `min_share` times as often as the most visited (Leela Zero), not the most visited alone, so
//!   that a clearly better value found late is not overruled by the prior's early visits.

use serde::{Deserialize, Serialize};

use super::tree::{NodeId, Tree};

/// Whether captures get their first visits before quiet actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Captures {
    /// Unvisited actions are tried in the order PUCT (or Gumbel) scores them.
    #[default]
    Prior,
    /// Unvisited capturing actions first, the largest capture first (see the module docs).
    First,
}

/// Whether proven wins and losses are propagated up the tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Certainty {
    /// Terminal nodes are scored when reached; nothing is proven above them.
    #[default]
    Off,
    /// MCTS-solver (see the module docs).
    Propagate,
}

/// How a search at temperature 0 picks the move to play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveChoice {
    /// The most visited action (AlphaZero).
    #[default]
    Visits,
    /// The largest lower confidence bound `q - z * stderr` among the actions with at least
    /// `min_share` of the most visited action's visits (Leela Zero's LCB).
    Lcb { z: f32, min_share: f32 },
}

impl MoveChoice {
    /// What is wrong with the values, if anything.
    pub fn problem(&self) -> Option<&'static str> {
        match *self {
            MoveChoice::Visits => None,
            MoveChoice::Lcb { z, min_share } => {
                (!((0.0..=10.0).contains(&z) && min_share > 0.0 && min_share <= 1.0))
                    .then_some("needs z from 0 to 10 and min_share above 0 and at most 1")
            }
        }
    }
}

/// The root child of `tree` to play at temperature 0 when these rules override the most
/// visited one ([`super::SearchSummary::chosen`]): with `Certainty::Propagate` a proven win, or
/// the most visited child that is not a proven loss; with `MoveChoice::Lcb` the largest lower
/// confidence bound (a proven child's proven share) among the children, not proven losses,
/// visited at least `min_share` times as often as the most visited of them (and at least once).
/// `None` when neither rule changes the most visited child (ties to the first).
pub(crate) fn chosen_child<A: Copy>(
    tree: &Tree<A>,
    certainty: Certainty,
    move_choice: MoveChoice,
) -> Option<usize> {
    let solving = certainty == Certainty::Propagate;
    if !solving && move_choice == MoveChoice::Visits {
        return None;
    }
    let mover = tree.node(NodeId::ROOT).to_move;
    let children: Vec<_> = tree.children(NodeId::ROOT).map(|c| tree.node(c)).collect();
    if solving && let Some(i) = children.iter().position(|c| c.proven_win_for(mover)) {
        return Some(i);
    }
    let allowed = |i: &usize| !(solving && children[*i].proven_loss_for(mover));
    let by_visits = |i: &usize| (children[*i].n, usize::MAX - i);
    let most = (0..children.len()).filter(allowed).max_by_key(by_visits)?;
    match move_choice {
        MoveChoice::Visits => {
            let overall = (0..children.len()).max_by_key(by_visits);
            (overall != Some(most)).then_some(most)
        }
        MoveChoice::Lcb { z, min_share } => {
            let floor = (min_share * children[most].n as f32).max(1.0);
            let bound = |i: usize| match children[i].proven {
                Some(v) if solving => v.0[mover.index()],
                _ => children[i].lcb(mover, z).unwrap_or(f32::NEG_INFINITY),
            };
            let candidates =
                (0..children.len()).filter(allowed).filter(|&i| children[i].n as f32 >= floor);
            candidates.fold(None, |best: Option<usize>, i| match best {
                Some(b) if bound(b) >= bound(i) => Some(b),
                _ => Some(i),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use games::{Player, Values};

    use super::*;

    /// A root for seat 0: child 0 visited 10 times at 0.3, child 1 six times at 0.8, child 2 never.
    fn root() -> Tree<u8> {
        let mut t = Tree::new();
        t.expand(NodeId::ROOT, Player(0), Values([0.5, 0.5, 0.0]), (0..3u8).zip([0.6, 0.3, 0.1]));
        let (c0, c1) = (t.child(NodeId::ROOT, 0), t.child(NodeId::ROOT, 1));
        for _ in 0..10 {
            t.backup(&[NodeId::ROOT, c0], Values([0.3, 0.7, 0.0]));
        }
        for _ in 0..6 {
            t.backup(&[NodeId::ROOT, c1], Values([0.8, 0.2, 0.0]));
        }
        t
    }

    #[test]
    fn the_lower_confidence_bound_overrules_visits_for_a_clearly_better_value() {
        let t = root();
        let lcb = MoveChoice::Lcb { z: 1.96, min_share: 0.1 };
        assert_eq!(chosen_child(&t, Certainty::Off, MoveChoice::Visits), None);
        assert_eq!(chosen_child(&t, Certainty::Off, lcb), Some(1));
        // Too few visits to be a candidate: the most visited stays.
        let strict = MoveChoice::Lcb { z: 1.96, min_share: 0.7 };
        assert_eq!(chosen_child(&t, Certainty::Off, strict), Some(0));
    }

    #[test]
    fn proven_results_decide_first() {
        let mut t = root();
        let (c0, c2) = (t.child(NodeId::ROOT, 0), t.child(NodeId::ROOT, 2));
        t.node_mut(c0).proven = Some(Values([0.0, 1.0, 0.0]));
        assert_eq!(chosen_child(&t, Certainty::Off, MoveChoice::Visits), None);
        assert_eq!(chosen_child(&t, Certainty::Propagate, MoveChoice::Visits), Some(1));
        t.node_mut(c2).proven = Some(Values([1.0, 0.0, 0.0]));
        assert_eq!(chosen_child(&t, Certainty::Propagate, MoveChoice::Visits), Some(2));
    }

    #[derive(Deserialize)]
    struct Options {
        captures: Captures,
        certainty: Certainty,
        move_choice: MoveChoice,
    }

    #[test]
    fn the_options_read_as_the_docs_write_them() {
        let o: Options = toml::from_str(
            "captures = \"first\"\ncertainty = \"propagate\"\n\
             move_choice = { lcb = { z = 1.96, min_share = 0.1 } }",
        )
        .unwrap();
        assert_eq!(o.captures, Captures::First);
        assert_eq!(o.certainty, Certainty::Propagate);
        assert_eq!(o.move_choice, MoveChoice::Lcb { z: 1.96, min_share: 0.1 });
        assert_eq!(o.move_choice.problem(), None);
        assert!(MoveChoice::Lcb { z: 2.0, min_share: 0.0 }.problem().is_some());
        assert!(MoveChoice::Lcb { z: f32::NAN, min_share: 0.5 }.problem().is_some());
        assert!(toml::from_str::<Options>("captures = \"all\"").is_err());
    }
}
