"""A GTP (version 2) endpoint for the engine: any GTP controller can play on our rules.

:class:`GtpEndpoint` keeps one :class:`impl.engine.rules.Game` and answers the standard
commands: protocol_version, name, version, known_command, list_commands, boardsize,
clear_board, komi, play, genmove, undo, showboard, final_score, quit; and GNU Go's
``list_stones``, which the tests use to compare boards.

- The board is the graph given at start; ``boardsize N`` replaces it by the N×N grid.
  On a grid, vertices are GTP names (``D4``); on any other graph, point numbers.
- ``play`` accepts moves out of turn, as GTP requires: the player to move passes first
  (a pass leaves the board unchanged, so no ko rule sees it), and ``undo`` takes back
  both.
- ``genmove`` plays a uniformly random legal move, drawn from a seedable generator,
  among the moves that do not fill one of the mover's own eyes (an empty point all of
  whose neighbours are the mover's stones); it passes when no such move is left, so that
  random play ends.
- ``final_score`` is the area score of the current board under the ruleset, with komi:
  ``B+3``, ``W+0.5`` or ``0``.

A session holds its current game (the moves, which the ko rule and ``undo`` need) and
nothing of the games before its last ``clear_board`` or ``boardsize``; each board size's
graph is made once (:func:`square_board`), so that a long session does not grow.

The session never ends on bad input: every command, however malformed or out of order,
gets an answer, ``? message`` when it cannot be carried out, and leaves the game as it
was.  Should a command fail in a way not foreseen (a bug), the answer is ``? internal
error: …`` and the game is put back as it was before the command.
"""

from __future__ import annotations

import functools
import random
import re
import sys
from collections.abc import Callable, Iterator
from typing import TextIO

from gorules.impl.engine.options import OptionError, options_of
from gorules.impl.engine.rules import Game, IllegalMove
from gorules.spec.graph import Graph, GraphError, grid, gtp_name, parse_point
from gorules.spec.tromp_taylor import PASS, Move

PROTOCOL_VERSION = "2"
NAME = "gorules"
VERSION = "0.1.0"

COLOURS = {"b": "B", "black": "B", "w": "W", "white": "W"}
MAX_BOARDSIZE = 25


MAX_LINE = 100_000  # characters: a longer line is answered "? line too long", never held whole


def lines(source: TextIO) -> Iterator[str | None]:
    """The lines of ``source``; None for a line longer than MAX_LINE, which is read past in
    pieces so that a line without end cannot fill the memory."""
    while True:
        line = source.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) <= MAX_LINE or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = source.readline(MAX_LINE + 1)
        yield None


@functools.lru_cache(maxsize=MAX_BOARDSIZE)
def square_board(size: int) -> Graph:
    """The ``size`` × ``size`` grid, one object per size: each graph object a game is played
    on keeps its engine kernel in a cache of thousands, so a session sending ``boardsize``
    over and over would otherwise hold a graph and a kernel for each command."""
    return grid(size, size)


class GtpFailure(Exception):
    """A command that cannot be carried out: answered ``? message``."""


def komi_value(args: list[str]) -> float:
    """The finite number a ``komi`` command gives; GtpFailure ("syntax error") otherwise."""
    try:
        value = float(args[0])
    except (IndexError, ValueError):
        raise GtpFailure("syntax error") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise GtpFailure("syntax error")
    return value


class GtpEndpoint:
    """The state of one GTP session: a graph, a ruleset, a game and a random generator."""

    def __init__(self, graph: Graph, options="tromp-taylor", seed: int | None = None):
        """A session on ``graph`` under ``options`` (Options, or a preset's name); genmove's
        generator is seeded with ``seed``."""
        self.graph = graph
        self.options = options_of(options)
        self.random = random.Random(seed)
        self.game = Game(graph, self.options)
        self.steps: list[int] = []  # engine moves made by each GTP move, for undo
        self.finished = False
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda args: PROTOCOL_VERSION,
            "name": lambda args: NAME,
            "version": lambda args: VERSION,
            "known_command": self.known_command,
            "list_commands": lambda args: "\n".join(self.commands),
            "boardsize": self.boardsize,
            "clear_board": self.clear_board,
            "komi": self.komi,
            "play": self.play,
            "genmove": self.genmove,
            "undo": self.undo,
            "showboard": self.showboard,
            "final_score": self.final_score,
            "list_stones": self.list_stones,
            "quit": self.quit,
        }

    # ---- the protocol

    def respond(self, line: str) -> str | None:
        """The full response (ending with a blank line) to one input line, or None for
        an empty or comment line; never an exception, whatever the line."""
        try:
            return self.answer(line)
        except Exception as error:  # a bug in reading the line itself: answered, and the session goes on
            what = " ".join(f"{type(error).__name__}: {error}".split())[:200]
            return f"? internal error: {what}\n\n"

    def answer(self, line: str) -> str | None:
        """:meth:`respond` for a line, with the command's own failures answered and undone."""
        text = line.split("#", 1)[0].replace("\t", " ")
        text = "".join(ch for ch in text if ord(ch) >= 32 and ord(ch) != 127).strip()
        if not text.split():
            return None
        words = text.split()
        ident = ""
        if re.fullmatch(r"[0-9]+", words[0]):  # an id of any length is echoed; the line bounds it
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} missing command\n\n"
        name, args = words[0].lower(), words[1:]
        handler = self.commands.get(name)
        if handler is None:
            return f"?{ident} unknown command\n\n"
        saved = self.snapshot()
        try:
            answer = handler(args)
        except GtpFailure as failure:
            return f"?{ident} {failure}\n\n"
        except Exception as error:  # a bug: answer, put the game back, and go on serving
            self.restore(saved)
            what = " ".join(f"{type(error).__name__}: {error}".split())[:200]
            return f"?{ident} internal error: {what}\n\n"
        return f"={ident} {answer}".rstrip(" ") + "\n\n"

    def snapshot(self) -> tuple:
        """What a command may change: the graph, the options, the moves of the game and how
        many engine moves each GTP move made (to put back after an unforeseen failure)."""
        return self.graph, self.options, tuple(self.game.moves), tuple(self.steps)

    def restore(self, saved: tuple) -> None:
        """Put the session back as :meth:`snapshot` saw it, replaying the moves."""
        self.graph, self.options, moves, steps = saved
        self.game = Game(self.graph, self.options)
        try:
            for v in moves:
                self.game.play(v)
        except Exception:  # the game itself is broken: start again from the empty board
            self.game = Game(self.graph, self.options)
            steps = ()
        self.steps = list(steps)

    def serve(self, source: TextIO = sys.stdin, sink: TextIO = sys.stdout) -> None:
        """Answer commands from ``source`` on ``sink`` until ``quit`` or end of input."""
        for line in lines(source):
            answer = self.respond(line) if line is not None else "? line too long\n\n"
            if answer is None:
                continue
            sink.write(answer)
            sink.flush()
            if self.finished:
                return

    # ---- helpers

    def player(self, text: str) -> str:
        """ "B" or "W" for a GTP colour; GtpFailure otherwise."""
        colour = COLOURS.get(text.lower())
        if colour is None:
            raise GtpFailure("invalid color")
        return colour

    def vertex(self, text: str):
        """The point (or "pass") a GTP vertex names on the current graph."""
        if text.lower() == "pass":
            return "pass"
        try:
            return parse_point(self.graph, text)
        except GraphError:
            raise GtpFailure("invalid vertex") from None

    def name_of(self, v) -> str:
        """The GTP vertex of a point or pass."""
        if v == "pass":
            return "pass"
        return gtp_name(self.graph, v) if self.graph.is_grid else str(v)

    # ---- commands

    def known_command(self, args: list[str]) -> str:
        """Whether a command name is one we answer."""
        return "true" if args and args[0].lower() in self.commands else "false"

    def boardsize(self, args: list[str]) -> str:
        """Replace the graph by the N×N grid and clear the board."""
        if len(args) != 1 or not re.fullmatch(r"[0-9]+", args[0]):
            raise GtpFailure("boardsize needs an integer")
        size = int(args[0]) if len(args[0].lstrip("0")) <= 3 else MAX_BOARDSIZE + 1
        if not 1 <= size <= MAX_BOARDSIZE:
            raise GtpFailure("unacceptable size")
        self.graph = square_board(size)
        return self.clear_board([])

    def clear_board(self, args: list[str]) -> str:
        """Start a new game on the empty board."""
        self.game = Game(self.graph, self.options)
        self.steps = []
        return ""

    def komi(self, args: list[str]) -> str:
        """Set the komi given to White."""
        value = komi_value(args)
        self.options = self.options.with_komi(value)
        self.game.options = self.options
        return ""

    def play(self, args: list[str]) -> str:
        """Play a move for the given colour (passing first for the other one if needed)."""
        if len(args) != 2:
            raise GtpFailure("syntax error")
        player, v = self.player(args[0]), self.vertex(args[1])
        self.play_for(player, v)
        return ""

    def play_for(self, player: str, v) -> None:
        """Make ``player`` play ``v``; GtpFailure("illegal move") if the rules forbid it."""
        steps = 0
        if self.game.to_move != player:
            if self.game.over:
                raise GtpFailure("illegal move: the game is over")
            self.game.pass_()
            steps = 1
        try:
            self.game.play(v)
        except IllegalMove as error:
            if steps:
                self.game.undo()
            reason = str(error).split(": ", 1)[-1]
            raise GtpFailure(f"illegal move: {reason}") from None
        self.steps.append(steps + 1)

    def eye_filling(self, v: int, player: str) -> bool:
        """Whether v is an empty point all of whose neighbours hold player's stones."""
        board = self.game.board
        neighbours = self.graph.neighbours[v]
        return bool(neighbours) and all(board[w] == player for w in neighbours)

    def genmove(self, args: list[str]) -> str:
        """Play and name a random legal move for the colour that does not fill its own eye."""
        if len(args) != 1:
            raise GtpFailure("syntax error")
        player = self.player(args[0])
        if self.game.over:
            raise GtpFailure("the game is over")
        steps = 0
        if self.game.to_move != player:
            self.game.pass_()
            steps = 1
            if self.game.over:  # the other player's pass ended the game: nothing to generate
                self.game.undo()
                raise GtpFailure("the game is over")
        candidates = [v for v in self.game.legal_moves() if v != "pass" and not self.eye_filling(v, player)]
        v: Move = self.random.choice(candidates) if candidates else PASS
        self.game.play(v)
        self.steps.append(steps + 1)
        return self.name_of(v)

    def undo(self, args: list[str]) -> str:
        """Take back the last GTP move."""
        if not self.steps:
            raise GtpFailure("cannot undo")
        for _ in range(self.steps.pop()):
            self.game.undo()
        return ""

    def showboard(self, args: list[str]) -> str:
        """The board as text: a diagram on grids, one line per point elsewhere."""
        board = self.game.board
        symbol = {"B": "X", "W": "O", ".": "."}
        if not self.graph.is_grid:
            lines = [f"{v}: {symbol[board[v]]}" for v in self.graph.points]
            return "\n" + "\n".join(lines)
        rows, columns = self.graph.shape
        letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:columns]
        header = "   " + " ".join(letters)
        lines = [header]
        for r in range(rows):
            cells = " ".join(symbol[board[r * columns + c]] for c in range(columns))
            lines.append(f"{rows - r:2d} {cells} {rows - r}")
        lines.append(header)
        return "\n" + "\n".join(lines)

    def list_stones(self, args: list[str]) -> str:
        """The vertices of the stones of a colour (an extension that GNU Go also has)."""
        if len(args) != 1:
            raise GtpFailure("syntax error")
        player = self.player(args[0])
        board = self.game.board
        return " ".join(self.name_of(v) for v in self.graph.points if board[v] == player)

    def final_score(self, args: list[str]) -> str:
        """The area score of the board with komi: B+x, W+x or 0."""
        margin = self.game.score().margin
        if margin > 0:
            return f"B+{margin:g}"
        if margin < 0:
            return f"W+{-margin:g}"
        return "0"

    def quit(self, args: list[str]) -> str:
        """End the session after answering."""
        self.finished = True
        return ""


def serve(
    graph: Graph, options="tromp-taylor", seed: int | None = None, source: TextIO = sys.stdin, sink: TextIO = sys.stdout
) -> None:
    """Run a GTP session on stdin/stdout (or the given streams) under ``options`` (Options, or a
    preset's name)."""
    try:
        endpoint = GtpEndpoint(graph, options, seed)
    except OptionError as error:
        raise GraphError(str(error)) from None
    endpoint.serve(source, sink)
