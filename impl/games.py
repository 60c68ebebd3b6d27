"""Counting the games of a small board under positional superko, and the longest game.

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
(position, player, point) (played once per entry by the engine's kernel).  A depth-first
search walks the histories; a history's future depends only on the current position,
the player to move, whether the last turn was a pass, and the *set* of boards seen (a
bitmask over the positions), so the number of games (and the longest game) from each
such key is remembered.  The search is exact; its cost is the number of distinct keys,
which grows quickly: :data:`GAME_POSITION_LIMIT` bounds the boards it is offered.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Optional

from impl.counting import legal_bitboards
from impl.game_graph import play
from spec.graph import Graph

GAME_POSITION_LIMIT = 41  # legal positions: 1×4 (41) is the largest board the search is offered

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


def move_table(graph: Graph) -> MoveTable:
    """The legal positions of a small graph, and the result of every move on each."""
    positions = list(legal_bitboards(graph))
    index = {p: i for i, p in enumerate(positions)}
    after = []
    for black, white in positions:
        stones = black | white
        rows = []
        for player in (0, 1):
            rows.append(
                [
                    NO_MOVE if stones >> v & 1 else index[play(graph, (black, white), player, v)]
                    for v in graph.points
                ]
            )
        after.append(rows)
    return MoveTable(positions, after)


@dataclass
class GameCount:
    """The number of games, the length (turns, passes included) of the longest, and the
    number of search keys remembered."""

    games: int
    longest: int
    keys: int
    positions: int


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


class SetImages:
    """Applies a permutation of the positions to sets of positions (bitmasks), a byte at a time."""

    def __init__(self, permutation: list[int]):
        self.permutation = permutation
        self.tables = []
        for start in range(0, len(permutation), 8):
            chunk = permutation[start : start + 8]
            self.tables.append(
                [sum(1 << chunk[i] for i in range(len(chunk)) if byte >> i & 1) for byte in range(256)]
            )

    def __call__(self, bits: int) -> int:
        """The image of the set ``bits``."""
        result = 0
        for table in self.tables:
            result |= table[bits & 255]
            bits >>= 8
        return result


def count_games(graph: Graph, progress=None) -> GameCount:
    """All games of a small graph under positional superko: how many, and the longest.

    A game is determined by its sequence of boards and the colour of each move: between
    two moves of the same colour there must be exactly one pass, between moves of
    alternating colours none, a White first move needs one pass before it, and two
    passes end the game.  So the games are the simple paths from the empty board in the
    game graph whose edges are (colour, point) moves, and their number from a position
    depends only on that position and the set of positions still available — not on the
    player to move.  That set is cut down to the positions still reachable, and the pair
    is remembered in the least form any symmetry of the board (with or without exchanging
    the colours) gives it.
    """
    table = move_table(graph)
    successors = successor_masks(table)
    edges = [[r for row in rows for r in row if r != NO_MOVE and r != i] for i, rows in enumerate(table.after)]
    memo: dict[int, int] = {}
    shift = len(table.positions).bit_length()
    symmetries = [(p, SetImages(p)) for p in position_symmetries(graph, table)]

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
        longest = longest_turns(table, successors)
    finally:
        sys.setrecursionlimit(limit)
    return GameCount(games, longest, len(memo), len(table.positions))


def longest_turns(table: MoveTable, successors: list[int]) -> int:
    """The most turns (moves and passes) in a game: a move by the player who moved last
    costs a pass first, and every game ends with two passes."""
    memo: dict[tuple, int] = {}
    shift = len(table.positions).bit_length()

    def length(position: int, last: int, available: int) -> int:
        """The most turns left after ``last`` (0 Black, 1 White) moved into ``position``."""
        key = (available << shift | position, last)
        found = memo.get(key)
        if found is not None:
            return found
        best = 2
        for mover in (0, 1):
            cost = 1 if mover != last else 2
            for result in table.after[position][mover]:
                if result != NO_MOVE and available >> result & 1:
                    rest = reachable(successors, result, available & ~(1 << result))
                    best = max(best, cost + length(result, mover, rest))
        memo[key] = best
        return best

    start = table.empty
    everything = (1 << len(table.positions)) - 1
    # before the first move White "moved last": Black moves at once, White after a pass
    return length(start, 1, reachable(successors, start, everything & ~(1 << start)))

def longest_game(graph: Graph) -> Optional[list]:
    """One longest game (a list of moves: points and 'pass'), found by the same search."""
    table = move_table(graph)
    after = table.after
    memo: dict[tuple, int] = {}

    def length(position: int, player: int, passed: bool, seen: int) -> int:
        """The most turns left from a point of the game."""
        key = (position, player, passed, seen)
        if key not in memo:
            best = 1 if passed else 1 + length(position, 1 - player, True, seen)
            for result in after[position][player]:
                if result != NO_MOVE and not seen >> result & 1:
                    best = max(best, 1 + length(result, 1 - player, False, seen | 1 << result))
            memo[key] = best
        return memo[key]

    position, player, passed = table.empty, 0, False
    seen = 1 << position
    moves: list = []
    while True:
        target = length(position, player, passed, seen)
        if passed and target == 1:
            return moves + ["pass"]
        if not passed and target == 1 + length(position, 1 - player, True, seen):
            moves.append("pass")
            position, player, passed = position, 1 - player, True
            continue
        for v, result in enumerate(after[position][player]):
            if result != NO_MOVE and not seen >> result & 1:
                if target == 1 + length(result, 1 - player, False, seen | 1 << result):
                    moves.append(v)
                    position, player, passed, seen = result, 1 - player, False, seen | 1 << result
                    break
