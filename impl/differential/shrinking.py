"""Shrinking a disagreement: delta debugging on the moves tried, then on the board's size.

:func:`ddmin` is Zeller's delta debugging: it removes chunks of a failing sequence, halving
their size down to single items, while the rest still fails; the result fails and loses
its failure if any one item is removed.  :func:`simplify` then removes a move with the one
after it (so that the players of the later moves stay) and turns moves into passes.

:class:`Shrinker` replays a disagreement's moves from an empty board on the spec and the
contender, which must show a disagreement of the same kind and class.  It applies ``ddmin``
to the moves, moves the case to the smallest square board the contender accepts on which it
still shows (the moves shifted so that they all fit, keeping the edges they touch, else
aligned with each corner), shrinks the moves there by ``ddmin`` and ``simplify``, and tries
a smaller board once more.  A budget of replays and of seconds bounds the work; an engine
fault during a replay counts as no failure.  The shrunk case is shown once more by a freshly
started engine; a case that a fresh engine does not show is kept as found, with a note
saying so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from gorules.impl.differential.campaign import Contender, replay
from gorules.impl.differential.engines import EngineFault
from gorules.impl.differential.findings import Disagreement
from gorules.spec.graph import Graph, grid
from gorules.spec.tromp_taylor import PASS, Options


def ddmin(items: list, fails: Callable[[list], bool]) -> list:
    """A 1-minimal failing subsequence of ``items`` (which fails)."""
    n = 2
    while len(items) >= 2:
        chunk = -(-len(items) // n)
        parts = [items[i : i + chunk] for i in range(0, len(items), chunk)]
        for i in range(len(parts)):
            complement = [x for j, part in enumerate(parts) if j != i for x in part]
            if fails(complement):
                items = complement
                n = max(n - 1, 2)
                break
        else:
            if n >= len(items):
                break
            n = min(len(items), 2 * n)
    if len(items) == 1 and fails([]):
        return []
    return items


def simplify(items: list, fails: Callable[[list], bool]) -> list:
    """A failing sequence no simpler by removing two neighbouring items (a move and its
    answer, so that the players of the later moves stay) or by making one move a pass."""
    changed = True
    while changed:
        changed = False
        i = 0
        while i < len(items):
            for candidate in (items[:i] + items[i + 2 :], items[:i] + [PASS] + items[i + 1 :]):
                if candidate != items and fails(candidate):
                    items, changed = candidate, True
                    break
            else:
                i += 1
    return items


def minimal(items: list, fails: Callable[[list], bool]) -> list:
    """``ddmin``, then ``simplify``, then ``ddmin`` again."""
    return ddmin(simplify(ddmin(items, fails), fails), fails)


def moved(graph: Graph, smaller: Graph, attempts: list, shift: tuple[int, int]) -> list:
    """The moves of a square board shifted by (rows, columns) onto a smaller one, those that
    fall off it left out; passes kept."""
    n, m = graph.shape[0], smaller.shape[0]
    kept = []
    for v in attempts:
        if v == PASS:
            kept.append(v)
            continue
        r, c = divmod(v, n)
        r, c = r + shift[0], c + shift[1]
        if 0 <= r < m and 0 <= c < m:
            kept.append(r * m + c)
    return kept


def shifts(graph: Graph, attempts: list, m: int) -> list[tuple[int, int]]:
    """The shifts that bring every move of a square board onto an m×m board, those that keep
    the most of the edges the moves touch first (at most eight); else the four corner alignments."""
    n = graph.shape[0]
    points = [divmod(v, n) for v in attempts if v != PASS]
    corners = [(dr, dc) for dr in (0, m - n) for dc in (0, m - n)]
    if not points:
        return corners[:1]
    rows, columns = [r for r, _ in points], [c for _, c in points]

    def kept_edges(shift: tuple[int, int]) -> int:
        dr, dc = shift
        return sum(
            (min(axis) == 0 and min(axis) + d == 0) + (max(axis) == n - 1 and max(axis) + d == m - 1)
            for axis, d in ((rows, dr), (columns, dc))
        )

    fitting = [(dr, dc) for dr in range(-min(rows), m - max(rows)) for dc in range(-min(columns), m - max(columns))]
    return sorted(fitting, key=kept_edges, reverse=True)[:8] or corners


@dataclass
class Shrinker:
    """Shrinks the disagreements of one contender under one preset."""

    contender: Contender
    options: Options
    sizes: list
    replays: int = 2000
    seconds: float = 30.0
    budget: int = 0
    deadline: float = 0.0

    def shows(self, graph: Graph, attempts: list, signature: tuple) -> Disagreement | None:
        """The disagreement replaying ``attempts`` on ``graph`` shows, if of that signature."""
        if self.budget <= 0 or time.monotonic() > self.deadline:
            return None
        self.budget -= 1
        try:
            d = replay(self.contender, graph, self.options, attempts)
        except EngineFault:
            self.contender.restart()
            return None
        return d if d is not None and d.signature == signature else None

    def smaller(self, graph: Graph, attempts: list, signature: tuple) -> tuple[Graph, list]:
        """The smallest square board the contender accepts where the moves, shifted, still
        show the signature, with the shifted moves; the board and moves given if none."""
        if not graph.is_grid or graph.shape[0] != graph.shape[1]:
            return graph, attempts
        for size in sorted(s for s in self.sizes if s < graph.shape[0]):
            board = grid(size, size)
            for shift in shifts(graph, attempts, size):
                mapped = moved(graph, board, attempts, shift)
                if self.shows(board, mapped, signature) is not None:
                    return board, mapped
        return graph, attempts

    def __call__(self, d: Disagreement) -> Disagreement:
        """The shortest case on the smallest board found that still shows ``d``'s signature."""
        self.budget, self.deadline = self.replays, time.monotonic() + self.seconds
        signature = d.signature

        def shrunk(graph: Graph, attempts: list) -> list:
            return minimal(attempts, lambda a: self.shows(graph, a, signature) is not None)

        graph, attempts = self.smaller(
            d.graph, ddmin(list(d.attempts), lambda a: self.shows(d.graph, a, signature) is not None), signature
        )
        attempts = shrunk(graph, attempts)
        board, mapped = self.smaller(graph, attempts, signature)
        if board is not graph:
            graph, attempts = board, shrunk(board, mapped)
        self.budget, self.deadline = 2, time.monotonic() + self.seconds
        self.contender.restart()
        final = self.shows(graph, attempts, signature)
        if final is not None:
            return final
        self.contender.restart()
        again = self.shows(d.graph, d.attempts, signature)
        if again is not None:
            return again
        d.note = "not shown again by a fresh engine: it depends on what the engine played before"
        return d
