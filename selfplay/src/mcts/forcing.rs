//! [`ForcingMoves`]: a share of the prior for the moves that leave the next player a compulsory
//! capture.
//!
//! In Camelot a capture must be made, so a move that offers one (a sacrifice, an exchange) forces
//! the reply, and the combinations a shallow alpha-beta search wins with start that way: a Man
//! offered, the compulsory capture pulling a piece where a chain takes several. A network's prior
//! that does not point at the offer leaves a search of a few dozen simulations blind to it, at
//! the opponent's nodes and at its own. Which moves force is a fact of the rules, found by
//! playing each action: no evaluation is involved.

use games::Game;
use serde::{Deserialize, Serialize};

/// How a search weighs the moves that leave the next player a compulsory capture, at every node
/// it expands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForcingMoves {
    /// The evaluator's prior as it is.
    #[default]
    Prior,
    /// `prior = (1 - share) * prior + share / k` for each of the `k` forcing actions (an
    /// action that completes the mover's move and leaves the next mover only capturing moves,
    /// [`Game::must_capture`]); `(1 - share) * prior` for the others. Nothing changes at a node
    /// where no action forces, or every one does. `share` is in `(0, 1]`.
    Share(f32),
}

impl ForcingMoves {
    /// Whether `share` is out of range; the message for `mcts.forcing_moves`.
    pub(crate) fn problem(self) -> Option<f32> {
        match self {
            ForcingMoves::Prior => None,
            ForcingMoves::Share(s) => (!(s.is_finite() && s > 0.0 && s <= 1.0)).then_some(s),
        }
    }

    /// Rewrites `prior` (over `state`'s legal actions `legal`, in order, summing to 1) in place.
    pub fn apply<G: Game>(self, state: &G, legal: &[G::Action], prior: &mut [f32]) {
        let ForcingMoves::Share(share) = self else { return };
        debug_assert_eq!(legal.len(), prior.len());
        let mover = state.to_move();
        let forcing: Vec<bool> = legal
            .iter()
            .map(|&a| {
                let mut next = state.clone();
                next.play(a);
                next.to_move() != mover && next.must_capture()
            })
            .collect();
        let k = forcing.iter().filter(|&&f| f).count();
        if k == 0 || k == legal.len() {
            return;
        }
        let each = share / k as f32;
        for (p, &f) in prior.iter_mut().zip(&forcing) {
            *p = (1.0 - share) * *p + if f { each } else { 0.0 };
        }
    }
}

#[cfg(test)]
mod tests {
    use games::{Camelot, Game, RuleOptions, State};

    use super::*;

    fn state(s: &str) -> Camelot {
        State::parse_with(s, RuleOptions::default()).unwrap()
    }

    /// White's Man on E8 offers Black's Man on E10 a capture by stepping to D9, E9 or F9 (the
    /// squares beyond, C8, E8 and G8, are then empty); its other steps and the Man on L4's do not.
    #[test]
    fn forcing_actions_take_the_share_and_the_rest_keep_theirs() {
        let s = state("camelot W W:ME8,ML4 B:ME10,ML13 cm=0,0");
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        let forcing: Vec<bool> = legal
            .iter()
            .map(|&a| {
                let mut n = s.clone();
                n.play(a);
                n.to_move() != s.to_move() && n.must_capture()
            })
            .collect();
        let offered: Vec<String> = legal
            .iter()
            .zip(&forcing)
            .filter(|&(_, &f)| f)
            .map(|(&a, _)| s.action_to_string(a))
            .collect();
        assert_eq!(offered, ["E8>E9", "E8>F9", "E8>D9"], "of {} actions", legal.len());
        let k = offered.len();
        let uniform = 1.0 / legal.len() as f32;
        let mut prior = vec![uniform; legal.len()];
        ForcingMoves::Share(0.5).apply(&s, &legal, &mut prior);
        for (p, f) in prior.iter().zip(&forcing) {
            let want = 0.5 * uniform + if *f { 0.5 / k as f32 } else { 0.0 };
            assert!((p - want).abs() < 1e-6, "{p} against {want}");
        }
        assert!((prior.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        let mut same = vec![uniform; legal.len()];
        ForcingMoves::Prior.apply(&s, &legal, &mut same);
        assert_eq!(same, vec![uniform; legal.len()]);
    }

    #[test]
    fn shares_out_of_range_are_problems() {
        assert_eq!(ForcingMoves::Prior.problem(), None);
        assert_eq!(ForcingMoves::Share(1.0).problem(), None);
        for bad in [0.0, -0.1, 1.5, f32::NAN] {
            assert!(ForcingMoves::Share(bad).problem().is_some(), "{bad}");
        }
    }
}
