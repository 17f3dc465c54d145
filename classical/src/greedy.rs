//! The one-ply greedy player: among the turn's complete moves ([`State::moves`]) it takes the one
//! that captures the most pieces, then, among those, the one that ends closest to its goal castle
//! (the `goal` cells of the [`Variant`] tables: the opponent's castle in Camelot, the target castle
//! in Tri-Camelot), and breaks the remaining ties at random.
//!
//! "Closest" is [`GoalDistances`]: single steps to the nearest goal cell, computed once per match.

use games::{GoalDistances, Move, State, Variant};
use rand::Rng;
use rand::seq::IndexedRandom;

/// The greedy player's move in `state` (None when the game is over).
pub fn greedy_move<'a, V: Variant>(
    state: &'a State<V>,
    distances: &GoalDistances,
    rng: &mut impl Rng,
) -> Option<&'a Move> {
    let geo = &V::tables().geometry;
    let seat = games::Game::to_move(state).index();
    // Higher is better: more captures, then fewer steps to go.
    let key = |m: &Move| (m.captures(geo).count(), u16::MAX - distances.steps(seat, m.to()));
    let best = state.moves().iter().map(key).max()?;
    let ties: Vec<&Move> = state.moves().iter().filter(|m| key(m) == best).collect();
    ties.choose(rng).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::{Camelot, CamelotRules, Game, TriCamelot, TriCamelotRules};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn greedy_captures_the_most_it_can() {
        // White Man on F7 can jump the Black Man on F8 (one capture) or, from E7, jump
        // E8 and then E10 (two captures).
        let s: Camelot = "camelot W W:KC6,ME7,MF7 B:KJ11,ME8,ME10,MF8 cm=0,0".parse().unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        let d = GoalDistances::new::<CamelotRules>();
        let geo = &CamelotRules::tables().geometry;
        for _ in 0..10 {
            let m = greedy_move(&s, &d, &mut rng).unwrap();
            assert_eq!(m.captures(geo).count(), 2, "{}", m.notation(geo));
        }
    }

    #[test]
    fn without_captures_greedy_heads_for_the_goal() {
        let mut rng = StdRng::seed_from_u64(2);
        let d = GoalDistances::new::<CamelotRules>();
        let geo = &CamelotRules::tables().geometry;
        let s = Camelot::initial();
        let best = s.moves().iter().map(|m| d.steps(0, m.to())).min().unwrap();
        let m = greedy_move(&s, &d, &mut rng).unwrap();
        assert_eq!(d.steps(0, m.to()), best, "{}", m.notation(geo));
        // Ties are broken at random: several different moves over a few seeds.
        let picks: std::collections::BTreeSet<String> = (0..20)
            .map(|i| {
                let mut r = StdRng::seed_from_u64(i);
                greedy_move(&s, &d, &mut r).unwrap().notation(geo)
            })
            .collect();
        assert!(picks.len() > 1, "{picks:?}");
        let tri = TriCamelot::initial();
        let dt = GoalDistances::new::<TriCamelotRules>();
        assert!(greedy_move(&tri, &dt, &mut rng).is_some());
    }
}
