#!/usr/bin/env python3
"""Checks an exported camelot-zero network end to end, using only the export's sidecar.

Positions (position strings, `... move=<legs>` during a move allowed) are encoded into input
planes from the sidecar's description alone, run through the ONNX file with onnxruntime, and
the resulting policy over the legal actions and per-seat values compared with what
`camelot-zero analyze POSITION --model CHECKPOINT --raw` prints for the same positions. The
legal actions come from that output (`F5>F9 INDEX PROB` lines); their indices are recomputed
from the sidecar and must match too. Exits 1 on any difference above the tolerance.

Needs numpy and onnxruntime (python3 -m pip install --user onnxruntime numpy). Usage:

    camelot-zero export --model data/run/models/gen-0003 --format onnx --out /tmp/net.onnx
    python3 scripts/check_onnx.py /tmp/net.onnx --checkpoint data/run/models/gen-0003 \\
        [--bin target/release/camelot-zero] [POSITION ...]

Without positions, the sidecar's start position is checked. The sidecar is FILE + ".json".
"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort


class Sidecar:
    """The sidecar, indexed for encoding positions and numbering legs."""

    def __init__(self, path: Path):
        s = json.loads(path.read_text())
        self.raw = s
        self.variant = s["variant"]
        self.players = s["players"]
        self.letters = [p["letter"] for p in self.players]
        board = s["board"]
        self.rows, self.cols = board["grid_rows"], board["grid_cols"]
        self.grid = {c["square"]: (c["row"], c["col"]) for c in board["cells"]}
        self.planes = s["planes"]
        self.frames = [seat["squares"] for seat in s["perspective"]["seats"]]
        self.legs = {}
        self.over = {}
        for leg in s["actions"]["legs"]:
            if leg["to"] is not None:
                self.legs[(leg["square"], leg["to"])] = leg["index"]
                if leg["kind"] == "leap":
                    self.over[(leg["square"], leg["to"])] = leg["over"]
        self.end_move = s["actions"]["end_move"]
        self.input = s["input"]
        self.outputs = s["outputs"]

    def encode(self, position: str) -> tuple[np.ndarray, int]:
        """The planes [planes, rows, cols] of a position string, and the seat to move."""
        tokens = position.split()
        if tokens[0] != self.variant:
            raise ValueError(f"{position!r} is not a {self.variant} position")
        mover = self.letters.index(tokens[1])
        pieces, castle_moves, landed, jumps = {}, [0, 0], [], []
        for token in tokens[2:]:
            if token.startswith("cm="):
                castle_moves = [int(x) for x in token[3:].split(",")]
            elif token.startswith("move="):
                square = ""
                for ch in token[5:]:
                    if ch in "-x":
                        landed.append(square)
                        jumps.append(ch == "x")
                        square = ""
                    else:
                        square += ch
                landed.append(square)
            else:
                letter, _, listed = token.partition(":")
                for piece in filter(None, listed.split(",")):
                    pieces[piece[1:]] = (self.letters.index(letter), piece[0])
        # The move in progress: the piece moves along `landed`, jumped pieces are removed.
        if landed:
            piece = pieces.pop(landed[0])
            for (a, b), jump in zip(zip(landed, landed[1:]), jumps):
                if jump:
                    pieces.pop(self.over[(a, b)], None)
            pieces[landed[-1]] = piece
        captured = any(jumps)
        n = len(self.players)
        sets = self.players[mover]
        out = np.zeros((len(self.planes), self.rows, self.cols), dtype=np.float32)
        for square in self.grid:
            row, col = self.grid[self.frames[mover][square]]
            for i, plane in enumerate(self.planes):
                f = plane["fill"]
                kind = f["kind"]
                if kind == "pieces":
                    owner = (mover + f["relative_seat"]) % n
                    letter = "M" if f["piece"] == "man" else "K"
                    v = pieces.get(square) == (owner, letter)
                elif kind == "squares":
                    v = square in sets[f["set"]]
                elif kind == "moving_piece":
                    v = bool(landed) and square == landed[-1]
                elif kind == "landed":
                    v = square in landed
                elif kind == "captured":
                    v = captured
                elif kind == "on_board":
                    v = True
                elif kind == "castle_moves":
                    v = castle_moves[(mover + f["relative_seat"]) % 2] * f["scale"]
                else:
                    raise ValueError(f"unknown plane kind {kind}")
                out[i, row, col] = float(v)
        return out, mover

    def action_index(self, mover: int, leg: str) -> int:
        """The index of a leg written `F5>F9` (board squares) or `end`."""
        if leg == "end":
            return self.end_move
        a, b = leg.split(">")
        frame = self.frames[mover]
        return self.legs[(frame[a], frame[b])]

    def seat_values(self, value_logits: np.ndarray, mover: int) -> list[float]:
        """Per-seat score shares from the value logits (softmax, mover first, then draw)."""
        p = np.exp(value_logits - value_logits.max())
        p /= p.sum()
        n = len(self.players)
        values = [0.0] * n
        for k in range(n):
            values[(mover + k) % n] = p[k] + p[n] / n
        return values


def analyze(binary: str, checkpoint: Path, position: str):
    """`analyze --raw`: (values by seat letter, [(leg, index, probability)]), or None if over."""
    out = subprocess.run(
        [binary, "analyze", position, "--model", str(checkpoint), "--raw"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(f"analyze failed on {position!r}: {out.stderr.strip()}")
    lines = out.stdout.splitlines()
    if lines[0].startswith("game over"):
        return None
    values = dict(item.split("=") for item in lines[0].split()[1:])
    actions = [(leg, int(i), float(p)) for leg, i, p in (line.split() for line in lines[1:])]
    return {k: float(v) for k, v in values.items()}, actions


def find_binary(given):
    if given:
        return given
    for candidate in [shutil.which("camelot-zero"), "target/release/camelot-zero"]:
        if candidate and Path(candidate).exists():
            return candidate
    sys.exit("camelot-zero not found: pass --bin")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", type=Path, help="the exported .onnx file (sidecar: FILE.json)")
    ap.add_argument("--checkpoint", type=Path, required=True, help="the checkpoint it came from")
    ap.add_argument("--bin", help="the camelot-zero binary (default: on PATH or target/release)")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("positions", nargs="*", help="position strings (default: the start)")
    args = ap.parse_intermixed_args()

    sidecar = Sidecar(Path(str(args.model) + ".json"))
    if sidecar.raw["model_format"] != "onnx":
        sys.exit(f"{args.model} is a {sidecar.raw['model_format']} export, not onnx")
    binary = find_binary(args.bin)
    positions = args.positions or [sidecar.raw["start_position"]]

    session = ort.InferenceSession(str(args.model), providers=["CPUExecutionProvider"])
    fixed_batch = sidecar.input["shape"][0]
    worst_policy = worst_value = 0.0
    failures, checked = [], 0
    for position in positions:
        expected = analyze(binary, args.checkpoint, position)
        if expected is None:
            print(f"skipped (game over): {position}")
            continue
        values, actions = expected
        planes, mover = sidecar.encode(position)
        batch = 1 if isinstance(fixed_batch, str) else fixed_batch
        feed = np.zeros((batch, *planes.shape), dtype=np.float32)
        feed[0] = planes
        policy, value = session.run(
            [sidecar.outputs["policy"]["name"], sidecar.outputs["value"]["name"]],
            {sidecar.input["name"]: feed},
        )
        indices = [sidecar.action_index(mover, leg) for leg, _, _ in actions]
        wrong = [(leg, i, j) for (leg, i, _), j in zip(actions, indices) if i != j]
        if wrong:
            failures.append(f"{position}: action indices differ (leg, analyze, sidecar): {wrong}")
        logits = policy[0, indices].astype(np.float64)
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        d_policy = float(np.abs(probs - np.array([p for _, _, p in actions])).max())
        ours = sidecar.seat_values(value[0].astype(np.float64), mover)
        d_value = max(abs(ours[s] - values[letter]) for s, letter in enumerate(sidecar.letters))
        worst_policy, worst_value = max(worst_policy, d_policy), max(worst_value, d_value)
        if max(d_policy, d_value) > args.tolerance:
            failures.append(f"{position}: policy differs by {d_policy:.2e}, values by {d_value:.2e}")
        checked += 1

    print(
        f"{checked} positions: max |policy difference| {worst_policy:.2e}, "
        f"max |value difference| {worst_value:.2e} (tolerance {args.tolerance:g})"
    )
    for f in failures:
        print(f"MISMATCH {f}")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
