#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to check the launchers end to end: installs Slurm
# and munge from the distribution's packages (Debian/Ubuntu, apt-get; needs root), starts
# munged, slurmctld and slurmd with a configuration of its own (nothing in /etc/slurm is
# touched), submits scripts/slurm/worker.sbatch as a 2-task array job and
# scripts/slurm/learner.sbatch on the smoke configuration in a temporary run folder, waits, and
# checks the run: two generations, models/latest.toml finished, shards from more than one worker.
#
#   sudo scripts/slurm/test_local.sh     # about 5 minutes after a release build
#   KEEP=1 scripts/slurm/test_local.sh   # keep the run folder, the logs and the daemons' files
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
[ "$(id -u)" = 0 ] || { echo "run as root (it installs packages and starts daemons)"; exit 2; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    echo "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
cargo build --release --bin camelot-zero

work=$(mktemp -d /tmp/camelot-slurm.XXXXXX)
chmod 755 "$work"
daemons=()
cleanup() {
    [ -n "${SLURM_CONF:-}" ] && scancel --user=root 2>/dev/null || true
    for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

# munge: the authentication Slurm's daemons and commands share (a key of this test's own).
mkdir -p "$work/munge" /run/munge
chown munge:munge "$work/munge" /run/munge
dd if=/dev/urandom bs=1 count=1024 of="$work/munge/munge.key" status=none
chown munge:munge "$work/munge/munge.key"
chmod 400 "$work/munge/munge.key"
socket="$work/munge/munge.socket"
runuser -u munge -- munged --key-file="$work/munge/munge.key" --socket="$socket" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
    --seed-file="$work/munge/munged.seed"
daemons+=("$(cat "$work/munge/munged.pid")")

# Slurm: one node (this machine, 8 CPUs declared so the learner and two workers share it).
node=$(hostname -s)
port=$(( 30000 + RANDOM % 20000 ))
mkdir -p "$work/state" "$work/spool" "$work/logs"
cat > "$work/slurm.conf" <<CONF
ClusterName=camelot-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$(( port + 1 ))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/logs/slurmctld.log
SlurmdLogFile=$work/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
NodeName=$node NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    [ -s "$work/slurmctld.pid" ] && [ -s "$work/slurmd.pid" ] && break
    sleep 0.5
done
daemons+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -qx idle && break
    sleep 1
done
sinfo

# The run: the smoke configuration with small shards, so both workers play in each generation.
sed -e 's/games_per_shard = 4/games_per_shard = 2/' -e 's/games_in_flight = 8/games_in_flight = 2/' \
    configs/smoke-camelot.toml > "$work/smoke.toml"
run="$work/run"
cd "$work/logs"
export RUN="$run" BIN="$repo/target/release/camelot-zero" CACHE="$work/cache"
workers=$(sbatch --parsable --array=0-1 --cpus-per-task=1 --mem=0 "$repo/scripts/slurm/worker.sbatch")
learner=$(CONFIG="$work/smoke.toml" CACHE="" sbatch --parsable --cpus-per-task=1 --mem=0 \
    "$repo/scripts/slurm/learner.sbatch")
echo "submitted workers $workers (array 0-1) and learner $learner"
squeue
deadline=$(( SECONDS + ${WAIT:-900} ))
while squeue -h -j "$learner,$workers" 2>/dev/null | grep -q .; do
    if (( SECONDS > deadline )); then
        echo "the jobs did not finish in ${WAIT:-900} s"; squeue; tail -n 20 ./*.log; exit 1
    fi
    sleep 2
done
echo "== learner's log"
cat "camelot-learner-$learner.log"
echo "== workers' logs (last line)"
tail -n 1 camelot-worker-*.log

# The checks.
fail() { echo "FAILED: $*"; exit 1; }
grep -q "finished = true" "$run/models/latest.toml" || fail "models/latest.toml is not marked finished"
grep -q "^generation = 2" "$run/models/latest.toml" || fail "models/latest.toml is not generation 2"
rows=$(tail -n +2 "$run/generations.csv" | cut -d, -f1 | tr '\n' ' ')
[ "$rows" = "0 1 " ] || fail "generations.csv has rows '$rows', not '0 1 '"
for g in 1 2; do
    [ -s "$run/models/gen-000$g/weights.bpk" ] || fail "models/gen-000$g missing"
done
ids=$(find "$run/games" -name 'games-*.parquet' -path '*/w-*' | sed -E 's|.*/(w-[^/]+)/.*|\1|' | sort -u)
count=$(echo "$ids" | grep -c . || true)
(( count > 1 )) || fail "shards from $count worker(s): $ids"
shards=$(find "$run/games" -name 'games-*.parquet' -path '*/w-*' | wc -l)
echo "ok: Slurm ran learner job $learner and worker array $workers; 2 generations trained" \
     "from $shards shards of $count workers ($(echo $ids | tr ' ' ','))"
