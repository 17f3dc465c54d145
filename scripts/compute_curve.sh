#!/usr/bin/env bash
# Strength against compute for one run (issue #84, item 3): the run's models at doubling budgets
# of core-minutes, each played head to head against the model of the budget before (a chain) and
# against the classical anchors, as a table of Elo against core-minutes (docs/scaling.md).
#
#   scripts/compute_curve.sh RUN_DIR OUT [CORES]
#
# RUN_DIR   a run directory: generations.csv gives the wall time at which each model was saved
#           (run_seconds; row g is the model gen-(g+1) trained), config.toml its [play] search
# OUT       a folder for the matches' outputs and curve.csv
# CORES     the cores the run used: core-minutes = run_seconds x CORES / 60 (default 1). A run
#           resumed on another number of cores lists where each change began, in run_seconds:
#           "1,2@8312.5" is one core until run_seconds 8312.5 and two from there on
#
# Settings (environment): BUDGETS (core-minutes, default "10 20 40 80 160 300"; budgets past
# the run's end are left out), GAMES (a chain pair, default 400), ANCHORS (default
# "alphabeta:depth=1 alphabeta:depth=2 alphabeta:depth=3"), ANCHOR_GAMES (default 100), SIMS
# (default 64), SEED (default 14), BIN (default: target/release/camelot-zero, built if missing).
#
# curve.csv has one row a budget: the budget, its model, the model's core-minutes, its score
# against the previous budget's model with that pair's Elo difference, the Elo chained from
# the first budget's model (0), and its score against each anchor. It is also copied into the
# run directory, where `camelot-zero report` and `serve --run` draw it (the "compute" chart).
set -euo pipefail
cd "$(dirname "$0")/.."
run="${1:-}"
out="${2:-}"
cores="${3:-1}"
usage="usage: scripts/compute_curve.sh RUN_DIR OUT [CORES]"
[ -n "$run" ] && [ -n "$out" ] || { echo "$usage" >&2; exit 2; }
[ -f "$run/generations.csv" ] || { echo "compute_curve.sh: $run/generations.csv not found: not a run directory" >&2; exit 2; }
[[ "$cores" =~ ^[1-9][0-9]*(,[1-9][0-9]*@[0-9]+(\.[0-9]+)?)*$ ]] || {
    echo "compute_curve.sh: CORES must be a whole number of at least 1, or one followed by changes such as 1,2@8312.5 (two cores from run_seconds 8312.5 on), not '$cores'" >&2
    exit 2
}
# The changes' times must rise: each starts a stretch after the one before.
awk -v cores="$cores" 'BEGIN { n = split(cores, parts, ","); last = 0
    for (i = 2; i <= n; i++) { split(parts[i], p, "@"); if (p[2] + 0 <= last) exit 1; last = p[2] + 0 } }' || {
    echo "compute_curve.sh: the changes in CORES '$cores' must be in rising order of run_seconds, each after 0" >&2
    exit 2
}
budgets="${BUDGETS:-10 20 40 80 160 300}"
games="${GAMES:-400}"
anchors="${ANCHORS:-alphabeta:depth=1 alphabeta:depth=2 alphabeta:depth=3}"
anchor_games="${ANCHOR_GAMES:-100}"
sims="${SIMS:-64}"
seed="${SEED:-14}"
bin="${BIN:-target/release/camelot-zero}"
if [ ! -x "$bin" ]; then
    cargo build --release --quiet
fi
mkdir -p "$out"

# The newest model saved within a budget: "gen-NNNN core-minutes", or nothing. (Fields of
# generations.csv may be quoted and hold commas: the line is split by hand.)
model_at() {
    awk -v budget="$1" -v cores="$cores" '
        function split_csv(line, f,    n, i, c, quoted, field) {
            n = 0; field = ""; quoted = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (c == "\"") quoted = !quoted
                else if (c == "," && !quoted) { f[++n] = field; field = "" }
                else field = field c
            }
            f[++n] = field
            return n
        }
        # Core-seconds at run time s: each stretch of the run at its own number of cores.
        function core_seconds(s,    total, i, end) {
            s += 0; total = 0
            for (i = 1; i <= stretches; i++) {
                if (s <= from[i]) break
                end = (i < stretches && from[i + 1] < s) ? from[i + 1] : s
                total += (end - from[i]) * count[i]
            }
            return total
        }
        BEGIN {
            stretches = split(cores, parts, ",")
            for (i = 1; i <= stretches; i++) {
                if (split(parts[i], p, "@") == 2) { count[i] = p[1] + 0; from[i] = p[2] + 0 }
                else { count[i] = p[1] + 0; from[i] = 0 }
            }
        }
        NR == 1 { n = split_csv($0, names); for (i = 1; i <= n; i++) col[names[i]] = i; next }
        {
            split_csv($0, f)
            if (col["run_seconds"] && f[col["run_seconds"]] != "") {
                m = core_seconds(f[col["run_seconds"]]) / 60
                if (m <= budget) { best = f[1] + 1; minutes = m }
            }
        }
        END { if (best != "") printf "gen-%04d %.1f\n", best, minutes }
    ' "$run/generations.csv"
}

# The pair score of A in an arena output file.
score_of() {
    sed -n 's/.*pair score \([0-9.]*\).*/\1/p' "$1" | tail -1
}

# Elo difference of a score, capped at +/-800 for a pair won or lost outright.
elo_of() {
    awk -v s="$1" 'BEGIN {
        if (s <= 0) { print -800; exit } if (s >= 1) { print 800; exit }
        printf "%.0f\n", -400 * log(1 / s - 1) / log(10) }'
}

# The players of an arena output file, as "A B" (e.g. "gen-0252:sims=64 alphabeta:depth=2").
players_of() {
    awk '$1 == "A" { a = $2 } $1 == "B" { b = $2 } END { print a " " b }' "$1"
}

# One match into FILE between the players named PLAYERS ("A B", as the arena names them),
# unless FILE already holds the result of that very pair (an interrupted curve resumes; the
# file is written under a temporary name and renamed when the match ends). A file of another
# pair (a budget that now finds a newer model) is played again.
play() {
    local file="$1" players="$2"
    shift 2
    if [ -f "$file" ] && [ -n "$(score_of "$file")" ]; then
        if [ "$(players_of "$file")" = "$players" ]; then
            echo "reusing $file" >&2
            return
        fi
        echo "$file is $(players_of "$file"), not $players: played again" >&2
    fi
    "$bin" arena "$@" --config "$run/config.toml" --seed "$seed" > "$file.tmp"
    mv "$file.tmp" "$file"
}

header="budget,model,core_minutes,score_vs_previous,elo_step,elo"
for a in $anchors; do header="$header,vs_$a"; done
echo "$header" > "$out/curve.csv.tmp"
previous=""
elo=0
for budget in $budgets; do
    found="$(model_at "$budget")"
    [ -n "$found" ] || { echo "budget $budget core-minutes: no model saved within it, left out" >&2; continue; }
    read -r model minutes <<< "$found"
    dir="$run/models/$model"
    [ -d "$dir" ] || { echo "compute_curve.sh: $dir is missing" >&2; exit 1; }
    [ "$dir" != "$previous" ] || continue
    row_score=""
    step=""
    if [ -n "$previous" ]; then
        match="$out/chain-$budget.txt"
        play "$match" "$model:sims=$sims ${previous##*/}:sims=$sims" \
            --a "$dir:sims=$sims" --b "$previous:sims=$sims" --games "$games"
        row_score="$(score_of "$match")"
        step="$(elo_of "$row_score")"
        elo=$((elo + step))
    fi
    row="$budget,$model,$minutes,$row_score,$step,$elo"
    for a in $anchors; do
        match="$out/$budget-vs-${a//[:=]/-}.txt"
        play "$match" "$model:sims=$sims $a" --a "$dir:sims=$sims" --b "$a" --games "$anchor_games"
        row="$row,$(score_of "$match")"
    done
    echo "$row" >> "$out/curve.csv.tmp"
    echo "$row"
    previous="$dir"
done
mv "$out/curve.csv.tmp" "$out/curve.csv"
cp "$out/curve.csv" "$run/curve.csv.tmp"
mv "$run/curve.csv.tmp" "$run/curve.csv"
echo "written $out/curve.csv and $run/curve.csv"
