"""The game graph of a small board: legal positions joined by the moves between them.

Conventions of Farnebäck's GoGameGraphs: a node is a legal position; an edge is a move
of either colour (colours are not forced to alternate, so the player to move is not part
of a node) that leads from one legal position to another; passes are ignored; a
multi-stone suicide is a move (its stones are removed), a single-stone suicide is not
(it would leave the position unchanged).

What "distinct moves" counts: an edge is directed, from a position to the position after
a move, and there is one edge for each (position, colour, empty point) except the
single-stone suicides.  No two such moves from one position lead to the same position
(a stone that stays on the board names its point and colour; two suicides remove
different chains), so the edges are also exactly the distinct pairs (position, result).
The alternatives miss the published figures (1×2, 1×3, 2×2 → 12, 42, 192): keeping the
single-stone suicides as loops gives 12, 46, 200; dropping the multi-stone suicides
gives 8, 36, 184; undirected pairs give 6, 42, 192 (``edge_conventions`` computes these).

Moves are played by the engine's bitset kernel (:mod:`impl.engine.rules`), on positions
written as (Black's points, White's points).
"""

from __future__ import annotations

from dataclasses import dataclass

from gorules.impl.counting.positions import legal_bitboards
from gorules.impl.engine.rules import kernel
from gorules.spec.graph import Graph

Position = tuple[int, int]  # (Black's points, White's points)


def play(graph: Graph, position: Position, colour: int, v: int) -> Position:
    """The position after ``colour`` (0 Black, 1 White) plays the empty point v:
    opponent chains without liberties removed, then the mover's own."""
    black, white = position
    return kernel(graph).play(black, white, v, colour)


def empty_points(graph: Graph, position: Position) -> list[int]:
    """The empty points of a position."""
    stones = position[0] | position[1]
    return [v for v in graph.points if not stones >> v & 1]


def moves_from(graph: Graph, position: Position) -> list[tuple[int, int, Position]]:
    """(colour, point, result) for every move from a position that changes it."""
    found = []
    for v in empty_points(graph, position):
        for colour in (0, 1):
            result = play(graph, position, colour, v)
            if result != position:
                found.append((colour, v, result))
    return found


@dataclass
class GameGraph:
    """Nodes (legal positions) and edges (position, position after a move)."""

    nodes: list[Position]
    edges: set[tuple[Position, Position]]
    moves: int  # (position, colour, point) triples that change the position

    def summary(self) -> dict:
        """{"nodes", "edges"} as numbers."""
        return {"nodes": len(self.nodes), "edges": len(self.edges)}


def game_graph(graph: Graph) -> GameGraph:
    """The game graph of a small graph, under the GoGameGraphs conventions."""
    nodes = list(legal_bitboards(graph))
    edges = set()
    moves = 0
    for position in nodes:
        for _, _, result in moves_from(graph, position):
            edges.add((position, result))
            moves += 1
    return GameGraph(nodes, edges, moves)


def edge_conventions(graph: Graph) -> dict[str, int]:
    """The edge count under each reading of "distinct moves", to show which one the figures use."""
    counts = {"directed": 0, "with_loops": 0, "without_multi_stone_suicide": 0}
    undirected = set()
    for position in legal_bitboards(graph):
        for v in empty_points(graph, position):
            for colour in (0, 1):
                result = play(graph, position, colour, v)
                counts["with_loops"] += 1
                if result == position:
                    continue
                counts["directed"] += 1
                undirected.add(frozenset((position, result)))
                if result[colour] >> v & 1:
                    counts["without_multi_stone_suicide"] += 1
    counts["undirected"] = len(undirected)
    return counts
