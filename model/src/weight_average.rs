//! An exponential moving average of a network's weights: the published network of a run that
//! averages (`[train] weight_average` in a run config) is `decay × previous + (1 − decay) ×
//! latest`, over every float tensor of the two networks (batch-norm running statistics
//! included, as timm's `ModelEmaV2` averages buffers), paired in burn's module order.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::tensor::{Tensor, TensorData};

use crate::error::{ModelError, Result};
use crate::net::Net;

/// `decay × previous + (1 − decay) × latest`, tensor by tensor, as a network of `previous`'s
/// config on `previous`'s device. `decay` 0 gives `latest`'s weights, 1 `previous`'s.
/// `latest` may be a network in training (on an autodiff device): its pending batch-norm
/// statistics are folded in first, as a checkpoint does.
///
/// Errors: [`ModelError::InvalidArgument`] if the two networks' configs differ (a deepened
/// tower or a new head: there is nothing to average them with) or `decay` is not in 0..=1.
pub fn blend(previous: Net, latest: &Net, decay: f32) -> Result<Net> {
    if !(0.0..=1.0).contains(&decay) {
        return Err(ModelError::InvalidArgument(format!(
            "a weight average's decay must be from 0 to 1, not {decay}"
        )));
    }
    if previous.config() != latest.config() {
        return Err(ModelError::InvalidArgument(
            "the networks to average have different shapes".to_string(),
        ));
    }
    let mut collect = Collect(Vec::new());
    latest.valid().visit(&mut collect);
    let mut mix = Mix { latest: collect.0.into_iter(), decay, mismatch: None };
    let blended = previous.map(&mut mix);
    match mix.mismatch {
        Some(problem) => Err(ModelError::InvalidArgument(problem)),
        None => Ok(blended),
    }
}

/// Every float tensor of a module, in visiting order.
struct Collect(Vec<TensorData>);

impl ModuleVisitor for Collect {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.0.push(param.val().into_data());
    }
}

/// Replaces each float tensor `p` by `decay × p + (1 − decay) × latest`, taking the latest
/// network's tensors in the same order. A shape that does not match is noted and the tensor
/// left as it is (the caller turns the note into an error).
struct Mix {
    latest: std::vec::IntoIter<TensorData>,
    decay: f32,
    mismatch: Option<String>,
}

impl ModuleMapper for Mix {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let Some(latest) = self.latest.next() else {
            self.mismatch.get_or_insert_with(|| "the latest network has fewer tensors".into());
            return param;
        };
        let (decay, mismatch) = (self.decay, &mut self.mismatch);
        param.map(|previous| {
            if previous.shape() != *latest.shape() {
                mismatch.get_or_insert_with(|| {
                    format!("tensor shapes {:?} and {:?} differ", previous.shape(), latest.shape())
                });
                return previous;
            }
            let latest = Tensor::<D>::from_data(latest, &previous.device());
            previous.mul_scalar(decay).add(latest.mul_scalar(1.0 - decay))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NetConfig;
    use crate::named_weights::named_tensors;
    use crate::testing::camelot_shape;
    use burn::tensor::Device;

    /// Two networks of one small config, from seeds 1 and 2.
    fn two_nets() -> (NetConfig, Net, Net) {
        let config = NetConfig::preset("b4c32", camelot_shape(18)).unwrap();
        let seeded = |seed| Net::seeded(&config, &Device::flex(), seed).unwrap();
        let (a, b) = (seeded(1), seeded(2));
        (config, a, b)
    }

    #[test]
    fn every_weight_and_statistic_is_the_weighted_mean() {
        let (_, a, b) = two_nets();
        let (ta, tb) = (named_tensors(&a).unwrap(), named_tensors(&b).unwrap());
        let mixed = named_tensors(&blend(a, &b, 0.75).unwrap()).unwrap();
        assert_eq!(mixed.len(), ta.len());
        let mut differ = 0;
        for ((m, x), y) in mixed.iter().zip(&ta).zip(&tb) {
            assert_eq!((&m.name, &m.shape), (&x.name, &x.shape));
            for ((&m, &x), &y) in m.values.iter().zip(&x.values).zip(&y.values) {
                assert!((m - (0.75 * x + 0.25 * y)).abs() <= 1e-6 * (1.0 + x.abs() + y.abs()));
                differ += usize::from(x != y);
            }
        }
        assert!(differ > 100, "two seeds give different networks");
    }

    #[test]
    fn the_ends_of_the_decay_give_one_network_and_bad_input_is_refused() {
        let (config, a, b) = two_nets();
        let same = |x: &Net, y: &Net| named_tensors(x).unwrap() == named_tensors(y).unwrap();
        assert!(same(&blend(a.clone(), &b, 0.0).unwrap(), &b));
        assert!(same(&blend(a.clone(), &b, 1.0).unwrap(), &a));
        assert!(blend(a.clone(), &b, 1.5).is_err());
        assert!(blend(a.clone(), &b, f32::NAN).is_err());
        let deeper = b.deepen(config.blocks + 1, 3).unwrap();
        let e = blend(a, &deeper, 0.5).unwrap_err();
        assert!(e.to_string().contains("different shapes"), "{e}");
    }
}
