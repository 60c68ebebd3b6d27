"""GTP engines as contenders of the spec: a process answering within a time limit, its board read back.

:class:`EngineProcess` runs any GTP engine in a process group of its own and asks one
command at a time, each answered within ``timeout`` seconds.  An engine that exits
(``crash``), stays silent (``hang``) or writes what is not a GTP response (``protocol``)
raises :class:`EngineFault` naming the command; the whole process group is killed on
:meth:`EngineProcess.close`, so nothing it started outlives the campaign.

:class:`GtpContender` is what the campaign (``impl.differential.campaign``) talks to: new
games on square boards, ``play`` answered ``=`` or ``?``, the board (``list_stones`` where
the engine has it, else its ``showboard`` diagram, on stdout or, as Leela Zero writes it,
on stderr), the final score and the stones it calls dead.  The flags an engine is started
with come from its profile (:data:`PROFILES`, by the name it answers to ``name``): GNU Go
is told the preset's rules on its command line; other engines play their own rules.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gorules.impl.engine.options import gnugo_flags
from gorules.impl.formats.gtp import board_from_stones, gtp_vertex, parse_response
from gorules.spec.api import OptionError
from gorules.spec.graph import Graph, grid
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE, Options

COLOUR_WORD = {BLACK: "black", WHITE: "white"}


class EngineFault(Exception):
    """An engine that crashed, hung or answered out of protocol, and the command that showed it."""

    def __init__(self, kind: str, command: str, detail: str):
        super().__init__(f"{kind} on {command!r}: {detail}")
        self.kind = kind
        self.command = command
        self.detail = detail


def resolve_command(command: str | Sequence[str]) -> list[str]:
    """The argument list of an engine's command line, its program found on the PATH or in
    /usr/games (where Debian installs GNU Go and Leela Zero); ValueError if it is nowhere."""
    words = shlex.split(command) if isinstance(command, str) else list(command)
    if not words:
        raise ValueError("the engine's command is empty")
    program = shutil.which(words[0]) or shutil.which(words[0], path=os.path.join(os.sep, "usr", "games"))
    if program is None:
        raise ValueError(f"cannot find the engine's program {words[0]!r}")
    return [program, *words[1:]]


class StderrLines:
    """The lines an engine writes to stderr: the latest ones kept, all of them counted."""

    KEPT = 2000

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.count = 0
        self.lock = threading.Lock()

    def append(self, line: str | None) -> None:
        """Keep one more line (None, the end of the stream, is not kept)."""
        if line is None:
            return
        with self.lock:
            self.lines.append(line)
            self.count += 1
            if len(self.lines) > 2 * self.KEPT:
                del self.lines[: self.KEPT]

    def since(self, mark: int) -> str:
        """The lines that came after the first ``mark`` (those still kept), as text."""
        with self.lock:
            first = self.count - len(self.lines)
            return "\n".join(self.lines[max(0, mark - first) :])


class EngineProcess:
    """One GTP engine process, its stdout read line by line and its stderr kept (the last lines)."""

    def __init__(self, command: Sequence[str], timeout: float = 10.0):
        """Start ``command`` (an argument list) in a new process group."""
        self.command = list(command)
        self.timeout = timeout
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors = StderrLines()
        # As formats.gtp.GtpClient starts an engine, but with stderr read (some engines draw their
        # board there) and in a process group of its own, so that a hung engine can be killed.
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            start_new_session=True,
        )
        self.pumps = [
            threading.Thread(target=self._pump, args=(self.process.stdout, self.lines.put), daemon=True),
            threading.Thread(target=self._pump, args=(self.process.stderr, self.errors.append), daemon=True),
        ]
        for pump in self.pumps:
            pump.start()

    @staticmethod
    def _pump(stream, put) -> None:
        """Hand each line of ``stream`` to ``put``; None at its end."""
        for line in iter(stream.readline, ""):
            put(line.rstrip("\r\n"))
        put(None)

    def ask(self, command: str) -> tuple[bool, str]:
        """Send one command; (success, text) of its response, EngineFault if none comes in time."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise EngineFault("crash", command, f"cannot write to the engine ({error})") from None
        deadline = time.monotonic() + self.timeout
        response: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineFault("hang", command, f"no answer within {self.timeout:g} s") from None
            if line is None:
                raise EngineFault("crash", command, f"the engine exited (code {self.process.poll()})")
            if line.strip() == "":
                if response:
                    break
                continue
            response.append(line)
        try:
            return parse_response(response)
        except Exception:
            raise EngineFault("protocol", command, f"not a GTP response: {' / '.join(response)[:120]!r}") from None

    def stderr_mark(self) -> int:
        """How many stderr lines have come so far (to read what comes after)."""
        return self.errors.count

    def close(self) -> None:
        """Say ``quit``, then kill the engine's whole process group whatever it did."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
                self.process.wait(timeout=1)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        for pump in self.pumps:
            pump.join(timeout=1)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass


# --------------------------------------------------------------------------- boards in text

ROW = re.compile(r"^\s*(\d+)(?=[\s(])(.*)$")
CELLS = {"X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE, ".": EMPTY, "+": EMPTY}


def parse_diagram(text: str, size: int) -> tuple | None:
    """The board of the last complete ``showboard`` diagram of a size×size board in
    ``text`` (X Black, O White, . and + empty; rows numbered from the bottom), or None."""
    found: dict[int, list[str]] = {}
    last = None
    for line in text.splitlines():
        match = ROW.match(line)
        if not match:
            continue
        number = int(match.group(1))
        cells = match.group(2).replace("(", " ").replace(")", " ").split()[:size]
        if not 1 <= number <= size or len(cells) < size or any(c not in CELLS for c in cells):
            continue
        if number == size:
            found = {}
        found[number] = [CELLS[c] for c in cells]
        if len(found) == size:
            last = tuple(colour for row in range(size, 0, -1) for colour in found[row])
    return last


# --------------------------------------------------------------------------- engine profiles


@dataclass(frozen=True)
class Profile:
    """What the campaign knows of an engine by the name it gives: the flags that tell it a
    preset's options (None when it has no such flags and plays its own rules)."""

    name: str
    flags: Callable[[Options], list[str]] | None = None

    def flags_for(self, options: Options) -> list[str] | None:
        """The command-line flags for ``options``, or None when none are added."""
        if self.flags is None:
            return None
        return self.flags(options)


def _gnugo(options: Options) -> list[str]:
    """GNU Go's flags for the options (its own Japanese defaults where it cannot play them),
    at level 0, where ``final_score`` answers in a moment."""
    try:
        return [*gnugo_flags(options), "--level", "0"]
    except OptionError:
        return ["--level", "0"]


PROFILES = {"GNU Go": Profile("GNU Go", _gnugo), "Leela Zero": Profile("Leela Zero")}
RULE_FLAGS = ("--chinese-rules", "--japanese-rules", "--positional-superko", "--situational-superko", "--simple-ko")


# --------------------------------------------------------------------------- the contender


@dataclass
class GtpContender:
    """A GTP engine as the campaign plays against it, restarted after a fault."""

    command: list[str]
    options: Options
    timeout: float = 10.0
    told: list[str] = field(default_factory=list)
    name: str = ""
    process: EngineProcess | None = None
    reading: str = ""
    size: int = 0
    shown: str = ""

    def start(self) -> None:
        """Start the engine; on the first start, ask its name and add its profile's flags."""
        self.process = EngineProcess(self.command + self.told, self.timeout)
        if self.name:
            return
        ok, name = self.process.ask("name")
        self.name = name if ok else ""
        profile = PROFILES.get(self.name)
        added = profile.flags_for(self.options) if profile else None
        if added and not any(flag in self.command for flag in RULE_FLAGS):
            self.told = added
            self.process.close()
            self.process = EngineProcess(self.command + self.told, self.timeout)
        ok, known = self.process.ask("list_commands")
        commands = set(known.split()) if ok else set()
        self.reading = "list_stones" if "list_stones" in commands else "showboard" if "showboard" in commands else ""

    def restart(self) -> None:
        """Kill the engine and start it again."""
        self.close()
        self.start()

    def close(self) -> None:
        """Kill the engine (its process group)."""
        if self.process is not None:
            self.process.close()
            self.process = None

    def ask(self, command: str) -> tuple[bool, str]:
        """One command to the running engine (started if it is not)."""
        if self.process is None:
            self.start()
        assert self.process is not None
        return self.process.ask(command)

    def describe(self) -> str:
        """The engine's command line and what it is told: flags and komi."""
        told = " ".join(self.told) if self.told else "no rule flags"
        command = self.shown or " ".join(self.command)
        return f"{command} ({self.name or 'engine'}; told: {told}; komi {self.options.komi:g})"

    def board_sizes(self, largest: int = 25) -> list[int]:
        """The square board sizes 1..largest the engine accepts (``boardsize`` not answered ``?``)."""
        return [n for n in range(1, largest + 1) if self.ask(f"boardsize {n}")[0]]

    def new_game(self, graph: Graph) -> None:
        """An empty square board of the graph's size, with the preset's komi."""
        self.size = graph.shape[0]
        for command in (f"boardsize {self.size}", "clear_board", f"komi {self.options.komi:g}"):
            ok, text = self.ask(command)
            if not ok:
                raise EngineFault("protocol", command, f"refused: {text}")

    def play(self, graph: Graph, player: str, v) -> tuple[bool, str]:
        """Play a move; (accepted, the engine's answer)."""
        return self.ask(f"play {player} {gtp_vertex(graph, v)}")

    @property
    def board_reason(self) -> str | None:
        """Why boards are not compared (None when they are)."""
        return None if self.reading else f"{self.name or 'the engine'} has neither list_stones nor showboard"

    def board(self, graph: Graph) -> tuple | None:
        """The engine's board, or None when it cannot be read."""
        if self.reading == "list_stones":
            black, white = (self.ask(f"list_stones {word}") for word in ("black", "white"))
            return board_from_stones(graph, black[1], white[1]) if black[0] and white[0] else None
        if self.reading == "showboard":
            return self.diagram(graph)
        return None

    def diagram(self, graph: Graph) -> tuple | None:
        """The board of ``showboard``, from its answer or from what the engine writes to stderr."""
        if self.process is None:
            self.start()
        assert self.process is not None
        mark = self.process.stderr_mark()
        ok, text = self.ask("showboard")
        board = parse_diagram(text, self.size) if ok else None
        deadline = time.monotonic() + self.timeout
        while board is None and ok and self.process is not None and time.monotonic() < deadline:
            board = parse_diagram(self.process.errors.since(mark), self.size)
            if board is None:
                time.sleep(0.002)
        return board

    def final_score(self) -> tuple[bool, str]:
        """The engine's ``final_score`` answer."""
        return self.ask("final_score")

    def stones_judged(self, graph: Graph, status: str) -> list[int]:
        """The points of the stones the engine gives a status (``final_status_list dead``,
        ``seki``); none when it has no such list."""
        ok, text = self.ask(f"final_status_list {status}")
        if not ok:
            return []
        names = {gtp_vertex(graph, v).upper(): v for v in graph.points}
        return [names[word.upper()] for word in text.split() if word.upper() in names]


def square(size: int) -> Graph:
    """The size×size grid."""
    return grid(size, size)
