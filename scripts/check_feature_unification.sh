#!/usr/bin/env bash
# Checks that the Python package's crate, resolved alone (as `pip install ./python` builds it),
# turns on the same features in every dependency it shares with the whole workspace (as
# `cargo test --release --workspace` builds it). Where they differ, cargo builds that dependency
# and everything above it a second time for the wheel (~7 minutes of CI on 2 cores); the fix is
# to ask for the missing features in python/Cargo.toml (see the comment there).
#
#   scripts/check_feature_unification.sh    # a second or two; .ci/run runs it
set -euo pipefail
cd "$(dirname "$0")/.."
# One line per package (name and version) and the features it is built with; a package built for
# the build scripts too (host) may appear with a second feature list.
tree() {
    cargo tree --locked --edges normal,build,dev --prefix none --format '{p}|{f}' "$@" \
        | sed -e 's/ (\*)$//' -e 's/ (command-line)//' -e 's/ (proc-macro)//' -e 's/ ([^)]*)|/|/' \
        | sort -u
}
alone=$(tree -p camelot-zero-python)
whole=$(tree --workspace)
python3 - <(echo "$alone") <(echo "$whole") <<'PY'
import sys


def builds(path):
    """{package and version: {features, ...}} (a set of feature lists per package)."""
    found = {}
    for line in open(path):
        package, _, features = line.strip().partition("|")
        if package:
            found.setdefault(package, set()).add(features)
    return found


alone, whole = builds(sys.argv[1]), builds(sys.argv[2])
members = {"camelot-zero-python v0.1.0"}
drift = [
    f"  {package}: built with [{'; '.join(sorted(whole[package]))}] by the workspace, "
    f"[{'; '.join(sorted(features))}] by the package alone"
    for package, features in sorted(alone.items())
    if package not in members and whole.get(package) != features
]
if drift:
    print("the Python package's crate resolves shared dependencies with other features than the "
          "workspace, so `pip install ./python` builds them (and all above them) again:", *drift,
          "ask for the missing features in python/Cargo.toml (see the comment there)", sep="\n")
    sys.exit(1)
print(f"the Python package's crate builds its {len(alone) - 1} dependencies with the "
      "workspace's features")
PY
