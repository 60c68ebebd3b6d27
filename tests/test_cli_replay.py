"""``gorules replay`` through the real entry points: the console script and gorules.cli.main."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gorules.cli import main
from gorules.errors import UsageError
from gorules.replay import WrittenMove, refusal, replay
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph


def replay_json(capsys, graph: str, moves: str) -> dict:
    """Run ``gorules replay GRAPH --moves MOVES --json`` in-process and read its JSON."""
    assert main(["replay", graph, "--moves", moves, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def refused(capsys, graph: str, moves: str) -> str:
    """Run a replay that must fail; return its one line on stderr."""
    assert main(["replay", graph, "--moves", moves]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and captured.out == ""
    return lines[0]


def gorules_command() -> list[str]:
    """The installed console script, or the package run as a module."""
    found = shutil.which("gorules")
    return [found] if found else [sys.executable, "-m", "gorules"]


def test_the_console_script_replays_a_grid_game():
    done = subprocess.run(
        gorules_command()
        + ["replay", "grid:3x3", "--moves", "B B2, W A1, B A2, W pass, B B1, W pass, B pass", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    # White's A1 is captured by B1; Black owns the whole board.
    assert result == {"board": "...BB..B.", "scores": {"black": 9, "white": 0}, "winner": "black", "moves": 7}


def test_the_console_script_refuses_a_bad_move_with_exit_code_2():
    done = subprocess.run(
        gorules_command() + ["replay", "grid:3x3", "--moves", "B B2, W B2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "gorules replay: error: move 2 (W B2): B2 is occupied by black"


def test_the_text_report_shows_each_board_scores_and_winner(capsys):
    assert main(["replay", "grid:2x2", "--moves", "B A1, W pass, B pass"]) == 0
    out = capsys.readouterr().out
    assert out.count("   A B") == 2 * 4  # four boards (start and three moves), coordinates twice each
    assert "move 1: B A1" in out and "move 3: B pass" in out
    assert " 1 X . 1" in out
    assert "scores: black 4, white 0" in out
    assert out.strip().endswith("winner: black")


def test_a_game_not_yet_over_has_no_winner(capsys):
    result = replay_json(capsys, "grid:2x2", "B A1, W B2, B pass")
    assert result["winner"] is None
    assert result["moves"] == 3
    assert result["scores"] == {"black": 1, "white": 1}


def test_points_may_be_numbers_or_names_and_colours_may_be_left_out(capsys):
    a = replay_json(capsys, "grid:3x3", "B C3, W 0, pass, W bb")  # GTP, number, SGF names
    b = replay_json(capsys, "grid:3x3", "2, 0, pass, 4")
    assert a == b
    assert a["board"] == "W.B.W...."


def test_the_petersen_graph(capsys):
    moves = "B 0, W 1, B 2, W 5, B 6, W 3, B 4, W pass, B pass"
    result = replay_json(capsys, "petersen", moves)
    g = parse_graph("petersen")
    points = [tt.PASS if m.split()[1] == "pass" else int(m.split()[1]) for m in moves.split(", ")]
    final = tt.game(g, points)[-1].board
    assert result["board"] == "".join(final)
    assert result["scores"] == {"black": tt.score(g, final, "B"), "white": tt.score(g, final, "W")}
    assert result["winner"] == "black"
    assert main(["replay", "petersen", "--moves", "B 0, W 1"]) == 0
    out = capsys.readouterr().out
    assert "black: 0" in out and "white: 1" in out and "empty: 2 3 4 5 6 7 8 9" in out


def test_a_directed_graph_captures_along_arcs(capsys):
    # 0 -> 1 -> 2 and back 2 -> 1: Black at 0 lives only through its out-neighbour 1.
    result = replay_json(capsys, "digraph:0>1,1>2,2>1", "B 0, W 1")
    assert result["board"] == ".W."
    assert result["scores"] == {"black": 0, "white": 3}
    line = refused(capsys, "digraph:0>1,1>2,2>1", "B 0, W 1, B 0")
    # Black's stone at 0 would have no liberty: the board stays that of move 2, a repeat.
    assert line == "gorules replay: error: move 3 (B 0): 0 repeats the board after move 2 (positional superko)"


@pytest.mark.parametrize(
    "graph, moves, message",
    [
        ("grid:3x", "B A1", "gorules replay: error: bad graph 'grid:3x': a grid is written grid:RxC, e.g. grid:3x4"),
        ("grid:3x3", "B A1, W D4", "gorules replay: error: move 2: unknown point 'D4' on grid:3x3"),
        ("grid:3x3", "B A1, W A1", "gorules replay: error: move 2 (W A1): A1 is occupied by black"),
        ("grid:3x3", "B A1, B B1", "gorules replay: error: move 2 (B B1): white is to play, not black"),
        (
            "grid:1x2",
            "B A1, W B1, B A1",
            "gorules replay: error: move 3 (B A1): A1 repeats the board after move 1 (positional superko)",
        ),
        (
            "path:1",
            "B 0",
            "gorules replay: error: move 1 (B 0): 0 repeats the empty starting board (positional superko)",
        ),
        (
            "grid:2x2",
            "B A1, W pass, B pass, W B1",
            "gorules replay: error: move 4 (W B1): the game ended with two passes at move 3",
        ),
        ("petersen", "B 10", "gorules replay: error: move 1: unknown point '10': petersen has points 0..9"),
        ("grid:2x2", "B A1 A2", "gorules replay: error: move 1: 'B A1 A2' is not a move like 'B C3' or 'W pass'"),
        ("grid:2x2", "X A1", "gorules replay: error: move 1: 'X' is not a colour (B or W)"),
    ],
)
def test_bad_input_is_one_line_naming_the_move_and_exit_code_2(capsys, graph, moves, message):
    assert refused(capsys, graph, moves) == message


# --------------------------------------------------------------------------- replay against the engine

GRAPHS = ["grid:2x2", "grid:1x3", "grid:3x3", "cycle:5", "petersen", "digraph:0>1,1>2,2>0,2>3,3>2"]


@given(st.sampled_from(GRAPHS), st.lists(st.integers(min_value=-1, max_value=9), max_size=30))
def test_replay_refuses_exactly_what_the_engine_refuses(graph_name, choices):
    from gorules.impl.engine.rules import Game

    g = parse_graph(graph_name)
    engine = Game(g)
    accepted: list[WrittenMove] = []
    for choice in choices:
        v = tt.PASS if choice < 0 else choice % g.order
        written = WrittenMove(len(accepted) + 1, None, v, str(v))
        states = replay(g, accepted).states
        reason = refusal(g, states, written)
        if (reason is None) != (engine.why_illegal(v) is None):
            raise AssertionError(f"{graph_name} after {[m.point for m in accepted]}: {v}: {reason} vs engine")
        if reason is None:
            accepted.append(written)
            engine.play(v)
        else:
            try:
                replay(g, accepted + [written])
            except UsageError as error:
                assert str(error).startswith(f"move {written.number} ")
            else:
                raise AssertionError("a refused move was replayed")
    game = replay(g, accepted)
    assert game.final.board == tuple(engine.board)
    assert game.over == engine.over


def test_the_final_board_can_be_saved_as_a_picture(tmp_path, capsys):
    path = tmp_path / "final.svg"
    assert main(["replay", "grid:3x3", "--moves", "B B2, W A1", "--picture", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == "....B.W.."
    svg = path.read_text()
    assert svg.count('class="stone-B"') == 1 and svg.count('class="stone-W"') == 1
    assert "grid:3x3, after move 2" in svg
    assert main(["replay", "grid:3x3", "--moves", "B B2", "--picture", str(tmp_path / "final.gif")]) == 2
    assert "use a .svg or .png" in capsys.readouterr().err
