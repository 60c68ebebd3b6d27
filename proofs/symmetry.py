"""Symmetry breaking on the played point: the automorphisms of a graph and their orbits.

A statement about a move on a graph G can be split into one query per played point v
and player p (a *cube*, made by ``proofs/extras.py``): each query fixes v and p, so the
formula shrinks, and the queries run in parallel.  If the statement is invariant under
the automorphisms of G — P(b, v, p) ⟺ P(σb, σv, p) for every automorphism σ — one
played point per orbit of Aut(G) is enough: a counterexample at σv gives one at v.

Why the statements here are invariant: every definition of the spec (reaches, clear,
move, score, well-formedness, chains) mentions points only through the adjacency ↔, so
renaming the points by a map that preserves ↔ maps each definition's value to the
renamed value.  This is a one-line argument from the definitions, not a computation;
for ``move`` it is also proved by SAT, on the same graph, by the ``automorphism``
theorem (``proofs/automorphism.py``), which itself never uses the reduction.

On every graph of order N at once (a symbolic adjacency), the set of graphs is closed
under renaming the points, so the played point can be taken to be 0.

The automorphisms come from networkx (VF2 on the graph against itself); a generating
set is chosen with sympy's permutation groups.
"""

from __future__ import annotations

from gorules.spec.graph import Graph

ENUMERATION_LIMIT = 5000


def to_networkx(graph: Graph):
    """The networkx (di)graph of a Graph."""
    import networkx as nx

    g = nx.DiGraph() if graph.directed else nx.Graph()
    g.add_nodes_from(graph.points)
    g.add_edges_from(graph.edges())
    return g


def automorphisms(graph: Graph, limit: int = ENUMERATION_LIMIT) -> tuple[list[tuple[int, ...]], bool]:
    """Automorphisms of the graph as tuples σ (σ[v] is the image of v), at most ``limit``
    of them, and whether that is all of them."""
    from networkx.algorithms import isomorphism

    g = to_networkx(graph)
    matcher = isomorphism.DiGraphMatcher(g, g) if graph.directed else isomorphism.GraphMatcher(g, g)
    found = []
    for mapping in matcher.isomorphisms_iter():
        found.append(tuple(mapping[v] for v in graph.points))
        if len(found) >= limit:
            return found, False
    return found, True


def is_automorphism(graph: Graph, sigma) -> bool:
    """σ is a bijection of the points that maps arcs onto arcs."""
    if sorted(sigma) != list(graph.points):
        return False
    arcs = set(graph.edges()) if graph.directed else {frozenset(e) for e in graph.edges()}
    image = (
        {(sigma[v], sigma[w]) for v, w in graph.edges()}
        if graph.directed
        else {frozenset((sigma[v], sigma[w])) for v, w in graph.edges()}
    )
    return image == arcs


def orbits(graph: Graph, limit: int = ENUMERATION_LIMIT) -> list[list[int]]:
    """The orbits of the points under the automorphisms found (all of Aut(G) unless the
    enumeration hit ``limit``; then the orbits of a subgroup, which is still sound)."""
    parent = list(graph.points)

    def find(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for sigma in automorphisms(graph, limit)[0]:
        for v in graph.points:
            a, b = find(v), find(sigma[v])
            if a != b:
                parent[max(a, b)] = min(a, b)
    classes: dict = {}
    for v in graph.points:
        classes.setdefault(find(v), []).append(v)
    return sorted(classes.values())


def representatives(graph: Graph) -> list[int]:
    """One point per orbit (the smallest)."""
    return [orbit[0] for orbit in orbits(graph)]


def generators(graph: Graph, limit: int = ENUMERATION_LIMIT) -> tuple[list[tuple[int, ...]], int, bool]:
    """A set of automorphisms generating the group of those found, that group's order,
    and whether the enumeration was complete (then it is all of Aut(G))."""
    from sympy.combinatorics import Permutation, PermutationGroup

    found, complete = automorphisms(graph, limit)
    chosen: list = []
    order = 1
    for sigma in found:
        if list(sigma) == list(graph.points):
            continue
        candidate = PermutationGroup([Permutation(list(s)) for s in chosen + [sigma]])
        if candidate.order() > order:
            chosen.append(sigma)
            order = candidate.order()
    return chosen, order, complete


def symmetric_group_generators(n: int) -> list[tuple[int, ...]]:
    """The transposition (0 1) and the cycle (0 1 … n−1): together they generate every
    permutation of n points."""
    if n < 2:
        return []
    swap = tuple([1, 0] + list(range(2, n)))
    cycle = tuple((v + 1) % n for v in range(n))
    return [swap] if n == 2 else [swap, cycle]


def reduction_factor(graph: Graph) -> float | None:
    """How many times fewer played points the orbit reduction leaves."""
    reps = representatives(graph)
    return graph.order / len(reps) if reps else None
