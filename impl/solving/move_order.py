"""The order in which the Tromp–Taylor solver (:mod:`gorules.impl.solving.solve`) tries moves,
and the symmetry that folds them.

* Move order: the move the table remembers, captures, quiet moves by the history heuristic
  (moves that caused cut-offs, weighted by how shallow) and then by degree, pass, and moves
  that remove one's own stones last.
* Symmetry: the graph's automorphisms (networkx) that fix every position of the history so
  far fold the moves of one orbit into one; a result found with moves folded holds only for
  exactly this history.
"""

from __future__ import annotations

from gorules.impl.solving.history import bit_positions
from gorules.spec.graph import Graph

PASS = "pass"
MAX_AUTOMORPHISMS = 1000


def image(sigma, points: int) -> int:
    """The set of points σ(points)."""
    result = 0
    while points:
        low = points & -points
        result |= 1 << sigma[low.bit_length() - 1]
        points ^= low
    return result


def automorphisms(graph: Graph, black: int = 0, white: int = 0) -> tuple:
    """The graph's automorphisms other than the identity that fix the board (black, white),
    each as a tuple σ with σ[v] the image of point v (at most ``MAX_AUTOMORPHISMS``; any
    subset serves, see :meth:`MoveOrder.plan`).  Found by networkx on undirected graphs only."""
    import networkx as nx
    from networkx.algorithms.isomorphism import GraphMatcher

    if graph.directed or graph.order < 2:
        return ()
    nx_graph = nx.Graph()
    nx_graph.add_nodes_from(graph.points)
    nx_graph.add_edges_from((v, w) for v in graph.points for w in graph.neighbours[v])
    found = []
    identity = tuple(graph.points)
    for mapping in GraphMatcher(nx_graph, nx_graph).isomorphisms_iter():
        sigma = tuple(mapping[v] for v in graph.points)
        if sigma == identity:
            continue
        if image(sigma, black) == black and image(sigma, white) == white:
            found.append(sigma)
        if len(found) >= MAX_AUTOMORPHISMS:
            break
    return tuple(found)


def stabiliser(group, black: int, white: int) -> tuple:
    """The automorphisms of ``group`` that fix the board (black, white)."""
    kept = []
    for sigma in group:
        if image(sigma, black) == black and image(sigma, white) == white:
            kept.append(sigma)
    return tuple(kept)


def child_group(group: tuple, child, move) -> tuple:
    """The automorphisms of ``group`` that also fix the board of ``child``, reached by
    ``move`` (a pass changes no board, so it keeps ``group``)."""
    if not group or move == PASS:
        return group
    return stabiliser(group, child[0], child[1])


class MoveOrder:
    """The stone moves of a position, remembered, and the order of the moves to try."""

    def __init__(self, graph: Graph, kernel, suicide_allowed: bool):
        """Moves on ``graph`` played by the engine's ``kernel``, suicide allowed or not."""
        self.kernel = kernel
        self.suicide_allowed = suicide_allowed
        self.degree = [len(graph.neighbours[v]) for v in graph.points]
        self.cache: dict = {}
        self.scores = ([0] * graph.order, [0] * graph.order)

    def children(self, black: int, white: int, side: int):
        """The stone moves of the player to move: (kind, point, black, white), best first.
        kind: 0 capture, 1 quiet, 2 removes own stones (suicide or self-capture).  They
        depend on the position only (not on the history), so they are remembered."""
        key = (black, white, side)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = tuple(self.generate(black, white, side))
        return list(found)

    def generate(self, black: int, white: int, side: int):
        """The stone moves of the player to move, computed by the engine's kernel."""
        k = self.kernel
        empty = k.all & ~(black | white)
        out = []
        for v in bit_positions(empty):
            point = 1 << v
            b2, w2 = k.play(black, white, v, side)
            theirs_before, theirs_after = (black, b2) if side else (white, w2)
            if not (b2 | w2) & point:
                if not self.suicide_allowed:
                    continue
                kind = 2
            elif theirs_after != theirs_before:
                kind = 0
            else:
                kind = 1
            out.append((kind, v, b2, w2))
        out.sort(key=lambda c: c[0])
        return out

    def plan(self, black, white, side, passes, tt_move, group):
        """The moves to try, in order (None for pass): the table's move, captures, quiet moves
        by the history heuristic, pass, moves that remove one's own stones; under ``group``
        one move of each orbit of the automorphisms."""
        moves = self.children(black, white, side)
        if group:
            moves = [c for c in moves if all(sigma[c[1]] >= c[1] for sigma in group)]
        scores = self.scores[side]
        degree = self.degree
        moves.sort(key=lambda c: (c[0], -scores[c[1]], -degree[c[1]]))
        if tt_move is not None and tt_move != PASS:
            for i, c in enumerate(moves):
                if c[1] == tt_move:
                    moves.insert(0, moves.pop(i))
                    break
        if passes:
            return moves
        quiet_end = len(moves)
        while quiet_end and moves[quiet_end - 1][0] == 2:
            quiet_end -= 1
        if tt_move == PASS:
            return [None, *moves]
        return [*moves[:quiet_end], None, *moves[quiet_end:]]

    def folded(self, plan, black, white, side, passes, group) -> bool:
        """Whether ``plan`` left out moves as images of others under ``group``."""
        return bool(group) and len(plan) < len(self.children(black, white, side)) + (passes == 0)

    def reward(self, side: int, v: int, depth: int) -> None:
        """History heuristic: a quiet move that caused a cutoff is tried earlier elsewhere."""
        self.scores[side][v] += 1 << min(max(40 - depth, 0), 40)

    def forget(self) -> None:
        """Empty the history heuristic."""
        self.scores = ([0] * len(self.degree), [0] * len(self.degree))
