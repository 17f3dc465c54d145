"""The examples of docs/python.md run: a Python client playing the engine over its protocol,
and a JAX model trained on a run's records through the package."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_engine_client_plays_a_game(binary):
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "engine_client.py"), binary, "engine", "--sims", "20"],
        capture_output=True, text=True, timeout=300, check=True)
    last = out.stdout.strip().splitlines()[-1]
    assert " moves, " in last, out.stdout


def test_the_engine_client_finds_the_engine_without_arguments(binary):
    env = dict(os.environ, CAMELOT_ZERO=binary)
    out = subprocess.run([sys.executable, str(EXAMPLES / "engine_client.py")], env=env,
                         capture_output=True, text=True, timeout=300, check=True)
    assert " moves, " in out.stdout.strip().splitlines()[-1], out.stdout


def test_a_jax_model_trains_on_the_records(smoke_run):
    pytest.importorskip("jax")
    out = subprocess.run([sys.executable, str(EXAMPLES / "train_jax.py"), str(smoke_run)],
                         capture_output=True, text=True, timeout=600, check=True)
    losses = [float(line.split("policy loss ")[1].split(",")[0])
              for line in out.stdout.splitlines() if line.startswith("step")]
    assert len(losses) == 4 and losses[-1] < losses[0], out.stdout
