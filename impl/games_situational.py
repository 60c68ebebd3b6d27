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
without exchanging the colours) gives it.  Plain Python with Python integers as sets.
"""

from __future__ import annotations

import sys

from gorules.impl.games import NO_MOVE, GameCount, MoveTable, SetImages, graph_automorphisms, move_table
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
