#!/usr/bin/env bash
# Throughput on one box: `run` against a learner with N local worker processes on the same
# configuration and number of generations, side by side in one invocation. Prints, for each,
# the wall time, generations/hour, self-play games/hour (every game played, trained on or not)
# and the learner's idle share (time waiting for games / wall time). Each N runs with the
# workers' --surplus wait and play (SURPLUS="wait" for one of them).
#
#   scripts/bench_distributed.sh configs/smoke-camelot.toml 4 2
#   scripts/bench_distributed.sh configs/camelot-cpu.toml 3 1 2   # N = 1, then N = 2
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:?usage: bench_distributed.sh CONFIG GENERATIONS N...}
generations=${2:?usage: bench_distributed.sh CONFIG GENERATIONS N...}
shift 2
cargo build --release --bin camelot-zero
bin="$PWD/target/release/camelot-zero"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

report() { # name seconds games waited
    awk -v n="$1" -v s="$2" -v g="$3" -v w="$4" -v gens="$generations" 'BEGIN {
        printf "%-20s %7.1f s  %6.1f generations/h  %7.0f games/h  learner idle %4.1f%%\n",
            n, s, gens * 3600 / s, g * 3600 / s, 100 * w / s }'
}

start=$(date +%s.%N)
"$bin" run --config "$config" --run-dir "$work/run" --generations "$generations" > "$work/run.out" 2>/dev/null
end=$(date +%s.%N)
games=$(tail -n +2 "$work/run/generations.csv" | awk -F, '{ s += $2 } END { print s }')
report "run" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$games" 0

for n in "$@"; do
  for surplus in ${SURPLUS:-wait play}; do
    dir="$work/learner-$n-$surplus"
    start=$(date +%s.%N)
    "$bin" learner --run "$dir" --config "$config" --generations "$generations" > "$dir.out" 2>/dev/null &
    learner=$!
    workers=()
    for i in $(seq "$n"); do
        "$bin" worker --run "$dir" --worker-id "$i" --surplus "$surplus" --cache "$dir-cache-$i" \
            > "$dir-worker-$i.out" 2>&1 &
        workers+=("$!")
    done
    wait "$learner"
    end=$(date +%s.%N)
    wait "${workers[@]}"
    games=$(grep -ho "[0-9]* games uploaded" "$dir"-worker-*.out | awk '{ s += $1 } END { print s }')
    waited=$(grep -o "waited [0-9.]* s" "$dir.out" | awk '{ print $2 }')
    report "learner + $n $surplus" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$games" "$waited"
  done
done
