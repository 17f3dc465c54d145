"""Camelot and Tri-Camelot for Python: the rules, the network encoding and the game records of
camelot-zero (https://example.invalid/camelot-zero), from the same Rust code the trainer runs.

Positions::

    import camelot_zero as cz
    pos = cz.Position("start", variant="camelot")
    pos.legal_moves()[:3]          # ['C6-B5', 'C6-B6', 'C6-B7']
    pos.play("C6-B5")
    planes = pos.encode()          # numpy float32 [planes, height, width], the mover's view
    mask = pos.legal_mask()        # numpy bool [num_actions]: the legal legs as policy indices

Records (a run directory, a games folder or shard files)::

    data = cz.training_arrays("data/camelot-cpu")       # numpy arrays ready for PyTorch or JAX
    table = cz.games_table("data/camelot-cpu")          # a pyarrow table (needs pyarrow)

Saved games (what ``camelot-zero play``'s ``save`` and the board page's Save write)::

    game = cz.read_game(open("game.txt").read())     # moves, comments, result, positions
    text = cz.write_game("camelot", ["F6-F8", "G11-G9"], comments=["", "the centre"])

Errors are Python exceptions: ``ValueError`` for bad input (a position string, a move, an
action, a file that is not a record), ``OSError`` for a file that cannot be read.
"""

from __future__ import annotations

import os
from typing import Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = [
    "Position",
    "layout",
    "list_shards",
    "training_arrays",
    "games_table",
    "positions_table",
    "read_game",
    "write_game",
    "ENCODINGS",
    "SCHEMA_VERSION",
]

ENCODINGS: Dict[str, int] = dict(_native.ENCODINGS)
"""The input encodings by name, with the version a checkpoint records: ``basic`` (1) and
``tactical`` (2, the basic planes plus what each seat could capture). A network reads the one
its checkpoint names (``config.shape.encoding`` in ``net.json``, ``encoding_version`` in an
export's sidecar)."""
SCHEMA_VERSION: int = _native.SCHEMA_VERSION
"""Version of the parquet record schemas."""

PathLike = Union[str, "os.PathLike[str]"]


def layout(variant: str, encoding: str = "basic") -> Dict[str, object]:
    """The network's tensor layout of ``variant`` (``"camelot"`` or ``"tricamelot"``) under
    ``encoding`` (a key of ``ENCODINGS``): ``planes``, ``height``, ``width``, ``num_actions``,
    ``value_classes``, ``seats`` (letters in turn order), ``cells`` (the flat grid index
    ``row * width + col`` of every cell), ``encoding`` and ``encoding_version``."""
    return dict(_native.layout(variant, encoding))


class Position:
    """A position of Camelot or Tri-Camelot, possibly with a move in progress.

    ``Position(text="start", variant=None, knight_canter="strict")`` takes a position string
    (as ``str()`` prints it, e.g. ``"camelot W W:KC6,... B:... cm=0,0"``, optionally ending in
    ``move=<legs>``) or ``"start"`` with ``variant``.

    Two interfaces play moves: complete moves in official notation (:meth:`legal_moves`,
    :meth:`play`), and the legs the network plays (:meth:`legal_actions`, :meth:`play_action`,
    indices of the policy head in the mover's frame).
    """

    __slots__ = ("_p",)

    def __init__(self, text: str = "start", variant: Optional[str] = None,
                 knight_canter: str = "strict") -> None:
        self._p = _native.Position(text, variant, knight_canter)

    @classmethod
    def _wrap(cls, native: "_native.Position") -> "Position":
        p = cls.__new__(cls)
        p._p = native
        return p

    def __str__(self) -> str:
        return str(self._p)

    def __repr__(self) -> str:
        return repr(self._p)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._p == other._p

    def __hash__(self) -> int:
        return hash(self._p)

    def copy(self) -> "Position":
        """An independent copy."""
        return Position._wrap(self._p.copy())

    @property
    def variant(self) -> str:
        """``"camelot"`` or ``"tricamelot"``."""
        return self._p.variant

    @property
    def knight_canter(self) -> str:
        """The knight-canter rule option (``"strict"`` or ``"final-square"``)."""
        return self._p.knight_canter

    @property
    def seats(self) -> List[str]:
        """The seats' letters in turn order."""
        return self._p.seats

    @property
    def to_move(self) -> str:
        """The letter of the seat to move."""
        return self._p.to_move

    @property
    def move_in_progress(self) -> Optional[str]:
        """The legs played of the move in progress (``"D7-D5"``), or ``None``."""
        return self._p.move_in_progress

    def legal_moves(self) -> List[str]:
        """The legal complete moves in official notation, sorted; with a move in progress, the
        moves that continue it (its legs included)."""
        return self._p.legal_moves()

    def play(self, move: str) -> None:
        """Plays a complete move in official notation; ``ValueError`` if it is not legal."""
        self._p.play(move)

    def after(self, move: str) -> "Position":
        """A copy with ``move`` played."""
        p = self.copy()
        p.play(move)
        return p

    def is_over(self) -> bool:
        """Whether the game is over."""
        return self._p.is_over()

    def result(self) -> Optional[List[float]]:
        """Each seat's final score (1 a win, the fair share a draw), or ``None``."""
        return self._p.result()

    def termination(self) -> Optional[str]:
        """How the game ended (``castle``, ``capture-all``, ``no-move``, ...), or ``None``."""
        return self._p.termination()

    def winner(self) -> Optional[str]:
        """The winner's letter, or ``None`` (a draw, or the game goes on)."""
        return self._p.winner()

    def legal_actions(self) -> List[int]:
        """The legal actions (legs, and ``end`` where stopping is optional) as policy indices in
        the mover's frame, ascending."""
        return self._p.legal_actions()

    def action_name(self, index: int) -> str:
        """The legal action ``index`` as a leg ``"F5>F9"`` (absolute squares) or ``"end"``."""
        return self._p.action_name(index)

    def action_index(self, name: str) -> int:
        """The policy index of the legal leg ``"F5>F9"`` (or ``"end"``)."""
        return self._p.action_index(name)

    def play_action(self, index: int) -> None:
        """Plays the legal action ``index`` (one leg; the move completes when no leg can
        follow). ``ValueError`` if it is not legal."""
        self._p.play_action(index)

    def last_move(self) -> Optional[str]:
        """The complete move the last action completed, or ``None``."""
        return self._p.last_move()

    def encode(self, encoding: str = "basic") -> np.ndarray:
        """The network's input under ``encoding`` (the one the model's checkpoint names):
        float32 ``[planes, height, width]`` from the mover's point of view (what the exported
        ONNX model's ``planes`` input takes, one row of the batch)."""
        lay = layout(self.variant, encoding)
        planes = np.frombuffer(self._p.encode_bytes(encoding), dtype="<f4")
        return planes.reshape(lay["planes"], lay["height"], lay["width"]).copy()

    def legal_mask(self) -> np.ndarray:
        """bool ``[num_actions]``: True at the policy index of every legal action."""
        mask = np.zeros(layout(self.variant)["num_actions"], dtype=bool)
        mask[self.legal_actions()] = True
        return mask


def _paths(paths: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def list_shards(paths: Union[PathLike, Iterable[PathLike]]) -> List[Tuple[str, str]]:
    """The complete shards under ``paths`` (run directories, games folders searched
    recursively, or games files) as ``(games file, positions file)`` pairs. Leftovers of
    interrupted writes are not shards."""
    return [(os.fspath(g), os.fspath(p)) for g, p in _native.list_shards(_paths(paths))]


_DTYPES = {
    "planes": "<f4", "policy": "<f4", "legal": "u1", "value": "<f4", "result": "<f4",
    "mover": "u1", "full_search": "u1", "generation": "<u4", "game_id": "<u8", "ply": "<u4",
}


def training_arrays(paths: Union[PathLike, Iterable[PathLike]], knight_canter: str = "strict",
                    limit: Optional[int] = None, encoding: str = "basic") -> Dict[str, object]:
    """Every searched position under ``paths`` encoded in ``encoding`` as the trainer encodes
    it (no symmetry; the value target is the game's outcome), as numpy arrays:

    - ``planes`` float32 ``[N, planes, height, width]``: the network input;
    - ``policy`` float32 ``[N, num_actions]``: the search's visit distribution (the policy
      target of rows with ``full_search``);
    - ``legal`` bool ``[N, num_actions]``: the legal actions;
    - ``value`` float32 ``[N, value_classes]``: the value target (each seat winning, mover
      first in turn order, then draw);
    - ``result`` float32 ``[N, seats]``: the game's final scores, absolute seat order;
    - ``mover`` uint8, ``full_search`` bool, ``generation`` uint32, ``game_id`` uint64,
      ``ply`` uint32, all ``[N]``;

    and ``variant`` and ``count``. ``limit`` keeps the first N positions."""
    raw = _native.training_arrays(_paths(paths), knight_canter, limit, encoding)
    out: Dict[str, object] = {"variant": raw["variant"], "count": raw["count"]}
    for name, dtype in _DTYPES.items():
        data, shape = raw[name]
        array = np.frombuffer(data, dtype=dtype).reshape(shape)
        if name in ("legal", "full_search"):
            array = array.astype(bool)
        out[name] = array
    return out


def _table(paths: Union[PathLike, Iterable[PathLike]], which: int):
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("games_table and positions_table need pyarrow: pip install pyarrow") from e
    files = [shard[which] for shard in list_shards(paths)]
    if not files:
        raise ValueError("no shards found")
    return pa.concat_tables([pq.read_table(f) for f in files])


def games_table(paths: Union[PathLike, Iterable[PathLike]]):
    """The ``games`` records under ``paths`` as one pyarrow table (needs pyarrow)."""
    return _table(paths, 0)


def positions_table(paths: Union[PathLike, Iterable[PathLike]]):
    """The ``positions`` records under ``paths`` as one pyarrow table (needs pyarrow)."""
    return _table(paths, 1)


def read_game(text: str) -> Dict[str, object]:
    """The saved game in ``text`` (docs/records.md, "Saved games"), every move checked by the
    rules: a dict of ``variant``, ``start`` (a position string or ``"start"``), ``moves``
    (official notation), ``comments`` (the game's, then one after each move; ``""`` for none),
    ``result`` (each seat's score share, or None for a game not finished), ``termination`` (or
    None), ``tags`` (the other tags as ``(name, value)`` pairs) and ``positions`` (the position
    string before the first move and after each move). A ``ValueError`` says what is wrong
    and where (the line of a bad tag, the number of an illegal move)."""
    return dict(_native.read_game(text))


def write_game(variant: str, moves: Sequence[str], start: str = "start",
               comments: Optional[Sequence[str]] = None,
               result: Optional[Sequence[float]] = None,
               termination: Optional[str] = None,
               tags: Optional[Iterable[Tuple[str, str]]] = None) -> str:
    """The text of a saved game that ``read_game``, ``camelot-zero replay``, ``play --game``
    and the board page read: ``moves`` from ``start`` (checked by the rules first),
    ``comments`` as ``read_game`` gives them, ``result`` each seat's share (None: not
    finished)."""
    return _native.write_game(variant, list(moves), start,
                              None if comments is None else list(comments),
                              None if result is None else [float(v) for v in result],
                              termination, None if tags is None else list(tags))
