//! The float precision of burn's inference: `f32` (the default, what training uses) or `f16`
//! (half the memory traffic a position, and the tensor cores' type on a GPU).
//!
//! Only inference changes: a [`Predictor`](crate::Predictor) at [`Precision::F16`] holds a copy of
//! the network with every float parameter and batch-norm statistic cast to `f16`, casts each
//! batch of planes to `f16` on the device and reads the policy logits and value logits back as
//! `f32` (the softmax runs in `f32`). Checkpoints and training stay `f32`. The native CPU engine
//! is `f32` only, and so is burn's CPU backend here (some of its f16 kernels panic): `f16` is for
//! the GPU. How far it moves the outputs is measured by `camelot-zero device check` there.

use burn::module::{Module, ModuleMapper, Param};
use burn::tensor::{FloatDType, Tensor};
use serde::{Deserialize, Serialize};

use crate::names::named_enum;
use crate::net::Net;

/// The float type of burn's forward pass at inference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// 32-bit floats: the training type; agrees with the native CPU engine to ~1e-6.
    #[default]
    F32,
    /// 16-bit floats (IEEE half): weights, activations and batch-norm statistics.
    F16,
}

named_enum!(Precision, "precision", { F32 => "f32", F16 => "f16" });

impl Precision {
    /// burn's float type for this precision.
    pub(crate) fn dtype(self) -> FloatDType {
        match self {
            Precision::F32 => FloatDType::F32,
            Precision::F16 => FloatDType::F16,
        }
    }

    /// `net` with every float parameter and running statistic cast to this precision (`f32`:
    /// `net` as it is).
    pub(crate) fn cast_net(self, net: Net) -> Net {
        match self {
            Precision::F32 => net,
            Precision::F16 => net.map(&mut CastTo(self.dtype())),
        }
    }

    /// A batch of planes in this precision.
    pub(crate) fn cast_input(self, x: Tensor<4>) -> Tensor<4> {
        match self {
            Precision::F32 => x,
            Precision::F16 => x.cast(self.dtype()),
        }
    }
}

/// Casts every float tensor of a module (parameters and running statistics) to one type.
struct CastTo(FloatDType);

impl ModuleMapper for CastTo {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let dtype = self.0;
        param.map(|t| t.cast(dtype))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::camelot_shape;
    use crate::{DeviceKind, NetConfig, NetEngine, Predictor};

    #[test]
    fn f16_is_refused_on_the_cpu_engines() {
        let config = NetConfig::preset("b4c32", camelot_shape(18)).unwrap();
        let net = Net::seeded(&config, &DeviceKind::Cpu.device().unwrap(), 3).unwrap();
        for engine in [NetEngine::Native, NetEngine::Burn] {
            let p = Predictor::with_engine(&net, DeviceKind::Cpu, engine).unwrap();
            let e = p.clone().with_precision(Precision::F16).unwrap_err().to_string();
            assert!(e.contains("f16") && e.contains("GPU"), "{engine:?}: {e}");
            assert_eq!(p.with_precision(Precision::F32).unwrap().precision(), Precision::F32);
        }
    }
}
