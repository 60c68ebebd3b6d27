"""The errata checker's findings and how they are shown: text, JSON, the table, the pictures.

A :class:`Counterexample` is a board where a statement fails, with what goes wrong and a
game that leads there; a :class:`Verdict` says whether a statement held on everything
checked; a :class:`Finding` is one row of the table (the statement as written and as
corrected).  ``table`` and ``save_pictures`` are what ``gorules errata`` prints and draws.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gorules.errata.graphs import describe
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph
from gorules.spec.text import board_diagram, move_name


def move_names(graph: Graph, moves: Sequence, first: tt.Player = tt.BLACK) -> list[str]:
    """Moves written as "B 0", "W pass", ..., colours alternating from ``first``."""
    names = []
    player: tt.Player = first
    for v in moves:
        names.append(f"{player} {move_name(graph, v)}")
        player = tt.opponent(player)
    return names


@dataclass
class Counterexample:
    """A board (on a graph) where a statement fails, what goes wrong, and a game leading there."""

    graph: Graph
    board: tuple
    explanation: str
    moves: tuple | None = None
    marks: tuple = ()

    def to_json(self) -> dict:
        """The counterexample as JSON: graph, board string, moves, explanation, diagram."""
        return {
            "graph": self.graph.name,
            "board": "".join(self.board),
            "moves": None if self.moves is None else move_names(self.graph, self.moves),
            "explanation": self.explanation,
            "diagram": board_diagram(self.graph, self.board),
        }

    def text(self) -> str:
        """The counterexample for people: the graph, the board drawn, the moves, what fails."""
        lines = [f"on {describe(self.graph)}, board {''.join(self.board)!r}:"]
        lines += ["    " + line for line in board_diagram(self.graph, self.board).splitlines()]
        if self.moves is not None:
            lines.append("  reached by: " + (", ".join(move_names(self.graph, self.moves)) or "(no moves)"))
        lines.append("  " + self.explanation)
        return "\n".join(lines)


@dataclass
class Verdict:
    """Whether a statement held on everything checked, how much that was, and the first failure."""

    holds: bool
    checked: int
    counterexample: Counterexample | None = None

    @property
    def word(self) -> str:
        """ "holds" or "fails"."""
        return "holds" if self.holds else "fails"


@dataclass
class Finding:
    """One row of the errata table."""

    key: str
    statement: str
    as_written: Verdict
    corrected: Verdict
    checked: str
    note: str = ""

    def to_json(self) -> dict:
        """The row as JSON."""
        example = self.as_written.counterexample or self.corrected.counterexample
        return {
            "key": self.key,
            "statement": self.statement,
            "as_written": self.as_written.word,
            "corrected": self.corrected.word,
            "counterexample": None if example is None else example.to_json(),
            "checked": self.checked,
            "note": self.note,
        }


def brief(example: Counterexample) -> str:
    """A counterexample in one line: graph, board, the game leading there, what fails."""
    game = ", ".join(move_names(example.graph, example.moves or ())) or "no moves"
    return f"on {example.graph.name}, board {''.join(example.board)!r} (after {game}), {example.explanation}"


def table(findings) -> str:
    """The errata table for people: statement, as written, corrected, then each counterexample."""
    rows = [("statement", "as written", "corrected")]
    rows += [(f.key, f.as_written.word, f.corrected.word) for f in findings]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    for f in findings:
        lines += ["", f"## {f.key}: {f.statement}"]
        lines.append(f"   as written: {f.as_written.word}; corrected: {f.corrected.word}")
        lines += textwrap.wrap("checked: " + f.checked, 100, initial_indent="   ", subsequent_indent="     ")
        if f.note:
            lines += textwrap.wrap("note: " + f.note, 100, initial_indent="   ", subsequent_indent="     ")
        example = f.as_written.counterexample or f.corrected.counterexample
        if example is not None:
            lines.append("   smallest counterexample " + example.text().replace("\n", "\n   "))
    return "\n".join(lines)


def save_pictures(findings, directory: Path) -> list[Path]:
    """Save every counterexample board as SVG and PNG, named after its statement."""
    from gorules.pictures import save_picture

    saved = []
    for f in findings:
        example = f.as_written.counterexample or f.corrected.counterexample
        if example is None:
            continue
        title = f"{f.key} on {example.graph.name}"
        for suffix in (".svg", ".png"):
            saved.append(
                save_picture(example.graph, example.board, directory / f"{f.key}{suffix}", title, example.marks)
            )
    return saved
