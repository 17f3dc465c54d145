#!/usr/bin/env bash
# The deep perft numbers of RULES.md §6 (Camelot depth 4, Tri-Camelot depth 5), kept out of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -p games --test perft -- --ignored
cargo run --release -q -- perft start 4 --variant camelot --divide | grep -E '^(C6-B5|C6-E8|D7-D5-B7|F7-H5-J7-J5|J6-H8) |^[0-9]+$'
