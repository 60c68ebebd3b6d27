"""Boards and moves of a graph as text, for people: the one place that writes them.

A board is any sequence of colours ("B", "W", "." or, in Political Go, players' names)
indexed by point, a tuple or a string.
On a grid it is written row by row, top row first; on any other graph point by point.

- :func:`board_text`: the colours as they are, rows on a grid and ``point:colour`` pairs
  elsewhere (``gorules play``, ``gorules prove``);
- :func:`situation_text`: a situation of any ruleset, its board as :func:`board_text` writes
  it, then who is to move (or the result) and what lies beside the board (``gorules play``);
- :func:`board_diagram`: a grid with its coordinates and X for Black, O for White, or on
  any other graph each point with its stone and the points it is adjacent to (``gorules
  errata``, ``gorules replay`` on grids);
- :func:`colour_lists`: the points of each colour (``gorules replay`` off grids);
- :func:`move_name`: a move as messages name it (``pass``, ``C3`` on a grid, ``7`` elsewhere).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gorules.spec.api import Situation
from gorules.spec.graph import GTP_LETTERS, Graph, point_name
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE

DIAGRAM_STONES: dict[str, str] = {BLACK: "X", WHITE: "O", EMPTY: "."}


def move_name(graph: Graph, v) -> str:
    """A move as messages name it: ``pass``, or the point's name (GTP on a grid, its number elsewhere)."""
    return "pass" if v == PASS else point_name(graph, v)


def board_rows(graph: Graph, board: Sequence[str], separator: str = "", stones: Mapping | None = None) -> list[str]:
    """The rows of a board on a grid, top row first: each point's colour (or ``stones`` of
    it), the points of a row joined by ``separator``."""
    rows, columns = graph.shape
    shown = board if stones is None else [stones[c] for c in board]
    return [separator.join(shown[r * columns + c] for c in range(columns)) for r in range(rows)]


def board_text(graph: Graph, board: Sequence, separator: str = "", indent: str = "") -> str:
    """A board as plain text: on a grid whose colours are single characters, its rows, top
    row first (the points of a row joined by ``separator``, each row after ``indent``); on
    any other graph, or with longer colours (a player's name), ``point:colour`` pairs in
    point order on one line."""
    cells = [str(c) for c in board]
    if graph.is_grid and all(len(c) == 1 for c in cells):
        return "\n".join(indent + row for row in board_rows(graph, cells, separator))
    return indent + " ".join(f"{point_name(graph, v)}:{cells[v]}" for v in graph.points)


def situation_text(situation: Situation) -> str:
    """A situation of any ruleset as plain text: its board (as :func:`board_text`), then the
    player to move (or the result once over) and the details, one ``name: value`` a line."""
    lines = [board_text(situation.graph, situation.board)]
    lines.append(f"to move: {situation.to_move}" if not situation.over else f"result: {situation.result()}")
    lines += [f"{name}: {value}" for name, value in situation.details().items()]
    return "\n".join(lines)


def board_diagram(graph: Graph, board: Sequence[str]) -> str:
    """A board drawn in text: on a grid, rows of ``.``, ``X`` (Black), ``O`` (White) between
    the column letters and row numbers of GTP; on any other graph, one line per point with
    its stone and the points it is adjacent to (``>`` on a directed graph, ``-`` otherwise)."""
    if graph.is_grid:
        rows, columns = graph.shape
        letters = "   " + " ".join(GTP_LETTERS[c] for c in range(columns))
        drawn = board_rows(graph, board, " ", DIAGRAM_STONES)
        return "\n".join([letters] + [f"{rows - r:>2} {cells} {rows - r}" for r, cells in enumerate(drawn)] + [letters])
    arrow = ">" if graph.directed else "-"
    lines = []
    for v in graph.points:
        adjacent = ",".join(str(w) for w in graph.neighbours[v]) or "none"
        lines.append(f"{v:>3} {DIAGRAM_STONES[board[v]]}  {arrow} {adjacent}")
    return "\n".join(lines)


def colour_lists(graph: Graph, board: Sequence[str]) -> str:
    """A board as the points of each colour, one line each: ``black: 0 2``, ``white: -``, ``empty: 1``."""
    lines = []
    for label, colour in (("black", BLACK), ("white", WHITE), ("empty", EMPTY)):
        points = [str(v) for v in graph.points if board[v] == colour]
        lines.append(f"{label}: {' '.join(points) if points else '-'}")
    return "\n".join(lines)
