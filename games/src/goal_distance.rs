//! Distances to the goal castles: how many single steps (any direction of the board) separate
//! each cell from the nearest goal cell of each seat (the `goal` cells of the [`Variant`] tables:
//! the opponent's castle in Camelot, the target castle in Tri-Camelot), never crossing a cell the
//! seat may not enter (a [`Landing::Forbidden`] castle). Used by the arena's greedy player and by
//! [`Game::progress`](crate::Game::progress).

use crate::game::MAX_PLAYERS;
use crate::geometry::{Cell, NO_CELL};
use crate::position::Variant;
use crate::variant::Landing;

/// Distance in steps from every cell to the nearest goal cell, for each seat.
#[derive(Clone, Debug)]
pub struct GoalDistances {
    /// `steps[seat][cell]`; `u16::MAX` where no goal can be reached.
    steps: [Vec<u16>; MAX_PLAYERS],
    /// The largest finite entry of `steps[seat]` (0 if none), the scale of `closeness`.
    farthest: [u16; MAX_PLAYERS],
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
        let farthest = std::array::from_fn(|seat| {
            steps[seat].iter().copied().filter(|&d| d < u16::MAX).max().unwrap_or(0)
        });
        GoalDistances { steps, farthest }
    }

    /// The most steps any cell that can reach a goal of `seat` needs (0 if none can).
    pub fn farthest(&self, seat: usize) -> u16 {
        self.farthest[seat]
    }

    /// Steps from `cell` to the nearest goal cell of `seat` (`u16::MAX`: unreachable).
    pub fn steps(&self, seat: usize, cell: Cell) -> u16 {
        self.steps[seat].get(cell as usize).copied().unwrap_or(u16::MAX)
    }

    /// How close `cell` is to the goal of `seat`, from 0 (the farthest reachable cell, or an
    /// unreachable one) to 1 (a goal cell).
    pub fn closeness(&self, seat: usize, cell: Cell) -> f32 {
        let farthest = self.farthest[seat];
        match self.steps(seat, cell) {
            u16::MAX => 0.0,
            _ if farthest == 0 => 1.0,
            d => f32::from(farthest - d) / f32::from(farthest),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CamelotRules, TriCamelotRules};

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
        assert_eq!(d.closeness(0, t.goal[0][0]), 1.0);
        let farthest = (0..geo.num_cells() as u8).map(|c| d.steps(0, c)).filter(|&s| s < u16::MAX);
        let farthest = farthest.max().unwrap();
        assert_eq!(d.closeness(0, f7), f32::from(farthest - 9) / f32::from(farthest));
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
}
