//! Which input planes a network reads ([`Encoding`]): the planes themselves are
//! [`crate::Encode`]'s, their count is in each [`crate::Layout`].

use crate::names::impl_names;

/// Which input planes a network reads: every network names its encoding in its layout (and so
/// in its checkpoint), and the encoder serves the one a network names, so networks trained on
/// an older encoding keep loading and playing. Written in configs as `"basic"` or
/// `"tactical"`; checkpoints record its [`version`](Encoding::version).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Encoding {
    /// Version 1: pieces, castles, the move in progress, castle-move counts (13 planes).
    #[default]
    Basic = 1,
    /// Version 2: the basic planes, then five tactical planes per seat (what each seat could
    /// capture, by jumps and by Charges, from where, for how much, and whether it must).
    Tactical = 2,
}

impl Encoding {
    /// Every encoding, oldest first (the version of `ALL[i]` is `i + 1`).
    pub const ALL: [Encoding; 2] = [Encoding::Basic, Encoding::Tactical];
    /// The newest encoding.
    pub const LATEST: Encoding = Encoding::Tactical;

    /// The version number checkpoints and export sidecars record (1, 2, ...).
    pub fn version(self) -> u32 {
        self as u32
    }

    /// The encoding of a version number, if this build knows it.
    pub fn from_version(version: u32) -> Option<Encoding> {
        Encoding::ALL.get((version as usize).checked_sub(1)?).copied()
    }

    /// The name configs use (`basic`, `tactical`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Encoding::Basic => "basic",
            Encoding::Tactical => "tactical",
        }
    }
}

impl_names!(Encoding, "encoding");
