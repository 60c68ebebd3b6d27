"""Hypothesis strategies for graphs, boards and move sequences."""

from __future__ import annotations

from hypothesis import strategies as st

import gorules.spec.tromp_taylor as spec_rules
from gorules.spec.graph import Graph, grid, make_graph, parse_graph
from gorules.spec.tromp_taylor import PASS

NAMED = ("petersen", "cycle:3", "cycle:6", "complete:4", "star:3", "path:5")


@st.composite
def undirected_graphs(draw, min_order: int = 1, max_order: int = 12) -> Graph:
    """A random undirected graph on min_order..max_order points."""
    n = draw(st.integers(min_order, max_order))
    pairs = [(v, w) for v in range(n) for w in range(v + 1, n)]
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return make_graph(n, [p for p, keep in zip(pairs, chosen) if keep], f"undirected:{n}")


@st.composite
def directed_graphs(draw, min_order: int = 1, max_order: int = 12) -> Graph:
    """A random directed graph (arcs chosen independently, both ways allowed)."""
    n = draw(st.integers(min_order, max_order))
    pairs = [(v, w) for v in range(n) for w in range(n) if v != w]
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return make_graph(n, [p for p, keep in zip(pairs, chosen) if keep], f"directed:{n}", directed=True)


@st.composite
def grids(draw, max_side: int = 19) -> Graph:
    """A rows × columns grid with sides 1..max_side."""
    return grid(draw(st.integers(1, max_side)), draw(st.integers(1, max_side)))


def named_graphs() -> st.SearchStrategy:
    """One of a few named graphs (Petersen, cycles, complete, star, path)."""
    return st.sampled_from(NAMED).map(parse_graph)


def graphs(max_order: int = 12, max_side: int = 19) -> st.SearchStrategy:
    """Undirected and directed graphs up to max_order points, grids up to max_side, named graphs."""
    return st.one_of(
        undirected_graphs(max_order=max_order),
        directed_graphs(max_order=max_order),
        grids(max_side=max_side),
        named_graphs(),
    )


def boards(graph: Graph) -> st.SearchStrategy:
    """Any board of the graph, well-formed or not."""
    return st.tuples(*[st.sampled_from(("B", "W", ".")) for _ in graph.points])


def well_formed_boards(graph: Graph) -> st.SearchStrategy:
    """Boards on which every stone reaches Empty: a random board with the stones of both
    colours that do not reach Empty removed (by the spec)."""
    return boards(graph).map(lambda b: spec_rules.clear(graph, spec_rules.clear(graph, b, "B"), "W"))


def moves(graph: Graph) -> st.SearchStrategy:
    """A point of the graph or a pass (each as likely as any one point)."""
    n = graph.order
    return st.integers(0, n).map(lambda v: PASS if v == n else v)


def move_sequences(graph: Graph, max_size: int = 40) -> st.SearchStrategy:
    """A list of moves, legal or not."""
    return st.lists(moves(graph), max_size=max_size)
