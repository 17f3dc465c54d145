#!/usr/bin/env bash
# A run through an S3-compatible object store: starts a real S3 server on 127.0.0.1 (moto's
# server, installed from PyPI into target/s3-venv), then a learner and two workers on
# s3://camelot/runs/smoke with the smoke configuration, and checks the bucket's objects: two
# generations' models and rows, shards from both workers, the pointer marked finished.
#
#   scripts/test_s3.sh     # about 2 minutes after a release build; needs python3 and PyPI
#   KEEP=1 WAIT=300 scripts/test_s3.sh   # keep the logs and the cache folders; wait 300 s at most
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bin camelot-zero
bin="$PWD/target/release/camelot-zero"
venv=target/s3-venv
# The ready marker is written last, so an interrupted install is started over.
[ -e "$venv/.ready" ] || {
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "moto[server]>=5" boto3
    touch "$venv/.ready"
}
work=$(mktemp -d)
port=$(( 20000 + RANDOM % 20000 ))
"$venv/bin/moto_server" -H 127.0.0.1 -p "$port" > "$work/s3.log" 2>&1 &
server=$!
pids=("$server")
trap 'kill "${pids[@]}" 2>/dev/null || true; [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"' EXIT
export AWS_ENDPOINT_URL="http://127.0.0.1:$port" AWS_ALLOW_HTTP=true AWS_DEFAULT_REGION=us-east-1
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test
for _ in $(seq 100); do
    "$venv/bin/python" - <<'PY' 2>/dev/null && break || sleep 0.2
import boto3; boto3.client("s3").create_bucket(Bucket="camelot")
PY
done
echo "S3 server (moto) on $AWS_ENDPOINT_URL, bucket camelot"
sed -e 's/games_per_shard = 4/games_per_shard = 2/' -e 's/games_in_flight = 8/games_in_flight = 2/' \
    configs/smoke-camelot.toml > "$work/smoke.toml"
run=s3://camelot/runs/smoke
"$bin" learner --run "$run" --config "$work/smoke.toml" --cache "$work/learner" > "$work/learner.out" 2> "$work/learner.err" &
learner=$!
pids+=("$learner")
for id in a b; do
    "$bin" worker --run "$run" --worker-id "$id" --cache "$work/worker-$id" > "$work/worker-$id.out" 2>&1 &
    pids+=("$!")
done
if ! timeout "${WAIT:-600}" tail --pid="$learner" -f /dev/null; then
    echo "the learner did not finish in ${WAIT:-600} s"; cat "$work/learner.err"; exit 1
fi
wait "$learner" || { echo "the learner failed:"; cat "$work/learner.err"; exit 1; }
for id in a b; do
    timeout 120 tail --pid="${pids[-1]}" -f /dev/null || true
done
sleep 1
cat "$work/learner.out"
tail -n 1 "$work"/worker-*.out
"$venv/bin/python" - <<'PY'
import boto3, tomllib
s3 = boto3.client("s3")
keys = []
for page in s3.get_paginator("list_objects_v2").paginate(Bucket="camelot", Prefix="runs/smoke/"):
    keys += [o["Key"][len("runs/smoke/"):] for o in page.get("Contents", [])]
get = lambda k: s3.get_object(Bucket="camelot", Key="runs/smoke/" + k)["Body"].read()
latest = tomllib.loads(get("models/latest.toml").decode())
assert latest["finished"] and latest["generation"] == 2, latest
for g in (1, 2):
    for f in ("net.json", "weights.bpk", "optimizer.bpk", "training.toml", "summary.toml"):
        assert f"models/gen-{g:04}/{f}" in keys, f"models/gen-{g:04}/{f} missing"
rows = get("generations.csv").decode().splitlines()[1:]
assert [r.split(",")[0] for r in rows] == ["0", "1"], rows
workers = {k.split("/")[2] for k in keys if k.startswith("games/") and "/games-" in k}
assert workers == {"w-a", "w-b"}, workers
shards = sum(1 for k in keys if k.startswith("games/") and "/games-" in k)
assert all(("/positions-" + k.split("/games-")[1]) in "".join(keys) for k in keys if "/games-" in k)
print(f"ok: {len(keys)} objects; 2 generations trained from {shards} shards of workers {sorted(workers)}; pointer finished")
PY
