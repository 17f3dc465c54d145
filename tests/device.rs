//! `camelot-zero device`: the checks scripts/test_gpu.sh runs on the GPU, run here on burn's CPU
//! backend against the native engine (the same code; only the device differs), their failure
//! when the tolerance is out of reach, and the clear error of a build without the GPU.

mod common;

use common::{run, text};

const SMALL: [&str; 10] = [
    "--presets",
    "b4c32",
    "--positions",
    "12",
    "--train-batch",
    "12",
    "--overfit-steps",
    "50",
    "--seed",
    "3",
];

#[test]
fn the_cpu_backend_passes_every_check_against_the_native_engine() {
    let out = run(&[&["device", "check", "--device", "cpu"][..], &SMALL].concat());
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    // Per variant: forward (random and stepped weights), train step, overfit, checkpoint.
    for variant in ["camelot", "tricamelot"] {
        for check in [
            format!("forward {variant} b4c32 random weights"),
            format!("train step {variant} b4c32"),
            format!("forward {variant} b4c32 after two steps"),
            format!("overfit {variant} b4c32 on cpu"),
            format!("checkpoint {variant} b4c32 written from cpu"),
        ] {
            let line = stdout.lines().find(|l| l.starts_with(&check)).unwrap_or_else(|| {
                panic!("no line `{check}` in:\n{stdout}");
            });
            assert!(line.ends_with(": ok"), "{line}");
        }
        // On the CPU the forward checks run at f32 only (f16 is the GPU's).
        let forward = |p: &str| {
            stdout
                .lines()
                .filter(|l| l.starts_with(&format!("forward {variant} ")) && l.contains(p))
                .count()
        };
        assert_eq!((forward("burn f32"), forward("burn f16")), (2, 0), "{stdout}");
    }
    assert!(stdout.contains("10 checks, 0 failed"), "{stdout}");
}

/// The checks measure: a tolerance below float rounding fails the forward checks (burn's
/// convolution and the native SGEMM round differently), and the command says so and exits 1.
#[test]
fn a_tolerance_out_of_reach_fails() {
    let out = run(
        &[&["device", "check", "--device", "cpu", "--tolerance", "1e-12"][..], &SMALL].concat()
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("forward camelot") && l.ends_with("FAILED")));
    assert!(text(&out.stderr).contains("device checks failed"), "{}", text(&out.stderr));
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        &["device", "check", "--device", "cpu", "--tolerance", "0"][..],
        &["device", "check", "--device", "cpu", "--f16-tolerance", "-1"],
        &["device", "check", "--device", "cpu", "--positions", "0"],
        &["device", "check", "--device", "tpu"],
        &["device", "check", "--device", "cpu", "--presets", "b9c9"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
    }
}

/// Without the `gpu` feature the GPU commands name the feature; with it, `device info` names
/// the adapter or the missing driver.
#[test]
fn the_gpu_is_named_or_the_reason_it_is_missing() {
    let out = run(&["device", "info"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    if cfg!(feature = "gpu") {
        assert!(
            (out.status.success() && stdout.contains("gpu: "))
                || stderr.contains("mesa-vulkan-drivers"),
            "{stdout}\n{stderr}"
        );
    } else {
        assert_eq!(out.status.code(), Some(2), "{stdout}");
        assert!(stdout.starts_with("cpu: "), "{stdout}");
        assert!(stderr.contains("`gpu` feature"), "{stderr}");
        let out = run(&["bench", "net", "--device", "gpu", "--seconds", "0.1"]);
        assert!(text(&out.stderr).contains("`gpu` feature"), "{}", text(&out.stderr));
    }
}
