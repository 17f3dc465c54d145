#!/usr/bin/env bash
# The board page in a real browser: trains a tiny Camelot run (configs/smoke-camelot.toml, two
# generations), serves it with `camelot-zero serve --port 0 --run <run> --model <its newest
# checkpoint>` and drives the page with Debian's Chromium through playwright-core
# (tests/browser/board.test.mjs): a Knight's charge clicked leg by leg against the model, an
# analysis, a replayed game, Tri-Camelot by clicks, each board checked against the rules engine;
# then the analysis tools (tests/browser/analysis.test.mjs): the evaluation bar, a line branched
# from move 5 of a replayed game and analysed, the principal variation previewed, a game saved
# as text and loaded back, the board flipped, the model's thinking stopped, both games; then the
# live run page (tests/browser/run.test.mjs): a second smoke run charted while it trains.
#
#   scripts/test_browser.sh             # about 20 s on 2 cores after a release build (the
#                                       # smoke run is 10 s of it, the browser test 6 s)
#   OUT=dir scripts/test_browser.sh     # keep the screenshots (play, analyse, replay, tricamelot)
#   BIN=path/to/camelot-zero ...        # default target/release/camelot-zero
#   SERVE_ARGS="--assets web/page" ...  # more `serve` options: here the page as it is on disk
#                                       # rather than the copy built into the binary
#
# Needs a release build (`cargo build --release`: this script never builds), node 20+ with npm
# and the npm registry (playwright-core), and /usr/bin/chromium (installed with apt-get when
# missing). The server is always stopped at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

BIN="${BIN:-target/release/camelot-zero}"
if [[ ! -x "$BIN" ]]; then
  echo "error: $BIN does not exist: run \`cargo build --release\` first (this script never builds)" >&2
  exit 1
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"

if [[ ! -x /usr/bin/chromium ]]; then
  echo "installing Debian's chromium"
  sudo=""
  [[ "$(id -u)" -eq 0 ]] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

# playwright-core only (it downloads no browser); the lock file pins it.
(
  cd tests/browser
  if [[ -f package-lock.json ]]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
)

work="$(mktemp -d "${TMPDIR:-/tmp}/board-test.XXXXXX")"
server_pid=""
live_pid=""
live_server_pid=""
cleanup() {
  for pid in "$server_pid" "$live_server_pid" "$live_pid"; do
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$work/run" "$work/live"
}
trap cleanup EXIT

out="${OUT:-$work/shots}"
mkdir -p "$out"

started=$SECONDS
echo "training a smoke run into $work/run"
"$BIN" run --config configs/smoke-camelot.toml --run-dir "$work/run" >"$work/run.log" 2>&1 || {
  tail -n 30 "$work/run.log" >&2
  echo "error: the smoke run failed (log above)" >&2
  exit 1
}
model="$(find "$work/run/models" -mindepth 1 -maxdepth 1 -type d -name 'gen-*' | sort | tail -n 1)"
if [[ -z "$model" ]]; then
  echo "error: the smoke run wrote no checkpoint under $work/run/models" >&2
  exit 1
fi
echo "smoke run done in $((SECONDS - started))s; serving it with the model $(basename "$model")"

# The address `serve` (pid $1) printed first into its log $2, into $url.
wait_for_server() {
  url=""
  for _ in $(seq 1 300); do
    line="$(head -n 1 "$2" 2>/dev/null || true)"
    if [[ "$line" =~ ^serving\ (http://[^ ]+) ]]; then
      url="${BASH_REMATCH[1]}"
      return
    fi
    if ! kill -0 "$1" 2>/dev/null; then
      cat "$2" >&2
      echo "error: camelot-zero serve exited before serving" >&2
      exit 1
    fi
    sleep 0.1
  done
  cat "$2" >&2
  echo "error: camelot-zero serve printed no \`serving http://...\` line in 30 s" >&2
  exit 1
}

"$BIN" serve --port 0 --run "$work/run" --model "$model" ${SERVE_ARGS:-} >"$work/serve.log" 2>&1 &
server_pid=$!
wait_for_server "$server_pid" "$work/serve.log"
echo "server at $url"

status=0
for test in board analysis; do
  echo "--- $test.test.mjs"
  BOARD_URL="$url" OUT="$out" node "$root/tests/browser/$test.test.mjs" || { status=$?; break; }
done
if [[ $status -ne 0 ]]; then
  echo "--- server log (tail) ---" >&2
  tail -n 30 "$work/serve.log" >&2
else
  # The live run page: a smoke run of twelve generations trains while a second server charts
  # it, with the finished smoke run drawn over it.
  sed 's/^generations = 2$/generations = 12/' configs/smoke-camelot.toml >"$work/live.toml"
  grep -q '^generations = 12$' "$work/live.toml" || { echo "error: configs/smoke-camelot.toml has no \`generations = 2\` line to lengthen" >&2; exit 1; }
  "$BIN" run --config "$work/live.toml" --run-dir "$work/live" >"$work/live.log" 2>&1 &
  live_pid=$!
  for _ in $(seq 1 300); do
    [[ -f "$work/live/config.toml" ]] && break
    sleep 0.1
  done
  # The finished run's strength against compute, as scripts/compute_curve.sh would write it
  # (the matches themselves are too slow here): the compute chart's log axis is drawn from it.
  printf '%s\n' "budget,model,core_minutes,score_vs_previous,elo_step,elo,vs_alphabeta:depth=2" \
    "10,gen-0001,10,,,0,0.45" "20,gen-0002,20,0.585,60,60,0.555" "40,gen-0002,40,0.589,62,122,0.54" \
    >"$work/run/curve.csv"
  "$BIN" serve --port 0 --run "$work/live" --compare "$work/run" ${SERVE_ARGS:-} >"$work/live-serve.log" 2>&1 &
  live_server_pid=$!
  wait_for_server "$live_server_pid" "$work/live-serve.log"
  echo "--- run.test.mjs (a run training at $work/live, served at $url)"
  BOARD_URL="$url" OUT="$out" node "$root/tests/browser/run.test.mjs" || status=$?
  if [[ $status -ne 0 ]]; then
    echo "--- live server log (tail) ---" >&2
    tail -n 30 "$work/live-serve.log" >&2
    tail -n 10 "$work/live.log" >&2
  fi
fi
echo "screenshots in $out"
echo "browser test took $((SECONDS - started))s"
exit $status
