"""Saved games through the package: the text the CLI and the board write, read and written
back, every move checked by the rules."""

import pytest

import camelot_zero as cz


def test_a_game_written_reads_back_with_its_positions():
    text = cz.write_game("camelot", ["F6-F8", "G11-G9"], comments=["club night", "the centre"],
                         result=[0.5, 0.5], termination="draw", tags=[("Event", "test")])
    assert text.startswith('[Game "camelot"]\n[Start "start"]\n[Result "1/2-1/2"]\n')
    game = cz.read_game(text)
    assert game["variant"] == "camelot"
    assert game["moves"] == ["F6-F8", "G11-G9"]
    assert game["comments"] == ["club night", "the centre", ""]
    assert game["result"] == [0.5, 0.5] and game["termination"] == "draw"
    assert game["tags"] == [("Event", "test")]
    pos = cz.Position("start", variant="camelot")
    assert game["positions"][0] == str(pos)
    pos.play("F6-F8")
    pos.play("G11-G9")
    assert game["positions"][-1] == str(pos)


def test_the_cli_format_before_tags_still_reads():
    start = str(cz.Position("start", variant="tricamelot"))
    move = cz.Position(start).legal_moves()[0]
    game = cz.read_game(f"{start}\n{move}\n")
    assert game["variant"] == "tricamelot" and game["moves"] == [move] and game["result"] is None


@pytest.mark.parametrize("call, message", [
    (lambda: cz.read_game('[Game "camelot"]\n\nF6-F8 F8-F9\n'), "move 2 `F8-F9`"),
    (lambda: cz.read_game('[Game "chess"]\n'), "unknown game"),
    (lambda: cz.write_game("camelot", ["F6-F9"]), "move 1 `F6-F9`"),
    (lambda: cz.write_game("camelot", [], result=[1, 0, 0]), "3 shares, but camelot has 2 seats"),
    (lambda: cz.write_game("camelot", [], result=[1.5, 0]), "outside 0 to 1"),
    (lambda: cz.write_game("chess", []), "variant"),
    (lambda: cz.write_game("camelot", [], tags=[("a b", "x")]), "tag name"),
])
def test_bad_games_are_value_errors(call, message):
    with pytest.raises(ValueError, match=message.replace("`", ".")):
        call()
