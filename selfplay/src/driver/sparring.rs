//! A classical player at one seat of a self-play game (`selfplay.teacher.alpha_beta.spar`): the
//! searches play the other seats, so their blunders meet a player that punishes them.

use games::{Game, Player};

/// A player that takes one seat of a self-play game instead of the search. It plays whole
/// moves: the driver asks it for one whenever its seat is to move.
pub trait Sparrer<G: Game>: Send {
    /// The seat it plays.
    fn seat(&self) -> Player;

    /// Its name as an arena player (e.g. `alphabeta:depth=2`): the game's record names it at
    /// its seat ([`crate::seated_players`]).
    fn name(&self) -> String;

    /// Its move from `state` (its seat to move, the game not over): the legs in order, each
    /// with the record row's policy (action indices in the mover's frame and their targets,
    /// summing to 1) where that leg is recorded, and the values per seat that its rows hold
    /// as root and network values. Never empty.
    fn choose(&mut self, state: &G) -> SparMove<G::Action>;
}

/// A recorded leg's policy: action indices in the mover's frame and their targets.
pub type LegPolicy = (Vec<u16>, Vec<f32>);

/// A [`Sparrer`] of game `G`, boxed.
pub type BoxedSparrer<G> = Box<dyn Sparrer<G>>;

/// A [`Sparrer`]'s move: its legs and their rows' policies, and its rows' values.
#[derive(Clone, Debug, PartialEq)]
pub struct SparMove<A> {
    pub legs: Vec<(A, Option<LegPolicy>)>,
    pub values: Vec<f32>,
}

/// Makes game `id`'s sparring partner, or None for a game the searches play alone (the caller
/// decides which games spar and at which seat, from the session's seed and the id, so that a
/// resumed session plays the same games).
pub type SparringFactory<G> = dyn Fn(u64) -> Option<BoxedSparrer<G>> + Sync;
