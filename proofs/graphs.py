"""Every graph on N vertices at once: adjacency as Boolean variables.

A :class:`SymbolicGraph` has one variable per ordered pair of distinct points, "an arc
leads from v to w".  Undirected graphs are the symmetric case (the variable for (v, w)
and for (w, v) are the same term); no graph has loops.  A statement proved with a
symbolic graph holds on every graph with those points, connected or not; a
counterexample names one concrete graph, read back with :meth:`SymbolicGraph.graph`.
"""

from __future__ import annotations

import z3

from gorules.spec.graph import Graph, graph_to_json, make_graph


class SymbolicGraph:
    """All (di)graphs on the points 0..n-1: ``adjacent[v][w]`` is a Boolean variable."""

    def __init__(self, order: int, directed: bool = False):
        if order < 1:
            raise ValueError("a graph needs at least one point")
        self.order = order
        self.directed = directed
        self.adjacent = [[None] * order for _ in range(order)]
        for v in range(order):
            for w in range(order):
                if v == w:
                    continue
                if directed or v < w:
                    self.adjacent[v][w] = z3.Bool(f"arc_{v}_{w}")
                else:
                    self.adjacent[v][w] = self.adjacent[w][v]

    @property
    def name(self) -> str:
        """How results name the family: e.g. ``all-graphs:5`` or ``all-digraphs:4``."""
        return f"all-{'digraphs' if self.directed else 'graphs'}:{self.order}"

    @property
    def points(self) -> range:
        """The points 0 .. n-1."""
        return range(self.order)

    def arcs(self, v: int) -> list:
        """The pairs (w, "an arc leads from v to w") for every other point w."""
        return [(w, self.adjacent[v][w]) for w in self.points if w != v]

    def constraints(self) -> list:
        """Nothing beyond the construction: symmetry and no loops are built in."""
        return []

    def graph(self, model: z3.ModelRef) -> Graph:
        """The concrete graph a model chooses."""
        arcs = [
            (v, w)
            for v in self.points
            for w in self.points
            if v != w
            and (self.directed or v < w)
            and z3.is_true(model.eval(self.adjacent[v][w], model_completion=True))
        ]
        text = ",".join(f"{v}{'>' if self.directed else '-'}{w}" for v, w in arcs)
        name = f"{'digraph' if self.directed else 'edges'}:{text}" if arcs else f"empty:{self.order}"
        return make_graph(self.order, arcs, name, directed=self.directed)

    def __str__(self) -> str:
        return self.name


def as_graph(graph):
    """A Graph or SymbolicGraph as given, or the graph a string names (``spec.graph``)."""
    if isinstance(graph, (Graph, SymbolicGraph)):
        return graph
    from gorules.spec.graph import parse_graph

    return parse_graph(graph)


def concrete_graph(graph, model: z3.ModelRef) -> Graph:
    """The graph a counterexample lives on: the fixed graph, or the one the model chose."""
    return graph.graph(model) if isinstance(graph, SymbolicGraph) else graph


def graph_record(graph, model: z3.ModelRef) -> dict:
    """The counterexample's graph as data: its name, order, arcs and direction."""
    return graph_to_json(concrete_graph(graph, model))
