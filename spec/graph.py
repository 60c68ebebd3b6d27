"""Graphs that Go is played on.

A graph's points are the integers ``0 .. n-1``.  A :class:`Graph` holds, for each
point, the tuple of its out-neighbours: for an undirected graph that is the usual
symmetric adjacency, for a directed graph (source 000) the points an arc leads to.
Grids also carry coordinates, so that their points have the familiar names
(GTP ``A1`` with no ``I``, and SGF ``aa``).

Graphs are written as short strings (see :func:`parse_graph`), or given as
networkx graphs (see :func:`from_networkx`).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from itertools import combinations
from typing import NamedTuple

GTP_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

# The largest graphs a string may name.  Every method of the toolkit is at least linear in
# the points and arcs, and most are exponential, so a larger graph is refused as it is read,
# before any work (and before Python converts a number of thousands of digits).
MAX_POINTS = 100_000
MAX_ARCS = 1_000_000
MAX_DIGITS = 9  # a number in a graph string has at most this many digits


class GraphError(ValueError):
    """A graph description, or a point name on a graph, that does not make sense."""


@dataclass(frozen=True)
class Graph:
    """A finite graph: ``neighbours[v]`` are the points that ``v`` is adjacent to."""

    neighbours: tuple[tuple[int, ...], ...]
    name: str = "graph"
    coordinates: tuple[tuple[int, int], ...] | None = field(default=None, compare=False)
    directed: bool = False

    @property
    def order(self) -> int:
        """The number of points."""
        return len(self.neighbours)

    @property
    def points(self) -> range:
        """The points ``0 .. n-1``."""
        return range(len(self.neighbours))

    @property
    def is_grid(self) -> bool:
        """Whether the points carry (row, column) coordinates of a rectangular grid."""
        return self.coordinates is not None

    @property
    def grid(self) -> tuple[tuple[int, int], ...]:
        """The (row, column) of every point of a grid; GraphError if the graph is not one."""
        if self.coordinates is None:
            raise GraphError(f"{self.name} is not a grid")
        return self.coordinates

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) of a grid."""
        rows = 1 + max(r for r, _ in self.grid)
        columns = 1 + max(c for _, c in self.grid)
        return rows, columns

    def edges(self) -> list[tuple[int, int]]:
        """The arcs (v, w); for undirected graphs each edge once, with v < w."""
        return [(v, w) for v in self.points for w in self.neighbours[v] if self.directed or v < w]

    def __str__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        """The hash of the compared fields, computed once (graphs key many caches)."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.neighbours, self.name, self.directed))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict:
        """The fields only: a cached hash is not valid in another process."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


def make_graph(order: int, arcs, name: str, directed: bool = False, coordinates=None) -> Graph:
    """The graph on ``order`` points with the given arcs (both ways unless directed)."""
    adjacency: list[set[int]] = [set() for _ in range(order)]
    for v, w in arcs:
        if not (0 <= v < order and 0 <= w < order):
            raise GraphError(f"{name}: arc {v}-{w} leaves the points 0..{order - 1}")
        if v == w:
            raise GraphError(f"{name}: loop at point {v}")
        adjacency[v].add(w)
        if not directed:
            adjacency[w].add(v)
    neighbours = tuple(tuple(sorted(a)) for a in adjacency)
    return Graph(neighbours, name, coordinates, directed)


def grid(rows: int, columns: int) -> Graph:
    """The rows x columns grid; point ``r * columns + c`` sits at row r, column c."""
    arcs = []
    for r in range(rows):
        for c in range(columns):
            v = r * columns + c
            if c + 1 < columns:
                arcs.append((v, v + 1))
            if r + 1 < rows:
                arcs.append((v, v + columns))
    coordinates = tuple((r, c) for r in range(rows) for c in range(columns))
    return make_graph(rows * columns, arcs, f"grid:{rows}x{columns}", coordinates=coordinates)


def from_networkx(nx_graph, name: str | None = None) -> Graph:
    """The Graph of a networkx (di)graph; its nodes are numbered in sorted order."""
    import networkx as nx

    try:
        nodes = sorted(nx_graph.nodes)
    except TypeError:
        nodes = list(nx_graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    directed = nx_graph.is_directed()
    arcs = [(index[a], index[b]) for a, b in nx_graph.edges if a != b]
    label = name or nx_graph.graph.get("name") or f"networkx:{len(nodes)}"
    if isinstance(nx_graph, (nx.MultiGraph, nx.MultiDiGraph)):
        arcs = sorted(set(arcs))
    return make_graph(len(nodes), arcs, label, directed=directed)


def _shown(text: str) -> str:
    """A piece of input as quoted in an error: cut to 40 characters, its length said."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + f"… ({len(text):,} characters)"


def _number(text: str, what: str, spec: str) -> int:
    """A non-negative integer of at most MAX_DIGITS digits, or a GraphError naming ``spec``."""
    if not re.fullmatch(r"[0-9]+", text):
        raise GraphError(f"bad graph {_shown(spec)}: {what} must be a positive integer, got {_shown(text)}")
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise GraphError(
            f"bad graph {_shown(spec)}: {what} {_shown(text)} is too large (graphs have at most {MAX_POINTS:,} points)"
        )
    return int(text)


def _positive(text: str, what: str, spec: str) -> int:
    """An integer >= 1 read from ``text``, or a GraphError naming ``spec``."""
    value = _number(text, what, spec)
    if value < 1:
        raise GraphError(f"bad graph {_shown(spec)}: {what} must be a positive integer, got {_shown(text)}")
    return value


def _size(points: int, arcs: int, spec: str) -> None:
    """Refuse a graph beyond MAX_POINTS points or MAX_ARCS arcs before it is built."""
    if points > MAX_POINTS:
        raise GraphError(f"bad graph {_shown(spec)}: {points:,} points; graphs have at most {MAX_POINTS:,} points")
    if arcs > MAX_ARCS:
        raise GraphError(f"bad graph {_shown(spec)}: {arcs:,} arcs; graphs have at most {MAX_ARCS:,} arcs")


def _arc_list(body: str, separator: str, spec: str) -> list[tuple[int, int]]:
    """Arcs written as ``0-1,1-2`` (or ``0>1``), checked for form."""
    arcs = []
    items = body.split(",")
    _size(0, len(items), spec)
    for item in items:
        item = item.strip()
        match = re.fullmatch(r"([0-9]+)\s*" + re.escape(separator) + r"\s*([0-9]+)", item)
        if not match:
            raise GraphError(f"bad graph {_shown(spec)}: {_shown(item)} is not an arc 'a{separator}b'")
        v, w = (_number(match.group(i), "a point", spec) for i in (1, 2))
        _size(1 + max(v, w), 0, spec)
        arcs.append((v, w))
    return arcs


def parse_graph(spec) -> Graph:
    """The graph a string names: ``grid:RxC``, ``path:N``, ``cycle:N``, ``complete:N``,
    ``star:K`` (a centre and K leaves), ``petersen``, ``atlas:I`` (networkx's graph atlas),
    ``edges:0-1,1-2``, ``digraph:0>1,1>0``, ``space:3;preorder=1<0;S=0,0+1`` (a go-space of
    Topological Go, see :func:`parse_go_space`).  A Graph or a networkx
    graph is accepted as is.
    """
    if isinstance(spec, Graph):
        return spec
    if not isinstance(spec, str):
        if hasattr(spec, "nodes") and hasattr(spec, "edges"):
            return from_networkx(spec)
        raise GraphError(f"cannot read a graph from {type(spec).__name__}")
    if len(spec) > 20 * MAX_ARCS:
        raise GraphError(f"bad graph {_shown(spec)}: the text is too long")
    text = spec.strip()
    kind, _, body = text.partition(":")
    kind = kind.lower()
    if kind == "grid":
        match = re.fullmatch(r"([0-9]+)\s*[xX×]\s*([0-9]+)", body)
        if not match:
            raise GraphError(f"bad graph {_shown(spec)}: a grid is written grid:RxC, e.g. grid:3x4")
        rows = _positive(match.group(1), "the number of rows", spec)
        columns = _positive(match.group(2), "the number of columns", spec)
        if rows > 25 or columns > 25:
            raise GraphError(f"bad graph {_shown(spec)}: grids have at most 25 rows and columns")
        return grid(rows, columns)
    if kind == "path":
        n = _positive(body, "the number of points", spec)
        _size(n, n - 1, spec)
        return make_graph(n, [(i, i + 1) for i in range(n - 1)], f"path:{n}")
    if kind == "cycle":
        n = _positive(body, "the number of points", spec)
        if n < 3:
            raise GraphError(f"bad graph {_shown(spec)}: a cycle needs at least 3 points")
        _size(n, n, spec)
        return make_graph(n, [(i, (i + 1) % n) for i in range(n)], f"cycle:{n}")
    if kind == "complete":
        n = _positive(body, "the number of points", spec)
        _size(n, n * (n - 1) // 2, spec)
        return make_graph(n, [(i, j) for i in range(n) for j in range(i + 1, n)], f"complete:{n}")
    if kind == "star":
        k = _positive(body, "the number of leaves", spec)
        _size(k + 1, k, spec)
        return make_graph(k + 1, [(0, i) for i in range(1, k + 1)], f"star:{k}")
    if kind == "petersen" and not body:
        outer = [(i, (i + 1) % 5) for i in range(5)]
        spokes = [(i, i + 5) for i in range(5)]
        inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
        return make_graph(10, outer + spokes + inner, "petersen")
    if kind == "atlas":
        import networkx as nx

        if not re.fullmatch(r"[0-9]{1,4}", body) or not 0 <= int(body) <= 1252:
            raise GraphError(f"bad graph {_shown(spec)}: the atlas index must be an integer 0..1252")
        return from_networkx(nx.graph_atlas(int(body)), name=f"atlas:{int(body)}")
    if kind == "edges":
        arcs = _arc_list(body, "-", spec)
        return make_graph(1 + max(max(a) for a in arcs), arcs, f"edges:{body}")
    if kind == "digraph":
        arcs = _arc_list(body, ">", spec)
        return make_graph(1 + max(max(a) for a in arcs), arcs, f"digraph:{body}", directed=True)
    if kind == "space":
        return space_graph(body)
    raise GraphError(
        f"bad graph {_shown(spec)}: expected grid:RxC, path:N, cycle:N, complete:N, star:K, "
        "petersen, atlas:I, edges:a-b,..., digraph:a>b,... or space:N;preorder=a<b,...;S=A,..."
    )


def gtp_name(graph: Graph, v: int) -> str:
    """The GTP name of a grid point (column letter without I, row number from the bottom)."""
    rows, _ = graph.shape
    r, c = graph.grid[v]
    return f"{GTP_LETTERS[c]}{rows - r}"


def sgf_name(graph: Graph, v: int) -> str:
    """The SGF name of a grid point (column letter, then row letter from the top)."""
    r, c = graph.grid[v]
    return string.ascii_lowercase[c] + string.ascii_lowercase[r]


def point_name(graph: Graph, v: int) -> str:
    """How a point is shown: its GTP name on a grid, its number elsewhere."""
    return gtp_name(graph, v) if graph.is_grid else str(v)


def parse_point(graph: Graph, text: str) -> int:
    """The point a name denotes: a number ``0..n-1``, or on grids ``C3`` (GTP) or ``cc`` (SGF)."""
    name = text.strip()
    if re.fullmatch(r"[0-9]+", name):
        v = int(name) if len(name.lstrip("0")) <= MAX_DIGITS else graph.order
        if v < graph.order:
            return v
        raise GraphError(f"unknown point {_shown(text)}: {graph.name} has points 0..{graph.order - 1}")
    if graph.is_grid:
        rows, columns = graph.shape
        gtp = re.fullmatch(r"([A-HJ-Za-hj-z])([0-9]{1,9})", name)
        if gtp:
            c = GTP_LETTERS.index(gtp.group(1).upper())
            r = rows - int(gtp.group(2))
            if c < columns and 0 <= r < rows:
                return r * columns + c
        sgf = re.fullmatch(r"([a-z])([a-z])", name)
        if sgf:
            c = string.ascii_lowercase.index(sgf.group(1))
            r = string.ascii_lowercase.index(sgf.group(2))
            if c < columns and r < rows:
                return r * columns + c
    raise GraphError(f"unknown point {_shown(text)} on {graph.name}")


# --------------------------------------------------------------------------- graphs as JSON


def graph_to_json(graph: Graph) -> dict:
    """A graph as JSON data: its name, order, whether directed, and its arcs (``edges()``)."""
    return {
        "name": graph.name,
        "order": graph.order,
        "directed": graph.directed,
        "arcs": [list(arc) for arc in graph.edges()],
    }


def graph_from_json(data: dict) -> Graph:
    """The graph that ``graph_to_json`` wrote.  When its name parses to the same graph
    (``grid:3x3``, ``petersen``, ...) that graph is returned, so a grid gets its coordinates
    back; GraphError if the data is not a graph."""
    try:
        order, directed = int(data["order"]), bool(data["directed"])
        arcs = [tuple(int(x) for x in arc) for arc in data["arcs"]]
        name = str(data.get("name", "graph"))
    except (KeyError, TypeError, ValueError) as error:
        raise GraphError(f"a graph as JSON needs order, directed and arcs: {error}") from None
    _size(order, len(arcs), name)
    graph = make_graph(order, arcs, name, directed=directed)
    try:
        named = parse_graph(name)
    except GraphError:
        return graph
    return named if named.neighbours == graph.neighbours and named.directed == directed else graph


# --------------------------------------------------------------------------- go-spaces as text
#
# A finite topology is fixed by the smallest open set U_x around each point, the meet of the
# open sets that hold x; the open sets are the unions of the U_x, and the specialisation
# preorder (a <= b iff a lies in the closure of {b} iff b is in U_a) is the same information.
# A go-space of Topological Go (gorules.spec.topological) is written
# ``space:N;preorder=a<b,...;S=A,B,...``, with ``basis=A,...`` or ``opens=A,...`` in place of
# ``preorder=`` (no topology: the discrete one), sets as points joined by "+", and is played
# on the graph whose points are X, x joined to y when one lies in the other's U.


class Neighbourhoods(NamedTuple):
    """A finite go-space by the smallest open set U_x around each point x (the meet of the
    open sets holding x) and S: the open sets are exactly the unions of the U_x."""

    size: int
    minimal: tuple
    placements: frozenset


def point_set(text: str, size: int, what: str) -> frozenset:
    """A set of points written as points joined by "+" (``0+2``), ``{}`` the empty set;
    GraphError for a word that is not a point of X = {0..size-1}."""
    word = text.strip()
    if word in ("{}", "∅", ""):
        return frozenset()
    points = set()
    for item in word.split("+"):
        if not item.strip().isdigit() or int(item) >= size:
            raise GraphError(f"bad go-space: {what} {word!r} names {item.strip()!r}, not a point 0..{size - 1}")
        points.add(int(item))
    return frozenset(points)


def base_defect(size: int, base: list) -> str | None:
    """Why `base` is not the base of a topology on X = {0..size-1} (a point it does not
    cover, or two members whose meet around a point holds no member); None if it is one."""
    covered = frozenset().union(*base)
    for x in range(size):
        if x not in covered:
            return f"no member of the basis holds point {x}"
    for B1, B2 in combinations(base, 2):
        for x in sorted(B1 & B2):
            if not any(x in B3 and B3 <= B1 & B2 for B3 in base):
                return f"{braces(B1)} and {braces(B2)} meet at {x} but no member of the basis lies in their meet there"
    return None


def topology_defect(size: int, opens: list) -> str | None:
    """Why `opens` (with ∅ and X, the empty union and intersection, added) is not a
    topology on X = {0..size-1}: a union or intersection of two of them that is not one."""
    family = set(opens) | {frozenset(), frozenset(range(size))}
    for U, V in combinations(sorted(family, key=sorted), 2):
        if U | V not in family:
            return f"not a topology: the union of {braces(U)} and {braces(V)} is not open"
        if U & V not in family:
            return f"not a topology: the intersection of {braces(U)} and {braces(V)} is not open"
    return None


def set_text(A: frozenset) -> str:
    """A set of points as the command line writes it: ``0+2``, ``{}`` if empty."""
    return "+".join(str(x) for x in sorted(A)) or "{}"


def braces(A: frozenset) -> str:
    """A set of points as messages write it: ``{0,2}``."""
    return "{" + ",".join(str(x) for x in sorted(A)) + "}"


def smallest_neighbourhoods(size: int, family: list) -> tuple:
    """U_x for each x: the meet of the members of `family` holding x (a base or all the
    open sets of a topology)."""
    return tuple(frozenset.intersection(*(B for B in family if x in B)) for x in range(size))


def preorder_neighbourhoods(size: int, arrows: list) -> tuple:
    """U_x for the topology of a specialisation preorder: ``a<b`` says a lies in the closure
    of b, that is every open set holding a holds b; U_a is all that a reaches by arrows."""
    reach = [{x} for x in range(size)]
    changed = True
    while changed:
        changed = False
        for a, b in arrows:
            if not reach[b] <= reach[a]:
                reach[a] |= reach[b]
                changed = True
    return tuple(frozenset(r) for r in reach)


def parse_go_space(text: str) -> Neighbourhoods:
    """A go-space written ``N;preorder=a<b,...;S=A,B,...`` (or ``basis=A,B,...`` or
    ``opens=A,B,...`` for the topology; none: the discrete one), sets as points joined by
    "+"; GraphError naming what is wrong (a basis that is no basis, open sets not closed
    under union and intersection, ∅ or a set that is not open in S)."""
    head, *parts = [p.strip() for p in text.split(";")]
    if not head.isdigit() or int(head) < 1:
        raise GraphError(
            f"bad go-space {text!r}: it starts with its number of points, e.g. space:3;preorder=1<0;S=0,0+1"
        )
    size = int(head)
    if size > 10_000:
        raise GraphError(f"bad go-space {text!r}: at most 10000 points, got {size}")
    given = {}
    for part in parts:
        key, equals, value = part.partition("=")
        key = key.strip().lower()
        if not equals or key not in ("preorder", "basis", "opens", "s"):
            raise GraphError(f"bad go-space {text!r}: {part!r} is not preorder=..., basis=..., opens=... or S=...")
        given[key] = value.split(",") if value.strip() else []
    topologies = [k for k in ("preorder", "basis", "opens") if k in given]
    if len(topologies) > 1:
        raise GraphError(f"bad go-space {text!r}: give the topology once, not by {' and '.join(topologies)}")
    if "s" not in given:
        raise GraphError(f"bad go-space {text!r}: S, the family of placements, is missing (S=A,B,...)")
    minimal = topology_of(size, topologies[0] if topologies else None, given[topologies[0]] if topologies else [])
    S = [point_set(w, size, "the element of S") for w in given["s"]]
    if frozenset() in S:
        raise GraphError(f"bad go-space {text!r}: S contains the empty set (Defn 1 forbids it)")
    for s in S:
        if not all(minimal[x] <= s for x in s):
            raise GraphError(f"bad go-space {text!r}: the element {braces(s)} of S is not an open set")
    return Neighbourhoods(size, minimal, frozenset(S))


def topology_of(size: int, kind: str | None, words: list) -> tuple:
    """The smallest open neighbourhoods of the topology given by a preorder, a basis or its
    open sets (the discrete topology if none); GraphError if the family is not what it says."""
    if kind is None:
        return tuple(frozenset({x}) for x in range(size))
    if kind == "preorder":
        arrows = []
        for word in words:
            a, less, b = word.partition("<")
            if not less:
                raise GraphError(f"bad go-space: {word!r} is not an arrow a<b of the preorder")
            arrows.append((min(point_set(a, size, "the arrow")), min(point_set(b, size, "the arrow"))))
        return preorder_neighbourhoods(size, arrows)
    family = [point_set(w, size, f"the {kind} member") for w in words]
    if kind == "basis":
        defect = base_defect(size, family)
        if defect is not None:
            raise GraphError(f"bad go-space: not a basis of a topology: {defect}")
        return smallest_neighbourhoods(size, family)
    defect = topology_defect(size, family)
    if defect is not None:
        raise GraphError(f"bad go-space: {defect}")
    return smallest_neighbourhoods(size, family + [frozenset(range(size))])


def space_graph(text: str) -> Graph:
    """The graph a go-space is drawn and played on: its points, x joined to y when one lies
    in the other's smallest open neighbourhood, named ``space:`` and the text."""
    space = parse_go_space(text)
    arcs = [(x, y) for x in range(space.size) for y in space.minimal[x] if y != x]
    adjacency: list[set] = [set() for _ in range(space.size)]
    for x, y in arcs:
        adjacency[x].add(y)
        adjacency[y].add(x)
    return Graph(tuple(tuple(sorted(a)) for a in adjacency), f"space:{text.strip()}")
