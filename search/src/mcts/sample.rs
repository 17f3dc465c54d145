//! The few distributions the search samples: Dirichlet (root noise) and Gumbel (Gumbel root
//! search). Written here rather than taken from `rand_distr`, whose releases follow `rand`'s;
//! each is a few lines and is tested against its known moments.

use rand::Rng;

/// A uniform sample in the open interval (0, 1), so that logarithms stay finite.
fn open01(rng: &mut impl Rng) -> f64 {
    loop {
        let u: f64 = rng.random();
        if u > 0.0 {
            return u;
        }
    }
}

/// A standard normal sample (Box–Muller).
fn standard_normal(rng: &mut impl Rng) -> f64 {
    let (u1, u2) = (open01(rng), open01(rng));
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The logarithm of a Gamma(`shape`, 1) sample, `shape > 0`.
///
/// Marsaglia and Tsang (2000) for `shape >= 1`; for `shape < 1` the boost
/// `Gamma(a) = Gamma(a + 1) * U^(1/a)`, kept in log space because for the small shapes used
/// as Dirichlet noise (0.03 in Go) `U^(1/a)` underflows.
fn ln_gamma_sample(shape: f64, rng: &mut impl Rng) -> f64 {
    if shape < 1.0 {
        return ln_gamma_sample(shape + 1.0, rng) + open01(rng).ln() / shape;
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = standard_normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = open01(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return (d * v).ln();
        }
    }
}

/// A sample of the symmetric Dirichlet(`alpha`, …, `alpha`) distribution over `k` outcomes
/// (`alpha > 0`): non-negative, summing to 1. Empty for `k == 0`.
pub fn dirichlet(alpha: f32, k: usize, rng: &mut impl Rng) -> Vec<f32> {
    let logs: Vec<f64> = (0..k).map(|_| ln_gamma_sample(f64::from(alpha), rng)).collect();
    // Normalise Gamma samples in log space (a softmax), which never divides by zero.
    let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = logs.iter().map(|l| (l - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|e| (e / sum) as f32).collect()
}

/// A standard Gumbel sample, `-ln(-ln U)`.
pub fn gumbel(rng: &mut impl Rng) -> f32 {
    (-(-open01(rng).ln()).ln()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn mean_var(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        (m, xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n)
    }

    #[test]
    fn gamma_has_mean_and_variance_equal_to_its_shape() {
        let mut rng = StdRng::seed_from_u64(1);
        for shape in [0.3, 1.0, 4.5] {
            let xs: Vec<f64> =
                (0..40_000).map(|_| ln_gamma_sample(shape, &mut rng).exp()).collect();
            let (m, v) = mean_var(&xs);
            assert!((m - shape).abs() < 0.03 * shape.max(1.0), "shape {shape}: mean {m}");
            assert!((v - shape).abs() < 0.08 * shape.max(1.0), "shape {shape}: var {v}");
        }
    }

    #[test]
    fn dirichlet_sums_to_one_with_the_right_moments() {
        let mut rng = StdRng::seed_from_u64(2);
        let (alpha, k) = (0.3f32, 5usize);
        let draws: Vec<Vec<f32>> = (0..20_000).map(|_| dirichlet(alpha, k, &mut rng)).collect();
        for d in &draws {
            assert!((d.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(d.iter().all(|&x| (0.0..=1.0).contains(&x)));
        }
        let first: Vec<f64> = draws.iter().map(|d| f64::from(d[0])).collect();
        let (m, v) = mean_var(&first);
        let a0 = f64::from(alpha) * k as f64;
        let expected_var = (1.0 / k as f64) * (1.0 - 1.0 / k as f64) / (a0 + 1.0);
        assert!((m - 0.2).abs() < 0.01, "mean {m}");
        assert!((v - expected_var).abs() < 0.1 * expected_var, "var {v} vs {expected_var}");
        // Tiny alpha still gives a valid (nearly one-hot) sample.
        let d = dirichlet(0.01, 300, &mut rng);
        assert!((d.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn gumbel_has_the_euler_mascheroni_mean() {
        let mut rng = StdRng::seed_from_u64(3);
        let xs: Vec<f64> = (0..50_000).map(|_| f64::from(gumbel(&mut rng))).collect();
        let (m, v) = mean_var(&xs);
        assert!((m - 0.5772).abs() < 0.02, "mean {m}");
        assert!((v - std::f64::consts::PI.powi(2) / 6.0).abs() < 0.05, "var {v}");
    }
}
