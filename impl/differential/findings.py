"""What a campaign against an engine finds: disagreements with the spec, faults, and their records.

A disagreement is one disputed step of a game: the engine ``accepted`` a move the spec
refuses, ``refused`` a move the spec allows, showed another ``board`` after a move, or
gave another final ``score``.  It keeps the moves tried before it (each for the player the
spec has to move, refused ones included, since an engine may take them), the spec's
verdict, the engine's answer and its class (``impl.differential.conventions``).  It is
written as an SGF record of the moves played with the disputed one last, and as a test
vector of the same moves (``impl.differential.vectors``: the source's verdicts, with the
preset's verdict, the engine's answer and the class beside them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gorules.impl.differential.conventions import described
from gorules.impl.differential.vectors import record, write_vector
from gorules.impl.formats.files import write_bytes_atomically
from gorules.impl.formats.sgf import record_sgf
from gorules.spec.graph import Graph, point_name
from gorules.spec.tromp_taylor import PASS


@dataclass
class Disagreement:
    """One disputed step between the spec and an engine (see the module docstring)."""

    graph: Graph
    attempts: list
    kind: str
    spec: str
    engine: str
    convention: str
    played: list = field(default_factory=list)
    disputed: tuple | None = None
    note: str = ""

    @property
    def signature(self) -> tuple[str, str]:
        """What a shrunk case must still show: the kind and the class."""
        return self.kind, self.convention

    def move_text(self) -> str:
        """The disputed move as ``B A1`` (or the end of the game for a score)."""
        if self.disputed is None:
            return "the final score"
        player, v = self.disputed
        return f"{player} {'pass' if v == PASS else point_name(self.graph, v)}"

    def moves_text(self) -> list[str]:
        """The moves played before the disputed step, as ``B A1``."""
        return [f"{p} {'pass' if v == PASS else point_name(self.graph, v)}" for p, v in self.played]

    def line(self) -> str:
        """One line: board, moves, disputed step, the spec's verdict, the engine's answer, the class."""
        played = " ".join(self.moves_text())
        return (
            f"{self.graph.name}, after [{played}]: {self.kind} {self.move_text()}; spec: {self.spec}; "
            f"engine: {self.engine}; class {self.convention} ({described(self.convention)})"
            + (f"; {self.note}" if self.note else "")
        )


@dataclass
class Fault:
    """An engine that crashed, hung or answered out of protocol: the command, in which game."""

    kind: str
    command: str
    detail: str
    game: int

    def line(self) -> str:
        """One line naming the fault and the command that caused it."""
        return f"game {self.game}: {self.kind} on {self.command!r}: {self.detail}"


@dataclass
class Finding:
    """A class of disagreement: its shrunk case and how many times it was met."""

    case: Disagreement
    count: int = 1


def record_moves(d: Disagreement) -> list:
    """The (player, point) moves of the record: those played, then the disputed one."""
    return [*d.played, *([d.disputed] if d.disputed is not None else [])]


def write_finding(d: Disagreement, directory: Path, index: int, told: str, preset: str, komi: float = 0) -> list[Path]:
    """Write one shrunk disagreement as a vector (and on a square grid as SGF); the paths."""
    name = f"engine_{index}_{d.kind}_{d.convention}"
    vector = record(d.graph, [v for _, v in record_moves(d)], name)
    vector.update(
        {
            "preset": preset,
            "engine_told": told,
            "disputed": d.move_text(),
            "spec_verdict": d.spec,
            "engine_answer": d.engine,
            "class": d.convention,
            "attempts": d.attempts,
        }
    )
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    write_vector(path, vector)
    paths = [path]
    rows, columns = d.graph.shape if d.graph.is_grid else (0, 1)
    if d.graph.is_grid and rows == columns <= 25:
        comment = (
            f"preset {preset}; engine {told}; {d.kind} {d.move_text()}; spec: {d.spec}; "
            f"engine: {d.engine}; class {d.convention}: {described(d.convention)}"
        )
        sgf = directory / f"{name}.sgf"
        write_bytes_atomically(sgf, record_sgf(d.graph, record_moves(d), komi=komi, comment=comment))
        paths.append(sgf)
    return paths
