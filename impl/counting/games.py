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
from dataclasses import dataclass

import numpy as np

from gorules.impl.counting.game_graph import play
from gorules.impl.counting.positions import legal_bitboards
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import PRESETS, Options

# (default, largest) number of legal positions each search takes, with the measured cost
# that sets them; the default is raised up to the largest with ``count --max-positions``.
SEARCH_LIMITS: dict[str, tuple[int, int, str]] = {
    "positional": (41, 57, "1×4 (41 positions): ~12 s, 2–4 M keys; 2×2 (57): ~2 min, 33 M keys, ~4 GB"),
    "situational": (
        19,
        41,
        "cycle:3 (19 positions): 0.1 s; 1×4 (41) with suicide forbidden: ~30 s compiled, 1.9 M keys; "
        "with suicide allowed: not finished in 8 min",
    ),
    "repeating": (489, 489, "2×3 (489 positions): the move table of every position"),
    "longest": (41, 57, "1×4 (41 positions): ~15 s, 4 M keys; 2×2 (57): minutes, tens of M keys, GBs"),
}


COMPILE_ABOVE = 19  # legal positions: below this the situational search is quicker than compiling it


def search_kind(ko: str) -> str:
    """Which game search a ko option takes: positional, situational, or repeating."""
    return ko if ko in ("positional", "situational") else "repeating"


NO_MOVE = -1


@dataclass
class MoveTable:
    """The legal positions of a graph and the position after each move."""

    positions: list[tuple[int, int]]
    after: list[list[list[int]]]  # after[position][player][point]: position index, or NO_MOVE

    @property
    def empty(self) -> int:
        """The index of the empty board."""
        return self.positions.index((0, 0))


def move_table(graph: Graph, suicide: str = "allowed") -> MoveTable:
    """The legal positions of a small graph, and the result of every move on each; with
    ``suicide="forbidden"`` a move whose own stone does not stay on the board is no move."""
    positions = list(legal_bitboards(graph))
    index = {p: i for i, p in enumerate(positions)}
    after = []
    for black, white in positions:
        rows = []
        for player in (0, 1):
            rows.append([result_of(graph, (black, white), player, v, suicide, index) for v in graph.points])
        after.append(rows)
    return MoveTable(positions, after)


def result_of(graph: Graph, position: tuple[int, int], player: int, v: int, suicide: str, index: dict) -> int:
    """The index of the position after ``player`` plays v, or NO_MOVE if v is occupied or the
    move is a suicide that the suicide option forbids."""
    if (position[0] | position[1]) >> v & 1:
        return NO_MOVE
    result = play(graph, position, player, v)
    if suicide == "forbidden" and not result[player] >> v & 1:
        return NO_MOVE
    return index[result]


@dataclass
class GameCount:
    """The number of games, the number of search keys remembered, the number of positions,
    and whether the compiled search was used."""

    games: int
    keys: int
    positions: int
    compiled: bool = False


def successor_masks(table: MoveTable) -> list[int]:
    """For each position, the set (bitmask) of positions one move of either colour away."""
    masks = []
    for i, rows in enumerate(table.after):
        mask = 0
        for row in rows:
            for result in row:
                if result != NO_MOVE and result != i:
                    mask |= 1 << result
        masks.append(mask)
    return masks


def reachable(successors: list[int], position: int, available: int) -> int:
    """The available positions that a path of moves from ``position`` through available
    positions can reach (only these can still occur in the game)."""
    found = 0
    frontier = successors[position] & available
    while frontier:
        found |= frontier
        step = 0
        while frontier:
            low = frontier & -frontier
            step |= successors[low.bit_length() - 1]
            frontier ^= low
        frontier = step & available & ~found
    return found


def graph_automorphisms(graph: Graph) -> list[tuple[int, ...]]:
    """The permutations of the points that preserve adjacency (all of them; small graphs)."""
    import networkx as nx
    from networkx.algorithms.isomorphism import DiGraphMatcher, GraphMatcher

    nx_graph = nx.DiGraph() if graph.directed else nx.Graph()
    nx_graph.add_nodes_from(graph.points)
    nx_graph.add_edges_from(graph.edges())
    matcher = (DiGraphMatcher if graph.directed else GraphMatcher)(nx_graph, nx_graph)
    return [tuple(m[v] for v in graph.points) for m in matcher.isomorphisms_iter()]


def position_symmetries(graph: Graph, table: MoveTable) -> list[list[int]]:
    """The permutations of the positions induced by the automorphisms of the graph, with
    and without exchanging the colours; they map moves to moves, hence games to games."""
    index = {p: i for i, p in enumerate(table.positions)}

    def image(bits: int, sigma: tuple[int, ...]) -> int:
        """The point set ``bits`` moved by sigma."""
        return sum(1 << sigma[v] for v in graph.points if bits >> v & 1)

    found = []
    for sigma in graph_automorphisms(graph):
        for swap in (False, True):
            permutation = []
            for black, white in table.positions:
                b, w = image(black, sigma), image(white, sigma)
                permutation.append(index[(w, b) if swap else (b, w)])
            found.append(permutation)
    return found


def chosen_symmetries(graph: Graph, table: MoveTable, symmetric: bool) -> list[list[int]]:
    """All position symmetries, or only the identity."""
    if symmetric:
        return position_symmetries(graph, table)
    return [list(range(len(table.positions)))]


class SetImages:
    """Applies a permutation of the positions to sets of positions (bitmasks), a byte at a time."""

    def __init__(self, permutation: list[int]):
        self.permutation = permutation
        self.tables = []
        for start in range(0, len(permutation), 8):
            chunk = permutation[start : start + 8]
            self.tables.append([sum(1 << chunk[i] for i in range(len(chunk)) if byte >> i & 1) for byte in range(256)])

    def __call__(self, bits: int) -> int:
        """The image of the set ``bits``."""
        result = 0
        for table in self.tables:
            result |= table[bits & 255]
            bits >>= 8
        return result


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
        from gorules.impl.counting import situational as games_situational

        positions = sum(1 for _ in legal_bitboards(graph))
        if compiled is not False and positions > COMPILE_ABOVE and numba_available():
            return games_situational.count_situational_compiled(graph, options.suicide, symmetric)
        return games_situational.count_situational(graph, options.suicide, symmetric, progress)
    if options.ko in ("simple", "none"):
        from gorules.impl.counting.repeating import count_repeating

        return count_repeating(graph, options)
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
    from gorules.impl.counting.longest import longest

    options = options if options is not None else PRESETS["tromp-taylor"]
    if options.ko != "positional":
        raise ValueError(f"the longest game is computed under positional superko only, not ko={options.ko}")
    return longest(graph, convention, options.suicide).moves


# --------------------------------------------------------------------------- compiled search
#
# The same search in numba: positions are at most 62, so a set of positions and a memo
# key fit in an int64.  Counts are kept modulo 2^64 and modulo the prime 2^61 - 1 and
# put together by the Chinese remainder theorem, exact below 2^125 (the number of games
# on a board with L legal positions is below (L·n)^L turns' worth of choices, far
# smaller on the boards offered here).

PRIME = (1 << 61) - 1


def numba_available() -> bool:
    """Whether numba can be imported."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _set_image(available, g, tables):
    """The image of a set of positions under symmetry g (byte tables)."""
    image = np.int64(0)
    bits = available
    for k in range(tables.shape[1]):
        image |= tables[g, k, bits & 255]
        bits >>= 8
    return image


def _reachable_kernel(successors, position, available):
    """``reachable`` over arrays."""
    found = np.int64(0)
    frontier = successors[position] & available
    while frontier:
        found |= frontier
        step = np.int64(0)
        rest = frontier
        while rest:
            low = rest & -rest
            index = 0
            probe = low
            while probe > 1:
                probe >>= 1
                index += 1
            step |= successors[index]
            rest ^= low
        frontier = step & available & ~found
    return found


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
    """Compile the kernels (once per process)."""
    global _set_image_jit, _reachable_jit, _paths_jit
    if _paths_jit is None:
        from numba import njit

        _set_image_jit = njit(_set_image)
        _reachable_jit = njit(_reachable_kernel)
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


def crt(low: int, high: int) -> int:
    """The number below 2^64·PRIME that is ``low`` mod 2^64 and ``high`` mod PRIME."""
    k = (high - low) * pow(1 << 64, -1, PRIME) % PRIME
    return low + (1 << 64) * k
