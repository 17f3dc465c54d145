"""The package's encoding of 50 positions, fed to the exported ONNX model in onnxruntime,
gives what `camelot-zero analyze --raw` prints for the same positions."""

import random

import numpy as np
import pytest

import camelot_zero as cz
from conftest import cli

ort = pytest.importorskip("onnxruntime")


def test_onnx_on_the_packages_encoding_equals_analyze_raw(binary, smoke_run, tmp_path):
    model = smoke_run / "models" / "gen-0002"
    onnx = tmp_path / "net.onnx"
    cli(binary, "export", "--model", str(model), "--format", "onnx", "--out", str(onnx))
    session = ort.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])
    rng = random.Random(3)
    checked = 0
    while checked < 50:
        pos = cz.Position("start", variant="camelot")
        for _ in range(rng.randrange(0, 60)):
            if pos.is_over():
                break
            pos.play_action(rng.choice(pos.legal_actions()))
        if pos.is_over():
            continue
        policy, value = session.run(["policy_logits", "value_logits"],
                                    {"planes": pos.encode()[None]})
        lines = cli(binary, "analyze", str(pos), "--model", str(model), "--raw").splitlines()
        values = dict(item.split("=") for item in lines[0].split()[1:])
        legal = pos.legal_actions()
        logits = policy[0][legal]
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        printed = {int(i): float(p) for _, i, p in (line.split() for line in lines[1:])}
        assert sorted(printed) == legal, str(pos)
        np.testing.assert_allclose(probs, [printed[a] for a in legal], atol=1e-4)
        v = np.exp(value[0] - value[0].max())
        v /= v.sum()
        mover = pos.seats.index(pos.to_move)
        seat_values = {pos.seats[(mover + k) % 2]: v[k] + v[2] / 2 for k in range(2)}
        for seat, printed_value in values.items():
            assert abs(seat_values[seat] - float(printed_value)) < 1e-4, str(pos)
        checked += 1
