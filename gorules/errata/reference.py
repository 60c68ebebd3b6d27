"""The errata checker's reference: the rules written again, plainly, from Tromp and Taylor's English.

This reference is independent of ``spec/`` on purpose.  The checker compares the spec's
definitions (``spec.tromp_taylor``, corrected) and the source's literal readings
(``spec.errata``) with it, so it must not be built from them: it follows the prose of the
rules ("a point P reaches C if there is a path of points of P's colour from P to a point of
colour C"; a player's area is her stones plus the empty points that reach only her colour)
by breadth-first search and flood fill, where the spec iterates the source's recursive
equation to its least fixed point.  Only the vocabulary (colours, ``State``, ``opponent``)
comes from the spec.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph


@lru_cache(maxsize=1 << 16)
def same_colour_region(graph: Graph, b: Sequence[str], v: int) -> set[int]:
    """The points a path from v through points of v's colour can visit (along arcs)."""
    seen = {v}
    queue = deque([v])
    while queue:
        u = queue.popleft()
        for w in graph.neighbours[u]:
            if w not in seen and b[w] == b[v]:
                seen.add(w)
                queue.append(w)
    return seen


def reference_reaches(graph: Graph, b: Sequence[str], v: int, c: str) -> bool:
    """P reaches C: a path of points of P's colour leads from P to a point of colour C."""
    region = same_colour_region(graph, tuple(b), v)
    return any(b[u] == c or any(b[w] == c for w in graph.neighbours[u]) for u in region)


def reference_clear(graph: Graph, b: Sequence[str], p: str) -> tuple:
    """b without the stones of p whose chain has no liberty."""
    return tuple(tt.EMPTY if b[v] == p and not reference_reaches(graph, b, v, tt.EMPTY) else b[v] for v in graph.points)


def reference_move(graph: Graph, s: tt.State, v) -> tt.State | None:
    """Tromp–Taylor's step: pass, or place a stone, remove opponent stones that do not reach
    empty, then own stones that do not reach empty; ⊥ on an occupied point."""
    b, p, n = s
    if v == tt.PASS:
        return tt.State(b, tt.opponent(p), n + 1)
    if b[v] != tt.EMPTY:
        return None
    placed = tuple(p if u == v else b[u] for u in graph.points)
    return tt.State(reference_clear(graph, reference_clear(graph, placed, tt.opponent(p)), p), tt.opponent(p), 0)


def reference_score(graph: Graph, b: Sequence[str], p: str) -> int:
    """Area score by flood fill: p's stones, plus empty points whose empty region borders only p."""
    total = 0
    for v in graph.points:
        if b[v] == p:
            total += 1
        elif b[v] == tt.EMPTY:
            region = same_colour_region(graph, b, v)
            bordering = {b[w] for u in region for w in graph.neighbours[u]} - {tt.EMPTY}
            total += bordering == {p}
    return total
