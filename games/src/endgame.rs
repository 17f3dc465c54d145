//! Random sparse positions ("endgames"): a few pieces per seat, off the castles, within a random
//! distance of the seat's goal castle.
//!
//! Self-play from the start position almost never sees a castle win on a 2-core budget: the
//! armies meet, trade, and the survivors rarely walk all the way. Starting a share of self-play
//! games from sparse positions, some with the pieces a move or two from their goal, puts castle
//! entries and the conversion of a material lead within a few moves of the start, so the value
//! and policy heads can learn them (the same idea as varied starting positions in KataGo's
//! self-play).

use std::ops::RangeInclusive;

use rand::Rng;
use rand::seq::SliceRandom;

use crate::board::{Board, Piece, PieceKind};
use crate::game::Player;
use crate::goal_distance::GoalDistances;
use crate::options::RuleOptions;
use crate::position::Position;
use crate::position::Variant;
use crate::variant::Landing;

/// How many draws [`Position::random_endgame`] makes before it gives up.
const TRIES: usize = 1000;

impl<V: Variant> Position<V> {
    /// A random playable position. For each seat, a piece count is drawn uniformly from `pieces`
    /// (capped at the seat's starting army), the pieces are drawn without replacement from that
    /// army (so Knights and Men keep the start's proportions on average), and each stands on a
    /// distinct random cell that is no player's castle, within a radius of the seat's goal
    /// castle ([`GoalDistances`] steps) drawn uniformly from 1 to the whole board and widened until
    /// the pieces fit: some positions are castle races a move or two from the end, others spread
    /// over the board (a reverse curriculum: the end is learned first). The side to move is
    /// random and no castle move is used. Positions where the game is already over (e.g.
    /// Camelot's "neither player has more than one piece") are drawn again; None if `pieces` is
    /// empty or starts at 0, or if `TRIES` draws gave no playable position (Camelot with at most
    /// one piece per seat).
    pub fn random_endgame(
        rng: &mut (impl Rng + ?Sized),
        pieces: RangeInclusive<u32>,
        options: RuleOptions,
    ) -> Option<Self> {
        if pieces.is_empty() || *pieces.start() == 0 {
            return None;
        }
        let t = V::tables();
        let distances = GoalDistances::new::<V>();
        // Per seat: the cells that are no player's castle, as (steps to the seat's goal, cell),
        // nearest first; each draw keeps the free ones.
        let by_distance: Vec<Vec<(u16, u8)>> = (0..V::NUM_PLAYERS)
            .map(|seat| {
                let mut cells: Vec<(u16, u8)> = (0..t.geometry.num_cells() as u8)
                    .filter(|&c| {
                        (0..V::NUM_PLAYERS).all(|p| t.landing[p][c as usize] == Landing::Normal)
                    })
                    .map(|c| (distances.steps(seat, c), c))
                    .collect();
                cells.sort_unstable();
                cells
            })
            .collect();
        let army = V::KNIGHTS + V::MEN;
        let lo = (*pieces.start() as usize).min(army);
        let hi = (*pieces.end() as usize).min(army);
        for _ in 0..TRIES {
            let mut board = Board::default();
            for (seat, nearest_first) in by_distance.iter().enumerate() {
                let owner = Player(seat as u8);
                let mut kinds: Vec<PieceKind> = std::iter::repeat_n(PieceKind::Knight, V::KNIGHTS)
                    .chain(std::iter::repeat_n(PieceKind::Man, V::MEN))
                    .collect();
                kinds.shuffle(rng);
                let n = rng.random_range(lo..=hi);
                let free: Vec<(u16, u8)> =
                    nearest_first.iter().copied().filter(|&(_, c)| board.is_empty(c)).collect();
                let radius =
                    rng.random_range(1..=distances.farthest(seat).max(1)).max(free[n - 1].0);
                let within = free.partition_point(|&(d, _)| d <= radius);
                let mut cells: Vec<u8> = free[..within].iter().map(|&(_, c)| c).collect();
                cells.shuffle(rng);
                for (&kind, &cell) in kinds[..n].iter().zip(&cells) {
                    board.put(cell, Piece { owner, kind });
                }
            }
            let to_move = Player(rng.random_range(0..V::NUM_PLAYERS) as u8);
            let mut pos = Position {
                board,
                to_move,
                castle_moves: [0, 0],
                options,
                over: None,
                _variant: std::marker::PhantomData,
            };
            V::settle(&mut pos, None);
            if pos.outcome().is_none() {
                return Some(pos);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use crate::position::Variant;
    use crate::{CamelotPosition, Landing, Player, RuleOptions, TriCamelotPosition};

    fn check<V: Variant>(pos: &crate::Position<V>, pieces: std::ops::RangeInclusive<usize>) {
        let t = V::tables();
        let cells = t.geometry.num_cells();
        for seat in 0..V::NUM_PLAYERS {
            let n = pos.board().count(Player(seat as u8));
            assert!(pieces.contains(&n), "{n} pieces for seat {seat} in {pos}");
            let knights = pos
                .board()
                .pieces(cells)
                .filter(|(_, p)| {
                    p.owner == Player(seat as u8) && p.kind == crate::PieceKind::Knight
                })
                .count();
            assert!(knights <= V::KNIGHTS, "{pos}");
        }
        for (c, _) in pos.board().pieces(cells) {
            assert!((0..V::NUM_PLAYERS).all(|p| t.landing[p][c as usize] == Landing::Normal));
        }
        assert!(pos.outcome().is_none(), "{pos}");
        assert!(!pos.legal_moves().is_empty());
        // The position string round-trips: it is a valid position by the parser's rules too.
        let again = crate::Position::<V>::parse_with(&pos.to_string(), pos.options()).unwrap();
        assert_eq!(&again, pos);
    }

    #[test]
    fn camelot_endgames_are_playable_and_within_the_counts() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut movers = [0; 2];
        for _ in 0..300 {
            let pos = CamelotPosition::random_endgame(&mut rng, 1..=7, RuleOptions::default())
                .expect("a playable position");
            check(&pos, 1..=7);
            movers[pos.to_move().index()] += 1;
        }
        assert!(movers.iter().all(|&m| m > 100), "side to move is random: {movers:?}");
    }

    #[test]
    fn tricamelot_endgames_are_playable_and_capped_at_the_army() {
        let mut rng = StdRng::seed_from_u64(8);
        for _ in 0..300 {
            let pos = TriCamelotPosition::random_endgame(&mut rng, 2..=20, RuleOptions::default())
                .expect("a playable position");
            check(&pos, 2..=8);
        }
    }

    #[test]
    fn pieces_stand_near_their_goal_castle_as_often_as_far_from_it() {
        // Each seat's radius is uniform over the board, so a fair share of positions have every
        // piece of a seat within 3 steps of its goal, and a fair share reach beyond half the board.
        let distances = crate::GoalDistances::new::<crate::CamelotRules>();
        let mut rng = StdRng::seed_from_u64(10);
        let (mut near, mut far) = (0, 0);
        for _ in 0..400 {
            let pos =
                CamelotPosition::random_endgame(&mut rng, 2..=4, RuleOptions::default()).unwrap();
            let steps: Vec<u16> = pos
                .board()
                .pieces(160)
                .filter(|(_, p)| p.owner == Player(0))
                .map(|(c, _)| distances.steps(0, c))
                .collect();
            near += steps.iter().all(|&s| s <= 3) as u32;
            far += steps.iter().any(|&s| s > distances.farthest(0) / 2) as u32;
        }
        assert!((20..200).contains(&near), "{near} of 400 with every piece near the goal");
        assert!((100..380).contains(&far), "{far} of 400 with a piece far from the goal");
    }

    #[test]
    fn impossible_ranges_give_none() {
        let mut rng = StdRng::seed_from_u64(9);
        let o = RuleOptions::default();
        assert!(CamelotPosition::random_endgame(&mut rng, 0..=3, o).is_none());
        #[allow(clippy::reversed_empty_ranges)]
        let empty = 5..=2;
        assert!(CamelotPosition::random_endgame(&mut rng, empty, o).is_none());
        // One piece each: "neither player has more than one piece" ends every such game.
        assert!(CamelotPosition::random_endgame(&mut rng, 1..=1, o).is_none());
    }
}
