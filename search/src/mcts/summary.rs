//! The result of one search, as the driver records it and plays from it.

use games::{Player, Values};
use serde::{Deserialize, Serialize};

/// Whether a move got the full search or a cheap one (playout cap randomization, Wu 2019:
/// only full searches become policy targets; cheap ones get no root noise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchKind {
    /// The configured number of simulations, with root noise: a policy target.
    Full,
    /// Fewer simulations, no root noise: only to choose the move.
    Fast,
}

/// What a search found at its root. Vectors are parallel to `actions` (the root's legal
/// actions in `legal_actions` order). **Values are per seat, absolute** (index = seat).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSummary<A> {
    /// The legal actions at the root.
    pub actions: Vec<A>,
    /// Visits of each action (including visits kept from the previous move's tree).
    pub visits: Vec<u32>,
    /// Priors as the search used them (after root noise).
    pub priors: Vec<f32>,
    /// Each action's mean value for the root's mover, `None` if never visited.
    pub q: Vec<Option<f32>>,
    /// The training target: visit fractions under PUCT; under Gumbel the completed-Q improved
    /// policy `softmax(logits + sigma(completed q))`. Sums to 1.
    pub improved_policy: Vec<f32>,
    /// The player to move at the root.
    pub mover: Player,
    /// Mean backed-up values of the root, per seat.
    pub root_values: Values,
    /// The evaluator's values of the root position, per seat.
    pub net_values: Values,
    /// Full or cheap search.
    pub kind: SearchKind,
    /// Simulations run for this move (not counting visits reused from earlier moves).
    pub simulations: u32,
    /// Gumbel's chosen action (index into `actions`); `None` under PUCT.
    pub selected: Option<usize>,
    /// The action (index into `actions`) to play at temperature 0 when the search's move rules
    /// override the most visited (`mcts.certainty`, `mcts.move_choice`); `None` otherwise.
    pub chosen: Option<usize>,
}

impl<A> SearchSummary<A> {
    /// The most visited action's index (ties to the lowest index).
    pub fn most_visited(&self) -> Option<usize> {
        let max = self.visits.iter().max()?;
        self.visits.iter().position(|n| n == max)
    }
}
