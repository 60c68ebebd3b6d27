"""The GTP endpoint (``gorules gtp``): the protocol, and a whole game against GNU Go.

The endpoint runs as a real process (``python -m gorules gtp``) and is driven by the GTP
client of impl.formats.gtp, the same client that drives GNU Go; a small referee passes each
engine's ``genmove`` to the other as ``play``.
"""

from __future__ import annotations

import sys

import pytest

from gorules.impl.engine.rules import Game
from gorules.impl.formats.gtp import GtpClient, gnugo_command, referee
from gorules.spec import tromp_taylor
from gorules.spec.graph import grid, parse_point
from gorules.spec.tromp_taylor import PASS

REQUIRED = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "quit",
]


def endpoint(*options: str) -> GtpClient:
    """A fresh ``gorules gtp`` process."""
    return GtpClient([sys.executable, "-m", "gorules", "gtp", *options])


def test_protocol_commands():
    """The administrative commands answer as GTP version 2 requires."""
    with endpoint("--graph", "grid:9x9") as ours:
        assert ours.send("protocol_version") == "2"
        assert ours.send("name") == "gorules"
        assert ours.send("version")
        listed = ours.send("list_commands").split()
        assert set(REQUIRED) <= set(listed)
        assert all(ours.send(f"known_command {c}") == "true" for c in REQUIRED)
        assert ours.send("known_command frobnicate") == "false"
        assert ours.ask("frobnicate") == (False, "unknown command")
        assert ours.ask("boardsize 0")[0] is False
        assert ours.ask("komi lots")[0] is False


def test_play_undo_showboard_and_score():
    """A capture, a ko recapture refused by superko with its reason, a move on a stone,
    bad colours and vertices, undo, showboard and the area score with komi."""
    graph = grid(5, 5)
    game = Game(graph, "tromp-taylor")
    with endpoint("--graph", "grid:9x9") as ours:
        ours.send("boardsize 5")
        ours.send("komi 0.5")
        for name in ("A2", "B2", "B1", "A3", "C3", "A1"):  # White A1 takes Black A2
            ours.send(f"play {game.to_move} {name}")
            game.play(parse_point(graph, name))
        assert game.board[parse_point(graph, "A2")] == "."
        assert ours.board(graph) == game.board
        ok, reason = ours.ask("play B A2")  # retaking would bring back an earlier board
        assert not ok and "superko" in reason
        ok, reason = ours.ask("play B A1")
        assert not ok and "occupied" in reason
        assert ours.ask("play X C4")[0] is False
        assert ours.ask("play B Z9")[0] is False
        ours.send("undo")
        game.undo()
        assert ours.board(graph) == game.board
        assert game.board[parse_point(graph, "A2")] == "B"
        shown = ours.send("showboard")
        assert shown.count("X") == game.board.count("B") and shown.count("O") == game.board.count("W")
        margin = game.score().black - game.score().white - 0.5
        expected = f"B+{margin:g}" if margin > 0 else f"W+{-margin:g}"
        assert ours.send("final_score") == expected


def test_genmove_is_legal_and_seedable():
    """genmove plays legal moves; the same seed gives the same moves."""
    graph = grid(7, 7)
    games = []
    for _ in range(2):
        with endpoint("--graph", "grid:7x7", "--seed", "11") as ours:
            moves = []
            game = Game(graph, "tromp-taylor")
            for i in range(40):
                player = "B" if i % 2 == 0 else "W"
                v = ours.genmove(graph, player)
                moves.append(v)
                game.play(v)  # raises if the endpoint played an illegal move
            assert ours.board(graph) == game.board
            games.append(moves)
    assert games[0] == games[1]


@pytest.mark.parametrize("our_colour", ["W", "B"])
def test_whole_game_against_gnugo(our_colour):
    """A whole 9×9 game, the endpoint (random moves) against GNU Go (level 0, Tromp–Taylor
    flags), refereed move by move: at the end both boards, the engine's and the spec's
    replay of the moves are the same board, and the spec's winner matches final_score.

    A random player keeps invading GNU Go's territory, so a game may run long: after
    400 moves the referee ends it with a pass from each side."""
    graph = grid(9, 9)
    seed = "5" if our_colour == "W" else "6"
    with (
        endpoint("--graph", "grid:9x9", "--seed", seed) as ours,
        GtpClient(gnugo_command("tromp-taylor", extra=["--never-resign", "--seed", "1"])) as gnugo,
    ):
        ours.new_game(graph)
        gnugo.new_game(graph)
        players = {"B": gnugo, "W": ours} if our_colour == "W" else {"B": ours, "W": gnugo}
        moves = referee(players["B"], players["W"], graph, max_moves=400)
        assert len(moves) > 40
        while not moves[-1][1] == moves[-2][1] == PASS:
            player = "W" if moves[-1][0] == "B" else "B"
            assert ours.play(graph, player, PASS) and gnugo.play(graph, player, PASS)
            moves.append((player, PASS))
        final = ours.board(graph)
        assert gnugo.board(graph) == final
        engine = Game(graph, "tromp-taylor")
        for _, v in moves:
            engine.play(v)
        assert engine.board == final
        sequence = [v for _, v in moves]
        states = tromp_taylor.game(graph, sequence)
        assert states is not None and states[-1].board == final
        won = tromp_taylor.winner(graph, sequence)
        score = ours.send("final_score")
        assert won == ("draw" if score == "0" else score[0])


@pytest.mark.parametrize(
    "options,words",
    [
        (["--graph", "grid:0x3"], "bad graph"),
        (["--rules", "bogus"], "preset 'bogus'"),
        (["--preset", "bogus"], "preset 'bogus'"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(options, words):
    """A bad graph or ruleset: one line on stderr naming it, exit code 2, no GTP session."""
    import subprocess

    finished = subprocess.run(
        [sys.executable, "-m", "gorules", "gtp", *options],
        input="name\n",
        capture_output=True,
        text=True,
    )
    assert finished.returncode == 2
    assert finished.stderr.count("\n") == 1 and words in finished.stderr
    assert finished.stdout == ""
