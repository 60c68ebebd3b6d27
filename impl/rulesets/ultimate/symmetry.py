"""The graph's symmetry as the yes/no searches use it (``Engine``'s part ``symmetry``): the
orbits of the empty points early in the game, each board's representative under the
automorphisms later on, and sets of history bits moved by an automorphism."""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

from gorules.impl.rulesets.ultimate.boards import Position

MAX_AUTOMORPHISMS = 120
"""The most automorphisms the early-game symmetry uses (every one of a graph of 5 points)."""
MOVED_SETS = 1 << 18
"""How many moved history sets are kept (a history seen again under the same automorphism
is moved once); the memory is emptied when it holds this many."""


class Symmetry:
    """The automorphisms of ``boards``' graph, found when first needed, and what the search
    works out with them, kept per board, history or set of bits."""

    def __init__(self, boards: Any):
        """Nothing worked out yet."""
        self.boards = boards
        self.symmetries: list[tuple[int, ...]] | None = None  # the graph's automorphisms, when first needed
        self.orbits: dict[tuple[int, int], list[int]] = {}  # (board, history) -> the placements searched there
        self.frames_of: dict[int, tuple[int, int]] = {}  # frame(), per board
        self.inverses: list[int] = []  # the index of each automorphism's inverse, when first needed
        self.moves_of: defaultdict[int, dict[int, int]] = defaultdict(dict)  # history bit -> bit, per automorphism
        self.moved_sets: dict[tuple[int, int], int] = {}  # moved(), per set of bits and automorphism

    def representatives(self, p: Position) -> list[int]:
        """One point of each orbit of the empty points under the automorphisms of the graph
        that fix the board and every board of the history (stone colours kept): placing on
        points of one orbit leads to isomorphic games, histories included."""
        boards = self.boards
        black, white, history = p[0], p[1], p[8]
        code = boards.code(black, white)
        known = self.orbits.get((code, history))
        if known is not None:
            return known
        codes = boards.codes
        seen = [codes[i] for i in range(len(codes)) if history >> i & 1] + [code]
        fixing = [sigma for sigma in self.automorphisms() if all(boards.image(sigma, b) == b for b in seen)]
        empty = boards.full & ~(black | white)
        kept: list[int] = []
        covered = 0
        for v in range(boards.n):
            if empty >> v & 1 and not covered >> v & 1:
                kept.append(v)
                for sigma in fixing:
                    covered |= 1 << sigma[v]
        self.orbits[(code, history)] = kept
        return kept

    def automorphisms(self) -> list[tuple[int, ...]]:
        """Automorphisms of the graph as point permutations (networkx's matcher), at most
        ``MAX_AUTOMORPHISMS`` of them: any subset serves (each point a kept point covers is
        its image under an automorphism that fixes the history), fewer only fold less, and
        graphs with thousands of them (section VII's, with interchangeable eyes) would
        spend more time on the orbits than on the search."""
        if self.symmetries is None:
            import networkx as nx
            from networkx.algorithms.isomorphism import GraphMatcher

            graph = self.boards.graph
            g = nx.Graph()
            g.add_nodes_from(graph.points)
            g.add_edges_from(graph.edges())
            found = itertools.islice(GraphMatcher(g, g).isomorphisms_iter(), MAX_AUTOMORPHISMS)
            self.symmetries = [tuple(m[v] for v in range(self.boards.n)) for m in found]
        return self.symmetries

    def frame(self, code: int) -> tuple[int, int]:
        """The representative of a board (the least code among its images under
        ``automorphisms``) and the index of an automorphism that takes the board there, −1
        if the board is its own representative; worked out once per board."""
        known = self.frames_of.get(code)
        if known is not None:
            return known
        if not self.inverses:
            symmetries = self.automorphisms()
            where = {sigma: i for i, sigma in enumerate(symmetries)}
            self.inverses = [where.get(inverse(sigma), -1) for sigma in symmetries]
        best, index = code, -1
        for i, sigma in enumerate(self.automorphisms()):
            if self.inverses[i] < 0:
                continue  # a truncated list may lack the inverse: skip that automorphism
            moved = self.boards.image(sigma, code)
            if moved < best:
                best, index = moved, i
        self.frames_of[code] = best, index
        return best, index

    def moved(self, bits: int, sigma: int) -> int:
        """A set of history bits with every board moved by automorphism number ``sigma``."""
        known = self.moved_sets.get((bits, sigma))
        if known is not None:
            return known
        if len(self.moved_sets) >= MOVED_SETS:
            self.moved_sets.clear()
        boards = self.boards
        mapping = self.moves_of[sigma]
        whole = bits
        found = 0
        while bits:
            low = bits & -bits
            target = mapping.get(low)
            if target is None:
                board = boards.codes[low.bit_length() - 1]
                target = mapping[low] = boards.bit(boards.image(self.symmetries[sigma], board))  # type: ignore[index]
            found |= target
            bits ^= low
        self.moved_sets[(whole, sigma)] = found
        return found


def inverse(sigma: tuple[int, ...]) -> tuple[int, ...]:
    """The inverse of a point permutation."""
    back = [0] * len(sigma)
    for v, w in enumerate(sigma):
        back[w] = v
    return tuple(back)
