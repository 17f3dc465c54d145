//! What happens around a search rather than inside it: Dirichlet noise on the root priors,
//! and choosing the action to play from the result (temperature on visit counts, or Gumbel's
//! own choice).

use rand::Rng;

use super::config::RootNoise;
use super::sample::dirichlet;
use super::summary::SearchSummary;

/// Mixes root noise into `priors` in place:
/// `prior = (1 - fraction) * prior + fraction * eta`, `eta ~ Dirichlet(alpha)`.
/// The mixed priors still sum to 1 when `priors` did.
pub fn add_root_noise(priors: &mut [f32], noise: RootNoise, rng: &mut impl Rng) {
    let RootNoise::Dirichlet { alpha, fraction } = noise else { return };
    let eta = dirichlet(alpha, priors.len(), rng);
    for (p, e) in priors.iter_mut().zip(eta) {
        *p = (1.0 - fraction) * *p + fraction * e;
    }
}

/// Temperatures below this play greedily (the smallest that can be exponentiated safely):
/// [`choose_by_visits`]' most visited action, Gumbel's [`best_improved`].
const GREEDY_BELOW: f32 = 1e-3;

/// Chooses an index from visit counts at `temperature`: 0 (or below [`GREEDY_BELOW`]) plays the most visited action, ties to the lowest index;
/// otherwise actions are drawn with probability proportional to `n^(1 / temperature)`.
/// `None` only when `visits` is empty. All-zero visits are drawn uniformly.
pub fn choose_by_visits(visits: &[u32], temperature: f32, rng: &mut impl Rng) -> Option<usize> {
    let max = *visits.iter().max()?;
    let argmax = visits.iter().position(|&n| n == max)?;
    if temperature < GREEDY_BELOW {
        return Some(argmax);
    }
    if max == 0 {
        return Some(rng.random_range(0..visits.len()));
    }
    // n^(1/T) / max^(1/T), in log space so that small temperatures do not overflow.
    let weights: Vec<f64> = visits
        .iter()
        .map(|&n| {
            if n == 0 {
                0.0
            } else {
                ((f64::from(n) / f64::from(max)).ln() / f64::from(temperature)).exp()
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return Some(i);
        }
        x -= w;
    }
    Some(argmax)
}

/// The action to play after a search, at `temperature` (see
/// [`TemperatureSchedule`](super::TemperatureSchedule)):
/// - PUCT: [`choose_by_visits`].
/// - Gumbel, temperature above 0: the sequential-halving choice, whose Gumbel noise explores
///   (`argmax g + logits + sigma(q)` among the survivors).
/// - Gumbel, temperature 0: the search's best move without the noise, [`best_improved`]. The
///   noisy choice is a sample from a prior that is nearly flat at 8-32 simulations; played at
///   every move of a self-play game, it made the games' outcomes say little about the positions
///   they label.
/// - Either, temperature 0, when the search's move rules chose ([`SearchSummary::chosen`]: a
///   proven result, a lower confidence bound): that choice.
pub fn choose_action<A: Copy>(
    summary: &SearchSummary<A>,
    temperature: f32,
    rng: &mut impl Rng,
) -> Option<A> {
    let i = match summary.selected {
        _ if temperature < GREEDY_BELOW && summary.chosen.is_some() => summary.chosen?,
        Some(_) if temperature < GREEDY_BELOW => best_improved(summary)?,
        Some(i) => i,
        None => choose_by_visits(&summary.visits, temperature, rng)?,
    };
    summary.actions.get(i).copied()
}

/// The visited action with the largest improved policy (`logits + sigma(completed q)`, no
/// Gumbel noise), ties to the lowest index; the most visited when no action was visited.
pub fn best_improved<A>(summary: &SearchSummary<A>) -> Option<usize> {
    let visited = (0..summary.actions.len()).filter(|&i| summary.q[i].is_some());
    let best = visited.fold(None, |best: Option<usize>, i| match best {
        Some(b) if summary.improved_policy[b] >= summary.improved_policy[i] => Some(b),
        _ => Some(i),
    });
    best.or_else(|| summary.most_visited())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn temperature_zero_plays_the_most_visited_action() {
        let mut rng = StdRng::seed_from_u64(0);
        for _ in 0..100 {
            assert_eq!(choose_by_visits(&[3, 10, 10, 1], 0.0, &mut rng), Some(1));
        }
        assert_eq!(choose_by_visits(&[], 1.0, &mut rng), None);
    }

    fn gumbel_summary(selected: usize) -> SearchSummary<u8> {
        SearchSummary {
            actions: vec![10, 11, 12, 13],
            visits: vec![4, 4, 0, 1],
            priors: vec![0.25; 4],
            q: vec![Some(0.4), Some(0.6), None, Some(0.9)],
            improved_policy: vec![0.2, 0.3, 0.45, 0.05],
            mover: games::Player(0),
            root_values: games::Values([0.5, 0.5, 0.0]),
            net_values: games::Values([0.5, 0.5, 0.0]),
            kind: super::super::SearchKind::Full,
            simulations: 9,
            selected: Some(selected),
            chosen: None,
        }
    }

    #[test]
    fn gumbel_plays_its_noisy_choice_above_temperature_zero_and_its_best_at_zero() {
        let mut rng = StdRng::seed_from_u64(0);
        let s = gumbel_summary(0);
        assert_eq!(choose_action(&s, 1.0, &mut rng), Some(10));
        // At 0: the visited action with the largest improved policy (12 is larger but never
        // visited; 13 has the best q but a small target).
        assert_eq!(choose_action(&s, 0.0, &mut rng), Some(11));
        assert_eq!(best_improved(&s), Some(1));
        let mut none = gumbel_summary(3);
        none.q = vec![None; 4];
        assert_eq!(best_improved(&none), Some(0));
    }

    #[test]
    fn temperature_one_samples_in_proportion_to_visits() {
        let visits = [50u32, 30, 15, 5, 0];
        let draws = 40_000;
        let mut rng = StdRng::seed_from_u64(11);
        let mut counts = [0u32; 5];
        for _ in 0..draws {
            counts[choose_by_visits(&visits, 1.0, &mut rng).unwrap()] += 1;
        }
        assert_eq!(counts[4], 0, "an unvisited action is never played");
        // Pearson chi-squared over the 4 visited actions: 3 degrees of freedom, the 99.9%
        // quantile is 16.27.
        let chi2: f64 = visits[..4]
            .iter()
            .zip(&counts)
            .map(|(&v, &c)| {
                let expected = draws as f64 * f64::from(v) / 100.0;
                (f64::from(c) - expected).powi(2) / expected
            })
            .sum();
        assert!(chi2 < 16.27, "chi2 {chi2}, counts {counts:?}");
    }

    #[test]
    fn low_temperature_sharpens_the_distribution() {
        let mut rng = StdRng::seed_from_u64(5);
        let picked_top =
            (0..2000).filter(|_| choose_by_visits(&[6, 4], 0.25, &mut rng) == Some(0)).count();
        // (6/4)^4 = 5.06, so the top action has probability 5.06 / 6.06 = 0.835.
        assert!((picked_top as f64 / 2000.0 - 0.835).abs() < 0.03, "{picked_top}");
    }

    #[test]
    fn noise_moves_the_configured_fraction_of_prior_mass() {
        let prior = [0.7f32, 0.2, 0.1, 0.0];
        let fraction = 0.25;
        let noise = RootNoise::Dirichlet { alpha: 0.3, fraction };
        let mut rng = StdRng::seed_from_u64(9);
        let draws = 20_000;
        let mut mean = [0.0f64; 4];
        for _ in 0..draws {
            let mut p = prior;
            add_root_noise(&mut p, noise, &mut rng);
            // Exactly `fraction` of the mass is noise: p - (1 - f) prior = f * eta >= 0.
            let added: f32 = p.iter().zip(prior).map(|(a, b)| a - (1.0 - fraction) * b).sum();
            assert!((added - fraction).abs() < 1e-5);
            assert!(p.iter().zip(prior).all(|(a, b)| *a >= (1.0 - fraction) * b - 1e-6));
            for (m, x) in mean.iter_mut().zip(p) {
                *m += f64::from(x) / draws as f64;
            }
        }
        // E[prior'] = (1 - f) prior + f / k.
        for (m, p) in mean.iter().zip(prior) {
            let expected = (1.0 - f64::from(fraction)) * f64::from(p) + f64::from(fraction) / 4.0;
            assert!((m - expected).abs() < 0.005, "mean {m} vs {expected}");
        }
        let mut p = prior;
        add_root_noise(&mut p, RootNoise::None, &mut rng);
        assert_eq!(p, prior);
    }
}
