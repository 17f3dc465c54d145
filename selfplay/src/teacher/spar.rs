//! The teacher as a sparring partner (`teacher.alpha_beta.spar`): in a share of the searches'
//! own games it plays one seat, so that the network's play meets the tactics it loses to.
//!
//! In self-play the network's blunders are answered by the network, which misses the same
//! combinations (a Man offered so that the forced capture opens a jump chain); its value targets
//! then call positions that `alphabeta:depth=2` wins from level, and its searches keep walking
//! into them. With the teacher at one seat those positions are punished and played out, and the
//! teacher's own rows (its move one-hot, as in its games) are its answers in positions the
//! network's play reaches. The other seats' rows are the searches' as ever. The game's record
//! names both players in seat order (`gen-0012 vs alphabeta:depth=2`); its rows at the
//! teacher's seat are full-search rows with the teacher's targets, and their `root_values` the
//! teacher's score.

use games::{Game, Player, State, Variant};

use super::{Teacher, TeacherTargets, move_legs};
use crate::driver::{BoxedSparrer, SparMove, Sparrer};
use classical::alphabeta::{AlphaBeta, AlphaBetaLimits};
use classical::heuristic::Heuristic;

/// Salt of the draw that gives a game a sparring partner, and of the one that seats it.
const SPAR_SALT: u64 = 0x5BA2_2E11;

impl Teacher {
    /// The seat the teacher takes in the searches' game `id` of the session seeded `seed`, or
    /// None for a game without it: a share `spar` of the games (a draw of its own per game, so
    /// a resumed session spars in the same games), every seat equally often.
    pub fn spar_seat(self, seed: u64, id: u64, seats: usize) -> Option<Player> {
        let Teacher::AlphaBeta { spar, .. } = self else { return None };
        let draw = games::seed::mix(seed ^ SPAR_SALT, id);
        let share = (draw >> 11) as f64 / (1u64 << 53) as f64;
        (share < f64::from(spar)).then(|| Player((draw % seats as u64) as u8))
    }

    /// The teacher's sparring partner for variant `V` in the searches' games of the session
    /// seeded `seed` (see [`Teacher::spar_seat`]); None when the teacher is off or its `spar`
    /// share is 0.
    pub fn sparrers<V: Variant>(
        self,
        seed: u64,
    ) -> Option<impl Fn(u64) -> Option<BoxedSparrer<State<V>>> + Sync> {
        let Teacher::AlphaBeta { depth, targets, spar, .. } = self else { return None };
        (spar > 0.0).then_some(move |id: u64| -> Option<BoxedSparrer<State<V>>> {
            let seat = self.spar_seat(seed, id, V::NUM_PLAYERS)?;
            Some(Box::new(TeacherSparrer::<V>::new(seat, depth, targets)))
        })
    }
}

/// `alphabeta:depth=N` at one seat of a self-play game: its best move (no exploration), its
/// rows those of the teacher's own games (its targets, its score as the values).
pub struct TeacherSparrer<V: Variant> {
    seat: Player,
    /// `alphabeta:depth=N`, as its own games are recorded.
    name: String,
    searcher: AlphaBeta<V>,
    targets: TeacherTargets,
    heuristic: Heuristic,
}

impl<V: Variant> TeacherSparrer<V> {
    /// At `seat`, searching to `depth` plies, its rows' targets `targets`.
    pub fn new(seat: Player, depth: u32, targets: TeacherTargets) -> Self {
        let searcher = AlphaBeta::new(AlphaBetaLimits { depth, time: None });
        let name = super::alpha_beta(depth).to_string();
        TeacherSparrer { seat, name, searcher, targets, heuristic: Heuristic::new::<V>() }
    }
}

impl<V: Variant> Sparrer<State<V>> for TeacherSparrer<V> {
    fn seat(&self) -> Player {
        self.seat
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State<V>) -> SparMove<games::Action> {
        let Some((found, weights)) = self.targets.weigh(&mut self.searcher, state) else {
            return SparMove { legs: Vec::new(), values: Vec::new() };
        };
        let values = self
            .heuristic
            .searched_values::<V>(state.position().board(), state.to_move(), found.score)
            .0[..V::NUM_PLAYERS]
            .to_vec();
        let legs = move_legs(state, &found.best, &weights, true);
        SparMove { legs, values }
    }
}
