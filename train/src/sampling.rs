//! How training draws positions from the replay window: uniformly (the default), or weighted by
//! policy surprise as KataGo does.
//!
//! **Policy surprise.** A full-search row's surprise is `KL(target ‖ prior)`: how far the
//! search's policy moved from the network's prior over the legal actions, in nats. Rows where
//! the search taught the network something it does not know yet are drawn more often. The prior
//! is the network about to be trained (the one that played the newest generation), evaluated on
//! every full-search row of the window before the generation's first step, so older rows are
//! judged by what the network knows now rather than by what it knew when they were played.

use model::{Predictor, masked_softmax};
use serde::{Deserialize, Serialize};

use crate::dataset::ReplayWindow;
use crate::targets::TrainGame;
use crate::train_error::TrainError;

/// Positions whose prior one inference call evaluates.
const CHUNK: usize = 256;

/// How the rows of a batch are drawn from the window (`train.sampling`).
///
/// In TOML: `sampling = "uniform"` (the default) or
/// `sampling = { policy_surprise = { share = 0.5 } }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Sampling {
    /// Every row equally likely.
    #[default]
    Uniform,
    /// Among the full-search rows, a `share` of the draws in proportion to each row's policy
    /// surprise and the rest uniformly (KataGo uses half). Cheap-search rows keep their uniform
    /// weight, so the full-search rows' part of the batches is what it was.
    PolicySurprise { share: f32 },
}

impl Sampling {
    /// Range checks; the error is (key under `train.sampling`, problem).
    pub fn validate(&self) -> Result<(), (String, String)> {
        match *self {
            Sampling::Uniform => Ok(()),
            Sampling::PolicySurprise { share } if (0.0..=1.0).contains(&share) => Ok(()),
            Sampling::PolicySurprise { .. } => {
                Err(("policy_surprise.share".into(), "must be between 0 and 1".into()))
            }
        }
    }

    /// Each window row's draw weight (`None`: uniform), from the network that `prior` makes
    /// for the surprise (called only when a network is needed). The full-search rows' weights
    /// average 1, as do the others'.
    pub fn draw_weights<G: TrainGame>(
        self,
        window: &ReplayWindow<G>,
        prior: impl FnOnce() -> Result<Predictor, TrainError>,
    ) -> Result<Option<Vec<f64>>, TrainError> {
        let Sampling::PolicySurprise { share } = self else { return Ok(None) };
        let prior = prior()?;
        let full: Vec<usize> =
            (0..window.len()).filter(|&i| window.record(i).full_search).collect();
        let mut surprise = Vec::with_capacity(full.len());
        for rows in full.chunks(CHUNK) {
            let batch = window.encode_batch(rows.to_vec(), vec![0; rows.len()])?;
            let prediction = prior.predict(&batch.planes, batch.size).map_err(TrainError::Net)?;
            let a = batch.legal.len() / batch.size;
            for i in 0..batch.size {
                let target = &batch.policy_target[i * a..(i + 1) * a];
                let logits = prediction.policy_row(i).expect("a row per position");
                surprise.push(policy_surprise(target, logits, &batch.legal_actions(i)));
            }
        }
        let mean = surprise.iter().sum::<f64>() / surprise.len().max(1) as f64;
        if !(mean > 0.0 && mean.is_finite()) {
            return Ok(None); // nothing to tell the rows apart by
        }
        let share = f64::from(share);
        let mut weights = vec![1.0; window.len()];
        for (&row, s) in full.iter().zip(surprise) {
            weights[row] = (1.0 - share) + share * s / mean;
        }
        Ok(Some(weights))
    }
}

/// `KL(target ‖ prior)` in nats over the `legal` action indices, the prior the masked softmax
/// of `logits`. `target` need not sum to 1 (it is normalised); an all-zero target has no
/// surprise.
pub fn policy_surprise(target: &[f32], logits: &[f32], legal: &[usize]) -> f64 {
    let prior = masked_softmax(logits, legal);
    let total: f64 = legal.iter().map(|&k| f64::from(target[k])).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let mut kl = 0.0;
    for (&k, &p) in legal.iter().zip(&prior) {
        let t = f64::from(target[k]) / total;
        if t > 0.0 {
            kl += t * (t.ln() - f64::from(p).max(1e-30).ln());
        }
    }
    kl.max(0.0)
}

#[cfg(test)]
mod tests {
    use games::{Camelot, RuleOptions};
    use model::DeviceKind;

    use super::*;
    use crate::testutil::{random_rows, scratch_dir, write_generation};
    use crate::trainer::fresh_net;
    use crate::value_target::ValueTarget;

    #[test]
    fn surprising_rows_weigh_more_the_others_keep_weight_one_and_the_mean_is_one() {
        let run = scratch_dir("surprise");
        let mut rows = random_rows::<Camelot>(31, 40);
        // Odd rows: the whole target on one action. A fresh network's prior is nearly uniform,
        // so those rows surprise it (~ln of their legal moves) and the uniform ones hardly.
        for (i, row) in rows.iter_mut().enumerate().filter(|(i, _)| i % 2 == 1) {
            let pick = i % row.policy_target.len();
            row.policy_target.fill(0.0);
            row.policy_target[pick] = 1.0;
        }
        write_generation::<Camelot>(&run, 0, rows);
        let window =
            ReplayWindow::<Camelot>::load(&run, 1, RuleOptions::default(), ValueTarget::Outcome)
                .unwrap();
        let net = fresh_net::<Camelot>("b4c32", games::Encoding::Basic, DeviceKind::Cpu).unwrap();
        let prior = || Predictor::new(&net, DeviceKind::Cpu).map_err(TrainError::Net);
        let no_network = Sampling::Uniform.draw_weights(&window, || panic!("no network needed"));
        assert_eq!(no_network.unwrap(), None);

        let all = Sampling::PolicySurprise { share: 1.0 };
        let weights = all.draw_weights(&window, prior).unwrap().expect("weights");
        assert_eq!(weights.len(), window.len());
        let (mut sharp, mut flat, mut full) = (Vec::new(), Vec::new(), Vec::new());
        for (i, &w) in weights.iter().enumerate() {
            let record = window.record(i);
            if !record.full_search {
                assert_eq!(w, 1.0, "row {i}: a cheap search's weight stays 1");
                continue;
            }
            full.push(w);
            let one_hot = record.policy_target.iter().filter(|&&t| t > 0.0).count() == 1;
            if one_hot && record.policy_target.len() > 1 { sharp.push(w) } else { flat.push(w) }
        }
        assert!(sharp.len() >= 5 && flat.len() >= 5, "{} / {}", sharp.len(), flat.len());
        let mean = full.iter().sum::<f64>() / full.len() as f64;
        assert!((mean - 1.0).abs() < 1e-9, "full-search weights average {mean}");
        let least_sharp = sharp.iter().copied().fold(f64::INFINITY, f64::min);
        let most_flat = flat.iter().copied().fold(0.0, f64::max);
        assert!(least_sharp > most_flat, "{sharp:?} against {flat:?}");

        // A share of one half: half of each weight uniform.
        let half = Sampling::PolicySurprise { share: 0.5 };
        let halved = half.draw_weights(&window, prior).unwrap().expect("weights");
        for (w, h) in weights.iter().zip(&halved) {
            assert!((h - (0.5 + 0.5 * w)).abs() < 1e-9);
        }
    }

    #[test]
    fn surprise_is_zero_when_the_prior_is_the_target_and_grows_as_they_part() {
        let legal = [0, 1, 3];
        // Equal logits on the legal actions: the prior is uniform over three.
        let flat = [0.0, 0.0, 5.0, 0.0];
        let uniform = [1.0, 1.0, 0.0, 1.0];
        assert!(policy_surprise(&uniform, &flat, &legal).abs() < 1e-9);
        // A target on one action: KL = ln 3 (the illegal action's logit plays no part).
        let sharp = [0.0, 2.0, 0.0, 0.0];
        assert!((policy_surprise(&sharp, &flat, &legal) - 3f64.ln()).abs() < 1e-6);
        // The prior peaked elsewhere: more surprise.
        let elsewhere = [4.0, 0.0, 0.0, 0.0];
        assert!(policy_surprise(&sharp, &elsewhere, &legal) > 3f64.ln() + 1.0);
        assert_eq!(policy_surprise(&[0.0; 4], &flat, &legal), 0.0);
    }

    #[test]
    fn the_share_must_be_a_fraction() {
        assert!(Sampling::PolicySurprise { share: 0.5 }.validate().is_ok());
        assert!(Sampling::PolicySurprise { share: 1.5 }.validate().is_err());
        assert!(Sampling::PolicySurprise { share: f32::NAN }.validate().is_err());
        assert!(Sampling::Uniform.validate().is_ok());
    }
}
