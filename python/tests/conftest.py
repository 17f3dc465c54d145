"""Shared fixtures: the camelot-zero binary (CAMELOT_ZERO_BIN, else the release build) and one
smoke run made with it, whose checkpoint and records the tests read."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def binary() -> str:
    path = os.environ.get("CAMELOT_ZERO_BIN") or str(ROOT / "target" / "release" / "camelot-zero")
    if not Path(path).exists():
        pytest.fail(f"no camelot-zero binary at {path}: build it (cargo build --release) "
                    "or set CAMELOT_ZERO_BIN")
    return path


@pytest.fixture(scope="session")
def smoke_run(binary, tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("smoke") / "run"
    subprocess.run([binary, "run", "--config", str(ROOT / "configs" / "smoke-camelot.toml"),
                    "--run-dir", str(run_dir)], check=True, capture_output=True)
    return run_dir


def cli(binary: str, *args: str) -> str:
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{args}: {out.stderr.strip()}")
    return out.stdout

