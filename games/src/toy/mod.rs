//! Tiny games for testing search: small enough that the right move is known by hand.
//!
//! - [`TicTacToe`]: 2 players, one action per turn.
//! - [`Race3`]: 3 players, and a turn may take **several actions by the same player** (like the
//!   legs of a Camelot move), so a search that flips values between plies, or assumes two
//!   players, plays it wrongly.
//!
//! Both games report a reached goal (a completed line, a token home) as
//! [`Termination::Castle`](crate::Termination::Castle), the rules engine's "goal reached".

mod race3;
mod tictactoe;

pub use race3::{GOAL, MAX_TURNS, Race3, RaceAction};
pub use tictactoe::TicTacToe;

use thiserror::Error;

/// Why a toy position could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ToyError {
    /// A tic-tac-toe board string was not 9 cells of `X`, `O` or `.` (slashes between rows allowed).
    #[error("bad tic-tac-toe board {0:?}: expected 9 cells of X, O or '.'")]
    BadBoard(String),
    /// The counts of X and O cannot arise in play (X moves first).
    #[error("impossible tic-tac-toe counts: {x} X and {o} O")]
    BadCounts { x: usize, o: usize },
    /// A race position was out of range.
    #[error("bad race position: {0}")]
    BadRace(String),
}

#[cfg(test)]
pub(crate) mod check {
    //! A generic rules check for the toy games, in the spirit of OpenSpiel's `RandomSimTest`.

    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use rand::seq::IndexedRandom;

    use crate::game::Game;

    /// Plays `games` random games and checks the `Game` contract at every state.
    pub fn random_games<G: Game>(games: usize, max_actions: usize) {
        let mut rng = StdRng::seed_from_u64(7);
        let mut legal = Vec::new();
        for _ in 0..games {
            let mut g = G::initial();
            for _ in 0..max_actions {
                g.legal_actions(&mut legal);
                assert_eq!(legal.is_empty(), g.outcome().is_some(), "{g}");
                let idx: Vec<usize> = legal.iter().map(|&a| g.action_index(a)).collect();
                assert!(idx.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates: {g}");
                for (&a, &i) in legal.iter().zip(&idx) {
                    assert!(i < G::NUM_ACTIONS);
                    assert_eq!(g.action_from_index(i), Some(a));
                }
                let Some(&a) = legal.choose(&mut rng) else {
                    let r = g.returns().expect("finished game has returns");
                    let total: f32 = r.0.iter().sum();
                    assert!((total - 1.0).abs() < 1e-6, "returns sum to 1: {r:?}");
                    break;
                };
                let before = g.hash();
                g.play(a);
                assert_ne!(before, g.hash(), "every action changes the hash");
            }
            assert!(g.outcome().is_some(), "game ends within {max_actions} actions");
        }
    }
}
