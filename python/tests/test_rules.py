"""The rules through the package agree with the command line's, and bad input is a Python
exception."""

import random

import pytest

import camelot_zero as cz
from conftest import cli


def random_positions(variant: str, count: int, seed: int):
    """Positions reached by random play (complete moves and single legs), some mid-move."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = cz.Position("start", variant=variant)
        for _ in range(rng.randrange(0, 120)):
            if pos.is_over():
                break
            if rng.random() < 0.15:
                pos.play_action(rng.choice(pos.legal_actions()))
            else:
                pos.play(rng.choice(pos.legal_moves()))
        out.append(pos)
    return out


@pytest.mark.parametrize("variant,count", [("camelot", 150), ("tricamelot", 150)])
def test_legal_moves_equal_the_command_lines(binary, variant, count):
    for pos in random_positions(variant, count, seed=7):
        ours = sorted(pos.legal_moves())
        theirs = sorted(cli(binary, "moves", str(pos)).split())
        assert ours == theirs, str(pos)
        assert cz.Position(str(pos)) == pos, "a position string parses back"


def test_the_leg_interface_walks_to_the_same_complete_move():
    pos = cz.Position("start", variant="camelot")
    assert len(pos.legal_moves()) == 100
    assert pos.to_move == "W" and pos.seats == ["W", "B"]
    leg = pos.action_index("D7>D5")
    pos.play_action(leg)
    assert pos.move_in_progress == "D7-D5"
    assert pos.legal_moves() == ["D7-D5", "D7-D5-B7"]
    names = sorted(pos.action_name(a) for a in pos.legal_actions())
    assert names == ["D5>B7", "end"]
    pos.play_action(pos.action_index("D5>B7"))
    assert pos.last_move() == "D7-D5-B7" and pos.to_move == "B"
    assert pos == cz.Position("start", variant="camelot").after("D7-D5-B7")


def test_results_and_terminations():
    pos = cz.Position("tricamelot R B:KE4 R:KB13 G:")
    assert pos.variant == "tricamelot" and not pos.is_over() and pos.result() is None


def test_the_encoding_has_the_layouts_shape():
    assert cz.ENCODINGS == {"basic": 1, "tactical": 2}
    for variant in ("camelot", "tricamelot"):
        lay = cz.layout(variant)
        pos = cz.Position("start", variant=variant)
        planes = pos.encode()
        assert planes.shape == (lay["planes"], lay["height"], lay["width"])
        assert planes.dtype.name == "float32"
        tactical = pos.encode("tactical")
        assert tactical.shape[0] == cz.layout(variant, "tactical")["planes"] > lay["planes"]
        assert (tactical[: lay["planes"]] == planes).all(), "the basic planes come first"
        mask = pos.legal_mask()
        assert mask.shape == (lay["num_actions"],) and mask.sum() == len(pos.legal_actions())


@pytest.mark.parametrize("call", [
    lambda: cz.Position("chess W"),
    lambda: cz.Position("start"),
    lambda: cz.Position("camelot W W:KZ9 B:KC11"),
    lambda: cz.Position("start", variant="camelot", knight_canter="loose"),
    lambda: cz.Position("start", variant="camelot").play("C6-C9"),
    lambda: cz.Position("start", variant="camelot").play("not a move"),
    lambda: cz.Position("start", variant="camelot").play_action(99999),
    lambda: cz.Position("start", variant="camelot").action_name(0),
    lambda: cz.Position("start", variant="camelot").action_index("Q1>Q2"),
    lambda: cz.layout("go"),
    lambda: cz.layout("camelot", "fancy"),
    lambda: cz.list_shards("/nonexistent/run"),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()
