"""Isolated pairs: the source's claims about N disjoint pairs of points.

Source 000 says: under a superko rule "the game can be completed, but it takes Ω(2^N)
moves" on N isolated pairs.  Read as a bound one side can force, that is the *forced game
length* under positional superko with the two-pass end (the ``stone`` preset's play):
one side (the prolonger) maximises the number of turns, the other minimises it, scores
ignored.  :func:`forced_length` computes it exactly by search over the boards played so
far (positional superko makes the set of earlier boards part of the state), within a
node budget.
"""

from __future__ import annotations

import functools

from gorules.impl.budget import BudgetSpent
from gorules.spec.directed import place
from gorules.spec.graph import Graph, make_graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE


def pairs(count: int) -> Graph:
    """N disjoint pairs: points 2i and 2i+1 joined (both ways)."""
    return make_graph(2 * count, [(2 * i, 2 * i + 1) for i in range(count)], f"pairs:{count}")


def forced_length(graph: Graph, prolonger: str, max_nodes: int = 2_000_000) -> int:
    """The number of turns (passes included) of the game from the empty board, Black first,
    under positional superko (a stone may not recreate any earlier board; suicide allowed;
    two passes in a row end the game), when `prolonger` maximises and the other side
    minimises it.  BudgetSpent beyond `max_nodes` distinct states."""
    nodes = 0

    @functools.lru_cache(maxsize=None)
    def length(board: tuple, player: str, passed: bool, seen: frozenset) -> int:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise BudgetSpent(f"more than {max_nodes:,} states")
        other = WHITE if player == BLACK else BLACK
        options = [1 if passed else 1 + length(board, other, True, seen)]
        for v in graph.points:
            if board[v] != EMPTY:
                continue
            after = place(graph, board, v, player)
            if after in seen:
                continue
            options.append(1 + length(after, other, False, seen | {after}))
        return max(options) if player == prolonger else min(options)

    empty = tuple(EMPTY for _ in graph.points)
    try:
        return length(empty, BLACK, False, frozenset({empty}))
    finally:
        length.cache_clear()
