"""The Tromp–Taylor rules on any graph, executable.

Each definition below mirrors one heading of ``spec/tromp_taylor.md`` (same name, same
order), which in turn follows the formalization in the source document
``002_8835c2492dce8849.txt``.  Where the source is wrong the corrected definition
stands here under the source's name; the literal readings live in ``spec/errata.py``.

The spec is literal rather than fast: boards are tuples of colours indexed by point,
``reaches`` is a least fixed point computed by plain iteration, and a partial
function returns ``None`` for ⊥.  Every function takes the graph first: the source
fixes one graph (Point, ↔) for all of its definitions.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Literal, NamedTuple

from gorules.spec.graph import Graph


def adjacent(graph: Graph, v: int, w: int) -> bool:
    """v ↔ w: w is a neighbour of v (on a directed graph: an arc leads from v to w)."""
    return w in graph.neighbours[v]


Player = Literal["B", "W"]
BLACK: Player = "B"
WHITE: Player = "W"


Color = Literal["B", "W", "."]
EMPTY: Color = "."


Move = int | Literal["pass"]
PASS: Move = "pass"


Board = tuple  # a tuple of Color, indexed by point: the function Point → Color


def update(b: Board, v: int, c: Color) -> Board:
    """b[v ↦ c]: the board that agrees with b except that point v has colour c."""
    return b[:v] + (c,) + b[v + 1 :]


def opponent(p: Player) -> Player:
    """p*: the other player."""
    return WHITE if p == BLACK else BLACK


class State(NamedTuple):
    """(b, p, n): the board, the player to move, the number of consecutive passes."""

    board: Board
    player: Player
    passes: int


def move(graph: Graph, s: State, v: Move) -> State | None:
    """move((b, p, n), v): the state after p plays v, or None (⊥) on an occupied point."""
    b, p, n = s
    if v == PASS:
        return State(b, opponent(p), n + 1)
    if b[v] == EMPTY:
        b_prime = clear(graph, clear(graph, update(b, v, p), opponent(p)), p)
        return State(b_prime, opponent(p), 0)
    return None


def clear(graph: Graph, b: Board, p: Player) -> Board:
    """clear(b, p): b with every stone of p that does not reach Empty made Empty."""
    return tuple(EMPTY if b[v] == p and not reaches(graph, b, v, EMPTY) else b[v] for v in graph.points)


@functools.lru_cache(maxsize=1 << 14)
def reaching(graph: Graph, b: Board, c: Color) -> frozenset:
    """The least set R with: v ∈ R if b(v) = c, or if some w with v ↔ w, b(w) ∈ {b(v), c}
    is in R.  Computed from R = ∅ by applying the equation until nothing changes."""
    R: frozenset = frozenset()
    while True:
        R_next = frozenset(
            v for v in graph.points if b[v] == c or any(b[w] in (b[v], c) and w in R for w in graph.neighbours[v])
        )
        if R_next == R:
            return R
        R = R_next


def reaches(graph: Graph, b: Board, v: int, c: Color) -> bool:
    """reaches(b, v, c): a path from v through points of v's colour ends at a point of colour c."""
    return v in reaching(graph, b, c)


def score(graph: Graph, b: Board, p: Player) -> int:
    """score(b, p): p's stones, plus the empty points that reach p but not p*."""
    return len(
        [
            v
            for v in graph.points
            if b[v] == p or (b[v] == EMPTY and reaches(graph, b, v, p) and not reaches(graph, b, v, opponent(p)))
        ]
    )


def initial_state(graph: Graph) -> State:
    """s₀ = (_ ↦ Empty, Black, 0): the empty board, Black to move, no passes."""
    return State(tuple(EMPTY for _ in graph.points), BLACK, 0)


def game(graph: Graph, moves: Sequence[Move]) -> list[State] | None:
    """The states s₀ … s_N of the game v₀ … v_{N-1}, or None if the moves are not a game."""
    states = [initial_state(graph)]
    for i, v in enumerate(moves):
        if v != PASS and v not in graph.points:
            return None
        if states[i].passes >= 2:
            return None
        s_next = move(graph, states[i], v)
        if s_next is None:
            return None
        if v != PASS and any(s_next.board == states[j].board for j in range(i + 1)):
            return None
        states.append(s_next)
    if states[-1].passes != 2:
        return None
    return states


Outcome = Literal["B", "W", "draw"]
DRAW: Outcome = "draw"


def winner(graph: Graph, moves: Sequence[Move]) -> Outcome | None:
    """winner(g): the player with the higher score on the final board, or Draw; None if g ∉ G."""
    states = game(graph, moves)
    if states is None:
        return None
    S_black = score(graph, states[-1].board, BLACK)
    S_white = score(graph, states[-1].board, WHITE)
    if S_black > S_white:
        return BLACK
    if S_black < S_white:
        return WHITE
    return DRAW
