"""The GTP endpoint never dies: malformed and out-of-order commands get ``? message`` and the
session goes on, checked against the spec over long random sessions, in-process and as a
real ``gorules gtp`` process, and in a whole game against GNU Go with junk in between."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gorules.impl.formats.gtp import GtpClient, gnugo_command, referee
from gorules.impl.formats.gtp_server import GtpEndpoint
from gorules.spec import tromp_taylor
from gorules.spec.graph import grid, parse_graph
from gorules.spec.tromp_taylor import PASS
from tests.gtp_session import HUGE, JUNK, run_session


def answers(lines: list[str], graph: str = "grid:3x3") -> list[str]:
    """The endpoint's answers to the lines, in-process (None for empty and comment lines)."""
    endpoint = GtpEndpoint(parse_graph(graph), "tromp-taylor", 1)
    return [endpoint.respond(line) for line in lines]


def test_genmove_after_a_pass_by_the_same_colour_is_refused_not_fatal():
    """``play b pass`` then ``genmove b``: White's implied pass ends the game, so there is no
    move to generate; the answer is ``? the game is over`` and the board is unchanged."""
    endpoint = GtpEndpoint(grid(3, 3), "tromp-taylor", 1)
    assert endpoint.respond("play b pass") == "=\n\n"
    assert endpoint.respond("genmove b") == "? the game is over\n\n"
    assert endpoint.game.moves == ["pass"]
    assert endpoint.respond("genmove w").startswith("= ")


def test_undo_then_genmove_after_the_game_ended():
    """Two passes end the game; undo takes the last pass back; genmove for the colour that
    passed first would end it again: refused, and the session goes on."""
    replies = answers(["play b pass", "play w pass", "genmove b", "undo", "genmove b", "genmove w", "name"])
    assert replies[2].startswith("?")
    assert replies[3] == "=\n\n"
    assert replies[4] == "? the game is over\n\n"
    assert replies[5].startswith("= ") and replies[6] == "= gorules\n\n"


@pytest.mark.parametrize("size", ["²", "٣", "-3", "0", "26", "3.0", HUGE])
def test_boardsize_that_is_not_a_size(size):
    """``boardsize ²`` (str.isdigit says yes, int says no), other digits, and 5,000 digits:
    ``?`` and the board stays as it was."""
    endpoint = GtpEndpoint(grid(3, 3), "tromp-taylor", 1)
    answer = endpoint.respond(f"boardsize {size}")
    assert answer.startswith("? ") and endpoint.graph == grid(3, 3)


@pytest.mark.parametrize("vertex", [HUGE, "A" + HUGE, "²", "a" * 5000])
def test_vertex_of_thousands_of_digits(vertex):
    """A move given as a 5,000-digit number (or a letter and one): ``? invalid vertex``."""
    assert answers([f"play b {vertex}"]) == ["? invalid vertex\n\n"]


def test_an_unforeseen_failure_is_answered_and_undone(monkeypatch):
    """A command that fails unexpectedly (a bug) is answered ``? internal error`` and the
    game is put back as it was before the command."""
    endpoint = GtpEndpoint(grid(3, 3), "tromp-taylor", 1)
    endpoint.respond("play b A1")

    def broken(args):
        endpoint.game.play(4)
        raise KeyError("deliberately broken")

    monkeypatch.setitem(endpoint.commands, "play", broken)
    assert endpoint.respond("play w B2").startswith("? internal error: KeyError")
    assert endpoint.game.moves == [6]


@pytest.mark.parametrize("graph", ["grid:3x3", "grid:2x2", "path:4", "cycle:5", "grid:1x1"])
def test_random_session_short(graph):
    """A few thousand random commands: the endpoint answers each one, never with an internal
    error, and its game stays legal and equal to the spec's (see tests/gtp_session.py)."""
    counts = run_session(3000, seed=len(graph), graph=graph)
    assert counts["commands"] == 3000 and counts["successes"] > 500 and counts["failures"] > 500


@pytest.mark.slow
def test_random_session_of_100000_commands():
    """The long session: 100,000 commands on grid:3x3 and grid:4x4 (boardsize changes it)."""
    counts = run_session(100_000, seed=2026, graph="grid:4x4")
    assert counts["commands"] == 100_000


def test_deliberately_broken_endpoint_is_caught(monkeypatch):
    """The session's referee is not blind: an endpoint whose play ignores captures is
    caught by the comparison with the spec."""
    from gorules.impl.engine import playing as game_module

    original = game_module.Game._after

    def no_captures(self, v):
        after = original(self, v)
        if isinstance(after, str):
            return after
        mover = self._black if self.to_move == "B" else self._white
        return (self._black | 1 << v, self._white) if mover is self._black else (self._black, self._white | 1 << v)

    monkeypatch.setattr(game_module.Game, "_after", no_captures)
    with pytest.raises(AssertionError):
        run_session(3000, seed=3, graph="grid:2x2")


def test_real_process_survives_hostile_lines():
    """The defects' lines sent to a real ``gorules gtp`` process: every line answered, the
    process still answers ``name`` at the end and exits 0 on ``quit``."""
    lines = ["play b pass", "genmove b", "undo", "genmove b", "boardsize ²", f"boardsize {HUGE}", f"play b {HUGE}"]
    lines += [line for line in JUNK if line.strip() and not line.startswith("#")]
    script = "".join(f"{line}\n" for line in lines) + "name\nquit\n"
    finished = subprocess.run(
        [sys.executable, "-m", "gorules", "gtp", "--graph", "grid:3x3", "--seed", "1"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 0, finished.stderr
    assert finished.stderr == ""
    blocks = [b for b in finished.stdout.split("\n\n") if b.strip()]
    assert blocks[-2:] == ["= gorules", "="]
    assert not any("internal error" in b for b in blocks)


def test_whole_game_against_gnugo_with_junk_between_moves():
    """A 7×7 game against GNU Go (level 0, Tromp–Taylor flags) in which the endpoint is sent
    a hostile line before each of its moves: the game completes, both boards agree with each
    other and with the spec's replay of the moves."""
    graph = grid(7, 7)

    class Hostile(GtpClient):
        """Our endpoint, sent one line of junk before every genmove."""

        count = 0

        def genmove(self, graph, player):
            self.ask(JUNK[3 + self.count % (len(JUNK) - 3)].replace("\x00", "").replace("\x01", "") or "name")
            self.count += 1
            return super().genmove(graph, player)

    with (
        Hostile([sys.executable, "-m", "gorules", "gtp", "--graph", "grid:7x7", "--seed", "4"]) as ours,
        GtpClient(gnugo_command("tromp-taylor", extra=["--never-resign", "--seed", "1"])) as gnugo,
    ):
        ours.new_game(graph)
        gnugo.new_game(graph)
        ours.send("komi 0")
        moves = referee(gnugo, ours, graph, max_moves=200)
        assert len(moves) > 20
        while not (len(moves) >= 2 and moves[-1][1] == moves[-2][1] == PASS):
            player = "W" if moves[-1][0] == "B" else "B"
            assert ours.play(graph, player, PASS) and gnugo.play(graph, player, PASS)
            moves.append((player, PASS))
        final = ours.board(graph)
        assert gnugo.board(graph) == final
        states = tromp_taylor.game(graph, [v for _, v in moves])
        assert states is not None and states[-1].board == final


@pytest.mark.parametrize("ident", ["7", "0042", "9" * 19, "1" * 400])
def test_an_id_of_any_length_is_echoed(ident):
    """GTP's id is a number of no stated size: a 19- or 400-digit id is echoed like a short
    one, before a success and before a failure (it is not read as a command name)."""
    assert answers([f"{ident} name", f"{ident} play b Z9"]) == [f"={ident} gorules\n\n", f"?{ident} invalid vertex\n\n"]


@pytest.mark.parametrize("line", ["\x00 \x00", "\x01\t\x02", " \x7f "])
def test_line_of_control_characters_and_spaces(line):
    """A line of control characters around a space (found by the Hypothesis property): no
    command, so no answer, and the session goes on."""
    assert answers([line, "name"]) == [None, "= gorules\n\n"]


def test_a_line_without_end_is_read_past_in_pieces():
    """A line of 1,000,000 characters is answered ``? line too long`` (never held whole) and
    the session goes on; lines of ordinary length are answered as before."""
    import io

    endpoint = GtpEndpoint(grid(3, 3), "tromp-taylor", 1)
    source = io.StringIO("name\n" + "play b " + "A" * 1_000_000 + "\nname\n" + "x" * 2_000_000)
    sink = io.StringIO()
    endpoint.serve(source, sink)
    assert sink.getvalue() == "= gorules\n\n? line too long\n\n= gorules\n\n? line too long\n\n"


GROWTH_KIB = 2048
"""The most the server's resident memory may grow from 5,000 to 20,000 commands: a session
holds its current game only, and each board size's graph once."""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads VmRSS from /proc")
def test_the_servers_memory_does_not_grow_over_a_long_session():
    """A real ``gorules gtp`` fed 20,000 random commands (plays, undos, genmoves, a
    clear_board at least every 500, boardsize, long lines): its resident memory grows by
    less than GROWTH_KIB from the 5,000th command on: a ``boardsize`` that made a new graph
    each time, whose engine kernel the engine's cache keeps, would grow without bound."""
    from tests.gtp_memory import memory_over

    found = memory_over([5_000, 20_000], seed=41)
    resident = found["resident_kib"]
    assert found["internal_errors"] == 0 and found["exit_code"] == 0
    assert resident[20_000] - resident[5_000] < GROWTH_KIB, resident


def test_boardsize_gives_one_graph_per_size():
    """``boardsize`` twice with a size gives the very same graph object, so that the
    engine's kernel is built once per size and not once per command."""
    endpoint = GtpEndpoint(parse_graph("grid:3x3"))
    graphs = []
    for size in (5, 7, 5, 5):
        assert endpoint.respond(f"boardsize {size}") == "=\n\n"
        graphs.append(endpoint.graph)
    assert graphs[0] is graphs[2] is graphs[3] and graphs[1] is not graphs[0]
    assert graphs[1].name == "grid:7x7"
