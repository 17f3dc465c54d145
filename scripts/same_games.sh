#!/usr/bin/env bash
# The games a binary plays from fixed seeds, as one line per parquet shard (its SHA-256): run it
# with the binary before and after a change that must not change behaviour (a refactor, a crate
# split) and compare the two files. The records hold no times, so equal games give equal bytes.
#
#   scripts/same_games.sh BIN OUT_FILE     # e.g. target/release/camelot-zero before.txt
#
# It plays seeded self-play with a random network (the network evaluator, Gumbel and PUCT
# searches, the teacher's labels and sparring of camelot-cpu.toml), with uniform values, on
# Tri-Camelot, one smoke run (self-play, training and the ladder: a trained model's games), and
# arena matches of alpha-beta, greedy and rollout MCTS players. About two minutes on 2 cores.
set -euo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One worker each, so the order in which games finish (and are written) cannot depend on thread
# scheduling.
export RAYON_NUM_THREADS=1
for config in camelot-cpu tricamelot-cpu; do
    sed 's/^workers = .*/workers = 1/' "configs/$config.toml" > "$work/$config.toml"
done

"$bin" selfplay --random --config "$work/camelot-cpu.toml" --games 6 --seed 7 --out "$work/sp-camelot" >/dev/null
"$bin" selfplay --uniform --config configs/smoke-camelot.toml --games 8 --seed 3 --out "$work/sp-uniform" >/dev/null
"$bin" selfplay --random --config "$work/tricamelot-cpu.toml" --games 3 --seed 5 --out "$work/sp-tricamelot" >/dev/null
"$bin" run --config configs/smoke-camelot.toml --run-dir "$work/smoke" >/dev/null 2>&1
# The smoke run again with every hook that shapes a generation's self-play on: the teacher's
# games, labels and sparring, the tactics filter on targets and on the root, the leaf heuristic,
# and the play search's tactics filter in the ladder.
sed -e '/^\[selfplay\]/a teacher = { alpha_beta = { depth = 1, fraction = 0.5, fade_generations = 4, explore = 0.1, label = 0.3, spar = 0.3 } }\ntactics_filter = { alpha_beta = { depth = 1, margin = 100 } }\nroot_filter = { alpha_beta = { depth = 1, margin = 100 } }\nleaf_heuristic = { mix = { weight = 0.5, fade_generations = 4 } }' \
    -e '/^\[ladder\]/i [play]\ntactics_filter = { alpha_beta = { depth = 1, margin = 100 } }\n' \
    configs/smoke-camelot.toml > "$work/hooks.toml"
"$bin" run --config "$work/hooks.toml" --run-dir "$work/hooks" >/dev/null 2>&1
"$bin" arena --a alphabeta:depth=2 --b mcts:sims=32 --games 4 --seed 2 --out "$work/arena-ab" >/dev/null
"$bin" arena --a greedy --b alphabeta:depth=1 --c mcts:sims=16,cutoff=8 --games 6 --seed 4 --out "$work/arena-tri" >/dev/null
"$bin" arena --a "$work/smoke/models/gen-0002:sims=8" --b greedy --games 4 --seed 6 --out "$work/arena-model" >/dev/null

(cd "$work" && find . -name '*.parquet' | LC_ALL=C sort | xargs sha256sum) > "$out"
echo "$(wc -l < "$out") shards hashed into $out"
