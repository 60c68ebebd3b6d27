"""Counting legal positions: boards on which every stone's chain touches an empty point.

A board is *legal* (the source calls it well-formed) when ``reaches(b, v, Empty)`` holds
for every point v.  Two ways to count them:

* :func:`enumerate_legal` walks all 3^n boards of a small graph and keeps the legal ones
  (the engine's bitset kernel decides well-formedness); it is the reference that the faster method is checked against.
* :func:`count_legal` is a frontier (border-state) dynamic program.  The points are
  placed one at a time along a vertex ordering; the *frontier* is the set of placed
  points that still have an unplaced neighbour.  A border state records, for each
  frontier point, what the unplaced part of the board still needs to know:

  - ``EMPTY_CODE`` (0): an empty point, a liberty for every stone placed next to it;
  - ``BLACK_FREE`` / ``WHITE_FREE`` (1, 2): a stone whose chain already touches an
    empty point (all such chains of one colour behave alike, so they share a code);
  - ``3 + 2·label + colour``: a stone whose chain has no liberty yet; frontier stones
    with the same label are in the same chain (a partition of the frontier).

  Labels are renumbered in order of first occurrence (the canonical form), so equal
  states meet in one dictionary entry.  A chain that leaves the frontier without a
  liberty can never get one: that branch dies.  The count is exact (Python integers).

The frontier is as small as the vertex ordering allows: row by row along the shorter
side for grids (width = min(rows, columns)), and for other graphs the best of a few
orderings with small vertex separation (:func:`good_ordering`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gorules.impl.engine.rules import kernel, to_board
from gorules.spec.graph import Graph

EMPTY_CODE = 0
BLACK_FREE = 1
WHITE_FREE = 2
FIRST_LABEL_CODE = 3

COLOURS = ("B", "W")
PLACEMENTS = (".", "B", "W")


def free_code(colour: int) -> int:
    """The code of a stone of ``colour`` (0 Black, 1 White) whose chain has a liberty."""
    return BLACK_FREE + colour


def captive_code(label: int, colour: int) -> int:
    """The code of a stone of ``colour`` in the libertyless chain numbered ``label``."""
    return FIRST_LABEL_CODE + 2 * label + colour


def is_captive(code: int) -> bool:
    """Whether a code stands for a stone whose chain has no liberty yet."""
    return code >= FIRST_LABEL_CODE


def code_colour(code: int) -> int:
    """The colour (0 Black, 1 White) of a stone code."""
    if is_captive(code):
        return (code - FIRST_LABEL_CODE) % 2
    return code - BLACK_FREE


def code_label(code: int) -> int:
    """The chain label of a captive code."""
    return (code - FIRST_LABEL_CODE) // 2


def canonical(codes: Sequence[int]) -> tuple:
    """The state with its chain labels renumbered 0, 1, 2, … in order of first occurrence."""
    renumber: dict[int, int] = {}
    result = []
    for code in codes:
        if is_captive(code):
            label = code_label(code)
            if label not in renumber:
                renumber[label] = len(renumber)
            result.append(captive_code(renumber[label], code_colour(code)))
        else:
            result.append(code)
    return tuple(result)


@dataclass(frozen=True)
class Step:
    """Placing one point: which frontier positions are its neighbours, which positions
    leave the frontier afterwards, and whether the new point stays on the frontier.

    A step does not name the graph: on a grid every row repeats the same steps, so the
    transitions computed for one row serve all the others (and form a transfer matrix).
    """

    neighbours: tuple[int, ...]
    leaving: tuple[int, ...]
    stays: bool


def place(state: tuple, step: Step, placement: str) -> tuple | None:
    """The border state after placing ``placement`` ('.', 'B' or 'W') by ``step``,
    or None when a chain without a liberty leaves the frontier (no legal completion)."""
    codes = list(state)
    if placement == ".":
        freed = {code_label(codes[i]) for i in step.neighbours if is_captive(codes[i])}
        if freed:
            codes = [free_code(code_colour(c)) if is_captive(c) and code_label(c) in freed else c for c in codes]
        new = EMPTY_CODE
    else:
        colour = COLOURS.index(placement)
        friends = [codes[i] for i in step.neighbours if codes[i] != EMPTY_CODE and code_colour(codes[i]) == colour]
        has_liberty = any(codes[i] == EMPTY_CODE for i in step.neighbours) or any(not is_captive(c) for c in friends)
        merged = {code_label(c) for c in friends if is_captive(c)}
        if has_liberty:
            new = free_code(colour)
            replacement = new
        else:
            label = min(merged) if merged else 1 + max((code_label(c) for c in codes if is_captive(c)), default=-1)
            new = captive_code(label, colour)
            replacement = new
        if merged:
            codes = [replacement if is_captive(c) and code_label(c) in merged else c for c in codes]
    if step.stays:
        codes.append(new)
    leaving = set(step.leaving)
    remaining = [c for i, c in enumerate(codes) if i not in leaving]
    if not step.stays and is_captive(new) and new not in remaining:
        return None
    for i in step.leaving:
        if is_captive(codes[i]) and codes[i] not in remaining:
            return None
    return canonical(remaining)


def steps_of(graph: Graph, order: Sequence[int]) -> list[Step]:
    """The steps that place the points of an undirected graph in ``order``."""
    position = {v: i for i, v in enumerate(order)}
    frontier: list[int] = []
    steps = []
    for v in order:
        neighbours = tuple(frontier.index(w) for w in graph.neighbours[v] if position[w] < position[v])
        placed_after = [w for w in frontier + [v] if all(position[u] <= position[v] for u in graph.neighbours[w])]
        stays = v not in placed_after
        extended = frontier + ([v] if stays else [])
        leaving = tuple(sorted(extended.index(w) for w in placed_after if w in extended))
        steps.append(Step(neighbours, leaving, stays))
        frontier = [w for w in extended if w not in placed_after]
    return steps


def frontier_sizes(graph: Graph, order: Sequence[int]) -> list[int]:
    """The frontier size after each step of ``order`` (its maximum is the vertex separation).

    A point is on the frontier from the step that places it up to (not including) the step
    that places its last neighbour; counted with a difference array in time linear in the
    points and arcs."""
    position = {v: i for i, v in enumerate(order)}
    change = [0] * (len(order) + 1)
    for v in order:
        placed, last = position[v], max((position[u] for u in graph.neighbours[v]), default=-1)
        if last > placed:
            change[placed] += 1
            change[last] -= 1
    sizes, size = [], 0
    for i in range(len(order)):
        size += change[i]
        sizes.append(size)
    return sizes


def grid_order(graph: Graph) -> list[int]:
    """Row by row across the shorter side of a grid (frontier width min(rows, columns))."""
    rows, columns = graph.shape
    index = {rc: v for v, rc in enumerate(graph.grid)}
    if columns <= rows:
        return [index[(r, c)] for r in range(rows) for c in range(columns)]
    return [index[(r, c)] for c in range(columns) for r in range(rows)]


def greedy_order(graph: Graph, start: int) -> list[int]:
    """An ordering from ``start`` that always places the point keeping the frontier smallest."""
    placed: list[int] = [start]
    seen = {start}
    while len(placed) < graph.order:
        candidates = {w for v in placed for w in graph.neighbours[v] if w not in seen}
        if not candidates:
            candidates = {w for w in graph.points if w not in seen}

        def cost(w: int) -> tuple:
            """Frontier growth caused by placing w next (then prefer few unplaced neighbours)."""
            after = seen | {w}
            frontier = sum(1 for u in after if any(x not in after for x in graph.neighbours[u]))
            return (frontier, sum(1 for x in graph.neighbours[w] if x not in after), w)

        best = min(candidates, key=cost)
        placed.append(best)
        seen.add(best)
    return placed


def ordering_cost(graph: Graph, order: Sequence[int]) -> tuple:
    """How hard an ordering is for the dynamic program: the largest frontier, then the work."""
    sizes = frontier_sizes(graph, order)
    return (max(sizes, default=0), sum(7**s for s in sizes))


def good_ordering(graph: Graph) -> list[int]:
    """A vertex ordering with a small frontier: the grid order on grids, otherwise the best
    of reverse Cuthill–McKee and the greedy order from every start point."""
    if graph.order == 0:
        return []
    if graph.is_grid:
        return grid_order(graph)
    import networkx as nx

    nx_graph = nx.Graph()
    nx_graph.add_nodes_from(graph.points)
    nx_graph.add_edges_from(graph.edges())
    candidates = [list(nx.utils.reverse_cuthill_mckee_ordering(nx_graph)), list(graph.points)]
    if graph.order <= GREEDY_LIMIT:  # the greedy order takes time cubic in the points
        starts = graph.points if graph.order <= 64 else range(0, graph.order, max(1, graph.order // 32))
        candidates += [greedy_order(graph, s) for s in starts]
    return min(candidates, key=lambda order: ordering_cost(graph, order))


GREEDY_LIMIT = 150  # points: larger graphs are ordered by reverse Cuthill–McKee alone

# The cost model of the dynamic program, fitted to grids (width w, the largest frontier):
# about STATE_BASE * 4^w border states, each costing about SECONDS_PER_STATE_STEP per step,
# and MEMORY_AT_WIDTH_10 * MEMORY_GROWTH^(w - 10) bytes in all (the grid runs it was fitted
# to: benchmarks/README.md, ``bench_counting.py``).  On denser graphs it overestimates
# the states; the count's deadline catches what it underestimates.
STATE_GROWTH = 4.0
STATE_BASE = 1.2
SECONDS_PER_STATE_STEP = 1e-6
MEMORY_AT_WIDTH_10 = 8e8
MEMORY_GROWTH = 3.43


def degeneracy(graph: Graph) -> int:
    """The largest minimum degree of a subgraph: a lower bound on the treewidth, hence on
    the vertex separation (the smallest largest frontier of any ordering)."""
    degree = [len(set(n)) for n in graph.neighbours]
    if not degree:
        return 0
    buckets: dict[int, set[int]] = defaultdict(set)
    for v, d in enumerate(degree):
        buckets[d].add(v)
    removed = [False] * graph.order
    best = low = 0
    for _ in range(graph.order):
        while not buckets[low]:
            low += 1
        v = buckets[low].pop()
        best = max(best, low)
        removed[v] = True
        for w in set(graph.neighbours[v]):
            if not removed[w]:
                buckets[degree[w]].discard(w)
                degree[w] -= 1
                buckets[degree[w]].add(w)
                low = min(low, degree[w])
    return best


@dataclass(frozen=True)
class Cost:
    """What the dynamic program is expected to need: seconds and bytes (estimates)."""

    width: int
    seconds: float
    bytes: float


def dp_cost(sizes: Sequence[int]) -> Cost:
    """The estimated cost of the dynamic program along an ordering with these frontier sizes."""
    width = max(sizes, default=0)
    seconds = SECONDS_PER_STATE_STEP * sum(STATE_BASE * STATE_GROWTH**s for s in sizes)
    memory = MEMORY_AT_WIDTH_10 * MEMORY_GROWTH ** (width - 10)
    return Cost(width, seconds, memory)


class FrontierCounter:
    """The frontier dynamic program, with its transitions remembered per step shape."""

    def __init__(self) -> None:
        self.transitions: dict[Step, dict[tuple, tuple]] = defaultdict(dict)
        self.largest = 0

    def successors(self, state: tuple, step: Step) -> tuple:
        """The border states reached from ``state`` by the three placements (dead ones left out)."""
        table = self.transitions[step]
        found = table.get(state)
        if found is None:
            found = tuple(s for s in (place(state, step, p) for p in PLACEMENTS) if s is not None)
            table[state] = found
        return found

    def advance(self, states: dict, step: Step) -> dict:
        """The counted border states after one more step."""
        after: dict = defaultdict(int)
        for state, count in states.items():
            for successor in self.successors(state, step):
                after[successor] += count
        self.largest = max(self.largest, len(after))
        return after

    def run(self, steps: Iterable[Step], progress=None) -> int:
        """The number of legal boards: the count of the empty state after the last step."""
        states: dict = {(): 1}
        for step in steps:
            states = self.advance(states, step)
            if progress is not None:
                progress.update(1)
        return states.get((), 0)


def count_legal(graph: Graph, order: Sequence[int] | None = None, progress=None) -> int:
    """The number of legal positions of an undirected graph, by the frontier dynamic program."""
    if graph.directed:
        raise ValueError("the frontier count needs an undirected graph; use enumerate_legal")
    if order is None:
        order = good_ordering(graph)
    return FrontierCounter().run(steps_of(graph, order), progress)


def legal_bitboards(graph: Graph) -> Iterable[tuple[int, int]]:
    """Every legal board of a small graph as (Black's points, White's points) bitsets."""
    k = kernel(graph)
    for stones in range(1 << graph.order):
        white = stones
        while True:
            black = stones & ~white
            if k.well_formed(black, white):
                yield black, white
            if white == 0:
                break
            white = (white - 1) & stones


def legal_boards(graph: Graph) -> Iterable[tuple]:
    """Every legal board of a small graph, as a tuple of colours."""
    for black, white in legal_bitboards(graph):
        yield to_board(graph, black, white)


def enumerate_legal(graph: Graph) -> int:
    """The number of legal positions, by looking at all 3^n boards (directed graphs too)."""
    return sum(1 for _ in legal_bitboards(graph))
