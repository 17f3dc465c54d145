//! [`SearchError`]: what a search refuses, from its config to the evaluations it is handed.

use thiserror::Error;

use super::config::ConfigError;

/// Misuse of a search, or an evaluation that does not fit its leaf.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SearchError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The leaf is not the one this search is waiting for (already applied, or the search
    /// advanced since it was gathered).
    #[error("stale leaf: this search is not waiting for it")]
    StaleLeaf,
    /// The policy does not have one entry per legal action of the leaf.
    #[error("evaluation policy has {got} entries but the leaf has {expected} legal actions")]
    PolicyLength { expected: usize, got: usize },
    /// A policy entry or value was NaN, infinite or negative.
    #[error("evaluation contains a negative or non-finite number")]
    BadEvaluation,
    /// The evaluator returned a different number of evaluations than states.
    #[error("evaluator returned {got} evaluations for {expected} states")]
    EvaluatorCount { expected: usize, got: usize },
    /// `advance` was given an action that is not legal at the root.
    #[error("action {0} is not legal at the root")]
    IllegalAction(String),
    /// The root position is finished: there is nothing to search.
    #[error("the game is over at the root")]
    GameOver,
    /// `summary` was called before the root was evaluated.
    #[error("the root has not been evaluated yet")]
    NotEvaluated,
    /// A player outside the search (an external engine in the arena) failed or broke the
    /// rules; the message says which and how.
    #[error("{0}")]
    Player(String),
}
