"""The longest game of a small board under positional superko, in two conventions.

* ``turns`` (the default): the most turns of a Tromp–Taylor game from the empty board,
  passes included — the passes needed between two stone moves of one colour, before a
  White first move, and the two that end the game.  This is the length of the game as
  the spec's ``game`` (``002_8835c2492dce8849.txt``) has it: a list of turns.
* ``gogamegraphs``: Farnebäck's GoGameGraphs tables, whose "longest path" is the length of
  the longest simple path from the empty position in the game graph
  (:mod:`gorules.impl.counting.game_graph`), counted in edges: the most stone moves in a game, the
  colours free (one colour may move twice; the other is taken to pass) and passes not
  counted.  Their figures for 1×2, 1×3 and 1×4 are 2, 14 and 40 (earlier versions of
  the tables counted nodes, one more).

Both are maxima over the same games (a game is fixed by its boards and the colour of each
move, as in :mod:`gorules.impl.counting.games`); they weigh a move differently, so a longest game
in one convention need not be longest in the other.  The search is the one of the game
count with a maximum for a sum: from a position, the colour of the last move (``turns``
only: it decides whether the next move needs a pass before it) and the positions still
available and reachable, remembered in the least form a symmetry gives it.  Compiled with
numba when available; the plain Python search computes the same numbers (tests).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gorules.impl.counting import tables
from gorules.impl.counting.tables import (
    NO_MOVE,
    SetImages,
    chosen_symmetries,
    move_table,
    numba_available,
    reachable,
    successor_masks,
)
from gorules.spec.graph import Graph

CONVENTIONS = ("turns", "gogamegraphs")
WHITE = 1


@dataclass
class LongestGame:
    """A longest game: its moves (points and "pass", Black first, the two final passes
    included), its length in the convention asked for, and the search's size."""

    moves: list
    length: int
    convention: str
    keys: int
    positions: int

    @property
    def stone_moves(self) -> int:
        """The moves that are not passes."""
        return sum(1 for m in self.moves if m != "pass")


def move_lists(table) -> list[list[tuple[int, int, int]]]:
    """For each position, (position after, colour, point) of every move to another position."""
    return [
        [
            (result, colour, v)
            for colour in (0, 1)
            for v, result in enumerate(rows[colour])
            if result not in (NO_MOVE, i)
        ]
        for i, rows in enumerate(table.after)
    ]


def weight(convention: str, colour: int, last: int) -> int:
    """What a move adds to the length: one stone move, and under ``turns`` also the pass
    that must come before it when the same colour moved last."""
    if convention == "gogamegraphs":
        return 1
    return 2 if colour == last else 1


class PlainLongest:
    """The longest-game search in plain Python."""

    def __init__(self, graph: Graph, table, convention: str, symmetric: bool):
        self.moves = move_lists(table)
        self.successors = successor_masks(table)
        self.convention = convention
        self.shift = len(table.positions).bit_length()
        perms = chosen_symmetries(graph, table, symmetric)
        self.symmetries = [(p, SetImages(p), k % 2 if symmetric else 0) for k, p in enumerate(perms)]
        self.memo: dict[int, int] = {}

    def reach(self, position: int, available: int) -> int:
        """The available positions still reachable from ``position``."""
        return reachable(self.successors, position, available)

    def value(self, position: int, last: int, available: int) -> int:
        """The longest continuation (in the convention's units) from a point of the game."""
        coloured = self.convention == "turns"
        key = min(
            (image(available) << self.shift | p[position]) << 1 | ((last ^ swap) if coloured else 0)
            for p, image, swap in self.symmetries
        )
        found = self.memo.get(key)
        if found is not None:
            return found
        best = 0
        for result, colour, _ in self.moves[position]:
            if available >> result & 1:
                rest = self.reach(result, available & ~(1 << result))
                best = max(best, weight(self.convention, colour, last) + self.value(result, colour, rest))
        self.memo[key] = best
        return best


def _longest_kernel(
    position, last, available, starts, ends, colours, successors, permutations, swaps, tables, shift, coloured, memo
):
    """The compiled ``PlainLongest.value``."""
    key = -1
    for g in range(permutations.shape[0]):
        bit = (last ^ swaps[g]) if coloured else 0
        candidate = (((_set_image_jit(available, g, tables) << shift) | permutations[g, position]) << 1) | bit
        if key < 0 or candidate < key:
            key = candidate
    if key in memo:
        return memo[key]
    best = 0
    for e in range(starts[position], starts[position + 1]):
        result = ends[e]
        if (available >> result) & 1:
            rest = _reachable_jit(successors, result, available & ~(np.int64(1) << result))
            step = 1
            if coloured and colours[e] == last:
                step = 2
            found = step + _longest_jit(
                result,
                colours[e],
                rest,
                starts,
                ends,
                colours,
                successors,
                permutations,
                swaps,
                tables,
                shift,
                coloured,
                memo,
            )
            if found > best:
                best = found
    memo[key] = best
    return best


_set_image_jit: Callable | None = None
_reachable_jit: Callable | None = None
_longest_jit: Callable | None = None


def _compile() -> None:
    """Compile the kernel (once per process), with the move table's helpers."""
    # The same steps as games._compile on purpose: numba reads a kernel's helpers from the
    # globals of the kernel's own module, so each module binds them itself.
    global _set_image_jit, _reachable_jit, _longest_jit
    if _longest_jit is None:
        from numba import njit

        tables._compile()
        _set_image_jit = tables._set_image_jit
        _reachable_jit = tables._reachable_jit
        _longest_jit = njit(_longest_kernel)


class CompiledLongest:
    """The longest-game search compiled with numba (at most 62 positions)."""

    def __init__(self, graph: Graph, table, convention: str, symmetric: bool):
        from numba import types
        from numba.typed import Dict

        _compile()
        n = len(table.positions)
        if n > 62:
            raise ValueError(f"{graph.name} has {n} legal positions; the compiled search stops at 62")
        moves = move_lists(table)
        self.starts = np.zeros(n + 1, dtype=np.int64)
        for i, m in enumerate(moves):
            self.starts[i + 1] = self.starts[i] + len(m)
        self.ends = np.array([r for m in moves for r, _, _ in m], dtype=np.int64)
        self.colours = np.array([c for m in moves for _, c, _ in m], dtype=np.int64)
        self.successors = np.array(successor_masks(table), dtype=np.int64)
        perms = chosen_symmetries(graph, table, symmetric)
        self.permutations = np.array(perms, dtype=np.int64)
        self.swaps = np.array([k % 2 if symmetric else 0 for k in range(len(perms))], dtype=np.int64)
        self.tables = np.array([[SetImages(p).tables[k] for k in range((n + 7) // 8)] for p in perms], dtype=np.int64)
        self.shift = n.bit_length()
        self.coloured = convention == "turns"
        self.memo = Dict.empty(types.int64, types.int64)
        self.moves = moves
        self.convention = convention

    def reach(self, position: int, available: int) -> int:
        """The available positions still reachable from ``position``."""
        assert _reachable_jit is not None
        return int(_reachable_jit(self.successors, position, np.int64(available)))

    def value(self, position: int, last: int, available: int) -> int:
        """The longest continuation from a point of the game."""
        assert _longest_jit is not None
        return int(
            _longest_jit(
                position,
                last,
                np.int64(available),
                self.starts,
                self.ends,
                self.colours,
                self.successors,
                self.permutations,
                self.swaps,
                self.tables,
                self.shift,
                self.coloured,
                self.memo,
            )
        )


def longest(
    graph: Graph,
    convention: str = "turns",
    suicide: str = "allowed",
    compiled: bool | None = None,
    symmetric: bool = True,
) -> LongestGame:
    """A longest game under positional superko (suicide as the option says) in a convention."""
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r}: expected one of {', '.join(CONVENTIONS)}")
    table = move_table(graph, suicide)
    if compiled is None:
        compiled = numba_available()
    search = (CompiledLongest if compiled else PlainLongest)(graph, table, convention, symmetric)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20 * len(table.positions) + 1000))
    try:
        moves = read_off(search, table, convention)
    finally:
        sys.setrecursionlimit(limit)
    game = LongestGame(moves, 0, convention, len(search.memo), len(table.positions))
    game.length = len(moves) if convention == "turns" else game.stone_moves
    return game


def read_off(search, table, convention: str) -> list:
    """The moves of a longest game: from the start, a move whose continuation is longest,
    with the passes the colours need, and the two passes that end the game."""
    position, last = table.empty, WHITE
    available = search.reach(position, ((1 << len(table.positions)) - 1) & ~(1 << position))
    target = search.value(position, last, available)
    moves: list = []
    while target > 0:
        for result, colour, v in search.moves[position]:
            if not available >> result & 1:
                continue
            rest = search.reach(result, available & ~(1 << result))
            step = weight(convention, colour, last)
            if step + search.value(result, colour, rest) == target:
                if colour == last:
                    moves.append("pass")
                moves.append(v)
                position, last, available, target = result, colour, rest, target - step
                break
        else:
            raise AssertionError("no move continues a longest game")
    return moves + ["pass", "pass"]
