"""Point names that two commands would read as different points.

Most rulesets read a grid point's name as GTP does (``C3``: columns A to Z without I, rows
from 1 at the bottom).  A ruleset with a ``coordinates`` option (political Go: its source's
``s19`` names, where the letter i is a column) may read the same name as another point.  Every
command that takes moves under such a ruleset prints a note for each such name on stderr, so
that a name copied from a GTP board or from ``replay`` is never silently played elsewhere.
"""

from __future__ import annotations

import re
import sys

from gorules.spec.graph import GraphError, parse_point
from gorules.spec.political import parse_vertex

COORDINATES = (
    "Points on a grid, per ruleset: tromp-taylor, directed, topological, ultimate and fundamental read a "
    "number, a GTP name (C3: columns A to Z without I, rows from 1 at the bottom) or an SGF name (cc: "
    "column, then row from the top), as gtp does; political reads a number or its source's names "
    "(s19: columns a to z with i, rows from 1 at the bottom), or GTP names with --option coordinates=gtp. "
    "Where a name is read otherwise than GTP reads it (political's s19 is column 19, GTP's S19 column 18), "
    "a note on stderr says so."
)

GRID_NAME = re.compile(r"[A-Za-z][0-9]+")


def coordinate_system(ruleset) -> str:
    """The names ``ruleset`` reads and writes grid points with, as its JSON states them: its
    ``coordinates`` option where it has one (political Go), else ``gtp`` (GTP names written,
    GTP or SGF names and numbers read)."""
    return str(getattr(ruleset.options, "coordinates", "gtp"))


def gtp_reading(graph, word: str) -> int | None:
    """The point GTP's names give ``word`` on ``graph``, or None where it names no point."""
    try:
        return parse_point(graph, word)
    except GraphError:
        return None


def coordinate_notes(ruleset, graph, words: list, command: str) -> list[str]:
    """A note for each grid point name in ``words`` that ``ruleset``'s own coordinates read as
    another point than GTP's names do."""
    coordinates = getattr(ruleset.options, "coordinates", None)
    if coordinates is None or not graph.is_grid:
        return []
    notes = []
    for word in dict.fromkeys(words):
        if not GRID_NAME.fullmatch(word):
            continue
        try:
            own = parse_vertex(graph, word, coordinates)
        except GraphError:
            continue
        gtp = gtp_reading(graph, word)
        if own != gtp:
            elsewhere = f"column {graph.grid[gtp][1] + 1}" if gtp is not None else "no point"
            notes.append(
                f"gorules {command}: note: {word} is column {graph.grid[own][1] + 1} under {ruleset.name}'s "
                f"coordinates={coordinates}, {elsewhere} in GTP's names (as the other rulesets and gtp read it); "
                "--option coordinates=gtp reads it as GTP does"
            )
    return notes


def warn_about_names(ruleset, graph, words: list, command: str) -> None:
    """Print :func:`coordinate_notes` on stderr."""
    for note in coordinate_notes(ruleset, graph, words, command):
        print(note, file=sys.stderr)
