//! The one-ply greedy player: among the turn's complete moves ([`State::moves`]) it takes the one
//! that captures the most pieces, then, among those, the one that ends closest to its goal castle
//! (the `goal` cells of the [`Variant`] tables: the opponent's castle in Camelot, the target castle
//! in Tri-Camelot), and breaks the remaining ties at random.
//!
//! "Closest" is the number of single steps (any direction of the board) from the cell the move
//! ends on to the nearest goal cell, never crossing a cell the player may not enter (a
//! [`Landing::Forbidden`] castle): a breadth-first search from the goal cells over
//! [`Geometry::step`](games::Geometry::step), computed once per match in [`GoalDistances`].

use games::{Landing, MAX_PLAYERS, Move, NO_CELL, State, Variant};
use rand::Rng;
use rand::seq::IndexedRandom;

/// Distance in steps from every cell to the nearest goal cell, for each seat.
#[derive(Clone, Debug)]
pub struct GoalDistances {
    /// `steps[seat][cell]`; `u16::MAX` where no goal can be reached.
    steps: [Vec<u16>; MAX_PLAYERS],
}

impl GoalDistances {
    /// The tables of variant `V`.
    pub fn new<V: Variant>() -> Self {
        let t = V::tables();
        let geo = &t.geometry;
        let steps = std::array::from_fn(|seat| {
            let mut dist = vec![u16::MAX; geo.num_cells()];
            if seat >= V::NUM_PLAYERS {
                return dist;
            }
            let mut queue = std::collections::VecDeque::new();
            for &g in &t.goal[seat] {
                dist[g as usize] = 0;
                queue.push_back(g);
            }
            while let Some(c) = queue.pop_front() {
                let next = dist[c as usize] + 1;
                for d in 0..geo.num_dirs() as u8 {
                    let n = geo.step(c, d);
                    if n == NO_CELL
                        || t.landing[seat][n as usize] == Landing::Forbidden
                        || dist[n as usize] <= next
                    {
                        continue;
                    }
                    dist[n as usize] = next;
                    queue.push_back(n);
                }
            }
            dist
        });
        GoalDistances { steps }
    }

    /// Steps from `cell` to the nearest goal cell of `seat` (`u16::MAX`: unreachable).
    pub fn steps(&self, seat: usize, cell: games::Cell) -> u16 {
        self.steps[seat].get(cell as usize).copied().unwrap_or(u16::MAX)
    }
}

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
    fn distances_are_zero_on_goals_and_grow_by_one_per_step() {
        let d = GoalDistances::new::<CamelotRules>();
        let t = CamelotRules::tables();
        let geo = &t.geometry;
        for seat in 0..2 {
            for &g in &t.goal[seat] {
                assert_eq!(d.steps(seat, g), 0);
            }
        }
        // White (seat 0) aims at Black's castle (ranks 16); F7 is 9 rows below it.
        let f7 = geo.parse_cell("F7").unwrap();
        assert_eq!(d.steps(0, f7), 9);
        assert_eq!(d.steps(1, f7), 6, "Black's goal is White's castle at rank 1");
        let tri = GoalDistances::new::<TriCamelotRules>();
        let tt = TriCamelotRules::tables();
        for seat in 0..3 {
            for c in 0..tt.geometry.num_cells() as u8 {
                if tt.landing[seat][c as usize] != Landing::Forbidden {
                    assert!(tri.steps(seat, c) < u16::MAX, "every open cell reaches the goal");
                }
            }
        }
    }

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
