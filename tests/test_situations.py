"""``--situation``: a position given as an SGF setup is the situation its text or JSON form gives."""

from __future__ import annotations

import pytest
from sgfmill import sgf

from gorules import rulesets, situations
from gorules.cli import main
from gorules.errors import UsageError
from gorules.spec.api import OptionError
from gorules.spec.graph import parse_graph


def setup_record(size: int, black: list, white: list, to_play: str | None) -> str:
    """An SGF record made by sgfmill: setup stones (sgfmill's (row, column), row 0 at the
    bottom) and, if given, the player to move."""
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set_setup_stones(black, white)
    if to_play is not None:
        root.set("PL", to_play)
    return game.serialise().decode("ascii")


@pytest.mark.parametrize("ruleset", ["ultimate", "fundamental"])
@pytest.mark.parametrize(
    "black,white,to_play,board,to_move",
    [
        ([(1, 0)], [], "w", "B./..", "W"),
        ([(0, 0)], [(1, 1)], None, ".W/B.", "B"),
        ([], [(0, 1), (1, 0)], "b", "W./.W", "B"),
        ([(0, 0), (1, 2)], [(2, 1)], "w", ".W./..B/B..", "W"),
    ],
)
def test_an_sgf_setup_is_the_situation_its_board_and_player_give(black, white, to_play, board, to_move, ruleset):
    size = len(board.split("/"))
    graph = parse_graph(f"grid:{size}x{size}")
    made = rulesets.make(ruleset)
    record = setup_record(size, black, white, to_play)
    from_sgf = situations.read(made, graph, record)
    from_text = situations.read(made, graph, f"board: {board}; to move: {to_move}")
    assert from_sgf.state == from_text.state
    assert from_sgf.to_move == to_move


def test_an_sgf_file_is_read_and_solved_as_its_text_form(tmp_path, capsys):
    path = tmp_path / "setup.sgf"
    path.write_text(setup_record(2, [(1, 0)], [], "w"), encoding="ascii")
    assert main(["solve", "grid:2x2", "--ruleset", "ultimate", "--situation", str(path), "--no-progress"]) == 0
    from_file = capsys.readouterr().out.splitlines()[:2]
    text = "board: B./..; to move: W"
    assert main(["solve", "grid:2x2", "--ruleset", "ultimate", "--situation", text, "--no-progress"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == from_file


@pytest.mark.parametrize(
    "graph,record,why",
    [
        ("grid:2x2", "(;GM[1]SZ[2];B[aa])", "has moves (1)"),
        ("grid:3x3", "(;GM[1]SZ[2]AB[aa])", "is one of grid:2x2, not of grid:3x3"),
        ("grid:2x2", "(;GM[1]SZ[2]AB[aa]PL[X])", "PL names no player"),
        ("grid:2x2", "(;GM[1]SZ[2]AB[zz])", "setup"),
        ("grid:2x2", "(;GM[1]SZ[2]AB[aa]", "not a readable SGF record"),
    ],
)
def test_an_sgf_that_is_no_situation_of_the_graph_is_one_line(graph, record, why, capsys):
    assert main(["solve", graph, "--ruleset", "ultimate", "--situation", record, "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert why in error and error.count("\n") == 1


def test_a_ruleset_that_reads_no_situation_refuses_an_sgf_too():
    with pytest.raises((UsageError, OptionError), match="cannot read a situation"):
        situations.read(rulesets.make("tromp-taylor"), parse_graph("grid:2x2"), "(;GM[1]SZ[2]AB[aa])")
