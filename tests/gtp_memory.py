"""The resident memory of a real ``gorules gtp`` process over a long random session.

The session mixes plays for either colour (often out of turn), genmoves, passes, undos
(more than were played, too), showboards, junk, lines of 50,000 characters and lines beyond
the server's limit, with a ``clear_board`` at least every ``CLEAR_EVERY`` commands and a
``boardsize`` now and then.  At chosen numbers of commands the session is brought to a
point where every command sent has been answered (a ``protocol_version`` with an id of its
own), and the server's resident memory (``VmRSS`` of ``/proc/PID/status``) is read.
"""

from __future__ import annotations

import queue
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from gorules.impl.formats.gtp_server import MAX_LINE

CLEAR_EVERY = 500
"""A ``clear_board`` comes at least this often: a controller's games end."""
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MARK = 900_000_000
"""The ids of the session's synchronising commands start here; no random command has an id."""


def random_commands(seed: int, size: int = 9) -> Iterator[str]:
    """Random GTP lines for a session on a ``size`` × ``size`` board, without end."""
    rng = random.Random(seed)
    since_clear = 0
    while True:
        since_clear += 1
        if since_clear >= CLEAR_EVERY or rng.random() < 1 / CLEAR_EVERY:
            since_clear = 0
            yield "clear_board"
            continue
        yield random_command(rng, size)


def random_command(rng: random.Random, size: int) -> str:
    """One line: mostly moves and undos, sometimes a board, junk or a long line."""
    colour = rng.choice(["b", "w", "black", "white"])
    roll = rng.random()
    if roll < 0.45:
        return f"play {colour} {rng.choice(LETTERS[:size])}{rng.randint(1, size)}"
    if roll < 0.55:
        return f"genmove {colour}"
    if roll < 0.60:
        return f"play {colour} pass"
    if roll < 0.75:
        return "undo"
    if roll < 0.78:
        return "showboard"
    if roll < 0.80:
        return "final_score"
    if roll < 0.81:
        return f"boardsize {rng.choice([size, size, 5, 19])}"
    if roll < 0.812:
        return "play b " + "A" * 50_000
    if roll < 0.813:
        return "x" * (MAX_LINE + 10)
    return rng.choice(["komi 6.5", "list_stones b", "name", "frobnicate", "play", "undo undo", "# comment"])


def resident_kib(pid: int) -> int:
    """The resident memory of process ``pid`` in KiB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise LookupError(f"no VmRSS for process {pid}")


class Server:
    """A ``gorules gtp`` process whose answers a thread reads as they come (so that neither
    pipe fills while the other is written)."""

    def __init__(self, graph: str = "grid:9x9", seed: int = 1):
        """Start ``gorules gtp --graph GRAPH --seed SEED``."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gorules", "gtp", "--graph", graph, "--seed", str(seed)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.marks: queue.Queue = queue.Queue()
        self.internal_errors = 0
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        """Read the answers; pass on the ids of the synchronising ones, count internal errors."""
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if "internal error" in line:
                self.internal_errors += 1
            if line.startswith(f"={MARK // 10**8}") and line[1:].split(" ")[0].isdigit():
                self.marks.put(int(line[1:].split(" ")[0]))
        self.marks.put(None)

    def send(self, lines) -> None:
        """Write the lines."""
        assert self.process.stdin is not None
        self.process.stdin.write("".join(f"{line}\n" for line in lines))
        self.process.stdin.flush()

    def settled(self, mark: int, seconds: float = 300) -> int:
        """The resident memory (KiB) once every command sent so far has been answered."""
        self.send([f"{mark} protocol_version"])
        found = self.marks.get(timeout=seconds)  # a guard against a server that stopped answering
        if found != mark:
            raise RuntimeError(f"the server answered {found!r}, not the command {mark}")
        return resident_kib(self.process.pid)

    def close(self) -> int:
        """End the session; the server's exit code."""
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        return self.process.wait(timeout=60)


def memory_over(checkpoints: list[int], seed: int = 2026, graph: str = "grid:9x9") -> dict:
    """Send a random session to a real server; its resident memory (KiB) after each number
    of commands in ``checkpoints`` (ascending), its internal errors and its exit code."""
    size = int(graph.split("x")[-1]) if graph.startswith("grid:") else 9
    commands = random_commands(seed, size)
    server = Server(graph, seed)
    resident = {}
    sent = 0
    try:
        for index, checkpoint in enumerate(checkpoints):
            while sent < checkpoint:
                batch = min(500, checkpoint - sent)
                server.send(next(commands) for _ in range(batch))
                sent += batch
            resident[checkpoint] = server.settled(MARK + index)
    finally:
        code = server.close()
    return {"resident_kib": resident, "internal_errors": server.internal_errors, "exit_code": code}
