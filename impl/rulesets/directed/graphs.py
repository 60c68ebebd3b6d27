"""Every digraph on a few points, one per isomorphism class, and names that read back.

A digraph on n points without loops has n(n-1) possible arcs; an arc set is a bit mask
over them.  Two masks are the same digraph up to isomorphism iff some permutation of the
points maps one to the other, so the class is named by its least mask over all n!
permutations (computed for all masks at once with numpy).  There are 1, 3, 16, 218 and
9,608 classes on 1..5 points (OEIS A000273).

Names: ``digraph:N:ARCS`` with N points and arcs ``a>b`` separated by commas (ARCS may be
empty), so that digraphs with isolated points can be named; :func:`parse` also reads
every graph name that :func:`gorules.spec.graph.parse_graph` reads.
"""

from __future__ import annotations

import functools
from itertools import permutations

import numpy as np

from gorules.spec.graph import Graph, GraphError, make_graph, parse_graph

MAX_ENUMERATED_POINTS = 5


def arc_list(n: int) -> list[tuple[int, int]]:
    """The possible arcs on n points, in the order of the mask's bits."""
    return [(a, b) for a in range(n) for b in range(n) if a != b]


def name_of(n: int, arcs) -> str:
    """The name of the digraph on n points with these arcs."""
    return f"digraph:{n}:" + ",".join(f"{a}>{b}" for a, b in sorted(arcs))


def graph_of(n: int, arcs) -> Graph:
    """The digraph on n points with these arcs."""
    return make_graph(n, list(arcs), name_of(n, arcs), directed=True)


@functools.lru_cache(maxsize=None)
def classes(n: int) -> tuple[int, ...]:
    """The least mask of each isomorphism class of digraphs on n points, in increasing
    order of arcs then mask."""
    if not 1 <= n <= MAX_ENUMERATED_POINTS:
        raise GraphError(f"digraphs are enumerated on 1..{MAX_ENUMERATED_POINTS} points, not {n}")
    arcs = arc_list(n)
    bit = {arc: k for k, arc in enumerate(arcs)}
    masks = np.arange(1 << len(arcs), dtype=np.int64)
    least = masks.copy()
    for perm in permutations(range(n)):
        image = np.zeros_like(masks)
        for k, (a, b) in enumerate(arcs):
            image |= ((masks >> k) & 1) << bit[(perm[a], perm[b])]
        np.minimum(least, image, out=least)
    found = np.unique(least)
    return tuple(sorted((int(m) for m in found), key=lambda m: (bin(m).count("1"), m)))


def digraphs(max_points: int, min_points: int = 1) -> list[Graph]:
    """One digraph of each isomorphism class on min_points..max_points points."""
    found = []
    for n in range(min_points, max_points + 1):
        arcs = arc_list(n)
        for mask in classes(n):
            found.append(graph_of(n, [arcs[k] for k in range(len(arcs)) if mask >> k & 1]))
    return found


def parse(text: str) -> Graph:
    """A graph from its name: ``digraph:N:ARCS`` as above, or any name parse_graph reads (a
    Graph is taken as it is)."""
    if isinstance(text, Graph):
        return text
    parts = text.strip().split(":")
    if len(parts) == 3 and parts[0].lower() == "digraph":
        try:
            n = int(parts[1])
        except ValueError:
            raise GraphError(f"bad graph {text!r}: digraph:N:ARCS needs a number of points N") from None
        if n < 1:
            raise GraphError(f"bad graph {text!r}: a digraph has at least one point")
        arcs = []
        for item in filter(None, (p.strip() for p in parts[2].split(","))):
            a, sep, b = item.partition(">")
            if not sep or not a.strip().isdigit() or not b.strip().isdigit():
                raise GraphError(f"bad graph {text!r}: arcs are written a>b, e.g. digraph:3:0>1,1>2")
            arcs.append((int(a), int(b)))
        return make_graph(n, arcs, name_of(n, arcs), directed=True)
    return parse_graph(text)
