"""The source's definitions read literally, where they differ from the corrected spec.

``spec/tromp_taylor.py`` keeps the corrected definitions under the source's names; this
module keeps the literal readings as ``NAME_as_written``, so that the toolkit can show
(``gorules errata``) which statements of ``002_8835c2492dce8849.txt`` hold as written and
which only as corrected.  ``spec/errata.md`` explains each one.
"""

from __future__ import annotations

import functools

from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import (
    EMPTY,
    PASS,
    Board,
    Color,
    Move,
    Player,
    State,
    game,
    opponent,
    update,
)

# reaching, clear and move below repeat their twins in spec/tromp_taylor.py but for the
# erratum itself: each literal reading stands whole, as the source's text reads.


@functools.lru_cache(maxsize=1 << 12)
def reaching_as_written(graph: Graph, b: Board, c: Color) -> frozenset:
    """The least set R with: v ∈ R if b(v) = c, or if some w with v ↔ w and b(v) = b(w) is in R.

    This is the source's equation literally: every step stays on v's own colour.
    """
    R: frozenset = frozenset()
    while True:
        R_next = frozenset(
            v for v in graph.points if b[v] == c or any(b[v] == b[w] and w in R for w in graph.neighbours[v])
        )
        if R_next == R:
            return R
        R = R_next


def reaches_as_written(graph: Graph, b: Board, v: int, c: Color) -> bool:
    """reaches(b, v, c) as the source writes it (E1): a stone never reaches Empty."""
    return v in reaching_as_written(graph, b, c)


def clear_as_written(graph: Graph, b: Board, p: Player) -> Board:
    """clear(b, p) built on reaches_as_written: every stone of p is removed."""
    return tuple(EMPTY if b[v] == p and not reaches_as_written(graph, b, v, EMPTY) else b[v] for v in graph.points)


def move_as_written(graph: Graph, s: State, v: Move) -> State | None:
    """move built on clear_as_written: a placed stone never survives."""
    b, p, n = s
    if v == PASS:
        return State(b, opponent(p), n + 1)
    if b[v] == EMPTY:
        b_prime = clear_as_written(graph, clear_as_written(graph, update(b, v, p), opponent(p)), p)
        return State(b_prime, opponent(p), 0)
    return None


def score_as_written(graph: Graph, b: Board, p: Player) -> int:
    """score(b, p) with reaches(b, p, v) as the source writes it (E2).

    The arguments are ill-typed (a player where a point belongs, a point where a colour
    belongs).  Run literally, "is the player among the points that reach colour v" is
    never true, so the literal score degenerates to counting stones: no territory.
    """
    from gorules.spec.tromp_taylor import reaches

    return len(
        [
            v
            for v in graph.points
            # the source's ill-typed call, run literally: a player where a point belongs and back
            if b[v] == p or (b[v] == EMPTY and reaches(graph, b, p, v) and not reaches(graph, b, opponent(p), v))  # type: ignore[arg-type]
        ]
    )


def game_as_written(graph: Graph, moves) -> list | None:
    """The source's game built on move_as_written: its states s₀ … s_N, or None if the moves
    are not a game.  Every stone is removed as soon as it is played, so every board of a game
    as written is the empty board, and only passes and moves that change nothing are left."""
    return game(graph, moves, move_as_written)
