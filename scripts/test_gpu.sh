#!/usr/bin/env bash
# The GPU path end to end: burn's wgpu backend on whatever adapter wgpu picks. On a machine without
# a GPU that is lavapipe, Mesa's software Vulkan device (installed here from Debian's
# mesa-vulkan-drivers): slow, but the same shaders, device transfers and batching a real GPU runs.
# On a machine with a GPU and its Vulkan driver, the same script reports and checks that GPU.
#
#   scripts/test_gpu.sh          # builds --features gpu first: ~30 minutes cold on 2 cores; the
#                                # checks then take ~30 minutes on the software device
#   KEEP=1 scripts/test_gpu.sh   # keep the runs and logs (printed at the end)
#   BIN=path/to/camelot-zero scripts/test_gpu.sh
#                                # a binary built with --features gpu elsewhere (no build here: a
#                                # GPU machine without the toolchain or without network)
#
# Checks, one line each with its figure (a failed check stops the script with exit 1):
#   adapter           which device wgpu picked (name, API, type, software or not), and the
#                     error with every driver hidden
#   forward           the same networks (random and trained weights, both variants, several
#                     presets, the smoke runs' checkpoints) on the device vs the native CPU engine:
#                     max |Δ| of policy logits and value probabilities, ≤ 1e-3
#   train step        one AdamW step on the same batch, device vs CPU: losses before and after
#   overfit           50 steps on a fixed batch on the device: the loss falls below 10%
#   checkpoint        written from the device, read on the CPU and back on the device
#   smoke run         two generations of `run` with device = "gpu" per variant; Camelot's is
#                     killed (SIGKILL) in the middle and resumed
#   cpu commands      arena, analyze and export on the CPU with the GPU-trained checkpoints
#   speed             forward positions/s and training samples/s, device next to the CPU
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf '== %s\n' "$*"; }
if [ -n "${BIN:-}" ] && { [ ! -f "$BIN" ] || [ ! -x "$BIN" ]; }; then
    echo "BIN=$BIN is not an executable file"; exit 1
fi

# 1. The Vulkan loader and a driver: the GPU's own where one is installed (a manifest in the
#    loader's folders, or named by VK_DRIVER_FILES / VK_ICD_FILENAMES), else lavapipe, a
#    software device (wgpu prefers a real GPU when one has a driver).
has_driver() {
    [ -n "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] \
        || ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json > /dev/null 2>&1
}
if ! ldconfig -p | grep -q 'libvulkan.so.1' || ! has_driver; then
    if command -v apt-get > /dev/null; then
        say "installing mesa-vulkan-drivers (lavapipe) and the Vulkan loader"
        sudo_=""
        [ "$(id -u)" = 0 ] || sudo_=sudo
        $sudo_ apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends \
            mesa-vulkan-drivers libvulkan1 vulkan-tools > /dev/null
    else
        say "no apt-get: install the Vulkan loader and a Vulkan driver (Mesa's lavapipe, or your GPU's) yourself"
    fi
fi

# 2. The GPU build, in its own target directory so that the default build stays as it is.
if [ -n "${BIN:-}" ]; then
    bin="$(realpath "$BIN")"
    say "using $bin (BIN): no build"
else
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/gpu}"
    say "building --features gpu into $CARGO_TARGET_DIR (~30 minutes cold on 2 cores, minutes after)"
    cargo build --release --features gpu --bin camelot-zero
    bin="$CARGO_TARGET_DIR/release/camelot-zero"
fi

work="${WORK:-$(mktemp -d)}"
# Mesa complains on every start without it.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$work/xdg}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
mkdir -p "$work"
trap '[ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT

say "adapter"
"$bin" device info
# With every Vulkan driver and EGL vendor hidden, wgpu finds nothing: the error names the driver.
if VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json \
    __EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json \
    "$bin" device info > /dev/null 2> "$work/no-adapter.err"; then
    echo "device info succeeded with every driver hidden"; exit 1
fi
grep -q "no GPU adapter" "$work/no-adapter.err" && grep -q "mesa-vulkan-drivers" "$work/no-adapter.err" \
    || { echo "no clear error without an adapter:"; cat "$work/no-adapter.err"; exit 1; }
echo "no adapter: $(head -n 1 "$work/no-adapter.err" | cut -c 1-60)…: ok"

# 3. Two-generation smoke runs on the device. Camelot's is killed once a generation's checkpoint
#    is on disk and self-play of the next one has started, then resumed.
for variant in camelot tricamelot; do
    sed -e 's/^device = "cpu"/device = "gpu"/' "configs/smoke-$variant.toml" > "$work/$variant-gpu.toml"
    grep -q '^device = "gpu"' "$work/$variant-gpu.toml"
done
run_dir() { echo "$work/runs/$1"; }
say "smoke run camelot on the device, killed in the middle"
start=$(date +%s)
"$bin" run --config "$work/camelot-gpu.toml" --run-dir "$(run_dir camelot)" > "$work/camelot-1.log" 2>&1 &
pid=$!
until [ -e "$(run_dir camelot)/models/gen-0001/net.json" ] && ls "$(run_dir camelot)"/games/gen-0001/*.parquet > /dev/null 2>&1; do
    if ! kill -0 "$pid" 2> /dev/null; then
        echo "the run ended before it could be killed:"; cat "$work/camelot-1.log"; exit 1
    fi
    sleep 0.5
done
kill -9 "$pid"
wait "$pid" 2> /dev/null || true
echo "killed (SIGKILL) after $(( $(date +%s) - start )) s, with models/gen-0001 saved and the games of generation 1 in self-play"
"$bin" run --config "$work/camelot-gpu.toml" --run-dir "$(run_dir camelot)" > "$work/camelot-2.log" 2>&1 \
    || { echo "the resumed run failed:"; cat "$work/camelot-2.log"; exit 1; }
say "smoke run tricamelot on the device"
"$bin" run --config "$work/tricamelot-gpu.toml" --run-dir "$(run_dir tricamelot)" > "$work/tricamelot.log" 2>&1 \
    || { echo "the run failed:"; cat "$work/tricamelot.log"; exit 1; }
for variant in camelot tricamelot; do
    rows=$(($(wc -l < "$(run_dir $variant)/generations.csv") - 1))
    [ "$rows" = 2 ] || { echo "$variant: $rows rows in generations.csv, expected 2"; exit 1; }
    last=$(cat "$work/$variant"*.log | tr '\r' '\n' | grep '^gen 1:' | tail -n 1)
    echo "smoke run $variant: 2 generations on the device: ok (${last})"
done
grep -q "generation 1 of 2" "$work/camelot-2.log" \
    || { echo "the second camelot run did not resume after generation 1:"; cat "$work/camelot-2.log"; exit 1; }
echo "kill and resume: ok (the second run started at generation 1 of 2)"

# 4. The device's checkpoints on the CPU: arena, analyze, export (all on the CPU by default).
say "cpu commands with the device's checkpoints"
for variant in camelot tricamelot; do
    model="$(run_dir $variant)/models/gen-0002"
    players=(--a "$model:sims=4" --b random)
    [ "$variant" = tricamelot ] && players+=(--c random)
    "$bin" arena --variant "$variant" "${players[@]}" --games 6 --max-moves 40 \
        > "$work/arena-$variant.log" 2>&1 || { cat "$work/arena-$variant.log"; exit 1; }
    echo "arena $variant: $(grep -m1 '^A ' "$work/arena-$variant.log" | tr -s ' '): ok"
    "$bin" analyze start --variant "$variant" --model "$model" --sims 16 \
        > "$work/analyze-$variant.log" 2>&1 || { cat "$work/analyze-$variant.log"; exit 1; }
    echo "analyze $variant: $(sed -n 2p "$work/analyze-$variant.log"): ok"
    "$bin" export --model "$model" --format onnx --out "$work/$variant.onnx" > /dev/null
    echo "export $variant: $(stat -c %s "$work/$variant.onnx") bytes of ONNX: ok"
done

# 5. Agreement with the CPU, on random networks and on the checkpoints the device trained.
say "agreement with the CPU"
"$bin" device check --presets b4c32,b6c64,b10c128 --positions 32 --train-batch 8 \
    --checkpoint "$(run_dir camelot)/models/gen-0002" --checkpoint "$(run_dir tricamelot)/models/gen-0002"

# 6. Speed, the device next to the CPU (the software device is expected to be far slower).
say "speed"
"$bin" bench net --device gpu --preset b4c32 --batch 1,32,256 --train-batch 128 --seconds "${SECONDS_PER_FIGURE:-5}"
say "all GPU checks passed"
