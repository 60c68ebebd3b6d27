"""A client for the Go Text Protocol (GTP version 2), to talk to real engines such as GNU Go.

:class:`GtpClient` runs an engine as a child process and exchanges one command and one
response at a time.  :func:`run_script` sends a whole list of commands at once and reads
all the responses, which is much faster when no answer decides the next command (replaying
a record, say).

GNU Go is started with the options that align its rules with Tromp–Taylor as far as they
can be (:data:`GNUGO_TROMP_TAYLOR`): area scoring (``--chinese-rules``), suicide allowed
(``--allow-all-suicide``) and positional superko (``--positional-superko``).  The one
difference left is written down in ``docs/known_differences.md``: GNU Go still accepts a
single-stone suicide, although it leaves the board as it was.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from typing import IO

from gorules.spec.graph import Graph, GraphError, gtp_name, parse_point
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, Player, opponent

GNUGO_TROMP_TAYLOR = ("--chinese-rules", "--allow-all-suicide", "--positional-superko")
GNUGO_JAPANESE = ("--japanese-rules", "--forbid-suicide", "--simple-ko")
GNUGO_RULES = {"tromp-taylor": GNUGO_TROMP_TAYLOR, "japanese": GNUGO_JAPANESE}

COLOUR_NAME = {"B": "black", "W": "white"}


class GtpError(Exception):
    """An engine answered a command with a failure (``? message``), or stopped answering."""


def gnugo_path() -> str | None:
    """Where the ``gnugo`` program is: on the PATH, or in /usr/games as Debian installs it."""
    found = shutil.which("gnugo")
    if found:
        return found
    debian = os.path.join(os.sep, "usr", "games", "gnugo")
    return debian if os.access(debian, os.X_OK) else None


def gnugo_command(preset: str = "tromp-taylor", level: int = 0, extra: Sequence[str] = ()) -> list:
    """The command line of GNU Go in GTP mode under the preset of that name (see GNUGO_RULES)."""
    program = gnugo_path()
    if program is None:
        raise GtpError("GNU Go (gnugo) is not installed")
    if preset not in GNUGO_RULES:
        raise GtpError(f"unknown GNU Go rules {preset!r}: choose one of {', '.join(GNUGO_RULES)}")
    return [program, "--mode", "gtp", "--quiet", "--level", str(level), *GNUGO_RULES[preset], *extra]


def gtp_vertex(graph: Graph, v) -> str:
    """The GTP vertex of a point: ``D4`` on a grid, ``pass`` for a pass."""
    if v == PASS:
        return "pass"
    return gtp_name(graph, v)


def parse_vertex(graph: Graph, text: str):
    """The point (or PASS) that a GTP vertex names on a grid; GtpError if it names none."""
    name = text.strip()
    if name.lower() == "pass":
        return PASS
    try:
        return parse_point(graph, name)
    except GraphError as error:
        raise GtpError(str(error)) from None


def parse_response(lines: Sequence[str]) -> tuple[bool, str]:
    """(success, text) of one GTP response given as its lines (without the blank line)."""
    if not lines or lines[0][:1] not in "=?":
        raise GtpError(f"not a GTP response: {' '.join(lines)!r}")
    head = lines[0][1:]
    # an optional numeric id follows the mark, then a space and the text
    head = head.lstrip("0123456789")
    text = "\n".join([head.strip(), *lines[1:]]).strip()
    return lines[0][0] == "=", text


class GtpClient:
    """An engine that speaks GTP, run as a child process."""

    def __init__(self, command: Sequence[str]):
        """Start the engine with the given command line."""
        self.command = list(command)
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        """The engine's standard input and output (both opened as pipes when it started)."""
        stdin, stdout = self.process.stdin, self.process.stdout
        if stdin is None or stdout is None:
            raise GtpError(f"{self.command[0]} has no pipes")
        return stdin, stdout

    def _read_response(self) -> list:
        """The lines of the next response, up to its terminating blank line."""
        lines: list[str] = []
        while True:
            line = self._pipes()[1].readline()
            if line == "":
                raise GtpError(f"{self.command[0]} stopped answering")
            line = line.rstrip("\r\n")
            if line == "" and lines:
                return lines
            if line != "":
                lines.append(line)

    def send(self, command: str) -> str:
        """Send one command; return the text of a success, raise GtpError on a failure."""
        ok, text = self.ask(command)
        if not ok:
            raise GtpError(f"{command!r}: {text}")
        return text

    def ask(self, command: str) -> tuple[bool, str]:
        """Send one command; return (success, text) without raising on a failure."""
        if self.process.poll() is not None:
            raise GtpError(f"{self.command[0]} has exited")
        stdin, _ = self._pipes()
        stdin.write(command.strip() + "\n")
        stdin.flush()
        return parse_response(self._read_response())

    def close(self) -> None:
        """Say ``quit`` and wait for the engine to end."""
        if self.process.poll() is None:
            try:
                self.ask("quit")
            except (GtpError, BrokenPipeError, OSError):
                pass
            try:
                self._pipes()[0].close()
            except OSError:
                pass
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> GtpClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # The commands that keep an engine's board in step with ours.

    def new_game(self, graph: Graph, komi: float = 0.0) -> None:
        """Set the board size of a square grid, clear the board and set komi."""
        rows, columns = graph.shape
        if rows != columns:
            raise GtpError(f"GTP boards are square; {graph.name} is not")
        self.send(f"boardsize {rows}")
        self.send("clear_board")
        self.send(f"komi {komi}")

    def play(self, graph: Graph, player: str, v) -> bool:
        """Play a move for player ("B"/"W"); whether the engine accepted it."""
        ok, _ = self.ask(f"play {player} {gtp_vertex(graph, v)}")
        return ok

    def genmove(self, graph: Graph, player: str):
        """The move the engine chooses and plays for player: a point, PASS, or "resign"."""
        text = self.send(f"genmove {player}")
        if text.lower() == "resign":
            return "resign"
        return parse_vertex(graph, text)

    def board(self, graph: Graph) -> tuple:
        """The engine's board (``list_stones`` of each colour) as a tuple of colours."""
        return board_from_stones(graph, self.send("list_stones black"), self.send("list_stones white"))


def board_from_stones(graph: Graph, black: str, white: str) -> tuple:
    """A board from the vertex lists of ``list_stones black`` and ``list_stones white``."""
    colours: list[str] = [EMPTY] * graph.order
    points = vertex_points(graph)
    for player, text in (("B", black), ("W", white)):
        for name in text.split():
            v = points.get(name.upper())
            colours[parse_vertex(graph, name) if v is None else v] = player
    return tuple(colours)


@functools.lru_cache(maxsize=64)
def vertex_points(graph: Graph) -> dict:
    """The point of each GTP vertex name of a grid (upper case), for reading boards fast."""
    return {gtp_name(graph, v): v for v in graph.points} if graph.is_grid else {}


def run_script(command: Sequence[str], lines: Iterable[str], timeout: float = 600) -> list:
    """Send all GTP commands at once to a fresh engine; the (success, text) of each.

    Each command gets a numeric id, so that responses are matched to commands even
    though they are read together at the end.  ``quit`` is added at the end.
    """
    commands = list(lines)
    script = "".join(f"{i} {c.strip()}\n" for i, c in enumerate(commands)) + "quit\n"
    finished = subprocess.run(list(command), input=script, capture_output=True, text=True, timeout=timeout)
    responses = split_responses(finished.stdout)
    if len(responses) < len(commands):
        raise GtpError(f"{command[0]} answered {len(responses)} of {len(commands)} commands")
    return responses[: len(commands)]


def split_responses(output: str) -> list:
    """The (success, text) pairs of a stream of GTP responses separated by blank lines."""
    responses: list[tuple[bool, str]] = []
    lines: list[str] = []
    for line in output.splitlines():
        if line.strip() == "":
            if lines:
                responses.append(parse_response(lines))
                lines = []
        else:
            lines.append(line)
    if lines:
        responses.append(parse_response(lines))
    return responses


def replay_in_engine(command: Sequence[str], graph: Graph, setup: Sequence, moves: Sequence, every: int = 1) -> tuple:
    """An engine's boards along a game, read with ``list_stones``.

    ``moves`` are (player, point-or-PASS) pairs; setup stones are placed with ``play``.
    The board is read after the setup, after every ``every``-th move and after the last.
    Returns (boards, problem): a list of (move number, board) up to the first move the
    engine refused, and that refusal as text (or None).
    """
    rows, _ = graph.shape
    stones = [(setup[v], v) for v in graph.points if setup[v] != EMPTY]
    lines = [f"boardsize {rows}", "clear_board"]
    lines += [f"play {p} {gtp_vertex(graph, v)}" for p, v in stones]
    reads = {}
    plays = {}

    def read_board(number: int) -> None:
        reads[number] = len(lines)
        lines.extend(["list_stones black", "list_stones white"])

    read_board(0)
    for number, (player, v) in enumerate(moves, start=1):
        plays[number] = len(lines)
        lines.append(f"play {player} {gtp_vertex(graph, v)}")
        if number % every == 0 or number == len(moves):
            read_board(number)
    responses = run_script(command, lines)
    for i in range(2 + len(stones)):
        if not responses[i][0]:
            return [], f"setup: {lines[i]}: {responses[i][1]}"
    boards: list[tuple[int, tuple]] = []
    for number in range(len(moves) + 1):
        if number in plays and not responses[plays[number]][0]:
            return boards, f"move {number}: {lines[plays[number]]}: {responses[plays[number]][1]}"
        if number in reads:
            at = reads[number]
            boards.append((number, board_from_stones(graph, responses[at][1], responses[at + 1][1])))
    return boards, None


def referee(black: GtpClient, white: GtpClient, graph: Graph, max_moves: int = 1000) -> list:
    """Referee a game between two GTP engines on a square grid, from the empty board.

    The player to move is asked ``genmove``; its move is passed on to the other engine
    with ``play``.  The game ends after two consecutive passes, a resignation or
    ``max_moves`` moves.  Returns the (player, point-or-PASS) moves; GtpError if the
    other engine refuses a move that the mover chose (the engines disagree on a rule).
    """
    engines = {BLACK: black, WHITE: white}
    moves: list = []
    passes = 0
    player: Player = BLACK
    while passes < 2 and len(moves) < max_moves:
        chosen = engines[player].genmove(graph, player)
        if chosen == "resign":
            break
        other = engines[opponent(player)]
        if not other.play(graph, player, chosen):
            raise GtpError(
                f"move {len(moves) + 1}: {player} {gtp_vertex(graph, chosen)} was refused by the other engine"
            )
        moves.append((player, chosen))
        passes = passes + 1 if chosen == PASS else 0
        player = opponent(player)
    return moves
