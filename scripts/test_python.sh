#!/usr/bin/env bash
# The Python package end to end: builds `camelot_zero` (python/, PyO3 + maturin), installs it with
# pip into a fresh virtual environment (target/python-venv) and runs its pytest suite
# (python/tests) against the release binary.
#
#   scripts/test_python.sh    # about 2 minutes after a release build; needs python3 and
#                             # access to PyPI (maturin, numpy, pytest, pyarrow, onnxruntime,
#                             # jax for the training example). .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin camelot-zero
venv=target/python-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
export PATH="$PWD/$venv/bin:$PATH"  # the maturin build backend calls `maturin` by name
"$venv/bin/python" -m pip install --quiet "maturin>=1.5,<2" "numpy>=1.21" pytest pyarrow onnxruntime jax
# The package as a user installs it (`pip install ./python`); maturin builds the extension with
# cargo in the workspace's own target directory, so the crates already built are reused.
"$venv/bin/python" -m pip install --no-build-isolation ./python
"$venv/bin/python" -c 'import camelot_zero as cz; print("camelot_zero", cz.ENCODINGS, cz.Position("start", variant="camelot").legal_moves()[:3])'
CAMELOT_ZERO_BIN="$PWD/target/release/camelot-zero" "$venv/bin/python" -m pytest -q python/tests
