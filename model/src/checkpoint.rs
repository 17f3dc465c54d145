//! Checkpoint folders: `net.json` + `weights.bpk` (+ optionally `optimizer.bpk`).
//!
//! `net.json` holds the [`NetConfig`], the game variant, the input encoding version and the
//! size and hash of the weights file. A run that averages its weights
//! ([`weight_average`](crate::weight_average)) also keeps the weights as trained in `raw.bpk`:
//! `weights.bpk` is the average, which plays, and `raw.bpk` what training continues from.
//!
//! Every file is written to a temporary name and renamed into place, and the weights go first:
//! a reader never sees a half-written file, and one that catches a folder mid-overwrite (new
//! weights, old `net.json`) gets a hash mismatch, not a silently wrong network.

use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::store::{ModuleRecord, RecordError};
use burn::tensor::{Bytes, Device};
use serde::{Deserialize, Serialize};

use crate::config::NetConfig;
use crate::error::{ModelError, Result};
use crate::files::{self, FileDigest};
use crate::net::Net;
use games::Encoding;

/// The metadata file's name.
pub const META_FILE: &str = "net.json";
/// The weights file's name (burnpack format).
pub const WEIGHTS_FILE: &str = "weights.bpk";
/// The trained (not averaged) weights' file name, in a checkpoint of a run that averages.
pub const RAW_WEIGHTS_FILE: &str = "raw.bpk";
/// Format version of `net.json` itself; bumped if its layout changes.
pub const META_FORMAT: u32 = 1;

/// The contents of `net.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointMeta {
    /// Layout version of this file ([`META_FORMAT`]).
    pub format: u32,
    /// The game variant the network plays (e.g. `"camelot"`).
    pub variant: String,
    /// Version of the input-plane encoding the network was trained on.
    pub encoding_version: u32,
    /// The network's shape and sizes.
    pub config: NetConfig,
    /// Size and hash of the weights file (it guards the file; burn writes random parameter
    /// ids into it, so two files of the same weights differ).
    pub weights: FileDigest,
    /// 64-bit FNV-1a hash of the tensor values (names and little-endian `f32`s of
    /// [`named_tensors`](crate::named_weights::named_tensors), in order), as 16 hex digits:
    /// identical weights have identical hashes, whichever run or file they come from. Absent
    /// in checkpoints written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensors_fnv1a64: Option<String>,
    /// Size and hash of the weights as trained ([`RAW_WEIGHTS_FILE`], the same network
    /// config), when `weights` holds their running average; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_weights: Option<FileDigest>,
}

/// A loaded checkpoint.
#[derive(Debug, Clone)]
pub struct Checkpoint {
    /// What `net.json` said.
    pub meta: CheckpointMeta,
    /// The network with the saved weights.
    pub net: Net,
}

/// Saves `net` into the folder `dir` (created if needed), replacing any checkpoint there.
/// The encoding version recorded is the one the network's shape names.
pub fn save(dir: &Path, net: &Net, variant: &str) -> Result<CheckpointMeta> {
    save_with_raw(dir, net, None, variant)
}

/// [`save`] of a run that averages its weights: `published` (the average) as the weights that
/// load and play, and `trained` (the same config) as [`RAW_WEIGHTS_FILE`], which
/// [`load_trained_on`] gives back. Configs that differ are [`ModelError::InvalidArgument`].
pub fn save_averaged(
    dir: &Path,
    published: &Net,
    trained: &Net,
    variant: &str,
) -> Result<CheckpointMeta> {
    if published.config() != trained.config() {
        return Err(ModelError::InvalidArgument(
            "an averaged network and its trained weights must have one config".to_string(),
        ));
    }
    save_with_raw(dir, published, Some(trained), variant)
}

fn save_with_raw(
    dir: &Path,
    net: &Net,
    raw: Option<&Net>,
    variant: &str,
) -> Result<CheckpointMeta> {
    files::ensure_dir(dir)?;
    let raw_weights = match raw {
        Some(raw) => {
            let bytes = encode(raw.valid().into_record(), "raw weights")?;
            files::write_atomic(&dir.join(RAW_WEIGHTS_FILE), &bytes)?;
            Some(FileDigest::of(RAW_WEIGHTS_FILE, &bytes))
        }
        None => None,
    };
    // `valid()` first: it folds pending batch-norm running-statistic updates into the stored
    // value (burn keeps the latest update per thread on the side, and a plain record of a
    // module fresh from training would miss it) and drops autodiff.
    let valid = net.valid();
    let tensors = tensors_hash(&valid)?;
    let bytes = encode(valid.into_record(), "weights")?;
    let meta = CheckpointMeta {
        format: META_FORMAT,
        variant: variant.to_string(),
        encoding_version: net.config().shape.encoding.version(),
        config: net.config().clone(),
        weights: FileDigest::of(WEIGHTS_FILE, &bytes),
        tensors_fnv1a64: Some(tensors),
        raw_weights,
    };
    files::write_atomic(&dir.join(WEIGHTS_FILE), &bytes)?;
    write_json(&dir.join(META_FILE), &meta)?;
    Ok(meta)
}

/// The hash of `net`'s tensor values ([`CheckpointMeta::tensors_fnv1a64`]).
pub fn tensors_hash(net: &Net) -> Result<String> {
    let mut bytes = Vec::new();
    for t in crate::named_weights::named_tensors(net)? {
        bytes.extend_from_slice(t.name.as_bytes());
        bytes.push(0);
        bytes.extend(t.values.iter().flat_map(|v| v.to_le_bytes()));
    }
    Ok(format!("{:016x}", files::fnv1a64(&bytes)))
}

/// Loads the checkpoint in `dir` onto the CPU, checking it is for `expected_variant` and that
/// its encoding version is one this build knows and the one its network's shape names (a
/// checkpoint written before encodings had names is [`Encoding::Basic`]). Callers encode
/// states as `net.config().shape.encoding` says.
///
/// Errors, each naming the file: [`ModelError::MissingFile`] (folder, `net.json` or weights),
/// [`ModelError::BadJson`], [`ModelError::WrongVariant`], [`ModelError::WrongEncodingVersion`],
/// [`ModelError::CorruptWeights`] (size/hash mismatch or undecodable), and
/// [`ModelError::ShapeMismatch`] (weights that do not fit the configured network).
pub fn load(dir: &Path, expected_variant: &str) -> Result<Checkpoint> {
    load_on(dir, expected_variant, &Device::flex())
}

/// [`load`] onto a given device. To resume training, load onto the plain device and hand the
/// net to [`Trainer::new`](crate::Trainer::new), which moves it to the autodiff device.
pub fn load_on(dir: &Path, expected_variant: &str, device: &Device) -> Result<Checkpoint> {
    load_file(dir, expected_variant, device, false)
}

/// [`load_on`] of the weights training continues from: the checkpoint's
/// [`RAW_WEIGHTS_FILE`] when it has one ([`save_averaged`]), else its weights.
pub fn load_trained_on(dir: &Path, expected_variant: &str, device: &Device) -> Result<Checkpoint> {
    load_file(dir, expected_variant, device, true)
}

fn load_file(dir: &Path, expected_variant: &str, device: &Device, raw: bool) -> Result<Checkpoint> {
    let (meta, retired_heads) = read_meta_noting_retired_heads(dir)?;
    let meta_path = dir.join(META_FILE);
    if meta.variant != expected_variant {
        return Err(ModelError::WrongVariant {
            path: meta_path,
            expected: expected_variant.to_string(),
            found: meta.variant,
        });
    }
    let named = meta.config.shape.encoding;
    let expected = match Encoding::from_version(meta.encoding_version) {
        None => Some(format!(
            "this build knows versions {} (a newer camelot-zero wrote it?)",
            Encoding::ALL.map(|e| e.version().to_string()).join(" and ")
        )),
        Some(e) if e != named => Some(format!(
            "its network's shape names the {named} encoding (version {})",
            named.version()
        )),
        Some(_) => None,
    };
    if let Some(expected) = expected {
        return Err(ModelError::WrongEncodingVersion {
            path: meta_path,
            expected,
            found: meta.encoding_version,
        });
    }
    let digest = match (&meta.raw_weights, raw) {
        (Some(raw_weights), true) => raw_weights,
        _ => &meta.weights,
    };
    let weights_path = dir.join(&digest.file);
    let bytes = files::read(&weights_path)?;
    digest.verify(&weights_path, &bytes)?;
    let mut record = decode(&weights_path, bytes)?;
    if retired_heads {
        // Weights this version has no place for, and play never read: left behind.
        record = record.allow_unused(true);
    }
    let net = Net::new(&meta.config, device)
        .map_err(|e| bad_json(&meta_path, e.to_string()))?
        .try_load_record(record)
        .map_err(|e| match e {
            RecordError::Validation(message) => {
                ModelError::ShapeMismatch { path: weights_path, message }
            }
            RecordError::Io(problem) => ModelError::CorruptWeights { path: weights_path, problem },
        })?;
    Ok(Checkpoint { meta, net })
}

/// Reads and parses `net.json` without checking variant or version.
pub fn read_meta(dir: &Path) -> Result<CheckpointMeta> {
    read_meta_noting_retired_heads(dir).map(|(meta, _)| meta)
}

/// [`read_meta`], and whether the same file names a retired head ([`has_retired_heads`]),
/// from one read of it.
fn read_meta_noting_retired_heads(dir: &Path) -> Result<(CheckpointMeta, bool)> {
    let dir = files::require_dir(dir)?;
    let path = dir.join(META_FILE);
    let text = files::read(&path)?;
    let meta: CheckpointMeta =
        serde_json::from_slice(&text).map_err(|e| bad_json(&path, e.to_string()))?;
    if meta.format != META_FORMAT {
        return Err(bad_json(
            &path,
            format!("format {} (this build reads {META_FORMAT})", meta.format),
        ));
    }
    // A file name with separators could point outside the folder.
    for digest in std::iter::once(&meta.weights).chain(&meta.raw_weights) {
        if digest.file.contains(['/', '\\']) || digest.file.starts_with('.') {
            return Err(bad_json(&path, format!("bad weights file name {:?}", digest.file)));
        }
    }
    let retired = has_retired_heads(&path, &text)?;
    Ok((meta, retired))
}

/// Whether `text`, the `net.json` at `path`, names a head of an earlier version that this one
/// no longer builds: the auxiliary material and ownership heads (`material_classes`,
/// `ownership_classes` above 0; levers AU and AV, measured level and removed). Their weights
/// are training targets that play never read, so such a checkpoint loads without them and
/// plays as it did.
fn has_retired_heads(path: &Path, text: &[u8]) -> Result<bool> {
    #[derive(Deserialize)]
    struct Meta {
        config: Retired,
    }
    #[derive(Deserialize)]
    struct Retired {
        #[serde(default)]
        material_classes: usize,
        #[serde(default)]
        ownership_classes: usize,
    }
    let meta: Meta = serde_json::from_slice(text).map_err(|e| bad_json(path, e.to_string()))?;
    Ok(meta.config.material_classes > 0 || meta.config.ownership_classes > 0)
}

fn bad_json(path: &Path, message: String) -> ModelError {
    ModelError::BadJson { path: path.to_path_buf(), message }
}

/// Writes `value` as pretty JSON, atomically.
pub(crate) fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let text = serde_json::to_vec_pretty(value)
        .map_err(|e| ModelError::Encode { what: "json", message: e.to_string() })?;
    files::write_atomic(path, &text)
}

/// Serialises a burn record to burnpack bytes.
pub(crate) fn encode(record: ModuleRecord, what: &'static str) -> Result<Vec<u8>> {
    let bytes =
        record.into_bytes().map_err(|e| ModelError::Encode { what, message: e.to_string() })?;
    Ok(bytes.to_vec())
}

/// Parses burnpack bytes read from `path`.
pub(crate) fn decode(path: &Path, bytes: Vec<u8>) -> Result<ModuleRecord> {
    ModuleRecord::from_bytes(Bytes::from_bytes_vec(bytes)).map_err(|e| ModelError::CorruptWeights {
        path: PathBuf::from(path),
        problem: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::testing::{camelot_shape, pseudo_random, scratch_dir, tri_camelot_shape};
    use crate::{DeviceKind, Predictor};
    use storage::ScratchDir;

    const VARIANT: &str = "tri-camelot";

    /// A small saved checkpoint (its folder in the scratch folder returned first, which holds
    /// it until dropped) and the network it holds.
    fn saved(name: &str) -> (ScratchDir, PathBuf, Net) {
        let scratch = scratch_dir(name);
        let dir = scratch.join("ckpt");
        let config = NetConfig::preset("b4c32", tri_camelot_shape(18)).unwrap();
        let net = Net::new(&config, &Device::flex()).unwrap();
        save(&dir, &net, VARIANT).unwrap();
        (scratch, dir, net)
    }

    fn outputs(net: &Net) -> crate::Prediction {
        let predictor = Predictor::new(net, DeviceKind::Cpu).unwrap();
        let planes = pseudo_random(3 * net.config().shape.input_len(), 11);
        predictor.predict(&planes, 3).unwrap()
    }

    fn edit_meta(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
        let path = dir.join(META_FILE);
        let mut json: serde_json::Value =
            serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        edit(&mut json);
        fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    }

    /// Cuts `dir`'s `file` to its first `keep(length)` bytes; returns its path and the bytes it
    /// held.
    fn truncate(dir: &Path, file: &str, keep: impl FnOnce(usize) -> usize) -> (PathBuf, Vec<u8>) {
        let path = dir.join(file);
        let bytes = fs::read(&path).unwrap();
        fs::write(&path, &bytes[..keep(bytes.len())]).unwrap();
        (path, bytes)
    }

    #[test]
    fn save_then_load_gives_bit_identical_outputs() {
        let (_scratch, dir, net) = saved("roundtrip");
        let loaded = load(&dir, VARIANT).unwrap();
        assert_eq!(loaded.meta.config, *net.config());
        assert_eq!(loaded.meta.variant, VARIANT);
        assert_eq!(outputs(&loaded.net), outputs(&net));
        // No temporary files are left behind.
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn an_averaged_checkpoint_plays_the_average_and_trains_from_the_raw_weights() {
        let (_scratch, dir, published) = saved("averaged");
        let trained = Net::seeded(published.config(), &Device::flex(), 5).unwrap();
        let meta = save_averaged(&dir, &published, &trained, VARIANT).unwrap();
        assert_eq!(meta.raw_weights.as_ref().unwrap().file, RAW_WEIGHTS_FILE);
        assert_eq!(outputs(&load(&dir, VARIANT).unwrap().net), outputs(&published));
        let device = Device::flex();
        let resumed = load_trained_on(&dir, VARIANT, &device).unwrap().net;
        assert_eq!(outputs(&resumed), outputs(&trained));
        assert_ne!(outputs(&trained), outputs(&published));
        // A plain checkpoint trains from its only weights.
        save(&dir, &published, VARIANT).unwrap();
        assert_eq!(read_meta(&dir).unwrap().raw_weights, None);
        let plain = load_trained_on(&dir, VARIANT, &device).unwrap().net;
        assert_eq!(outputs(&plain), outputs(&published));
        // The raw file is guarded like the weights.
        save_averaged(&dir, &published, &trained, VARIANT).unwrap();
        let (path, _) = truncate(&dir, RAW_WEIGHTS_FILE, |n| n - 1);
        match load_trained_on(&dir, VARIANT, &device) {
            Err(ModelError::CorruptWeights { path: p, .. }) => assert_eq!(p, path),
            other => panic!("expected CorruptWeights, got {other:?}"),
        }
        let deeper = trained.deepen(published.config().blocks + 1, 1).unwrap();
        assert!(save_averaged(&dir, &published, &deeper, VARIANT).is_err());
    }

    /// Issue 15, defect 12: the weights hash of `net.json` differed between two checkpoints
    /// of bit-identical tensors (burn writes random parameter ids into the file).
    #[test]
    fn d12_the_tensors_hash_identifies_the_weights() {
        let (_scratch, dir, net) = saved("hash-a");
        let loaded = load(&dir, VARIANT).unwrap();
        let again =
            dir.with_file_name(format!("{}-again", dir.file_name().unwrap().to_str().unwrap()));
        let meta = save(&again, &loaded.net, VARIANT).unwrap();
        let first = read_meta(&dir).unwrap();
        assert_ne!(first.weights, meta.weights, "the files differ (parameter ids)");
        assert!(first.tensors_fnv1a64.is_some());
        assert_eq!(first.tensors_fnv1a64, meta.tensors_fnv1a64, "the tensors do not");
        // Another network has another hash.
        let other = Net::new(net.config(), &Device::flex()).unwrap();
        assert_ne!(tensors_hash(&other).unwrap(), meta.tensors_fnv1a64.unwrap());
        let _ = fs::remove_dir_all(&again);
    }

    #[test]
    fn wrong_variant_and_encoding_version_are_refused() {
        let (_scratch, dir, _) = saved("mismatch");
        let err = load(&dir, "camelot").unwrap_err();
        assert!(
            matches!(&err, ModelError::WrongVariant { found, .. } if found == VARIANT),
            "{err}"
        );
        let meta_path = dir.join(META_FILE);
        let original = fs::read_to_string(&meta_path).unwrap();
        let json: serde_json::Value = serde_json::from_str(&original).unwrap();
        assert_eq!(json["encoding_version"], 1, "the toy shape is of the basic encoding");
        let with_version = |v: u32| {
            let mut j = json.clone();
            j["encoding_version"] = v.into();
            fs::write(&meta_path, j.to_string()).unwrap();
        };
        with_version(9);
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(matches!(err, ModelError::WrongEncodingVersion { found: 9, .. }), "{err}");
        assert!(err.to_string().contains("knows versions 1 and 2"), "{err}");
        with_version(2);
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(err.to_string().contains("names the basic encoding (version 1)"), "{err}");
        // A checkpoint from before encodings had names: no `encoding` in its shape.
        let mut old = json.clone();
        old["config"]["shape"].as_object_mut().unwrap().remove("encoding").unwrap();
        fs::write(&meta_path, old.to_string()).unwrap();
        let loaded = load(&dir, VARIANT).unwrap();
        assert_eq!(loaded.net.config().shape.encoding, Encoding::Basic);
    }

    #[test]
    fn truncated_weights_are_corrupt() {
        let (_scratch, dir, _) = saved("truncated");
        let (path, bytes) = truncate(&dir, WEIGHTS_FILE, |len| len / 2);
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(matches!(&err, ModelError::CorruptWeights { path: p, .. } if *p == path), "{err}");
        // Same length, one flipped byte: caught by the hash.
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 2] ^= 0x40;
        fs::write(&path, &flipped).unwrap();
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(
            matches!(&err, ModelError::CorruptWeights { problem, .. } if problem.contains("hash")),
            "{err}"
        );
    }

    #[test]
    fn missing_folder_and_files_are_named() {
        let (_scratch, dir, _) = saved("missing");
        let nowhere = dir.join("nope");
        assert!(
            matches!(load(&nowhere, VARIANT), Err(ModelError::MissingFile { path }) if path == nowhere)
        );
        fs::remove_file(dir.join(WEIGHTS_FILE)).unwrap();
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(
            matches!(&err, ModelError::MissingFile { path } if path.ends_with(WEIGHTS_FILE)),
            "{err}"
        );
        fs::remove_file(dir.join(META_FILE)).unwrap();
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(
            matches!(&err, ModelError::MissingFile { path } if path.ends_with(META_FILE)),
            "{err}"
        );
    }

    #[test]
    fn corrupted_net_json_is_bad_json() {
        let (_scratch, dir, _) = saved("badjson");
        let (path, _) = truncate(&dir, META_FILE, |len| len - 7);
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(matches!(&err, ModelError::BadJson { path: p, .. } if *p == path), "{err}");
        fs::write(&path, b"{\"format\": 1}").unwrap();
        assert!(matches!(load(&dir, VARIANT), Err(ModelError::BadJson { .. })));
    }

    /// A checkpoint of an earlier version with a retired head (material or ownership) loads
    /// without it and gives the outputs it gave; the same extra weights without such a head
    /// named in `net.json` are refused. The extra weights here are a moves-left head's that
    /// `net.json` is edited to forget: the file then holds tensors the network has no place for,
    /// as a retired head's are.
    #[test]
    fn a_retired_heads_weights_are_left_behind_and_only_then() {
        let scratch = scratch_dir("retired-head");
        let dir = scratch.join("ckpt");
        let config = NetConfig::preset("b4c32", tri_camelot_shape(18)).unwrap();
        let net = Net::seeded(&config, &Device::flex(), 3).unwrap();
        let with = net.clone().with_moves_left_head(crate::MOVES_LEFT_CLASSES, 4).unwrap();
        save(&dir, &with, VARIANT).unwrap();
        edit_meta(&dir, |json| json["config"]["moves_left_classes"] = 0.into());
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(matches!(err, ModelError::ShapeMismatch { .. }), "{err}");
        for head in ["material_classes", "ownership_classes"] {
            edit_meta(&dir, |json| json["config"][head] = 5.into());
            let loaded = load(&dir, VARIANT).unwrap();
            assert_eq!(loaded.net.config().moves_left_classes, 0);
            let (a, b) = (outputs(&loaded.net), outputs(&net));
            assert_eq!((a.policy_logits, a.values), (b.policy_logits, b.values), "{head}");
            edit_meta(&dir, |json| json["config"][head] = 0.into());
        }
    }

    #[test]
    fn weights_that_do_not_fit_the_config_are_a_shape_mismatch() {
        let (_scratch, dir, _) = saved("shape");
        // The hash still matches (weights untouched), but net.json now describes a wider net.
        edit_meta(&dir, |json| json["config"]["channels"] = 48.into());
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(matches!(err, ModelError::ShapeMismatch { .. }), "{err}");
        // Another game's shape entirely.
        let camelot = serde_json::to_value(camelot_shape(18)).unwrap();
        edit_meta(&dir, |json| {
            json["config"]["channels"] = 32.into();
            json["config"]["shape"] = camelot;
        });
        let err = load(&dir, VARIANT).unwrap_err();
        assert!(matches!(err, ModelError::ShapeMismatch { .. }), "{err}");
    }
}
