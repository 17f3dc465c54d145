#!/usr/bin/env python3
"""Cross-check `camelot-zero stats openings --format json` against the parquet records.

    python3 scripts/check_stats.py --games data/camelot-cpu --depth 3 [--min-games N]
        [--generation G|A-B|A-] [--variant camelot|tricamelot]
        [--bin target/release/camelot-zero | --json openings.json]

Reads the `games` records with pyarrow (`pip install pyarrow`), counts the opening lines, their
outcomes, the mover's score with its 95% Wilson interval and the mean game length independently of
the Rust code, runs the binary (or reads its saved JSON output with --json) and compares every
line. Prints `ok: ...` and exits 0 when they agree; lists the differences and exits 1 when they do
not; exits 2 on bad input and 3 when pyarrow is missing.

Conventions (the same as docs/records.md, "Opening statistics"): games from another start position
are left out; the mover of the k-th move is the seat to move in the start position advanced k-1
seats in turn order; a win is a unique result share above 1/2, anything else a draw.
"""

import argparse
import json
import math
import re
import subprocess
import sys
from pathlib import Path

START = {
    "camelot": "camelot W W:KC6,KD7,KI7,KJ6,MD6,ME6,ME7,MF6,MF7,MG6,MG7,MH6,MH7,MI6 "
    "B:KC11,KD10,KI10,KJ11,MD11,ME10,ME11,MF10,MF11,MG10,MG11,MH10,MH11,MI11 cm=0,0",
    "tricamelot": "tricamelot B B:KE4,KF5,KG4,MD5,ME6,MF7,MG6,MH5 "
    "R:KB13,KC14,KC16,MB11,MC12,MD13,MD15,MD17 G:KI14,KI16,KJ13,MH13,MH15,MH17,MI12,MJ11",
}
SEATS = {"camelot": ["White", "Black"], "tricamelot": ["Blue", "Red", "Green"]}
LETTERS = {"camelot": "WB", "tricamelot": "BRG"}
GAMES = re.compile(r"^games-(\d{6,})\.parquet$")
Z95 = 1.959963984540054
TOLERANCE = 1e-9


def games_files(paths):
    """Files as given; directories searched recursively for complete shards (hidden ones skipped)."""
    files = set()
    for path in map(Path, paths):
        if path.is_file():
            files.add(path)
        elif path.is_dir():
            if (path / "games").is_dir():  # a run directory: self-play only, not ladder/
                path = path / "games"
            found = [
                p
                for p in path.rglob("games-*.parquet")
                if GAMES.match(p.name)
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
                and (p.parent / p.name.replace("games-", "positions-", 1)).exists()
            ]
            if not found:
                sys.exit(f"{path}: no games files")
            files.update(found)
        else:
            sys.exit(f"{path}: no such file or directory")
    return sorted(files)


def parse_generations(text):
    if text is None:
        return lambda g: True
    first, dash, last = text.partition("-")
    lo = int(first)
    hi = int(last) if last else (None if dash else lo)
    return lambda g: g >= lo and (hi is None or g <= hi)


def load(args):
    import pyarrow.parquet as pq

    columns = ["generation", "variant", "start_position", "moves", "result", "plies"]
    keep = parse_generations(args.generation)
    games = []
    for f in games_files(args.games):
        for row in pq.read_table(f, columns=columns).to_pylist():
            if keep(row["generation"]) and (args.variant is None or row["variant"] == args.variant):
                games.append(row)
    variants = {g["variant"] for g in games}
    if len(variants) != 1:
        sys.exit(f"expected games of exactly one variant, found {sorted(variants)}")
    return variants.pop(), games


def winner(result):
    best = max(result)
    top = [i for i, r in enumerate(result) if r == best]
    return top[0] if len(top) == 1 and best > 0.5 else None


def wilson(p, n):
    z2 = Z95 * Z95
    denom = 1 + z2 / n
    centre = p + z2 / (2 * n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, (centre - half) / denom), min(1.0, (centre + half) / denom)


def expected(variant, games, depth, min_games):
    """The openings JSON as the Rust code should write it (lines keyed by their moves)."""
    seats = SEATS[variant]
    players = len(seats)
    standard = [g for g in games if g["start_position"] in (START[variant], "start")]
    first = LETTERS[variant].index(START[variant].split()[1])
    nodes = {}
    for g in standard:
        w = winner(g["result"])
        for k in range(1, min(depth, len(g["moves"])) + 1):
            line = tuple(g["moves"][:k])
            mover = (first + k - 1) % players
            n = nodes.setdefault(line, {"games": 0, "wins": [0] * players, "draws": 0,
                                        "score": 0.0, "length": 0, "mover": seats[mover]})
            n["games"] += 1
            if w is None:
                n["draws"] += 1
            else:
                n["wins"][w] += 1
            n["score"] += g["result"][mover]
            n["length"] += g["plies"]
    total = len(standard)
    lines = {}
    for line, n in nodes.items():
        if n["games"] < max(min_games, 1):
            continue
        parent = nodes[line[:-1]]["games"] if len(line) > 1 else total
        score = n["score"] / n["games"]
        low, high = wilson(score, n["games"])
        lines[line] = {
            "games": n["games"], "share_of_parent": n["games"] / parent,
            "share_of_all": n["games"] / total, "mover": n["mover"], "wins": n["wins"],
            "draws": n["draws"], "score": score, "score_low": low, "score_high": high,
            "mean_length": n["length"] / n["games"],
        }
    winners = [winner(g["result"]) for g in standard]
    totals = {
        "variant": variant, "games": total, "other_starts": len(games) - total,
        "wins": [winners.count(s) for s in range(players)], "draws": winners.count(None),
        "mean_length": sum(g["plies"] for g in standard) / total if total else 0.0,
    }
    return totals, lines


def differences(want, got, where):
    if isinstance(want, float) or isinstance(got, float):
        ok = isinstance(got, (int, float)) and abs(want - got) <= TOLERANCE
        return [] if ok else [f"{where}: expected {want!r}, the binary wrote {got!r}"]
    return [] if want == got else [f"{where}: expected {want!r}, the binary wrote {got!r}"]


def compare(totals, lines, output):
    problems = []
    for key, want in totals.items():
        problems += differences(want, output.get(key), key)
    got_lines = {tuple(l["moves"]): l for l in output.get("lines", [])}
    for line in sorted(set(lines) - set(got_lines)):
        problems.append(f"line {' '.join(line)}: missing from the binary's output")
    for line in sorted(set(got_lines) - set(lines)):
        problems.append(f"line {' '.join(line)}: not expected")
    for line in sorted(set(lines) & set(got_lines)):
        for key, want in lines[line].items():
            problems += differences(want, got_lines[line].get(key), f"line {' '.join(line)} {key}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", required=True)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--min-games", type=int, default=1)
    parser.add_argument("--generation")
    parser.add_argument("--variant", choices=sorted(START))
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--bin", default="target/release/camelot-zero")
    source.add_argument("--json", help="the saved output of `stats openings --format json`")
    args = parser.parse_args()
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        print("pyarrow is not installed (pip install pyarrow)", file=sys.stderr)
        sys.exit(3)
    variant, games = load(args)
    totals, lines = expected(variant, games, args.depth, args.min_games)
    if args.json:
        output = json.loads(Path(args.json).read_text())
    else:
        command = [args.bin, "stats", "openings", "--games", *args.games, "--depth", str(args.depth),
                   "--min-games", str(args.min_games), "--format", "json"]
        if args.generation:
            command += ["--generation", args.generation]
        if args.variant:
            command += ["--variant", args.variant]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{' '.join(command)} failed ({run.returncode}): {run.stderr.strip()}")
        output = json.loads(run.stdout)
    problems = compare(totals, lines, output)
    if problems:
        print(f"MISMATCH: {len(problems)} differences", file=sys.stderr)
        for p in problems[:30]:
            print(f"  {p}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {len(lines)} lines of {totals['games']} {variant} games match")


if __name__ == "__main__":
    main()
