#!/usr/bin/env python3
"""Read a directory of camelot-zero record shards and print counts (not part of CI).

    python3 scripts/read_records.py data/<run>/games/gen-0003

Needs pyarrow (or, failing that, duckdb): `pip install pyarrow`. Follows the same rules as the
Rust reader (the records crate): a shard is complete when its `games-NNNNNN.parquet` exists;
positions files without a games file and `*.tmp` leftovers of interrupted writes are ignored and
counted as warnings.
"""

import re
import sys
from pathlib import Path

SCHEMA_VERSION = 1
GAMES = re.compile(r"^games-(\d{6,})\.parquet$")
POSITIONS = re.compile(r"^positions-(\d{6,})\.parquet$")


def scan(directory):
    """Complete shards as (index, games, positions), and the ignored leftovers."""
    names = {p.name: p for p in directory.iterdir()}
    games = {int(m[1]): p for n, p in names.items() if (m := GAMES.match(n))}
    positions = {int(m[1]): p for n, p in names.items() if (m := POSITIONS.match(n))}
    missing = sorted(set(games) - set(positions))
    if missing:
        sys.exit(f"{games[missing[0]]}: positions file of this shard is missing")
    shards = [(i, games[i], positions[i]) for i in sorted(games)]
    orphans = [positions[i] for i in sorted(set(positions) - set(games))]
    tmp = sorted(p for n, p in names.items() if n.endswith(".tmp"))
    return shards, orphans, tmp


def read_with_pyarrow(paths):
    import pyarrow.parquet as pq

    tables = [pq.read_table(p) for p in paths]
    rows = sum(t.num_rows for t in tables)
    versions = set()
    for t in tables:
        versions.update(t.column("schema_version").to_pylist())
    return rows, versions, tables


def summary_pyarrow(games_paths, positions_paths):
    import pyarrow as pa
    import pyarrow.compute as pc

    n_games, game_versions, games = read_with_pyarrow(games_paths)
    n_positions, position_versions, positions = read_with_pyarrow(positions_paths)
    lines = [f"games: {n_games}", f"positions: {n_positions}"]
    if games:
        table = pa.concat_tables(games)
        for row in table.group_by(["variant", "termination"]).aggregate([("game_id", "count")]).to_pylist():
            lines.append(f"  {row['variant']:>10} {row['termination']:<12} {row['game_id_count']}")
        lines.append(f"  plies: mean {pc.mean(table.column('plies')).as_py() or 0:.1f}")
    if positions:
        table = pa.concat_tables(positions)
        full = pc.sum(table.column("full_search")).as_py() or 0
        lines.append(f"  full searches: {full} of {n_positions}")
    return lines, game_versions | position_versions


def summary_duckdb(games_paths, positions_paths):
    import duckdb

    def files(paths):
        return "[" + ", ".join(f"'{p}'" for p in paths) + "]"

    lines, versions = [], set()
    for name, paths in (("games", games_paths), ("positions", positions_paths)):
        if not paths:
            lines.append(f"{name}: 0")
            continue
        rel = f"read_parquet({files(paths)})"
        count = duckdb.sql(f"select count(*) from {rel}").fetchall()[0][0]
        lines.append(f"{name}: {count}")
        versions.update(v for (v,) in duckdb.sql(f"select distinct schema_version from {rel}").fetchall())
    return lines, versions


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = Path(sys.argv[1])
    shards, orphans, tmp = scan(directory)
    games_paths = [str(g) for _, g, _ in shards]
    positions_paths = [str(p) for _, _, p in shards]
    try:
        lines, versions = summary_pyarrow(games_paths, positions_paths)
    except ImportError:
        lines, versions = summary_duckdb(games_paths, positions_paths)
    print(f"shards: {len(shards)}")
    print("\n".join(lines))
    if versions - {SCHEMA_VERSION}:
        print(f"warning: schema versions {sorted(versions)}, expected {SCHEMA_VERSION}")
    warnings = len(orphans) + len(tmp)
    if warnings:
        print(f"warnings: {warnings} ignored leftovers of interrupted writes")
        for p in orphans + tmp:
            print(f"  {p}")


if __name__ == "__main__":
    main()
