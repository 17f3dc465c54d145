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
own='^camelot-zero-python '
alone=$(tree -p camelot-zero-python | grep -v "$own")
# The workspace's lines of the packages the Python crate uses, to compare line for line.
shared=$(awk -F'|' 'NR == FNR { used[$1]; next } $1 in used' <(echo "$alone") \
    <(tree --workspace | grep -v "$own"))
# Every unit the package alone builds must be one the workspace builds (a `<` line). The
# workspace may build more instances of a package (a build script's copy with fewer features,
# `>` lines only): those cost the wheel nothing, and cargo tree lists such a host copy under the
# package alone or not depending on the order it prints in (hashbrown under protobuf-parse,
# since the web crate; `cargo build -p camelot-zero-python` after the workspace's build then
# compiles only pyo3 and the crate itself).
drift=$(diff <(echo "$alone") <(echo "$shared") || true)
if grep -q '^<' <<< "$drift"; then
    echo "the Python package's crate resolves shared dependencies with other features than the"
    echo "workspace, so \`pip install ./python\` builds them (and all above them) again"
    echo "(< the package alone, > the workspace: package|features):"
    grep '^[<>]' <<< "$drift"
    echo "ask for the missing features in python/Cargo.toml (see the comment there)"
    exit 1
fi
echo "the Python package's crate builds its $(cut -d'|' -f1 <<< "$alone" | sort -u | wc -l)" \
    "dependencies with the workspace's features"
