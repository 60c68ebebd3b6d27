"""Benson's unconditional life on a graph, stated on the spec's boards.

The points a player keeps whatever the opponent does, read from a board alone, in the
spec's terms (boards are tuples of colours, adjacency is ``Graph.neighbours``).  A
certificate's checker (``impl/solving/certificate_check.py``) uses this to accept a strategy that
stops at a board where these points already prove its bound.

Benson (1976): let X be the chains of colour c.  A *region* is a connected set of points
not of colour c (empty points and the opponent's stones), maximal.  A region is *vital*
to a chain when it holds an empty point and each of its empty points is next to the
chain; where suicide is allowed each of its points must be (the opponent may empty its
own stones inside by suicide, and the points left must be liberties too).  Drop from X
each chain that has fewer than two vital regions whose bordering chains are all in X,
and repeat until nothing is dropped: the stones of the chains left are *unconditionally
alive*: if c passes every turn from now on, no sequence of the opponent's moves removes
any of them.

What c keeps to the end of a game that ends by two passes (``kept``): the alive stones;
under area scoring also their *one-point eyes*, the empty points that have a neighbour
and all of whose neighbours are alive stones of c: a stone of the opponent there has no
liberty and captures nothing (every alive chain keeps a liberty in another vital
region), so it cannot stay, and the point ends empty, reaching only c.  Passing is always
legal and the game is finite under superko, so c, passing from the board on, ends the
game with every kept point scored for c, whatever the history: a final margin for c of
at least 2·|kept| − n on n points (each other point counts for at most one player).

Only undirected graphs are covered (liberties must be symmetric); on a graph with an arc
that is not returned, nothing is kept.  ``tests/test_spec_benson.py`` checks that these
definitions keep the same points as the solver's bitset version (``impl/engine/benson.py``),
whose invariant is checked exhaustively on small graphs in ``tests/test_solve_benson.py``.
"""

from __future__ import annotations

from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import EMPTY, Board, Color, Options


def undirected(graph: Graph) -> bool:
    """Whether every arc v → w of the graph has its return w → v."""
    return all(v in graph.neighbours[w] for v in graph.points for w in graph.neighbours[v])


def components(graph: Graph, within: frozenset) -> list[frozenset]:
    """The connected components of the set of points ``within`` (as frozensets)."""
    found = []
    left = set(within)
    while left:
        component = {min(left)}
        frontier = list(component)
        while frontier:
            v = frontier.pop()
            for w in graph.neighbours[v]:
                if w in left and w not in component:
                    component.add(w)
                    frontier.append(w)
        left -= component
        found.append(frozenset(component))
    return found


def next_to(graph: Graph, points: frozenset) -> frozenset:
    """The points adjacent to some point of ``points``."""
    return frozenset(w for v in points for w in graph.neighbours[v])


def vital(graph: Graph, b: Board, region: frozenset, chain: frozenset, suicide: bool) -> bool:
    """Whether ``region`` is vital to ``chain``: it holds an empty point, and each of its
    empty points (each of its points, where suicide is allowed) is next to the chain."""
    empty = frozenset(v for v in region if b[v] == EMPTY)
    if not empty:
        return False
    return (region if suicide else empty) <= next_to(graph, chain)


def alive(graph: Graph, b: Board, c: Color, suicide: bool = True) -> frozenset:
    """The stones of colour c on b that are unconditionally alive (Benson's fixed point)."""
    if not undirected(graph):
        return frozenset()
    own = frozenset(v for v in graph.points if b[v] == c)
    chains = components(graph, own)
    regions = components(graph, frozenset(graph.points) - own)
    living = set(chains)
    while True:
        stones = frozenset(v for chain in living for v in chain)
        counted = [region for region in regions if next_to(graph, region) & own <= stones]
        dropped = {chain for chain in living if sum(vital(graph, b, r, chain, suicide) for r in counted) < 2}
        if not dropped:
            return stones
        living -= dropped


def eyes(graph: Graph, b: Board, living: frozenset) -> frozenset:
    """The one-point eyes of the stones ``living``: the empty points with a neighbour, all of
    whose neighbours are in ``living``."""
    return frozenset(
        v for v in graph.points if b[v] == EMPTY and graph.neighbours[v] and set(graph.neighbours[v]) <= living
    )


def kept(graph: Graph, options: Options, b: Board, c: Color) -> frozenset:
    """The points colour c keeps to the end by passing: its alive stones, and under area
    scoring their one-point eyes."""
    living = alive(graph, b, c, options.suicide == "allowed")
    if options.scoring == "area" and living:
        return living | eyes(graph, b, living)
    return living
