"""Pictures of boards: a grid diagram with coordinates, or a drawing of any other graph.

``save_picture(graph, board, path)`` writes SVG or PNG by the file's suffix.  SVG is
written by hand (``board_svg``); PNG is drawn with matplotlib's Agg backend.  Grids are
drawn as the familiar diagram (columns lettered without I, rows numbered from the
bottom); other graphs are laid out by networkx with a fixed seed, so the same graph is
always drawn the same way, with arrows on directed graphs and point numbers on the nodes.

``marks`` is an optional collection of points to ring (a played point, a counterexample's
point of interest).  Files are written to a temporary name and renamed, so that a
failure never leaves half a picture behind.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from gorules.errors import UsageError
from gorules.impl.formats.files import write_atomically, write_text_atomically
from gorules.spec.graph import GTP_LETTERS, Graph

CELL = 40  # pixels between grid lines in SVG
MARGIN = 36  # pixels around the grid, room for coordinates
STONE_FILL = {"B": "#111111", "W": "#f8f8f8"}
STONE_EDGE = {"B": "#000000", "W": "#333333"}
BOARD_COLOUR = "#dcb35c"
LAYOUT_SEED = 7
NODE_RADIUS = 16


def _check_board(graph: Graph, board: Sequence[str]) -> tuple:
    """The board as a tuple, after checking that it has one colour of B, W, '.' per point."""
    board = tuple(board)
    if len(board) != graph.order:
        raise UsageError(f"a board of {graph.name} has {graph.order} points, got {len(board)}")
    wrong = [c for c in board if c not in ("B", "W", ".")]
    if wrong:
        raise UsageError(f"a board holds only 'B', 'W' and '.', got {wrong[0]!r}")
    return board


def layout(graph: Graph) -> dict[int, tuple[float, float]]:
    """Positions in [0, 1]² for the points of a graph that is not a grid (fixed seed)."""
    import networkx as nx

    g = nx.DiGraph() if graph.directed else nx.Graph()
    g.add_nodes_from(graph.points)
    g.add_edges_from(graph.edges())
    if graph.order == 1:
        return {0: (0.5, 0.5)}
    if graph.name == "petersen":
        positions = _petersen_layout()
    elif graph.name.startswith("path:"):
        positions = {v: (float(v), 0.0) for v in graph.points}
    elif graph.name.startswith("cycle:"):
        positions = nx.circular_layout(g)
    else:
        positions = nx.spring_layout(g, seed=LAYOUT_SEED)
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    x0 = min(xs) - (span - (max(xs) - min(xs))) / 2
    y0 = min(ys) - (span - (max(ys) - min(ys))) / 2
    return {v: ((positions[v][0] - x0) / span, (positions[v][1] - y0) / span) for v in graph.points}


def _petersen_layout() -> dict[int, tuple[float, float]]:
    """The usual drawing of the Petersen graph: an outer pentagon 0..4 and an inner star 5..9."""
    positions = {}
    for i in range(5):
        angle = math.pi / 2 + 2 * math.pi * i / 5
        positions[i] = (math.cos(angle), math.sin(angle))
        positions[i + 5] = (0.5 * math.cos(angle), 0.5 * math.sin(angle))
    return positions


def _svg_document(width: float, height: float, body: list[str], title: str | None) -> str:
    """An SVG document of the given size around the given elements, with an optional title."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">'
    )
    parts = [head]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.extend(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _stone_svg(x: float, y: float, r: float, colour: str) -> str:
    """One stone of the given colour centred at (x, y)."""
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{STONE_FILL[colour]}" '
        f'stroke="{STONE_EDGE[colour]}" stroke-width="1.2" class="stone-{colour}"/>'
    )


def _mark_svg(x: float, y: float, r: float) -> str:
    """A red ring marking a point."""
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="none" stroke="#d62728" stroke-width="3" class="mark"/>'


def grid_svg(graph: Graph, board: tuple, title: str | None, marks: Iterable[int]) -> str:
    """The SVG diagram of a board on a grid: lines, coordinates, stones, marks."""
    rows, columns = graph.shape
    top = MARGIN + (24 if title else 0)
    width = 2 * MARGIN + CELL * (columns - 1)
    height = top + MARGIN + CELL * (rows - 1)

    def at(v: int) -> tuple[float, float]:
        """Where point v is drawn."""
        r, c = graph.grid[v]
        return MARGIN + c * CELL, top + r * CELL

    body = [f'<rect width="{width}" height="{height}" fill="{BOARD_COLOUR}"/>']
    if title:
        body.append(f'<text x="{width / 2:.0f}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>')
    for v, w in graph.edges():
        (x1, y1), (x2, y2) = at(v), at(w)
        body.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#000" stroke-width="1"/>')
    for c in range(columns):
        x = MARGIN + c * CELL
        for y in (top - 18, top + CELL * (rows - 1) + 26):
            body.append(f'<text x="{x}" y="{y}" text-anchor="middle" font-size="13">{GTP_LETTERS[c]}</text>')
    for r in range(rows):
        y = top + r * CELL + 5
        for x in (MARGIN - 22, MARGIN + CELL * (columns - 1) + 22):
            body.append(f'<text x="{x}" y="{y}" text-anchor="middle" font-size="13">{rows - r}</text>')
    for v in graph.points:
        if board[v] != ".":
            body.append(_stone_svg(*at(v), CELL * 0.46, board[v]))
    for v in marks:
        body.append(_mark_svg(*at(v), CELL * 0.3))
    return _svg_document(width, height, body, title)


def _arrow_svg(x1: float, y1: float, x2: float, y2: float, r: float) -> str:
    """A line from one node to another, stopping at the node's rim, with an arrowhead."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    sx, sy = x1 + ux * r, y1 + uy * r
    ex, ey = x2 - ux * r, y2 - uy * r
    return (
        f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="#444" '
        f'stroke-width="1.5" marker-end="url(#arrow)"/>'
    )


def graph_frame(graph: Graph, top: float) -> tuple[Callable[[int], tuple[float, float]], float, float, list[str]]:
    """The frame of a drawing of any graph, with ``top`` pixels above it for a title: where
    each point is drawn, the width, the height, and the white background."""
    size, margin = 120 + 60 * math.sqrt(graph.order), 30
    positions = layout(graph)

    def at(v: int) -> tuple[float, float]:
        """Where point v is drawn."""
        x, y = positions[v]
        return margin + x * size, top + margin + (1 - y) * size

    width, height = size + 2 * margin, size + 2 * margin + top
    return at, width, height, [f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>']


def graph_svg(graph: Graph, board: tuple, title: str | None, marks: Iterable[int]) -> str:
    """The SVG drawing of a board on any graph: nodes numbered, stones on them, arcs arrowed."""
    top = 30 if title else 0
    at, width, height, body = graph_frame(graph, top)
    if graph.directed:
        body.append(
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>'
        )
    if title:
        body.append(f'<text x="{width / 2:.0f}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>')
    for v, w in graph.edges():
        (x1, y1), (x2, y2) = at(v), at(w)
        if graph.directed:
            body.append(_arrow_svg(x1, y1, x2, y2, NODE_RADIUS))
        else:
            body.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#444" stroke-width="1.5"/>'
            )
    for v in graph.points:
        x, y = at(v)
        colour = board[v]
        if colour == ".":
            body.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{NODE_RADIUS}" fill="{BOARD_COLOUR}" '
                f'stroke="#444" stroke-width="1.2" class="empty"/>'
            )
        else:
            body.append(_stone_svg(x, y, NODE_RADIUS, colour))
        ink = "#ffffff" if colour == "B" else "#000000"
        body.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="12" fill="{ink}">{v}</text>')
    for v in marks:
        body.append(_mark_svg(*at(v), NODE_RADIUS + 4))
    return _svg_document(width, height, body, title)


def board_svg(graph: Graph, board: Sequence[str], title: str | None = None, marks=None) -> str:
    """The SVG text of a board on a graph: a grid diagram for grids, a graph drawing otherwise."""
    board = _check_board(graph, board)
    marks = tuple(marks or ())
    if graph.is_grid:
        return grid_svg(graph, board, title, marks)
    return graph_svg(graph, board, title, marks)


def _grid_png(axes, graph: Graph, board: tuple, marks: tuple) -> None:
    """Draw a grid diagram on matplotlib axes (row 0 at the top, as on the SVG)."""
    rows, columns = graph.shape
    axes.set_facecolor(BOARD_COLOUR)
    for v, w in graph.edges():
        (r1, c1), (r2, c2) = graph.grid[v], graph.grid[w]
        axes.plot([c1, c2], [rows - 1 - r1, rows - 1 - r2], color="black", linewidth=1, zorder=1)
    for v in graph.points:
        r, c = graph.grid[v]
        if board[v] != ".":
            axes.add_patch(_disc((c, rows - 1 - r), 0.46, board[v]))
        if v in marks:
            axes.add_patch(_ring((c, rows - 1 - r), 0.3))
    axes.set_xticks(range(columns), [GTP_LETTERS[c] for c in range(columns)])
    axes.set_yticks(range(rows), [str(r + 1) for r in range(rows)])
    axes.tick_params(top=True, labeltop=True, right=True, labelright=True, length=0)
    axes.set_xlim(-0.7, columns - 0.3)
    axes.set_ylim(-0.7, rows - 0.3)
    axes.set_aspect("equal")
    for spine in axes.spines.values():
        spine.set_visible(False)


def _disc(centre, radius, colour):
    """A matplotlib stone."""
    from matplotlib.patches import Circle

    return Circle(centre, radius, facecolor=STONE_FILL[colour], edgecolor=STONE_EDGE[colour], zorder=3)


def _ring(centre, radius):
    """A matplotlib red ring marking a point."""
    from matplotlib.patches import Circle

    return Circle(centre, radius, facecolor="none", edgecolor="#d62728", linewidth=2.5, zorder=4)


def _graph_png(axes, graph: Graph, board: tuple, marks: tuple) -> None:
    """Draw a graph with stones on its nodes on matplotlib axes."""
    positions = layout(graph)
    radius = 0.06
    for v, w in graph.edges():
        (x1, y1), (x2, y2) = positions[v], positions[w]
        if graph.directed:
            axes.annotate(
                "",
                xy=(x2, y2),
                xytext=(x1, y1),
                arrowprops={"arrowstyle": "-|>", "color": "#444", "shrinkA": 14, "shrinkB": 14, "lw": 1.5},
                zorder=1,
            )
        else:
            axes.plot([x1, x2], [y1, y2], color="#444", linewidth=1.5, zorder=1)
    from matplotlib.patches import Circle

    for v in graph.points:
        x, y = positions[v]
        colour = board[v]
        if colour == ".":
            axes.add_patch(Circle((x, y), radius, facecolor=BOARD_COLOUR, edgecolor="#444", zorder=2))
        else:
            axes.add_patch(_disc((x, y), radius, colour))
        axes.text(
            x, y, str(v), ha="center", va="center", fontsize=9, zorder=5, color="white" if colour == "B" else "black"
        )
        if v in marks:
            axes.add_patch(_ring((x, y), radius * 1.35))
    axes.set_xlim(-0.15, 1.15)
    axes.set_ylim(-0.15, 1.15)
    axes.set_aspect("equal")
    axes.axis("off")


def board_png(graph: Graph, board: Sequence[str], path, title: str | None = None, marks=None) -> None:
    """Write a PNG picture of a board to ``path`` with matplotlib (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    board = _check_board(graph, board)
    marks = tuple(marks or ())
    if graph.is_grid:
        rows, columns = graph.shape
        figure, axes = plt.subplots(figsize=(1 + 0.6 * columns, 1.2 + 0.6 * rows))
        _grid_png(axes, graph, board, marks)
    else:
        figure, axes = plt.subplots(figsize=(4.5, 4.5))
        _graph_png(axes, graph, board, marks)
    if title:
        axes.set_title(title, pad=18 if graph.is_grid else 6)
    try:
        figure.savefig(path, format="png", dpi=100, bbox_inches="tight")
    finally:
        plt.close(figure)


def save_picture(graph: Graph, board: Sequence[str], path, title: str | None = None, marks=None) -> Path:
    """Write a picture of ``board`` on ``graph`` to ``path``: SVG or PNG by the suffix."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        write_text_atomically(path, board_svg(graph, board, title, marks))
    elif suffix == ".png":
        board = _check_board(graph, board)
        write_atomically(path, lambda temporary: board_png(graph, board, temporary, title, marks))
    else:
        raise UsageError(f"cannot write a picture to {path.name!r}: use a .svg or .png file name")
    return path
