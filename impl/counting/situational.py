"""Counting the games of a small board under situational superko.

Situational superko (``ko=situational``) forbids a stone move whose board *and player to
move* equal those of an earlier state of the game, the states after passes included
(``repeated_state`` in :mod:`gorules.spec.tromp_taylor`); a pass is always allowed and
two consecutive passes end the game.  Two things differ from positional superko:

* a node of the search is a *situation* (position, player to move), not a position, and a
  pass moves to the other situation of the same position, which is then part of the
  history even if it was there before (the pass is allowed all the same);
* a single-stone suicide (allowed with ``suicide=allowed``) leaves the board as it was but
  hands the move over: it is a move to the other situation of the same position, legal
  when that situation has not occurred, and unlike a pass it does not count towards the
  two passes that end the game.

The games from a point of the game depend on the current situation, whether the last
turn was a pass, and the set of situations that have not occurred yet; that set is cut
down to the situations a later stone move can still reach (through stone moves and
passes, the latter allowed into situations that occurred), which leaves the count
unchanged, and the key is remembered in the least form a symmetry of the board (with or
without exchanging the colours) gives it.  Plain Python with Python integers as sets, and
the same search compiled with numba (:func:`count_situational_compiled`); they agree on the
small boards (tests) and on 1×4 with suicide forbidden (1,359,471,437 games; the keys and
the two searches' times: docs/games.md, "Figures").
"""

from __future__ import annotations

import sys

import numpy as np

from gorules.impl.counting.tables import NO_MOVE, GameCount, MoveTable, SetImages, crt, graph_automorphisms, move_table
from gorules.spec.graph import Graph


def situation(position: int, player: int) -> int:
    """The number of the situation (position, player to move)."""
    return 2 * position + player


def stone_successors(after: list[list[list[int]]]) -> list[int]:
    """For each situation, the set (bitmask) of situations one stone move away: the player
    to move plays, and the other player is to move on the resulting position."""
    masks = []
    for rows in after:
        for player in (0, 1):
            mask = 0
            for result in rows[player]:
                if result != NO_MOVE:
                    mask |= 1 << situation(result, 1 - player)
            masks.append(mask)
    return masks


def stone_moves(after: list[list[list[int]]]) -> list[list[tuple[int, int]]]:
    """For each situation, (situation after, number of points whose stone move leads there).
    Only single-stone suicides share a result (each leaves the board as it was), and they
    are different moves, hence different games."""
    found = []
    for rows in after:
        for player in (0, 1):
            targets: dict[int, int] = {}
            for result in rows[player]:
                if result != NO_MOVE:
                    target = situation(result, 1 - player)
                    targets[target] = targets.get(target, 0) + 1
            found.append(sorted(targets.items()))
    return found


def other_player(bits: int, evens: int) -> int:
    """Each situation of the set ``bits`` with the player to move exchanged."""
    return (bits & evens) << 1 | (bits >> 1) & evens


def situation_symmetries(graph: Graph, table: MoveTable, symmetric: bool) -> list[tuple[list[int], int]]:
    """(permutation of the positions, 1 if it exchanges the colours): every automorphism of
    the graph with and without the exchange (then the player to move is exchanged too),
    or the identity alone."""
    if not symmetric:
        return [(list(range(len(table.positions))), 0)]
    index = {p: i for i, p in enumerate(table.positions)}
    found = []
    for sigma in graph_automorphisms(graph):
        moved = [(image(black, sigma), image(white, sigma)) for black, white in table.positions]
        found.append(([index[p] for p in moved], 0))
        found.append(([index[(w, b)] for b, w in moved], 1))
    return found


def image(bits: int, sigma: tuple[int, ...]) -> int:
    """The point set ``bits`` moved by the permutation sigma of the points."""
    return sum(1 << sigma[v] for v in range(len(sigma)) if bits >> v & 1)


class SituationalSearch:
    """The search of :func:`count_situational` on one graph."""

    def __init__(self, graph: Graph, suicide: str, symmetric: bool, progress=None):
        table = move_table(graph, suicide)
        self.table = table
        self.successors = stone_successors(table.after)
        self.moves = stone_moves(table.after)
        count = 2 * len(table.positions)
        self.evens = sum(1 << k for k in range(0, count, 2))
        self.shift = count.bit_length()
        self.symmetries = []
        for permutation, swap in situation_symmetries(graph, table, symmetric):
            lifted = [situation(permutation[k // 2], (k % 2) ^ swap) for k in range(count)]
            self.symmetries.append((lifted, SetImages(lifted)))
        self.memo: dict[int, int] = {}
        self.progress = progress

    def reachable(self, current: int, passed: bool, available: int) -> int:
        """The available situations that a stone move can still reach from ``current``
        (a pass first is possible unless the last turn was a pass)."""
        nodes = 1 << current if passed else 1 << current | 1 << (current ^ 1)
        expanded = found = 0
        # The union of successor masks is written out, like engine.bitset's _dilate and the
        # Ultimate boards' group, on purpose: a call per step would cost more than the step.
        while nodes:
            expanded |= nodes
            step = 0
            while nodes:
                low = nodes & -nodes
                step |= self.successors[low.bit_length() - 1]
                nodes ^= low
            new = step & available & ~found
            found |= new
            nodes = (new | other_player(new, self.evens)) & ~expanded
        return found

    def games(self, current: int, passed: bool, available: int) -> int:
        """The games from situation ``current`` (``passed``: the last turn was a pass)
        whose stone moves lead only into ``available`` situations."""
        key = min((image(available) << self.shift | lifted[current]) << 1 | passed for lifted, image in self.symmetries)
        found = self.memo.get(key)
        if found is not None:
            return found
        if passed:
            total = 1
        else:
            after_pass = current ^ 1
            rest = available & ~(1 << after_pass)
            total = self.games(after_pass, True, self.reachable(after_pass, True, rest))
        for target, moves in self.moves[current]:
            if available >> target & 1:
                rest = available & ~(1 << target)
                total += moves * self.games(target, False, self.reachable(target, False, rest))
        self.memo[key] = total
        if self.progress is not None and len(self.memo) % 100_000 == 0:
            self.progress.update(100_000)
        return total

    def run(self) -> GameCount:
        """The number of games from the empty board with Black to move."""
        start = situation(self.table.empty, 0)
        everything = (1 << 2 * len(self.table.positions)) - 1
        available = self.reachable(start, False, everything & ~(1 << start))
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 40 * len(self.table.positions) + 1000))
        try:
            games = self.games(start, False, available)
        finally:
            sys.setrecursionlimit(limit)
        return GameCount(games, len(self.memo), len(self.table.positions))


def count_situational(graph: Graph, suicide: str = "allowed", symmetric: bool = True, progress=None) -> GameCount:
    """All games of a small graph from the empty board under situational superko."""
    return SituationalSearch(graph, suicide, symmetric, progress).run()


# --------------------------------------------------------------------------- compiled search
#
# The same search in numba.  A set of situations is two int64 words of 62 bits each (so at
# most 124 situations, 62 positions); a key is (low word, high word, situation·2 + passed)
# in its least form under the symmetries; counts are kept modulo 2^64 and modulo a prime
# and put together as in :mod:`gorules.impl.counting.tables`.

WORD = 62


def _bit(lo, hi, k):
    """Whether situation k is in the set (lo, hi)."""
    if k < 62:
        return (lo >> k) & 1
    return (hi >> (k - 62)) & 1


def _without(lo, hi, k):
    """The set (lo, hi) without situation k."""
    if k < 62:
        return lo & ~(np.int64(1) << k), hi
    return lo, hi & ~(np.int64(1) << (k - 62))


def _lowest(word):
    """The index of the lowest set bit of a nonzero word."""
    index = 0
    while (word >> index) & 1 == 0:
        index += 1
    return index


def _image(lo, hi, permutation):
    """The set (lo, hi) moved by a permutation of the situations."""
    out_lo = np.int64(0)
    out_hi = np.int64(0)
    for half in range(2):
        word = lo if half == 0 else hi
        while word:
            index = _lowest_jit(word)
            word ^= np.int64(1) << index
            target = permutation[index + 62 * half]
            if target < 62:
                out_lo |= np.int64(1) << target
            else:
                out_hi |= np.int64(1) << (target - 62)
    return out_lo, out_hi


def _reach(current, passed, lo, hi, succ_lo, succ_hi):
    """``SituationalSearch.reachable`` on two words."""
    n = succ_lo.shape[0]
    expanded = np.zeros(n, dtype=np.bool_)
    stack = np.empty(2 * n + 2, dtype=np.int64)
    top = 0
    stack[top] = current
    top += 1
    if not passed:
        stack[top] = current ^ 1
        top += 1
    found_lo = np.int64(0)
    found_hi = np.int64(0)
    while top > 0:
        top -= 1
        node = stack[top]
        if expanded[node]:
            continue
        expanded[node] = True
        new_lo = succ_lo[node] & lo & ~found_lo
        new_hi = succ_hi[node] & hi & ~found_hi
        found_lo |= new_lo
        found_hi |= new_hi
        for half in range(2):
            word = new_lo if half == 0 else new_hi
            while word:
                index = _lowest_jit(word)
                word ^= np.int64(1) << index
                k = index + 62 * half
                for m in (k, k ^ 1):
                    if not expanded[m]:
                        stack[top] = m
                        top += 1
    return found_lo, found_hi


def _games_kernel(current, passed, lo, hi, starts, ends, counts, succ_lo, succ_hi, permutations, low_memo, high_memo):
    """(games mod 2^64, games mod PRIME) from a point of the game."""
    best_lo = np.int64(-1)
    best_hi = np.int64(-1)
    best_node = np.int64(-1)
    for g in range(permutations.shape[0]):
        a, b = _image_jit(lo, hi, permutations[g])
        node = permutations[g, current] * 2 + passed
        if best_node < 0 or (b, a, node) < (best_hi, best_lo, best_node):
            best_lo, best_hi, best_node = a, b, node
    key = (best_lo, best_hi, best_node)
    if key in low_memo:
        return low_memo[key], high_memo[key]
    if passed:
        low = np.uint64(1)
        high = np.int64(1)
    else:
        after = current ^ 1
        rest_lo, rest_hi = _without_jit(lo, hi, after)
        r_lo, r_hi = _reach_jit(after, True, rest_lo, rest_hi, succ_lo, succ_hi)
        low, high = _games_jit(
            after, True, r_lo, r_hi, starts, ends, counts, succ_lo, succ_hi, permutations, low_memo, high_memo
        )
    for e in range(starts[current], starts[current + 1]):
        target = ends[e]
        if _bit_jit(lo, hi, target):
            rest_lo, rest_hi = _without_jit(lo, hi, target)
            r_lo, r_hi = _reach_jit(target, False, rest_lo, rest_hi, succ_lo, succ_hi)
            a, b = _games_jit(
                target, False, r_lo, r_hi, starts, ends, counts, succ_lo, succ_hi, permutations, low_memo, high_memo
            )
            low += np.uint64(counts[e]) * a
            high = (high + counts[e] * b) % 2305843009213693951
    low_memo[key] = low
    high_memo[key] = high
    return low, high


_bit_jit = _without_jit = _lowest_jit = _image_jit = _reach_jit = _games_jit = None


def _compile() -> None:
    """Compile the kernels (once per process)."""
    global _bit_jit, _without_jit, _lowest_jit, _image_jit, _reach_jit, _games_jit
    if _games_jit is None:
        from numba import njit

        _bit_jit = njit(_bit)
        _without_jit = njit(_without)
        _lowest_jit = njit(_lowest)
        _image_jit = njit(_image)
        _reach_jit = njit(_reach)
        _games_jit = njit(_games_kernel)


def count_situational_compiled(graph: Graph, suicide: str = "allowed", symmetric: bool = True) -> GameCount:
    """``count_situational`` by the numba search (at most 62 positions)."""
    from numba import types
    from numba.typed import Dict

    search = SituationalSearch(graph, suicide, symmetric)
    n = 2 * len(search.table.positions)
    if n > 2 * WORD:
        raise ValueError(f"{graph.name} has {n // 2} legal positions; the compiled search stops at {WORD}")
    _compile()
    mask = (1 << WORD) - 1
    succ_lo = np.array([s & mask for s in search.successors], dtype=np.int64)
    succ_hi = np.array([s >> WORD for s in search.successors], dtype=np.int64)
    starts = np.zeros(n + 1, dtype=np.int64)
    for k, moves in enumerate(search.moves):
        starts[k + 1] = starts[k] + len(moves)
    ends = np.array([t for moves in search.moves for t, _ in moves], dtype=np.int64)
    counts = np.array([c for moves in search.moves for _, c in moves], dtype=np.int64)
    permutations = np.array([lifted for lifted, _ in search.symmetries], dtype=np.int64)
    key_type = types.UniTuple(types.int64, 3)
    low_memo = Dict.empty(key_type, types.uint64)
    high_memo = Dict.empty(key_type, types.int64)
    start = situation(search.table.empty, 0)
    available = search.reachable(start, False, ((1 << n) - 1) & ~(1 << start))
    assert _games_jit is not None, "_compile() ran"
    low, high = _games_jit(
        start,
        False,
        np.int64(available & mask),
        np.int64(available >> WORD),
        starts,
        ends,
        counts,
        succ_lo,
        succ_hi,
        permutations,
        low_memo,
        high_memo,
    )
    return GameCount(crt(int(low), int(high)), len(low_memo), n // 2, True)
