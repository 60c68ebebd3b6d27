"""The graphs the errata checker searches, and the bounds of its search.

Boards are compared on every graph of networkx's atlas up to a few points, on small grids
and on the small digraphs; theorems on the reachable states and game prefixes of fewer
graphs (:class:`Bounds`).  Graphs go from smallest to largest, so the first failure found
is a smallest counterexample.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph, make_graph, parse_graph

COLOURS = (tt.BLACK, tt.WHITE, tt.EMPTY)


@dataclass(frozen=True)
class Bounds:
    """How far the checker searches: graph sizes for boards, states and game prefixes."""

    atlas_points: int = 5  # every graph of networkx's atlas with at most this many points
    grids: tuple[str, ...] = ("grid:2x3",)  # grids checked on every board
    digraph_points: int = 3  # every digraph without isolated points up to this size
    state_points: int = 4  # graphs whose reachable states are searched (theorems)
    state_grids: tuple[str, ...] = ("grid:2x3",)
    prefix_points: int = 3  # graphs whose game prefixes are enumerated one by one


QUICK = Bounds()
THOROUGH = Bounds(grids=("grid:2x3", "grid:3x3"), state_points=5, state_grids=("grid:2x3", "grid:2x4"))


@lru_cache(maxsize=None)
def atlas_graphs(max_points: int) -> tuple[Graph, ...]:
    """Every graph of networkx's graph atlas with 1 to ``max_points`` points (one per class)."""
    import networkx as nx

    found = []
    for index, g in enumerate(nx.graph_atlas_g()):
        if 1 <= g.number_of_nodes() <= max_points:
            found.append(familiar_name(parse_graph(f"atlas:{index}")))
    return tuple(found)


def familiar_name(graph: Graph) -> Graph:
    """The same graph under a familiar name (path:N, cycle:N, complete:N, star:K) when its
    points are numbered as that name numbers them; otherwise unchanged."""
    n = graph.order
    candidates = [f"path:{n}", f"complete:{n}", f"star:{n - 1}" if n > 1 else "path:1"]
    if n >= 3:
        candidates.append(f"cycle:{n}")
    for name in candidates:
        named = parse_graph(name)
        if named.neighbours == graph.neighbours:
            return dataclasses.replace(graph, name=name)
    return graph


@lru_cache(maxsize=None)
def small_digraphs(max_points: int) -> tuple[Graph, ...]:
    """Every directed graph on 2..max_points points with no isolated point and at least one
    one-way arc, one per isomorphism class."""
    import networkx as nx

    found: list[Graph] = []
    seen: list = []
    for n in range(2, max_points + 1):
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
        for chosen in itertools.product((0, 1), repeat=len(pairs)):
            arcs = [pair for pair, bit in zip(pairs, chosen) if bit]
            touched = {x for arc in arcs for x in arc}
            if len(touched) < n or all((b, a) in arcs for a, b in arcs):
                continue
            g = nx.DiGraph(arcs)
            if any(nx.is_isomorphic(g, h) for h in seen):
                continue
            seen.append(g)
            name = "digraph:" + ",".join(f"{a}>{b}" for a, b in arcs)
            found.append(make_graph(n, arcs, name, directed=True))
    return tuple(found)


def by_size(graphs: Iterable[Graph]) -> list[Graph]:
    """Graphs from smallest to largest: fewer points, then fewer arcs."""
    return sorted(graphs, key=lambda g: (g.order, len(g.edges()), g.directed))


def family(atlas_points: int, grids: Sequence[str], digraph_points: int) -> list[Graph]:
    """Every atlas graph up to ``atlas_points`` points, the named grids and every small digraph
    up to ``digraph_points`` points, smallest first."""
    return by_size(
        list(atlas_graphs(atlas_points)) + [parse_graph(name) for name in grids] + list(small_digraphs(digraph_points))
    )


def board_graphs(bounds: Bounds) -> list[Graph]:
    """The graphs on which definitions are compared on every board."""
    return family(bounds.atlas_points, bounds.grids, bounds.digraph_points)


def state_graphs(bounds: Bounds) -> list[Graph]:
    """The graphs on which theorems are checked on every reachable state."""
    return family(bounds.state_points, bounds.state_grids, bounds.digraph_points)


def prefix_graphs(bounds: Bounds) -> list[Graph]:
    """The graphs on which every game prefix is enumerated."""
    return family(bounds.prefix_points, (), min(bounds.prefix_points, 3))


def all_boards(graph: Graph) -> list[tuple]:
    """Every board of a graph, fewest stones first."""
    boards = itertools.product(COLOURS, repeat=graph.order)
    return sorted(boards, key=lambda b: (sum(c != tt.EMPTY for c in b), b[::-1]))


def describe(graph: Graph) -> str:
    """A graph's name, with its arcs when the name alone does not show them."""
    if graph.name.startswith("atlas:"):
        arcs = ",".join(f"{a}-{b}" for a, b in graph.edges()) or "no edges"
        points = "1 point" if graph.order == 1 else f"{graph.order} points"
        return f"{graph.name} ({points}: {arcs})"
    return graph.name


def graph_summary(graphs: Sequence[Graph]) -> str:
    """A short account of a list of graphs: how many, and of how many points at most."""
    undirected = [g for g in graphs if not g.directed]
    directed = [g for g in graphs if g.directed]
    grids = [g.name for g in undirected if g.is_grid]
    atlas = [g for g in undirected if not g.is_grid]
    parts = []
    if atlas:
        parts.append(f"all {len(atlas)} graphs of ≤{max(g.order for g in atlas)} points")
    if grids:
        parts.append(", ".join(grids))
    if directed:
        parts.append(f"all {len(directed)} digraphs of ≤{max(g.order for g in directed)} points")
    return "; ".join(parts)
