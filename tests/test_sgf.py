"""SGF records: reading (sizes, handicap setup, passes), replaying, writing, and bad files."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from gorules.impl.engine.rules import Game, random_playout, to_board
from gorules.impl.formats.sgf import RecordError, load_sgf, parse_sgf, save_sgf
from gorules.impl.formats.sgf_replay import engine_positions, replay, sgfmill_agreement
from gorules.spec.graph import grid, parse_graph, parse_point
from gorules.spec.tromp_taylor import PASS

HANDICAP_GAME = b"(;GM[1]FF[4]SZ[9]HA[2]KM[0.5]AB[cc][gg]AW[ee];W[dc];B[];W[tt];B[cd]RE[B+R])"


def test_reads_size_handicap_setup_and_passes():
    """A 9×9 handicap record: the grid, the AB/AW stones, White first, B[] and W[tt] as passes."""
    record = parse_sgf(HANDICAP_GAME, "handicap.sgf")
    graph = record.graph
    assert graph == grid(9, 9)
    assert record.handicap == 2 and record.komi == 0.5 and record.first_player == "W"
    stones = {v: c for v, c in enumerate(record.setup) if c != "."}
    assert stones == {parse_point(graph, "cc"): "B", parse_point(graph, "gg"): "B", parse_point(graph, "ee"): "W"}
    assert record.moves == (("W", parse_point(graph, "dc")), ("B", PASS), ("W", PASS), ("B", parse_point(graph, "cd")))


@pytest.mark.parametrize("size", [1, 2, 5, 13, 19, 25])
def test_any_square_size_round_trips(size, tmp_path):
    """A random engine game on an N×N board, written and read back, gives the same moves
    and replays to the same boards in the engine's kernel and in the spec."""
    graph = grid(size, size)
    game = random_playout(graph, random.Random(size), max_moves=min(60, 4 * size * size))
    path = tmp_path / "game.sgf"
    save_sgf(graph, list(game.moves), path, komi=0.5)
    record = load_sgf(path)
    assert record.graph == graph
    assert [v for _, v in record.moves] == list(game.moves)
    players = [p for p, _ in record.moves]
    assert players == ["B" if i % 2 == 0 else "W" for i in range(len(players))]
    engine = engine_positions(record)
    assert to_board(graph, *engine.boards[-1]) == game.board
    if size <= 13:
        assert replay(record).boards[-1] == game.board


def test_setup_position_exported_as_counterexample(tmp_path):
    """A board written as AB/AW setup (a counterexample, say) reads back as the same board."""
    graph = grid(5, 5)
    board = tuple("B" if v % 7 == 0 else "W" if v % 5 == 3 else "." for v in graph.points)
    path = tmp_path / "position.sgf"
    save_sgf(graph, [], path, setup=board, comment="a counterexample")
    record = load_sgf(path)
    assert record.setup == board and record.moves == ()


def test_non_grid_and_rectangular_boards_are_refused_for_export(tmp_path):
    """SGF draws grids: the Petersen graph and a 3×4 grid give a one-line RecordError."""
    for graph in (parse_graph("petersen"), grid(3, 4)):
        with pytest.raises(RecordError) as error:
            save_sgf(graph, [0], tmp_path / "x.sgf")
        assert "\n" not in str(error.value)
    assert not (tmp_path / "x.sgf").exists()


@pytest.mark.parametrize(
    "text,words",
    [
        (b"this is not sgf", "not a readable SGF"),
        (b"(;GM[1]SZ[9];B[aa", "not a readable SGF"),
        (b"(;GM[3]SZ[9];B[aa])", "not Go"),
        (b"(;GM[1]SZ[9];B[zz])", "neither a pass nor a point"),
        (b"(;GM[1]SZ[9]KM[lots];B[aa])", "komi"),
        (b"(;GM[1]SZ[60];B[aa])", "not a readable SGF"),
    ],
)
def test_broken_records_give_one_line_errors(text, words):
    """Each broken record is refused with a single line naming the problem."""
    with pytest.raises(RecordError) as error:
        parse_sgf(text, "broken.sgf")
    message = str(error.value)
    assert words in message and message.startswith("broken.sgf") and "\n" not in message


def test_missing_file_is_a_record_error(tmp_path):
    """A path that does not exist gives a RecordError naming it."""
    with pytest.raises(RecordError, match="cannot read"):
        load_sgf(tmp_path / "absent.sgf")


def test_move_on_an_occupied_point_stops_the_replay():
    """A record that plays on a stone is replayed up to that move and says why it stopped."""
    record = parse_sgf(b"(;GM[1]SZ[5];B[cc];W[dd];B[dd];W[ee])", "occupied.sgf")
    for outcome in (replay(record), engine_positions(record)):
        assert outcome.stopped_at == 3
        assert "occupied point D2" in outcome.problem
        assert len(outcome.boards) == 3


def test_repetition_and_suicide_are_noted():
    """A ko recaptured at once repeats a board, a single-stone suicide repeats one too:
    both are noted (records are replayed without a ko rule) and the replay goes on."""
    from gorules.impl.formats.sgf import record_sgf

    graph = grid(5, 5)
    names = "A2 E5 B1 A1 C4 D4 B3 E3 C2 D2 D3 C3 D3"
    moves = [parse_point(graph, name) for name in names.split()]
    record = parse_sgf(record_sgf(graph, moves), "ko.sgf")
    for outcome in (engine_positions(record), replay(record)):
        assert outcome.problem is None
        assert outcome.suicides == [4]  # White A1 has no liberty and is removed
        assert outcome.repetitions == [4, 13]  # the suicide, and Black's retaking the ko
        assert not outcome.clean


def test_sgfmill_agrees_on_random_games_with_captures_and_suicide():
    """sgfmill's board (which allows self-capture too) matches the engine after every move
    of random Tromp–Taylor games on small boards, where captures and suicides are common."""
    suicides = 0
    for seed in range(30):
        graph = grid(5, 5)
        game = random_playout(graph, random.Random(seed), max_moves=150)
        record = parse_sgf(_sgf_text(graph, game), f"random-{seed}.sgf")
        engine = engine_positions(record)
        suicides += len(engine.suicides)
        compared, problem = sgfmill_agreement(record, engine.boards)
        assert problem is None and compared == len(game.moves) + 1
    assert suicides > 0


def _sgf_text(graph, game: Game) -> bytes:
    """SGF text of an engine game."""
    from gorules.impl.formats.sgf import record_sgf

    return record_sgf(graph, list(game.moves))


def test_replay_sgf_command_one_line_error(tmp_path):
    """``gorules replay-sgf`` on a broken file prints one line and exits 2."""
    path = tmp_path / "bad.sgf"
    path.write_bytes(b"(;GM[1]SZ[9];B[aa")
    finished = subprocess.run(
        [sys.executable, "-m", "gorules", "replay-sgf", str(path)], capture_output=True, text=True
    )
    assert finished.returncode == 2
    assert finished.stderr.count("\n") == 1 and "bad.sgf" in finished.stderr


def test_replay_sgf_command_reports_agreement(tmp_path):
    """``gorules replay-sgf --spec --gnugo --json`` on a written game: every position compared
    in the spec, sgfmill and GNU Go, all agree."""
    import json

    graph = grid(7, 7)
    game = random_playout(graph, random.Random(7), max_moves=80)
    path = tmp_path / "g.sgf"
    save_sgf(graph, list(game.moves), path)
    finished = subprocess.run(
        [sys.executable, "-m", "gorules", "replay-sgf", str(path), "--spec", "--gnugo", "--json"],
        capture_output=True,
        text=True,
    )
    assert finished.returncode == 0, finished.stderr
    report = json.loads(finished.stdout)
    opinions = report["summary"]["opinions"]
    positions = len(game.moves) + 1
    assert opinions["spec"]["compared"] == opinions["sgfmill"]["compared"] == positions
    assert opinions["gnugo"]["compared"] == positions
    assert all(o["disagreements"] == 0 for o in opinions.values())
