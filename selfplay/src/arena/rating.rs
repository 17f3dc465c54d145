//! Maximum-likelihood Elo ratings of many players from all their games, with 95% intervals.
//!
//! The model is Luce's choice model, the first stage of Plackett-Luce: in a game among the
//! players seated at it, player `i` (strength `γᵢ = 10^(Eloᵢ/400)`) wins with probability
//! `γᵢ / Σ γ` over the seats (a player seated twice, as an anchor against two copies, counts
//! twice). For two players it is the logistic Elo model (Bradley-Terry), so a 0.76 score is
//! +200; for Tri-Camelot it rates from who won each game. A draw counts as an equal share of the
//! win for every seat (each seat's score share, as the records carry it).
//!
//! [`fit`] maximises the likelihood over the free players by Newton's method, the players in
//! `fixed` held at their given ratings (the anchors). A prior of one virtual drawn game between
//! every two players who met keeps a perfect score finite (as BayesElo's prior does). The 95%
//! interval of each free player is `1.96` standard errors from the inverse of the observed
//! information (the negative Hessian of the log-likelihood) at the optimum.

use thiserror::Error;

use super::elo::Z95;

/// Elo points per natural-log unit of strength.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// One game: the players at its seats (indices into the rated pool) and each seat's share of
/// the result (summing to 1).
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    pub players: Vec<usize>,
    pub shares: Vec<f64>,
}

/// The fitted ratings, by player index.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    pub elo: Vec<f64>,
    /// Half the width of the 95% interval (0 for a fixed player).
    pub interval: Vec<f64>,
    /// Games each player played.
    pub games: Vec<usize>,
}

/// Why ratings could not be fitted.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RatingError {
    #[error("nothing to rate against: at least one player must have a fixed rating")]
    NoReference,
    #[error("player {0} has no games linking it to a fixed rating")]
    Unconnected(usize),
    #[error("a game's players and shares differ in length, or name a player out of range")]
    BadGame,
}

/// The maximum-likelihood ratings of players `0..n` from `games`, the players of `fixed` held
/// at their Elo.
pub fn fit(n: usize, games: &[RatedGame], fixed: &[(usize, f64)]) -> Result<Ratings, RatingError> {
    if fixed.is_empty() {
        return Err(RatingError::NoReference);
    }
    if games.iter().any(|g| g.players.len() != g.shares.len() || g.players.iter().any(|&p| p >= n))
    {
        return Err(RatingError::BadGame);
    }
    let mut theta = vec![0.0; n];
    let mut is_fixed = vec![false; n];
    for &(p, elo) in fixed {
        theta[p] = elo / ELO_PER_NAT;
        is_fixed[p] = true;
    }
    let mut played = vec![0usize; n];
    let mut met = vec![vec![false; n]; n];
    for g in games {
        for (k, &a) in g.players.iter().enumerate() {
            played[a] += 1;
            for &b in &g.players[k + 1..] {
                met[a][b] = true;
                met[b][a] = true;
            }
        }
    }
    // The prior: one virtual draw between every two players who met.
    let mut all: Vec<RatedGame> = games.to_vec();
    for (a, row) in met.iter().enumerate() {
        for (b, _) in row.iter().enumerate().skip(a + 1).filter(|&(_, &m)| m) {
            all.push(RatedGame { players: vec![a, b], shares: vec![0.5, 0.5] });
        }
    }
    let free: Vec<usize> = (0..n).filter(|&p| !is_fixed[p]).collect();
    connected(n, &met, &is_fixed, &free)?;
    let index = |p: usize| free.iter().position(|&f| f == p);
    let mut info = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..200 {
        let (gradient, information) = derivatives(&all, &theta, &free, &index);
        info = information;
        let step = solve(&info, &gradient).ok_or(RatingError::Unconnected(free[0]))?;
        let mut largest: f64 = 0.0;
        for (k, &p) in free.iter().enumerate() {
            let s = step[k].clamp(-2.0, 2.0);
            theta[p] += s;
            largest = largest.max(s.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let mut interval = vec![0.0; n];
    for (k, &p) in free.iter().enumerate() {
        let mut unit = vec![0.0; free.len()];
        unit[k] = 1.0;
        let column = solve(&info, &unit).ok_or(RatingError::Unconnected(p))?;
        interval[p] = Z95 * column[k].max(0.0).sqrt() * ELO_PER_NAT;
    }
    Ok(Ratings { elo: theta.iter().map(|t| t * ELO_PER_NAT).collect(), interval, games: played })
}

/// Every free player must reach a fixed one through games.
fn connected(
    n: usize,
    met: &[Vec<bool>],
    is_fixed: &[bool],
    free: &[usize],
) -> Result<(), RatingError> {
    let mut reached: Vec<bool> = is_fixed.to_vec();
    let mut queue: Vec<usize> = (0..n).filter(|&p| is_fixed[p]).collect();
    while let Some(a) = queue.pop() {
        for b in 0..n {
            if met[a][b] && !reached[b] {
                reached[b] = true;
                queue.push(b);
            }
        }
    }
    match free.iter().find(|&&p| !reached[p]) {
        Some(&p) => Err(RatingError::Unconnected(p)),
        None => Ok(()),
    }
}

/// The gradient of the log-likelihood over the free players and the observed information
/// (its negative Hessian).
fn derivatives(
    games: &[RatedGame],
    theta: &[f64],
    free: &[usize],
    index: &impl Fn(usize) -> Option<usize>,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = free.len();
    let mut gradient = vec![0.0; m];
    let mut info = vec![vec![0.0; m]; m];
    for g in games {
        let top = g.players.iter().map(|&p| theta[p]).fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = g.players.iter().map(|&p| (theta[p] - top).exp()).sum();
        let share: f64 = g.shares.iter().sum();
        // Each free player's probability of the win in this game, all its seats together.
        let mut q: Vec<(usize, f64, f64)> = Vec::new();
        for (seat, &p) in g.players.iter().enumerate() {
            let Some(k) = index(p) else { continue };
            let prob = (theta[p] - top).exp() / total;
            match q.iter_mut().find(|(j, _, _)| *j == k) {
                Some(entry) => {
                    entry.1 += prob;
                    entry.2 += g.shares[seat];
                }
                None => q.push((k, prob, g.shares[seat])),
            }
        }
        for &(k, prob, won) in &q {
            gradient[k] += won - share * prob;
            info[k][k] += share * prob;
            for &(j, other, _) in &q {
                info[k][j] -= share * prob * other;
            }
        }
    }
    (gradient, info)
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting (None when singular).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> =
        a.iter().zip(b).map(|(row, &r)| [row.clone(), vec![r]].concat()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (row, r) in m.iter_mut().enumerate() {
            if row != col {
                let f = r[col] / pivot_row[col];
                for (x, p) in r.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Elo;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn two(a: usize, b: usize, score_a: f64) -> RatedGame {
        RatedGame { players: vec![a, b], shares: vec![score_a, 1.0 - score_a] }
    }

    #[test]
    fn two_players_follow_the_logistic_model_and_the_prior_keeps_it_finite() {
        // 76 wins in 100 (plus the prior's draw: 76.5 of 101) against a player fixed at 0.
        let games: Vec<RatedGame> =
            (0..100).map(|i| two(0, 1, if i < 76 { 1.0 } else { 0.0 })).collect();
        let r = fit(2, &games, &[(1, 0.0)]).unwrap();
        let expected = Elo::from_score(76.5 / 101.0).0;
        assert!((r.elo[0] - expected).abs() < 1e-6, "{} vs {expected}", r.elo[0]);
        assert_eq!(r.interval[1], 0.0);
        // The standard error of the logistic model: 1 / sqrt(N p (1 - p)) nats.
        let p: f64 = 76.5 / 101.0;
        let se = 1.0 / (101.0 * p * (1.0 - p)).sqrt() * ELO_PER_NAT;
        assert!((r.interval[0] - Z95 * se).abs() < 1e-6, "{} vs {}", r.interval[0], Z95 * se);
        // A perfect score is finite, and a fixed player keeps its rating.
        let all: Vec<RatedGame> = (0..20).map(|_| two(0, 1, 1.0)).collect();
        let r = fit(2, &all, &[(1, 500.0)]).unwrap();
        assert!(r.elo[0].is_finite() && r.elo[0] > 900.0, "{:?}", r.elo);
        assert_eq!(r.elo[1], 500.0);
        assert_eq!(r.games, vec![20, 20]);
    }

    #[test]
    fn known_strengths_are_recovered_within_their_intervals() {
        // Four players at 0, 150, 300, 600 Elo; two-player and three-player games drawn from
        // the model; every rating within its 95% interval of the truth.
        let truth = [0.0, 150.0, 300.0, 600.0];
        let gamma: Vec<f64> = truth.iter().map(|e| 10f64.powf(e / 400.0)).collect();
        let mut rng = StdRng::seed_from_u64(7);
        let mut games = Vec::new();
        for _ in 0..400 {
            let a = rng.random_range(0..4);
            let b = (a + rng.random_range(1..4)) % 4;
            let p = gamma[a] / (gamma[a] + gamma[b]);
            games.push(two(a, b, if rng.random::<f64>() < p { 1.0 } else { 0.0 }));
            // A three-seat game with one player seated twice.
            let seats = [a, b, b];
            let total: f64 = seats.iter().map(|&s| gamma[s]).sum();
            let mut x = rng.random::<f64>() * total;
            let mut shares = vec![0.0; 3];
            for (k, &s) in seats.iter().enumerate() {
                x -= gamma[s];
                if x <= 0.0 || k == 2 {
                    shares[k] = 1.0;
                    break;
                }
            }
            games.push(RatedGame { players: seats.to_vec(), shares });
        }
        let r = fit(4, &games, &[(0, 0.0)]).unwrap();
        for (p, &t) in truth.iter().enumerate().skip(1) {
            let off = (r.elo[p] - t).abs();
            assert!(off <= r.interval[p], "player {p}: {} ± {} vs {t}", r.elo[p], r.interval[p]);
            assert!(r.interval[p] > 10.0 && r.interval[p] < 120.0, "{:?}", r.interval);
        }
    }

    #[test]
    fn bad_pools_are_refused() {
        assert_eq!(fit(2, &[two(0, 1, 1.0)], &[]), Err(RatingError::NoReference));
        assert_eq!(fit(3, &[two(0, 1, 1.0)], &[(0, 0.0)]), Err(RatingError::Unconnected(2)));
        let bad = RatedGame { players: vec![0, 5], shares: vec![1.0, 0.0] };
        assert_eq!(fit(2, &[bad], &[(0, 0.0)]), Err(RatingError::BadGame));
    }
}
