//! Who sits where, and which opening a game gets.
//!
//! The arrangements of `n` players are all `n!` orders of them over the seats, in lexicographic
//! order (Camelot: `[0, 1]`, `[1, 0]`; Tri-Camelot: the 6 permutations of `[0, 1, 2]`). Game `g`
//! uses arrangement `g mod n!`, so the players alternate as White, or cycle through every
//! permutation, and each arrangement is played equally often when the number of games is a
//! multiple of `n!`.
//!
//! Games `k·n! .. (k+1)·n!` form **round** `k`: they share one random opening, so each opening is
//! played from every side.

/// All orders of `players` players over the seats, lexicographically: `result[i][seat]` is the
/// index of the player in that seat in arrangement `i`.
pub fn arrangements(players: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(players);
    let mut used = vec![false; players];
    permute(players, &mut current, &mut used, &mut out);
    out
}

fn permute(n: usize, current: &mut Vec<usize>, used: &mut [bool], out: &mut Vec<Vec<usize>>) {
    if current.len() == n {
        out.push(current.clone());
        return;
    }
    for p in 0..n {
        if !used[p] {
            used[p] = true;
            current.push(p);
            permute(n, current, used, out);
            current.pop();
            used[p] = false;
        }
    }
}

/// The seating of game `game_id`: `seats[seat]` = player index.
pub fn seating(players: usize, game_id: u64) -> Vec<usize> {
    let all = arrangements(players);
    all[(game_id % all.len() as u64) as usize].clone()
}

/// The round of game `game_id` (the games of one round share their opening).
pub fn round(players: usize, game_id: u64) -> u64 {
    game_id / arrangements(players).len() as u64
}

/// A seed from the match seed and a number (splitmix64, so nearby numbers are unrelated).
pub fn mix_seed(seed: u64, n: u64, salt: u64) -> u64 {
    games::seed::mix(seed ^ salt.wrapping_mul(0xD6E8_FEB8_6659_FD93), n)
}

/// The seed of the opening of game `game_id` (the same for all games of its round).
pub fn opening_seed(seed: u64, players: usize, game_id: u64) -> u64 {
    mix_seed(seed, round(players, game_id), 1)
}

/// The seed of everything else random in game `game_id` (search, rollouts, random players).
pub fn game_seed(seed: u64, game_id: u64) -> u64 {
    mix_seed(seed, game_id, 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camelot_alternates_white() {
        let seats: Vec<Vec<usize>> = (0..6).map(|g| seating(2, g)).collect();
        assert_eq!(seats, [[0, 1], [1, 0], [0, 1], [1, 0], [0, 1], [1, 0]]);
        assert_eq!((0..6).map(|g| round(2, g)).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 2]);
    }

    #[test]
    fn tricamelot_cycles_through_all_six_permutations() {
        let all = arrangements(3);
        assert_eq!(all.len(), 6);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6, "all distinct");
        for p in &all {
            let mut q = p.clone();
            q.sort();
            assert_eq!(q, [0, 1, 2], "a permutation");
        }
        // 18 games: every permutation exactly 3 times, every player 6 times in every seat.
        let games: Vec<Vec<usize>> = (0..18).map(|g| seating(3, g)).collect();
        for p in &all {
            assert_eq!(games.iter().filter(|g| *g == p).count(), 3);
        }
        for seat in 0..3 {
            for player in 0..3 {
                assert_eq!(games.iter().filter(|g| g[seat] == player).count(), 6);
            }
        }
        assert_eq!(round(3, 5), 0);
        assert_eq!(round(3, 6), 1);
    }

    #[test]
    fn a_round_shares_its_opening_and_games_do_not_share_the_rest() {
        assert_eq!(opening_seed(9, 2, 0), opening_seed(9, 2, 1));
        assert_ne!(opening_seed(9, 2, 1), opening_seed(9, 2, 2));
        assert_eq!(opening_seed(9, 3, 0), opening_seed(9, 3, 5));
        assert_ne!(opening_seed(9, 3, 5), opening_seed(9, 3, 6));
        assert_ne!(game_seed(9, 0), game_seed(9, 1));
        assert_ne!(opening_seed(9, 2, 0), opening_seed(10, 2, 0));
    }
}
