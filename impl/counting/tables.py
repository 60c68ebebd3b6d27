"""The move table of a small board and what every game search over it shares.

The legal positions are numbered and a table gives the position after each (position,
player, point), played by the engine's kernel through :mod:`impl.counting.game_graph`;
from it come the positions a path of moves can still reach, the permutations of the
positions that the board's symmetries (and the exchange of colours) induce, the count a
search returns, counts kept modulo 2^64 and a prime and put together, and the compiled
forms of the reachability and symmetry helpers.  The searches are
:mod:`impl.counting.games` (positional superko), :mod:`impl.counting.situational`,
:mod:`impl.counting.repeating` and :mod:`impl.counting.longest`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gorules.impl.counting.game_graph import play
from gorules.impl.counting.positions import legal_bitboards
from gorules.spec.graph import Graph

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


def crt(low: int, high: int) -> int:
    """The number below 2^64·PRIME that is ``low`` mod 2^64 and ``high`` mod PRIME."""
    k = (high - low) * pow(1 << 64, -1, PRIME) % PRIME
    return low + (1 << 64) * k


# the compiled helpers, set by _compile (numba is imported only when they are needed)
_set_image_jit: Callable | None = None
_reachable_jit: Callable | None = None


def _compile() -> None:
    """Compile the helpers (once per process)."""
    global _set_image_jit, _reachable_jit
    if _reachable_jit is None:
        from numba import njit

        _set_image_jit = njit(_set_image)
        _reachable_jit = njit(_reachable_kernel)
