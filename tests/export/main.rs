//! `camelot-zero export` end to end. The sidecar is read as plain JSON, never through our own
//! types, and used as a program in another language would: random positions of both variants
//! (every seat of Tri-Camelot, many in mid-move) are encoded from their position strings and
//! their legal legs turned into action indices using only the sidecar, and must equal the
//! engine's planes and indices exactly. The ONNX file's inputs and outputs and the safetensors
//! file's tensors must be those the sidecar lists; bad input exits with status 2; and where
//! onnxruntime is installed, `scripts/check_onnx.py` runs the exported network against
//! `analyze --raw`.

#[path = "../common/mod.rs"]
mod common;
mod sidecar;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{args, bin, run, scratch, stderr};
use games::{CamelotRules, Encode, Encoding, Game, State, TriCamelotRules, Variant};
use model::onnx::Dim;
use model::{DeviceKind, Net, NetConfig};
use serde_json::Value;
use sidecar::Spec;

/// A small random checkpoint (b4c32 with 1 block) of variant `V` in `dir/ckpt`.
fn checkpoint<V: Variant>(dir: &Path) -> (PathBuf, Net) {
    checkpoint_with_blocks::<V>(dir, 1, Encoding::Basic)
}

fn checkpoint_with_blocks<V: Variant>(
    dir: &Path,
    blocks: usize,
    encoding: Encoding,
) -> (PathBuf, Net) {
    let mut config = NetConfig::preset("b4c32", State::<V>::layout(encoding).clone()).unwrap();
    config.blocks = blocks;
    let net = Net::new(&config, &DeviceKind::Cpu.device().unwrap()).unwrap();
    let ckpt = dir.join("ckpt");
    model::checkpoint::save(&ckpt, &net, V::NAME).unwrap();
    (ckpt, net)
}

/// Runs `export` and returns the sidecar as JSON.
fn export(ckpt: &Path, format: &str, out: &Path, extra: &[&str]) -> Value {
    let args = args!["export", "--model", ckpt, "--format", format, "--out", out];
    let o = bin().args(args).args(extra).output().unwrap();
    assert!(o.status.success(), "{args:?} {extra:?}: {}", stderr(&o));
    let sidecar = format!("{}.json", out.display());
    serde_json::from_slice(&std::fs::read(sidecar).unwrap()).unwrap()
}

/// Encodes random states of `V` from the sidecar alone and checks planes and action indices
/// against the engine. Returns how many states had each seat to move, and how many were in
/// mid-move.
fn check_states<V: Variant>(sidecar: &Value, seed: u64) -> (Vec<usize>, usize) {
    let spec = Spec::from_json(sidecar);
    let mut seats = vec![0; V::NUM_PLAYERS];
    let mut mid_move = 0;
    let mut actions = Vec::new();
    for state in games::testing::random_states::<V>(30, 300, seed) {
        let text = state.to_string();
        let mut want = vec![0.0; State::<V>::layout(Encoding::Basic).input_len()];
        state.encode(Encoding::Basic, &mut want);
        assert_eq!(spec.encode(&text), want, "planes of {text}");
        state.legal_actions(&mut actions);
        let mover = state.to_move().index();
        for &a in &actions {
            let leg = state.action_to_string(a);
            assert_eq!(spec.action_index(mover, &leg), state.action_index(a), "{leg} in {text}");
        }
        seats[mover] += 1;
        mid_move += usize::from(!state.landed().is_empty());
    }
    (seats, mid_move)
}

#[test]
fn the_sidecar_alone_reproduces_the_encoding_and_the_action_indices() {
    let dir = scratch("sidecar");
    let (ckpt, _) = checkpoint::<CamelotRules>(&dir.join("camelot"));
    let sidecar = export(&ckpt, "onnx", &dir.join("camelot.onnx"), &[]);
    assert_eq!(sidecar["variant"], "camelot");
    assert_eq!(sidecar["encoding_version"], 1);
    assert_eq!(sidecar["model_file"], "camelot.onnx");
    let (seats, mid_move) = check_states::<CamelotRules>(&sidecar, 1);
    assert!(seats.iter().all(|&n| n > 100) && mid_move > 20, "{seats:?} {mid_move}");

    let (ckpt, _) = checkpoint::<TriCamelotRules>(&dir.join("tri"));
    let sidecar = export(&ckpt, "safetensors", &dir.join("tri.safetensors"), &[]);
    assert_eq!(sidecar["players"].as_array().unwrap().len(), 3);
    let (seats, mid_move) = check_states::<TriCamelotRules>(&sidecar, 2);
    assert!(seats.iter().all(|&n| n > 100) && mid_move > 20, "{seats:?} {mid_move}");
}

/// The sidecar of a one-block Camelot network of `encoding`, which names its version and has
/// `planes` input planes, each described.
fn sidecar_of(encoding: Encoding, planes: usize) -> Value {
    let dir = scratch(encoding.as_str());
    let (ckpt, _) = checkpoint_with_blocks::<CamelotRules>(&dir, 1, encoding);
    let sidecar = export(&ckpt, "onnx", &dir.join("net.onnx"), &[]);
    assert_eq!(sidecar["encoding_version"], encoding.version());
    assert_eq!(sidecar["input"]["shape"][1], planes);
    assert_eq!(sidecar["planes"].as_array().unwrap().len(), planes);
    sidecar
}

/// A network of the tactical encoding: the sidecar names its version and describes its planes
/// (a program outside fills the tactical ones with its own move generator, as they say).
#[test]
fn a_tactical_networks_sidecar_lists_its_planes() {
    let sidecar = sidecar_of(Encoding::Tactical, 23);
    let planes = sidecar["planes"].as_array().unwrap();
    assert_eq!(planes[13]["name"], "mover_jump_captures");
    assert_eq!(planes[13]["fill"]["kind"], "jump_captures");
    assert_eq!(
        planes[21]["fill"],
        serde_json::json!({"kind": "best_capture", "relative_seat": 1, "man": 1.0, "knight": 1.4f32, "scale": 0.25, "max": 1.0})
    );
}

/// The sidecar's dims as ONNX dims.
fn dims(shape: &Value) -> Vec<Dim> {
    let dim = |d: &Value| match d {
        Value::String(s) => Dim::Symbolic(s.clone()),
        n => Dim::Fixed(n.as_i64().unwrap()),
    };
    shape.as_array().unwrap().iter().map(dim).collect()
}

#[test]
fn onnx_inputs_and_outputs_are_as_the_sidecar_says() {
    let dir = scratch("onnx");
    let (ckpt, _) = checkpoint::<TriCamelotRules>(&dir);
    for (file, extra, batch) in [
        ("dyn.onnx", vec![], Dim::Symbolic("batch".into())),
        ("b3.onnx", vec!["--batch", "3"], Dim::Fixed(3)),
    ] {
        let out = dir.join(file);
        let sidecar = export(&ckpt, "onnx", &out, &extra);
        let (inputs, outputs) = model::onnx::boundaries(&std::fs::read(&out).unwrap()).unwrap();
        let (input, policy, value) =
            (&sidecar["input"], &sidecar["outputs"]["policy"], &sidecar["outputs"]["value"]);
        assert_eq!((inputs.len(), outputs.len()), (1, 2));
        for (b, s) in [(&inputs[0], input), (&outputs[0], policy), (&outputs[1], value)] {
            assert_eq!(b.name, s["name"].as_str().unwrap());
            assert_eq!(b.dims, dims(&s["shape"]), "{}", b.name);
            assert_eq!((b.elem_type, s["dtype"].as_str().unwrap()), (1, "float32"));
        }
        assert_eq!(dims(&input["shape"]), [batch, Dim::Fixed(13), Dim::Fixed(11), Dim::Fixed(11)]);
        assert_eq!(dims(&policy["shape"])[1], Dim::Fixed(877));
        assert_eq!(value["classes"].as_array().unwrap().len(), 4);
    }
}

#[test]
fn safetensors_hold_the_checkpoints_weights_under_the_sidecars_names() {
    let dir = scratch("safetensors");
    let (ckpt, net) = checkpoint::<CamelotRules>(&dir);
    let out = dir.join("w.safetensors");
    let sidecar = export(&ckpt, "safetensors", &out, &[]);
    let bytes = std::fs::read(&out).unwrap();
    // The format: an 8-byte little-endian header length, a JSON header, then the data.
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    let data = &bytes[8 + n..];
    assert_eq!(header["__metadata__"]["variant"], "camelot");
    let listed = sidecar["tensors"].as_array().unwrap();
    // Input conv + bn (5), one block (10), policy (5 + 2 + 2), value (5 + 4).
    assert_eq!(listed.len(), 5 + 10 + 9 + 9);
    assert_eq!(header.as_object().unwrap().len(), listed.len() + 1);
    let weights = model::named_weights::named_tensors(&net).unwrap();
    for (entry, want) in listed.iter().zip(&weights) {
        let name = entry["name"].as_str().unwrap();
        let h = &header[name];
        assert_eq!((h["dtype"].as_str(), entry["dtype"].as_str()), (Some("F32"), Some("F32")));
        assert_eq!(h["shape"], entry["shape"], "{name}");
        assert_eq!(name, want.name);
        let (start, end) =
            (h["data_offsets"][0].as_u64().unwrap(), h["data_offsets"][1].as_u64().unwrap());
        let values: Vec<f32> = data[start as usize..end as usize]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(values, want.values, "{name}");
    }
    let shape = |name: &str| header[name]["shape"].clone();
    assert_eq!(shape("trunk.input.conv.weight"), serde_json::json!([32, 13, 3, 3]));
    assert_eq!(shape("trunk.block0.conv2.weight"), serde_json::json!([32, 32, 3, 3]));
    assert_eq!(shape("value.fc2.weight"), serde_json::json!([3, 32]));
    let arch = &sidecar["architecture"];
    assert_eq!((arch["blocks"].as_u64(), arch["cells"].as_u64()), (Some(1), Some(160)));
}

#[test]
fn bad_export_input_exits_2_with_one_line() {
    let dir = scratch("bad");
    let (ckpt, _) = checkpoint::<CamelotRules>(&dir);
    let corrupt = dir.join("corrupt");
    std::fs::create_dir_all(&corrupt).unwrap();
    for f in ["net.json", "weights.bpk"] {
        std::fs::copy(ckpt.join(f), corrupt.join(f)).unwrap();
    }
    let weights = std::fs::read(corrupt.join("weights.bpk")).unwrap();
    std::fs::write(corrupt.join("weights.bpk"), &weights[..weights.len() / 2]).unwrap();
    let (ckpt, corrupt) = (ckpt.to_str().unwrap(), corrupt.to_str().unwrap());
    let out = dir.join("x.onnx").to_str().unwrap().to_string();
    let nowhere = dir.join("no/such/folder/x.onnx");
    let nowhere = nowhere.to_str().unwrap();
    let dir_s = dir.to_str().unwrap();
    let missing = "/nonexistent/gen-0001";
    for (args, says) in [
        (vec!["--model", missing, "--format", "onnx", "--out", &out], missing),
        (vec!["--model", corrupt, "--format", "onnx", "--out", &out], "weights.bpk"),
        (vec!["--model", ckpt, "--format", "onnx", "--out", nowhere], "does not exist"),
        (vec!["--model", ckpt, "--format", "safetensors", "--out", dir_s], "is a folder"),
        (vec!["--model", ckpt, "--format", "onnx", "--out", &out, "--batch", "0"], "at least 1"),
        (vec!["--model", ckpt, "--format", "safetensors", "--out", &out, "--batch", "2"], "onnx"),
    ] {
        let o = run(&[&["export"][..], &args].concat());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: ") && err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let o = run(&["export", "--model", ckpt, "--format", "tflite", "--out", &out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid value 'tflite'"), "{}", stderr(&o));
    assert!(!Path::new(&out).exists() && !Path::new(&format!("{out}.json")).exists());
}

/// `scripts/check_onnx.py` against `analyze --raw`, on positions of both variants (mid-move
/// ones included); skipped, saying why, where python3 with onnxruntime and numpy is missing.
#[test]
fn check_onnx_script_agrees_with_analyze() {
    let probe = Command::new("python3").args(["-c", "import onnxruntime, numpy"]).output();
    if !probe.as_ref().is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 with onnxruntime and numpy is not installed");
        return;
    }
    let dir = scratch("script");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/check_onnx.py");
    for (name, positions) in
        [("camelot", positions::<CamelotRules>(3)), ("tricamelot", positions::<TriCamelotRules>(4))]
    {
        let (ckpt, _) = if name == "camelot" {
            checkpoint::<CamelotRules>(&dir.join(name))
        } else {
            checkpoint::<TriCamelotRules>(&dir.join(name))
        };
        let onnx = dir.join(format!("{name}.onnx"));
        export(&ckpt, "onnx", &onnx, &[]);
        // The script on `onnx` against `analyze --raw` of `checkpoint`.
        let check = |checkpoint: &Path| {
            let exe = env!("CARGO_BIN_EXE_camelot-zero");
            Command::new("python3")
                .args(args![script, onnx, "--checkpoint", checkpoint, "--bin", exe])
                .args(&positions)
                .output()
                .unwrap()
        };
        let o = check(&ckpt);
        let out = String::from_utf8_lossy(&o.stdout);
        eprintln!("{name}: {out}");
        assert!(o.status.success(), "{name}: {out}{}", stderr(&o));
        assert!(out.contains(&format!("{} positions", positions.len())), "{out}");
        if name == "camelot" {
            // Another network's `analyze` output must be caught as a mismatch.
            let (other, _) =
                checkpoint_with_blocks::<CamelotRules>(&dir.join("other"), 2, Encoding::Basic);
            let o = check(&other);
            let out = String::from_utf8_lossy(&o.stdout);
            assert_eq!(o.status.code(), Some(1), "{out}");
            assert!(out.contains("MISMATCH"), "{out}");
        }
    }
}

/// A few position strings of `V` that are not over, with every seat to move, between moves
/// and in mid-move.
fn positions<V: Variant>(seed: u64) -> Vec<String> {
    let states = games::testing::random_states::<V>(40, 200, seed);
    let live: Vec<_> = states.iter().filter(|s| s.outcome().is_none()).collect();
    let mut picked = Vec::new();
    for seat in 0..V::NUM_PLAYERS {
        for mid in [false, true] {
            let found =
                live.iter().find(|s| s.to_move().index() == seat && s.landed().is_empty() != mid);
            picked.extend(found.map(|s| s.to_string()));
        }
    }
    picked
}
