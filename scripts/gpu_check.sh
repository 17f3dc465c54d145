#!/usr/bin/env bash
# What a GPU machine is worth to this project, in two parts of under 7 minutes each on a GPU (one
# command on a lent GPU machine may run 10 minutes, and a session has 15 in all). It runs from a
# binary built elsewhere with `--features gpu` (no toolchain or network needed where it runs) and
# writes everything under an output folder:
#
#   BIN=target/gpu/release/camelot-zero scripts/gpu_check.sh speed OUT
#       the adapter; the agreement checks (`device check`: f32 and f16 forward, training step,
#       overfit, checkpoints); forward positions/s at batch 256/1024/4096 and training samples/s
#       of b4c32, b6c64 and b10c128 on the GPU beside the same machine's CPU cores (`bench net`);
#       self-play evaluations/s at 1024 games in flight (`bench selfplay`, camelot-gpu.toml)
#   BIN=… scripts/gpu_check.sh learn OUT
#       `run --config configs/camelot-gpu-6m.toml --time 6m`, then `rate` of its newest model on
#       the absolute scale; the run (models, games, metrics) stays under OUT/learn
#   BIN=… scripts/gpu_check.sh all OUT
#
# SMALL=1 shrinks every budget for a software device (lavapipe, on a machine without a GPU: see
# scripts/test_gpu.sh, which installs it): b4c32 only, batches 32 and 256, a smoke config for the
# learning part. Figures on lavapipe say that the path runs, not how fast a GPU is.
# Without BIN the binary is built here first (`--features gpu` into target/gpu).
set -euo pipefail
cd "$(dirname "$0")/.."
part="${1:-}"
out="${2:-}"
case "$part" in
    speed | learn | all) ;;
    *) echo "usage: [BIN=camelot-zero] [SMALL=1] scripts/gpu_check.sh speed|learn|all OUT" >&2; exit 2 ;;
esac
[ -n "$out" ] || { echo "gpu_check.sh: name an output folder" >&2; exit 2; }
mkdir -p "$out"
out="$(realpath "$out")"
say() { printf '== %s\n' "$*" | tee -a "$out/summary.txt"; }
# Every command's output goes to the terminal and to OUT/<part>.log.
log() { tee -a "$out/$part.log"; }

if [ -n "${BIN:-}" ]; then
    { [ -f "$BIN" ] && [ -x "$BIN" ]; } || { echo "BIN=$BIN is not an executable file" >&2; exit 1; }
    bin="$(realpath "$BIN")"
else
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/gpu}"
    cargo build --release --features gpu --bin camelot-zero
    bin="$CARGO_TARGET_DIR/release/camelot-zero"
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$out/xdg}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
# Autotune's choices (kernels benchmarked on first use) are kept here, so a second part or a
# rerun does not pay for them again (docs/gpu.md, "Autotune's cache").
export CAMELOT_GPU_CACHE="${CAMELOT_GPU_CACHE:-$out/gpu-cache}"

if [ -n "${SMALL:-}" ]; then
    # Autotune's benchmarks take minutes a shape on a software device: the fewest candidates.
    export CUBECL_AUTOTUNE_LEVEL="${CUBECL_AUTOTUNE_LEVEL:-minimal}"
    presets=(b4c32); batches=32,256; seconds=2; check_presets=b4c32
    selfplay_games=8; selfplay_moves=6; learn_time=4m; rate_games=20
else
    presets=(b4c32 b6c64 b10c128); batches=256,1024,4096; seconds=3; check_presets=b4c32,b6c64,b10c128
    selfplay_games=1024; selfplay_moves=30; learn_time=6m; rate_games=100
fi

speed() {
    say "adapter"
    "$bin" device info 2>&1 | log
    say "agreement with the CPU (f32 and f16)"
    "$bin" device check --presets "$check_presets" --positions 32 --train-batch 8 2>&1 | log
    for preset in "${presets[@]}"; do
        say "forward and training speed, $preset: GPU beside this machine's $(nproc) CPU cores"
        "$bin" bench net --device gpu --preset "$preset" --batch "$batches" --train-batch 256 \
            --seconds "$seconds" 2>&1 | log
    done
    say "self-play at the GPU config's batch (a random network, $selfplay_games games of at most $selfplay_moves moves)"
    local config=configs/camelot-gpu.toml
    if [ -n "${SMALL:-}" ]; then
        config="$out/camelot-gpu-small.toml"
        sed -e 's/^games_in_flight = 1024/games_in_flight = 8/' configs/camelot-gpu.toml > "$config"
    fi
    "$bin" bench selfplay --config "$config" --games "$selfplay_games" --max-moves "$selfplay_moves" \
        --seconds "$seconds" 2>&1 | log
}

learn() {
    local config=configs/camelot-gpu-6m.toml
    if [ -n "${SMALL:-}" ]; then
        config="$out/smoke-camelot-gpu.toml"
        sed -e 's/^device = "cpu"/device = "gpu"/' configs/smoke-camelot.toml > "$config"
        grep -q '^device = "gpu"' "$config"
    fi
    say "learning: run --config $config --time $learn_time"
    "$bin" run --config "$config" --run-dir "$out/learn" --time "$learn_time" 2>&1 | tr '\r' '\n' \
        | grep -v '^\s*$' | log
    local newest
    newest="$(ls -d "$out"/learn/models/gen-* | sort | tail -n 1)"
    # Rated on the CPU cores (the games' batches are small), with the run's rules and [play] search.
    sed -e 's/^device = "gpu"/device = "cpu"/' "$config" > "$out/rate.toml"
    say "rating $(basename "$newest") at 64 simulations on the CPU (at most $rate_games games)"
    "$bin" rate "$newest:sims=64" --config "$out/rate.toml" --max-games "$rate_games" 2>&1 | log
    echo "the model: $newest" | tee -a "$out/summary.txt"
}

start=$(date +%s)
case "$part" in
    speed) speed ;;
    learn) learn ;;
    all) part=speed; speed; part=learn; learn ;;
esac
say "gpu_check $1 passed in $(( $(date +%s) - start )) s; logs in $out"
