"""Counting the games of a small board under Tromp–Taylor's rules with any preset.

:func:`count_games` takes the ruleset's options: positional superko is searched here (with
``suicide=forbidden`` the suicides are no moves: 1×4 then has 719,178,893 games, Tromp &
Farnebäck's figure), situational superko in :mod:`gorules.impl.counting.situational`, simple
ko and no ko in :mod:`gorules.impl.counting.repeating` (infinitely many games as soon as a
line of play can repeat, refused with such a line).  The longest game is in
:mod:`gorules.impl.counting.longest`.  What follows is the positional search.

Conventions of Tromp & Farnebäck, "Combinatorics of Go" (2016), Table 7: Black moves
first and the players alternate; a turn is a pass, or a stone on an empty point that
does not repeat any earlier board of the game; opponent chains without liberties are
removed, then the mover's own (suicide allowed); two consecutive passes end the game.
These are the conditions of ``game`` in the Tromp–Taylor spec (``002_8835c2492dce8849.txt``):
``move`` is the same function, condition 3.2 forbids a non-pass whose board equals any
earlier board b_j (j ≤ i, the current one included, so a single-stone suicide that leaves
the board unchanged is never a move), 3.3 stops at the second consecutive pass and 2
requires the game to end there.  The tests check the counts against the spec's ``game``.

Method: the legal positions are numbered, and a table gives the position after each
(position, player, point) (played once per entry by the engine's kernel).  A game is
fixed by its boards and the colour of each move (the passes between are then forced), so
the games are the simple paths from the empty board in the game graph of
:mod:`impl.counting.game_graph`.  A depth-first search counts them, remembering the count from
each (position, set of positions still available and reachable), in the least form a
symmetry of the board or the exchange of colours gives it.  The search is exact; its
cost is the number of keys, which grows steeply with the positions (the keys of 1×4 and
2×2: benchmarks/README.md, ``bench_counting.py``); 2×2's count, 386,356,909,593, is John
Tromp's 1999 figure.  It runs
compiled with numba when available, in plain Python otherwise; the two agree on the
small boards (tests).  :data:`SEARCH_LIMITS` bounds the boards each search is offered.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from gorules.impl.counting import longest, repeating, situational, tables
from gorules.impl.counting.positions import legal_bitboards
from gorules.impl.counting.tables import (
    NO_MOVE,
    GameCount,
    SetImages,
    chosen_symmetries,
    crt,
    move_table,
    numba_available,
    reachable,
    successor_masks,
)
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import PRESETS, Options

# (default, largest) number of legal positions each search takes, with the measured cost
# that sets them; the default is raised up to the largest with ``count --max-positions``.
SEARCH_LIMITS: dict[str, tuple[int, int, str]] = {
    "positional": (41, 57, "1×4 (41 positions): ~12 s, 2–4 M keys; 2×2 (57): ~2 min, 33 M keys, ~4 GB"),
    "situational": (
        19,
        57,
        "cycle:3 (19 positions): 0.1 s; 1×4 (41) with suicide forbidden: ~30 s compiled, 1.9 M keys; "
        "with suicide allowed: not finished after 586 s, 20 GB; 2×2 (57) with suicide forbidden: 263 s, 17.5 M keys, 2.7 GB",
    ),
    "repeating": (489, 489, "2×3 (489 positions): the move table of every position"),
    "longest": (41, 57, "1×4 (41 positions): ~15 s, 4 M keys; 2×2 (57): minutes, tens of M keys, GBs"),
}


COMPILE_ABOVE = 19  # legal positions: below this the situational search is quicker than compiling it


def search_kind(ko: str) -> str:
    """Which game search a ko option takes: positional, situational, or repeating."""
    return ko if ko in ("positional", "situational") else "repeating"


def count_games(
    graph: Graph,
    compiled: bool | None = None,
    symmetric: bool = True,
    progress=None,
    options: Options | None = None,
) -> GameCount:
    """All games of a small graph from the empty board under Tromp–Taylor's rules with
    ``options`` (default: the source's own, positional superko with suicide allowed).

    Only the ko and suicide options matter (scoring and komi do not change which games
    there are).  Positional superko is counted by :func:`count_positional` (compiled or
    plain), situational superko by :mod:`gorules.impl.counting.situational` (compiled above
    :data:`COMPILE_ABOVE` positions unless ``compiled=False``);
    under simple ko or no ko :func:`gorules.impl.counting.repeating.count_repeating` counts the
    games if no line of play can repeat forever, and raises :class:`InfiniteGames`
    (naming such a line) otherwise.
    """
    options = options if options is not None else PRESETS["tromp-taylor"]
    if options.ko == "situational":
        positions = sum(1 for _ in legal_bitboards(graph))
        if compiled is not False and positions > COMPILE_ABOVE and numba_available():
            return situational.count_situational_compiled(graph, options.suicide, symmetric)
        return situational.count_situational(graph, options.suicide, symmetric, progress)
    if options.ko in ("simple", "none"):
        return repeating.count_repeating(graph, options)
    if compiled is None:
        compiled = numba_available()
    if compiled:
        return count_games_compiled(graph, symmetric, options.suicide)
    return count_positional(graph, options.suicide, symmetric, progress)


def count_positional(graph: Graph, suicide: str = "allowed", symmetric: bool = True, progress=None) -> GameCount:
    """All games of a small graph under positional superko, by the plain Python search.

    A game is determined by its sequence of boards and the colour of each move: between
    two moves of the same colour there must be exactly one pass, between moves of
    alternating colours none, a White first move needs one pass before it, and two
    passes end the game.  So the games are the simple paths from the empty board in the
    game graph whose edges are (colour, point) moves (without the suicides when
    ``suicide="forbidden"``), and their number from a position depends only on that
    position and the set of positions still available — not on the player to move.  That
    set is cut down to the positions still reachable, and the pair is remembered in the
    least form any symmetry of the board (with or without exchanging the colours) gives it.
    ``symmetric=False`` switches the symmetry reduction off (same numbers, more keys: a
    check of the reduction).
    """
    table = move_table(graph, suicide)
    successors = successor_masks(table)
    edges = [[r for row in rows for r in row if r != NO_MOVE and r != i] for i, rows in enumerate(table.after)]
    memo: dict[int, int] = {}
    shift = len(table.positions).bit_length()
    symmetries = [(p, SetImages(p)) for p in chosen_symmetries(graph, table, symmetric)]

    def paths(position: int, available: int) -> int:
        """The simple paths starting at ``position`` through ``available`` positions."""
        key = min(image(available) << shift | p[position] for p, image in symmetries)
        found = memo.get(key)
        if found is not None:
            return found
        total = 1
        for result in edges[position]:
            if available >> result & 1:
                rest = available & ~(1 << result)
                total += paths(result, reachable(successors, result, rest))
        memo[key] = total
        if progress is not None and len(memo) % 100_000 == 0:
            progress.update(100_000)
        return total

    start = table.empty
    everything = (1 << len(table.positions)) - 1
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(table.positions) + 1000))
    try:
        games = paths(start, reachable(successors, start, everything & ~(1 << start)))
    finally:
        sys.setrecursionlimit(limit)
    return GameCount(games, len(memo), len(table.positions))


def longest_game(graph: Graph, options: Options | None = None, convention: str = "turns") -> list:
    """One longest game under positional superko (a list of moves: points and 'pass');
    see :mod:`gorules.impl.counting.longest` for the conventions."""
    options = options if options is not None else PRESETS["tromp-taylor"]
    if options.ko != "positional":
        raise ValueError(f"the longest game is computed under positional superko only, not ko={options.ko}")
    return longest.longest(graph, convention, options.suicide).moves


# --------------------------------------------------------------------------- compiled search
#
# The same search in numba: positions are at most 62, so a set of positions and a memo
# key fit in an int64.  Counts are kept modulo 2^64 and modulo the prime 2^61 - 1 and
# put together by the Chinese remainder theorem, exact below 2^125 (the number of games
# on a board with L legal positions is below (L·n)^L turns' worth of choices, far
# smaller on the boards offered here).


def _paths_kernel(position, available, starts, ends, successors, permutations, tables, shift, low_memo, high_memo):
    """(paths mod 2^64, paths mod PRIME) from a position through the available positions."""
    key = -1
    for g in range(permutations.shape[0]):
        candidate = (_set_image_jit(available, g, tables) << shift) | permutations[g, position]
        if key < 0 or candidate < key:
            key = candidate
    if key in low_memo:
        return low_memo[key], high_memo[key]
    low = np.uint64(1)
    high = np.int64(1)
    for e in range(starts[position], starts[position + 1]):
        result = ends[e]
        if (available >> result) & 1:
            rest = _reachable_jit(successors, result, available & ~(np.int64(1) << result))
            a, b = _paths_jit(result, rest, starts, ends, successors, permutations, tables, shift, low_memo, high_memo)
            low += a
            high = (high + b) % 2305843009213693951
    low_memo[key] = low
    high_memo[key] = high
    return low, high


# the compiled kernels, set by _compile (numba is imported only when they are needed)
_set_image_jit: Callable | None = None
_reachable_jit: Callable | None = None
_paths_jit: Callable | None = None


def _compile() -> None:
    """Compile the kernels (once per process), with the move table's helpers."""
    global _set_image_jit, _reachable_jit, _paths_jit
    if _paths_jit is None:
        from numba import njit

        tables._compile()
        _set_image_jit = tables._set_image_jit
        _reachable_jit = tables._reachable_jit
        _paths_jit = njit(_paths_kernel)


def count_games_compiled(graph: Graph, symmetric: bool = True, suicide: str = "allowed") -> GameCount:
    """``count_positional`` by the numba search."""
    from numba import types
    from numba.typed import Dict

    _compile()
    table = move_table(graph, suicide)
    n = len(table.positions)
    if n > 62:
        raise ValueError(f"{graph.name} has {n} legal positions; the compiled search stops at 62")
    edges = [[r for row in rows for r in row if r != NO_MOVE and r != i] for i, rows in enumerate(table.after)]
    starts = np.zeros(n + 1, dtype=np.int64)
    for i, e in enumerate(edges):
        starts[i + 1] = starts[i] + len(e)
    ends = np.array([r for e in edges for r in e], dtype=np.int64)
    successors = np.array(successor_masks(table), dtype=np.int64)
    symmetries = chosen_symmetries(graph, table, symmetric)
    permutations = np.array(symmetries, dtype=np.int64)
    tables = np.array([[SetImages(p).tables[k] for k in range((n + 7) // 8)] for p in symmetries], dtype=np.int64)
    low_memo = Dict.empty(types.int64, types.uint64)
    high_memo = Dict.empty(types.int64, types.int64)
    start = table.empty
    assert _reachable_jit is not None and _paths_jit is not None, "_compile() ran"
    available = _reachable_jit(successors, start, ((1 << n) - 1) & ~(1 << start))
    low, high = _paths_jit(
        start,
        np.int64(available),
        starts,
        ends,
        successors,
        permutations,
        tables,
        n.bit_length(),
        low_memo,
        high_memo,
    )
    return GameCount(crt(int(low), int(high)), len(low_memo), n, True)
