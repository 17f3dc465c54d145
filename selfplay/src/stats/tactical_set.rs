//! The tactical positions of recorded games: the states before a move where some legal actions
//! lose material, by a shallow alpha-beta search and its quiescence, and some do not. Every
//! model measured on one set is judged on the same positions ([`super::blunders`], why the
//! losing actions lose: [`super::refutation`]).

use classical::Guards;
use games::{Game, State, Variant};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;

use super::replay::{bad_game, replayed_move, start_position, under_either_rule};
use records::collection::{SourcedGame, StatsError};
use search::TacticsFilter;

/// Candidates judged per parallel round while looking for tactical positions: enough for both
/// cores, few enough that little is judged past the limit.
const JUDGED_PER_ROUND: usize = 64;

/// A position where some legal actions lose material and some do not.
#[derive(Clone, Debug)]
pub struct TacticalPosition<V: Variant> {
    pub state: State<V>,
    /// `state`'s legal actions, in `legal_actions` order (an evaluation's policy order).
    pub legal: Vec<games::Action>,
    /// Whether each of `legal` loses (the guard's verdict); some do and some do not.
    pub losing: Vec<bool>,
}

impl<V: Variant> TacticalPosition<V> {
    /// The share of the legal actions that lose: a uniform prior's mass on them.
    pub fn losing_share(&self) -> f64 {
        self.losing.iter().filter(|&&l| l).count() as f64 / self.losing.len() as f64
    }
}

/// The tactical positions found in `games`.
#[derive(Clone, Debug)]
pub struct TacticalSet<V: Variant> {
    pub positions: Vec<TacticalPosition<V>>,
    /// Positions judged (states before a move with two legal actions or more) to find them.
    pub judged: usize,
    /// Such positions in the games, judged or not.
    pub candidates: usize,
}

impl<V: Variant> TacticalSet<V> {
    /// The mean of [`TacticalPosition::losing_share`] (0 for an empty set).
    pub fn uniform_mass(&self) -> f64 {
        mean(self.positions.iter().map(TacticalPosition::losing_share))
    }
}

/// Up to `limit` tactical positions of `games` (variant `V`), judged by `filter` (which must be
/// on): every state before a complete move with two legal actions or more (with `mover`, only
/// those where that player is to move, see [`plays_seat`]), in an order shuffled by `seed`,
/// judged until `limit` are found. A game's moves are replayed under the strict
/// Knight's-canter rule and, when one is illegal there, under `final-square`
/// ([`under_either_rule`]); a game that replays under neither is [`StatsError::BadGame`].
pub fn tactical_positions<V: Variant>(
    games: &[SourcedGame],
    filter: TacticsFilter,
    limit: usize,
    seed: u64,
    mover: Option<&str>,
) -> Result<TacticalSet<V>, StatsError> {
    let Some(guards) = filter.guards::<V>() else {
        return Ok(TacticalSet { positions: Vec::new(), judged: 0, candidates: 0 });
    };
    let mut candidates = Vec::new();
    for g in games {
        let r = &g.record;
        let states = states_before_moves::<V>(&r.start_position, &r.moves).map_err(bad_game(g))?;
        let to_move =
            |s: &State<V>| mover.is_none_or(|m| plays_seat(&r.model, s.to_move().index(), m));
        candidates.extend(
            states.into_iter().filter(|s| s.outcome().is_none() && to_move(s)).filter_map(|s| {
                let mut legal = Vec::new();
                s.legal_actions(&mut legal);
                (legal.len() > 1).then_some((s, legal))
            }),
        );
    }
    candidates.shuffle(&mut StdRng::seed_from_u64(seed));
    let total = candidates.len();
    let mut positions = Vec::new();
    let mut judged = 0;
    for round in candidates.chunks(JUDGED_PER_ROUND) {
        if positions.len() >= limit {
            break;
        }
        judged += round.len();
        let found: Vec<Option<TacticalPosition<V>>> = round
            .par_iter()
            .map_init(&guards, |guard, (state, legal)| {
                let actions: Vec<u16> =
                    legal.iter().map(|&a| state.action_index(a) as u16).collect();
                let losing = guard.losing(state, &actions);
                (losing.contains(&true) && losing.contains(&false)).then(|| TacticalPosition {
                    state: state.clone(),
                    legal: legal.clone(),
                    losing,
                })
            })
            .collect();
        positions.extend(found.into_iter().flatten());
    }
    positions.truncate(limit);
    Ok(TacticalSet { positions, judged, candidates: total })
}

/// Whether `player` plays seat `seat` in a game whose record names its players `model` (one
/// name for every seat, or one per seat joined by ` vs `, [`records::model_players`]): a
/// name matches as written or without its options (`gen-0044` matches `gen-0044:sims=64`).
pub fn plays_seat(model: &str, seat: usize, player: &str) -> bool {
    let names: Vec<&str> = records::model_players(model).collect();
    let name = if names.len() == 1 { names[0] } else { names.get(seat).copied().unwrap_or("") };
    name == player || name.split(':').next() == Some(player)
}

/// The states before each of `moves` from `start` (a position string or `start`), under
/// whichever Knight's-canter rule replays them ([`under_either_rule`]).
pub(super) fn states_before_moves<V: Variant>(
    start: &str,
    moves: &[String],
) -> Result<Vec<State<V>>, String> {
    under_either_rule(|knight_canter| {
        let mut pos = start_position::<V>(start, knight_canter)?;
        let mut states = Vec::with_capacity(moves.len());
        for (i, notation) in moves.iter().enumerate() {
            let m = replayed_move(&pos, i + 1, notation)?;
            states.push(State::new(pos.clone()));
            pos.play(&m);
        }
        Ok(states)
    })
}

/// The mean of `values` (0 when there are none).
pub(super) fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}
