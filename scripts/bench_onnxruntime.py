#!/usr/bin/env python3
"""onnxruntime speed on an exported camelot-zero network, for comparison with the native engine.

Not part of CI. Needs onnxruntime and numpy:

    python3 -m pip install --user onnxruntime numpy

Export the networks and their reference pairs first, then run this on each file:

    cargo run --release -- bench net --preset b6c64 --export /tmp/onnx
    python3 scripts/bench_onnxruntime.py /tmp/onnx/camelot-b6c64.onnx

The reference pair (FILE with `.onnx` replaced by `.reference.json`, written by the same
command) holds an input batch and the logits burn's `Net::forward` gives for it; the script
checks onnxruntime's outputs against them (max abs difference at most 1e-4) before timing.
Timing: intra-op threads = 2 (the development machine's cores), inter-op threads = 1, one
untimed warm-up run, then repeated runs for about SECONDS per batch size.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import onnxruntime as ort

TOLERANCE = 1e-4


def session(path: Path, threads: int) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def check_reference(sess: ort.InferenceSession, reference: Path) -> float:
    """Runs the reference input; returns the largest absolute difference over both outputs."""
    ref = json.loads(reference.read_text())
    shape = ref["input_shape"]
    planes = np.asarray(ref["planes"], dtype=np.float32).reshape(shape)
    policy, value = sess.run(["policy_logits", "value_logits"], {"planes": planes})
    want_policy = np.asarray(ref["policy_logits"], dtype=np.float32).reshape(policy.shape)
    want_value = np.asarray(ref["value_logits"], dtype=np.float32).reshape(value.shape)
    return float(max(np.abs(policy - want_policy).max(), np.abs(value - want_value).max()))


def bench(sess: ort.InferenceSession, shape: list, batch: int, seconds: float) -> float:
    """Positions per second at `batch`."""
    rng = np.random.default_rng(batch)
    planes = rng.uniform(-1.0, 1.0, size=[batch, *shape[1:]]).astype(np.float32)
    feed = {"planes": planes}
    sess.run(None, feed)  # warm-up
    calls, start = 0, time.perf_counter()
    while calls < 2 or time.perf_counter() - start < seconds:
        sess.run(None, feed)
        calls += 1
    return calls * batch / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("onnx", type=Path, help="exported network (.onnx)")
    parser.add_argument("--batch", default="1,8,32,128", help="batch sizes, comma-separated")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per batch size")
    parser.add_argument("--threads", type=int, default=2, help="intra-op threads")
    args = parser.parse_args()

    sess = session(args.onnx, args.threads)
    inputs = [(i.name, i.shape) for i in sess.get_inputs()]
    outputs = [o.name for o in sess.get_outputs()]
    print(f"{args.onnx.name}: inputs {inputs}, outputs {outputs}, onnxruntime {ort.__version__}")

    reference = args.onnx.with_suffix(".reference.json")
    diff = check_reference(sess, reference)
    ok = diff <= TOLERANCE
    print(f"reference {reference.name}: max abs difference {diff:.2e} ({'ok' if ok else 'TOO LARGE'})")
    if not ok:
        return 1

    shape = json.loads(reference.read_text())["input_shape"]
    for batch in (int(b) for b in args.batch.split(",")):
        rate = bench(sess, shape, batch, args.seconds)
        print(f"batch {batch:>4}: {rate:9.1f} positions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
