"""Exact solving: the perfect-play value of a game of Go on a small graph, and a principal variation.

The value is Black's score minus White's score at the end of the game (area scoring
by default, as the source ``002_8835c2492dce8849.txt`` scores), when Black maximises
and White minimises it; komi is subtracted from it.  The game starts from the empty
board with Black to move and ends after two consecutive passes, as in the source's
``game``; moves are checked by the rules of an :class:`gorules.spec.tromp_taylor.Options`, the same
way :class:`impl.engine.rules.Game` checks them, and played by the engine's bitset kernel.

The search
----------
The value is found by tests "can the player to move force at least g?": first the
static upper bound (on 3×3 that test is the whole proof), then walking up from 0 and
down from the upper bound in turns, each turn within a share of nodes that doubles.  A
decided test answers the other thresholds in its direction (a proof of "at least t'"
every t ≤ t', a disproof at t' every t ≥ t').
Each test runs first as a depth-limited proof search deepened by ``horizons()``
(:meth:`Solver.prove`: proved, disproved, or undecided at the horizon), which finds
short proofs without following the long capture-and-recapture lines that superko allows;
a test still undecided at ``max_depth`` turns is settled by the full negamax alpha-beta
null-window search (:meth:`Solver.search`), which has no horizon.

* Static bounds: every final margin lies in [-n, n] (n points); tighter, Benson's
  unconditionally alive stones of each colour stay to the end (their owner may pass), so
  the margin lies in [2·alive(Black) − n, n − 2·alive(White)], under area scoring with
  their one-point eyes (with ``territory``, their secure regions) counted as alive (:mod:`gorules.impl.engine.benson`,
  sound with and without suicide, checked exhaustively in ``tests/test_solve_benson.py``;
  not used under the cycle rules' convention below, nor on directed graphs).
* After a pass the player to move may pass too and end the game: the current score is
  a lower bound for them, known without search ("stand pat"), and it is tried first.
* Move order: the move the table remembers, captures, quiet moves by the history
  heuristic (moves that caused cut-offs, weighted by how shallow) and then by degree,
  pass, and moves that remove one's own stones last.
* Symmetry: the graph's automorphisms (networkx) that fix every position of the history
  so far fold the moves of one orbit into one; a result found with moves folded holds
  only for exactly this history, and is stored so (Q all ones, D the whole history).

History and the transposition table
-----------------------------------
Under superko a position's value depends on the history: a move is legal only if its
position did not occur before.  Keying the table by the position alone would be
unsound (the graph-history interaction problem).  Here each search result records the
*history queries* its proof made: the set Q of position keys whose membership in the
history was asked (for every move searched, and every move refused), and the subset D
of them that were found in the history above the node.  The proof of a bound uses the
history only through those answers, so the bound holds again at the same position with
any history H' for which H' ∩ Q = D.  Q is kept as a bit mask over position numbers
folded modulo ``MASK_BITS`` (a one-hash Bloom filter: a false "maybe" only forbids a
reuse, never allows a wrong one), and the test is exact and conservative:

1. every key of D is in the current history;
2. (bits of the current history) ∩ Q = bits of D;
3. no other key of the current history shares a bit with a key of D.

Then any history key k outside D has its bit outside Q, so k ∉ Q; together with 1,
H' ∩ Q = D.  Entries that fail the test still suggest their best move (order only).

Under ``ko=simple`` and ``ko=none`` the game tree is not finite (play can cycle
forever).  The solver then ends a line that repeats a whole state (board, player to
move, passes, and for simple ko the board before the last move) and scores it as a
draw: Black's score minus White's is taken as 0 for it, before komi.  This is the
solver's convention, stated in every result under those rules; the repetition test
is a history query like the superko tests and enters Q and D the same way.

The compiled core
-----------------
Under positional and situational superko on undirected graphs the threshold tests run by
default in numba (``impl/kernels/solve.py``, ``core="compiled"``): :meth:`Solver.prove` on
bit masks, the same bounds, moves, order, folding and sharing of proofs, and the same
history test with D kept as the size and xor of 64-bit position keys (sound up to a 64-bit
hash collision, see that module); after the last horizon its proof search runs without
one as the full test.  :meth:`deepen` hands each test to it; everything around the tests
(the thresholds, the principal variation, certificates, budgets) is this module's.

Komi only shifts every final score by the same amount, so the solver searches with
komi 0 and subtracts komi from the value (the principal variation does not change).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any

from gorules.impl.engine.benson import margin_bounds
from gorules.impl.engine.options import Options, options_of
from gorules.impl.engine.rules import kernel, popcount
from gorules.impl.solving.budget import BudgetSpent
from gorules.impl.solving.split import (
    SPLIT_AFTER,
    SPLIT_EXPAND,
    SPLIT_FIRST,
    Pool,
    Split,
    fork_available,
    jobs_within,
    memory_available,
)
from gorules.impl.solving.stops import ProbeSpent, ShareSpent, SolveError
from gorules.spec.graph import Graph

PASS = "pass"
MASK_BITS = 2048
FULL_MASK = (1 << MASK_BITS) - 1
MAX_POINTS = 12
INFINITY = 1 << 20
TICK = 4096
PROBE_NODES = 1 << 19
"""The nodes the first guess's test may take before the tests start from 0 instead."""
ALTERNATE = True
FIRST_SHARE = 1 << 17
"""The tests walk up from 0 and down from the upper bound in turns, each turn within a
share of nodes that doubles after both directions had one: walking up proves lower
bounds cheaply where the value is low (1×n), walking down upper bounds where a failed
test near the value is dear (the dense 6-point graphs)."""
DESCENTS = ("step", "bisect")
"""How the tests walk down in their turns: ``step`` tests the upper bound itself (one point
down per failure), ``bisect`` the middle of the bounds proved so far (a failure halves the
interval: on 4×4 from [0, +16] to the value +2, fourteen failed tests stepping down, three
bisecting)."""
MAX_AUTOMORPHISMS = 1000
DEFAULT_CORE = "compiled"
"""The core used where it supports the game (finite ko rules, undirected graphs, at most 64
points) unless one is asked for: the same tests in numba, measured faster than the Python
core (docs/solver.md, "The compiled core")."""
TABLE_WAYS = 8
"""Slots of the compiled table that may hold answers for one state, under df-pn: answers
proved under different histories are kept side by side instead of overwriting each other
(on the dense 6-point graphs this decides tests that one slot per state leaves open;
docs/solver.md, "The dense 6-point graphs").  The deepening keeps one slot per state."""
NUMBERS_REFRESH = 1 << 20
"""df-pn empties its table of numbers (pn, dn; not its decided answers) each time a search
has taken this many more nodes (0: never).  Numbers learnt along one line, under one
history, lead the search back into subtrees it has long left; emptied, the search
reorders from what its stack holds (docs/solver.md, "Emptying the numbers as the search
goes")."""
SEARCHES = ("deepening", "dfpn")
DEFAULT_SEARCH = "dfpn"
"""The compiled core decides its threshold tests by df-pn unless asked otherwise: it takes
far fewer nodes than the deepening and solves boards the deepening leaves open
(docs/solver.md, "Proof-number search for the threshold tests")."""
CHUNK_FIRST = 1 << 16
CHUNK_LAST = 1 << 20
"""The compiled kernel's nodes between returns to Python (budget, progress): from 2^16
doubling to 2^20 within one test; the kernel resumes where it stopped."""
SLICE_SECONDS = 0.25
"""The time a slice of the df-pn kernel aims at (``next_chunk``)."""
DEEPENING_FROM = 8
DEEPENING_STEP = 4
"""The deepening's horizons: one turn at a time up to ``DEEPENING_FROM`` turns, then
``DEEPENING_STEP`` turns at a time.  An iteration that leaves the test undecided costs
about twice the one before, and the one that decides it little (its subproofs are
stored); longer steps skip undecided iterations.  These two settings took the fewest
nodes of those compared (docs/solver.md, "How the value is found")."""


@dataclass
class Result:
    """What the solver found: the perfect-play value (Black minus White, komi subtracted), or
    the bounds proved when the budget ran out, and how it was found."""

    graph: str
    rules: str
    value: float | None
    principal_variation: list
    nodes: int
    seconds: float
    raw_value: int = 0
    cycle_rule: str | None = None
    details: dict = field(default_factory=dict)
    status: str = "exact"
    lower: float | None = None
    upper: float | None = None

    @property
    def nodes_per_second(self) -> float:
        """Search nodes visited per second of wall-clock time."""
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


READIED: set = set()
"""The compiled searches whose kernels this process has called (``Solver.compile_kernels``)."""


class SplitDue(Exception):
    """Raised inside the search when the root's test has taken ``split_after`` nodes in this
    process: it is split over the worker processes from there on."""


def automorphisms(graph: Graph, black: int = 0, white: int = 0) -> tuple:
    """The graph's automorphisms other than the identity that fix the board (black, white),
    each as a tuple σ with σ[v] the image of point v (at most ``MAX_AUTOMORPHISMS``; any
    subset serves, see ``Solver.plan``).  Found by networkx on undirected graphs only."""
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
        if Solver.image(sigma, black) == black and Solver.image(sigma, white) == white:
            found.append(sigma)
        if len(found) >= MAX_AUTOMORPHISMS:
            break
    return tuple(found)


def bit_positions(mask: int):
    """The positions of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def next_chunk(chunk: int, seconds: float) -> int:
    """The df-pn kernel's next slice of nodes after a slice of ``chunk`` nodes that took
    ``seconds``: doubled (up to ``CHUNK_LAST``) while a slice takes less than
    ``SLICE_SECONDS``, halved (down to ``CHUNK_FIRST``) when it takes more than twice that.
    A df-pn node's cost varies widely (every child is looked at on entering), so that slices
    of a fixed size would overrun a time budget by a large margin (docs/solver.md, "Budget,
    progress, bounds")."""
    if seconds < SLICE_SECONDS:
        return min(2 * chunk, CHUNK_LAST)
    if seconds > 2 * SLICE_SECONDS:
        return max(chunk // 2, CHUNK_FIRST)
    return chunk


class Solver:
    """The exact solver for one graph under one ruleset (see the module docstring)."""

    table_forgets_history = False
    """Mutant switch for the tests: the compiled core's table reuses an entry under any history."""
    dfpn_mutant = 0
    """Mutant switch for the tests: one of ``impl/kernels/dfpn.py``'s mutants (0: none)."""
    dfpn_queries = 1
    """Which of its own move positions a df-pn node's queries hold: 1 (``REPETITIONS``) only
    those that repeat the history, 0 (``EVERY_MOVE``) every move's (``docs/solver.md``)."""
    dfpn_epsilon = 2
    """df-pn's 1 + ε trick: ε = 2^-``dfpn_epsilon`` (63: none)."""
    dfpn_initial = 0
    """df-pn's disproof number of a node not searched yet: 1 (0 here), or its empty points
    divided by this."""
    split_mutant = 0
    """Mutant switch for the tests: one of ``impl/solving/split.py``'s mutants (0: none)."""
    huge_pages_after = 60.0
    """Seconds of solving after which the compiled core's private tables move to huge pages
    (``kernels.solve.huge_pages``): worth it for a long solve, whose random probes of the
    table miss the address translation cache less often on huge pages, a loss for a short one,
    which would clear a whole huge page for each of its first answers (docs/solver.md, "Huge
    pages, once a solve has run long")."""

    def __init__(
        self,
        graph: Graph,
        rules: str | Options | None = None,
        max_nodes: int | None = None,
        transpositions: bool = True,
        max_points: int = MAX_POINTS,
        start: tuple | None = None,
        max_seconds: float | None = None,
        progress=None,
        benson: bool = True,
        symmetry: bool = True,
        max_depth: int | None = None,
        core: str | None = None,
        table_bits: int | None = None,
        territory: bool = False,
        search: str | None = None,
        table_ways: int | None = None,
        jobs: int | None = 1,
        descent: str = "step",
    ):
        """Prepare to solve ``graph`` from the empty board with Black to move, or from
        ``start`` = (black points, white points, side to move: 0 Black, 1 White) taken as
        a position without earlier history; SolveError if the graph has more than
        ``max_points`` points.  The search stops (BudgetSpent) after ``max_nodes`` nodes or
        ``max_seconds`` seconds; ``progress(solver)`` is called every ``TICK`` nodes and
        after each null-window test.  ``benson`` and ``symmetry`` switch the Benson bounds
        and the automorphism folding (each used only where it is sound); ``territory`` counts,
        with the Benson bounds under area scoring, the secure regions of the alive stones
        and not only their one-point eyes (``docs/solver.md``).  ``core`` is
        "compiled" (the threshold tests run in ``impl/kernels/solve.py``, the default where
        the rules allow: ``DEFAULT_CORE``) or "python"; ``table_bits`` sets the compiled table's size.
        ``search`` is how the compiled core decides a threshold test: "dfpn" (depth-first
        proof-number search, ``impl/kernels/dfpn.py``; ``DEFAULT_SEARCH``) or "deepening"
        (iterative deepening, then the proof search without a horizon; the Python core's way).
        ``table_ways`` is how many slots of the compiled table one state may fill (default
        ``TABLE_WAYS`` under df-pn, 1 under the deepening).  ``jobs`` > 1 lets a df-pn test that
        resists ``split_after`` nodes be split over that many worker processes
        (:mod:`gorules.impl.solving.split`; SolveError where the table they share and the private
        arrays of each and of this process would not fit in memory), None over the cores, as
        many as fit; 1 searches in this process alone.  ``descent`` is how the
        tests walk down in their turns (``DESCENTS``): from the upper bound (``step``) or from
        the middle of the bounds (``bisect``)."""
        if descent not in DESCENTS:
            raise SolveError(f"no descent {descent!r}: one of {', '.join(DESCENTS)}")
        if graph.order > max_points:
            raise SolveError(
                f"{graph.name} has {graph.order} points: the solver takes at most {max_points} "
                "(raise the limit with --max-points at your own risk)"
            )
        self.graph = graph
        self.rules = options_of(rules)
        self.kernel = kernel(graph)
        self.n = graph.order
        self.max_nodes = max_nodes
        self.transpositions = transpositions
        self.ko = self.rules.ko
        self.suicide_allowed = self.rules.suicide == "allowed"
        self.stone_scoring = self.rules.scoring == "stone"
        self.cycles = self.ko in ("simple", "none")
        self.start = start or (0, 0, 0)
        self.nodes = 0
        self.table: dict = {}
        self.move_cache: dict = {}
        self.bits: dict = {}
        self.key_bits: list = []
        self.keys: list = []
        self.index: dict = {}
        self.masks: list = [0]
        self.bit_count: dict = {}
        self.max_seconds = max_seconds
        self.deadline: float | None = None
        self.progress = progress
        self.next_tick = TICK if max_nodes is None else min(TICK, max_nodes + 1)
        self.started = time.perf_counter()
        self.on_huge_pages = False
        self.lower, self.upper = -self.n, self.n
        self.iterations = 0
        self.bound_cache: dict = {}
        self.history_scores = ([0] * self.n, [0] * self.n)
        self.degree = [len(graph.neighbours[v]) for v in graph.points]
        self.proofs: dict = {}
        self.settled: dict = {}
        self.deepening_from = DEEPENING_FROM
        self.deepening_step = DEEPENING_STEP
        self.guess_value = self.n
        self.probe_nodes = PROBE_NODES
        self.probe_until: int | None = None
        self.alternate = ALTERNATE
        self.descent = descent
        self.first_share = FIRST_SHARE
        self.share_until: int | None = None
        self.split_until: int | None = None
        self.line_cut: str | None = None
        self.max_depth = max_depth if max_depth is not None else 6 * self.n
        self.depth: int | None = None
        # Benson's bounds hold for games that end by two passes; a repetition scored as a
        # draw (the cycle rules' convention) is outside them.
        self.benson = benson and not self.cycles and self.kernel.symmetric
        self.territory = territory and self.benson and not self.stone_scoring
        self.group = automorphisms(graph, *self.start[:2]) if symmetry else ()
        self.core = self.choose_core(core)
        self.search_kind = self.choose_search(search)
        # The compiled table: about four slots per state (4·3^n bounds the states) up to 2^20.
        self.table_bits = table_bits if table_bits is not None else min(20, (4 * 3**self.n).bit_length() + 2)
        self.table_ways = table_ways or (TABLE_WAYS if self.search_kind == "dfpn" else 1)
        self.compiled_state: tuple | None = None
        self.dfpn_state: tuple | None = None
        self.numbers_refresh = NUMBERS_REFRESH
        self.numbers_emptied = 0
        self.phase = "searching"
        self.jobs = self.jobs_within_memory(jobs)
        self.split_after = SPLIT_AFTER
        self.split_first = SPLIT_FIRST
        self.split_expand = SPLIT_EXPAND
        self.test_nodes: dict = {}
        self.split_trees: dict = {}
        self.pool: Pool | None = None

    def table_bytes(self) -> int:
        """The bytes of the compiled core's table of answers, which a split shares between
        the solving process and its workers."""
        from gorules.impl.kernels import solve as _numba_solve

        return _numba_solve.table_bytes(self.table_bits)

    def private_bytes(self) -> int:
        """The bytes of the compiled core's other large arrays (bounds' cache, numbering of
        keys, and under df-pn its table of numbers): what each worker of a split may copy."""
        from gorules.impl.kernels import dfpn as _numba_dfpn
        from gorules.impl.kernels import solve as _numba_solve

        numbers = _numba_dfpn.table_bytes(self.table_bits) if self.search_kind == "dfpn" else 0
        return _numba_solve.private_bytes(self.n) + numbers

    def jobs_within_memory(self, jobs: int | None) -> int:
        """The worker processes this solve may split a test over (:func:`jobs_within`):
        ``jobs`` where the shared table and the private arrays of the solving process and of
        that many workers fit in memory, SolveError naming ``--jobs`` where they do not; None
        the cores, as many as fit.  ``jobs`` as asked (None: 1) where no test can be split
        (the Python core, the deepening)."""
        if self.core != "compiled" or self.search_kind != "dfpn" or not fork_available():
            return 1 if jobs is None else jobs
        try:
            return jobs_within(jobs, self.private_bytes(), self.table_bytes(), memory_available())
        except ValueError as error:
            raise SolveError(str(error)) from None

    def compiled_unsupported(self) -> str | None:
        """Why the compiled core cannot run this game, or None if it can."""
        if self.cycles:
            return f"ko={self.ko} (play can cycle)"
        if not self.kernel.symmetric:
            return "a directed graph"
        if self.n > 64:
            return "more than 64 points"
        from gorules.impl.engine.compiled import compiled_available

        if not compiled_available():
            return "numba is not installed"
        return None

    def choose_core(self, core: str | None) -> str:
        """The core that runs the threshold tests: ``core`` if given (SolveError if the
        compiled core is asked for a game it does not support), else ``DEFAULT_CORE`` where
        the compiled core supports the game and "python" where it does not."""
        if core not in (None, "python", "compiled"):
            raise SolveError(f"unknown core {core!r}: the cores are python and compiled")
        why = self.compiled_unsupported() if core != "python" else None
        if core == "compiled" and why is not None:
            raise SolveError(f"the compiled core does not support {why}: use the python core")
        if core is None:
            return DEFAULT_CORE if why is None else "python"
        return core

    def choose_search(self, search: str | None) -> str:
        """The compiled core's way of deciding a threshold test: ``search`` if given
        (SolveError if unknown, or if df-pn is asked of the Python core), else
        ``DEFAULT_SEARCH`` for the compiled core and "deepening" for the Python core."""
        if search not in (None, *SEARCHES):
            raise SolveError(f"unknown search {search!r}: the searches are {' and '.join(SEARCHES)}")
        if search == "dfpn" and self.core != "compiled":
            raise SolveError("df-pn runs in the compiled core only: drop --core python or use --search deepening")
        if search is None:
            return DEFAULT_SEARCH if self.core == "compiled" else "deepening"
        return search

    # ---- scores

    def difference(self, black: int, white: int) -> int:
        """Black's score minus White's on this board, without komi."""
        if self.stone_scoring:
            return popcount(black) - popcount(white)
        sb, sw = self.kernel.area(black, white)
        return sb - sw

    # ---- the history

    def history_key(self, black: int, white: int, side: int, passes: int, before):
        """The key under which a position enters the history for this ko rule."""
        if self.ko == "positional":
            return black | (white << self.n)
        if self.ko == "situational":
            return ((black | (white << self.n)) << 1) | side
        return (black, white, side, passes, before)

    def bit(self, key) -> int:
        """The bit of a history key in the folded masks (keys are numbered on first sight,
        key number i getting bit i modulo ``MASK_BITS``)."""
        b = self.bits.get(key)
        if b is None:
            b = self.bits[key] = 1 << (len(self.bits) % MASK_BITS)
        return b

    def push(self, key) -> bool:
        """Add a key to the history; False (nothing added) if it is there already."""
        if key in self.index:
            return False
        self.enter(key, self.bit(key))
        return True

    def enter(self, key, b: int) -> None:
        """Add a key known to be absent from the history, with its bit ``b``."""
        self.index[key] = len(self.keys)
        self.keys.append(key)
        self.key_bits.append(b)
        self.masks.append(self.masks[-1] | b)
        self.bit_count[b] = self.bit_count.get(b, 0) + 1

    def pop(self) -> None:
        """Remove the most recent key from the history."""
        del self.index[self.keys.pop()]
        self.masks.pop()
        b = self.key_bits.pop()
        count = self.bit_count[b] - 1
        if count:
            self.bit_count[b] = count
        else:
            del self.bit_count[b]

    def reusable(self, entry) -> bool:
        """Whether a table entry's bounds hold under the current history (H' ∩ Q = D)."""
        _, _, _, d_keys, d_bits, q = entry
        index = self.index
        for key in d_keys:
            if key not in index:
                return False
        if self.masks[-1] & q != d_bits:
            return False
        bit_count = self.bit_count
        bits = self.bits
        for key in d_keys:
            if bit_count[bits[key]] != 1:
                return False
        return True

    def hits_of(self, d_keys) -> int:
        """The history positions (as a bit mask over indices) of the keys of D."""
        hits = 0
        for key in d_keys:
            hits |= 1 << self.index[key]
        return hits

    # ---- the search

    def children(self, black: int, white: int, side: int):
        """The stone moves of the player to move: (kind, point, black, white), best first.
        kind: 0 capture, 1 quiet, 2 removes own stones (suicide or self-capture).  They
        depend on the position only (not on the history), so they are remembered."""
        key = (black, white, side)
        found = self.move_cache.get(key)
        if found is None:
            found = self.move_cache[key] = tuple(self.generate(black, white, side))
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

    def search(self, black, white, side, passes, before, alpha, beta, group=()):
        """Negamax value for the player to move, fail-soft in (alpha, beta), with the
        history queries of its proof: (value, Q mask, hits as history indices).  ``group``
        holds the graph's automorphisms that fix every position of the history so far."""
        self.nodes += 1
        if self.nodes >= self.next_tick:
            self.tick()
        if passes >= 2:
            d = self.difference(black, white)
            return (-d if side else d), 0, 0
        h = len(self.keys)
        q = 0
        hits = 0
        best = -INFINITY
        best_move = None
        low, high = self.bounds(black, white, side)
        if passes == 1:
            d = self.difference(black, white)
            best = -d if side else d
            best_move = PASS
            if best >= beta or best >= high:
                return best, 0, 0
        if high <= alpha:
            return high, 0, 0
        if low >= beta:
            return low, 0, 0
        alpha_in, beta_in = alpha, beta
        if best > alpha:
            alpha = best
        tt_key = (black, white, side, passes, before)
        entry = self.table.get(tt_key) if self.transpositions else None
        tt_move = None
        if entry is not None:
            tt_move = entry[2]
            if self.reusable(entry):
                lower, upper = entry[0], entry[1]
                e_hits = self.hits_of(entry[3])
                if lower >= beta or lower == upper:
                    return max(lower, best), entry[5], e_hits
                if upper <= alpha:
                    if best >= upper:
                        return best, entry[5], e_hits
                    return upper, entry[5], e_hits
                if lower > alpha:
                    alpha = lower
                    q |= entry[5]
                    hits |= e_hits
                if upper < beta:
                    beta = upper
                    q |= entry[5]
                    hits |= e_hits
        plan = self.plan(black, white, side, passes, tt_move, group)
        folded = group and len(plan) < len(self.children(black, white, side)) + (passes == 0)
        opponent = 1 - side
        ko = self.ko
        cycles = self.cycles
        for c in plan:
            if c is None:
                nb, nw, npasses, v = black, white, passes + 1, PASS
            else:
                _, v, nb, nw = c
                npasses = 0
                if ko == "simple" and before is not None and (nb, nw) == before:
                    continue
            nbefore = (black, white) if ko == "simple" else None
            pushed = False
            if cycles:
                key = (nb, nw, opponent, npasses, nbefore)
                q |= self.bit(key)
                if key in self.index:
                    hits |= 1 << self.index[key]
                    value = 0
                    if value > best:
                        best, best_move = value, v
                        if best > alpha:
                            alpha = best
                            if alpha >= beta:
                                break
                    continue
                pushed = self.push(key)
            elif v == PASS:
                if ko == "situational":
                    pushed = self.push(((nb | (nw << self.n)) << 1) | opponent)
            else:
                key = nb | (nw << self.n)
                if ko == "situational":
                    key = (key << 1) | opponent
                b = self.bit(key)
                q |= b
                if key in self.index:
                    hits |= 1 << self.index[key]
                    continue
                self.enter(key, b)
                pushed = True
            child_group = self.stabiliser(group, nb, nw) if group and v != PASS else group
            try:
                value, cq, chits = self.search(nb, nw, opponent, npasses, nbefore, -beta, -alpha, child_group)
            finally:
                if pushed:
                    self.pop()
            value = -value
            q |= cq
            hits |= chits
            if value > best:
                best, best_move = value, v
                if best > alpha:
                    alpha = best
                    if alpha >= beta or best >= high:
                        if c is not None and c[0] == 1:
                            self.reward(side, v, h)
                        break
        if best == -INFINITY:
            # No move at all is impossible (pass is always legal before the game ends).
            raise AssertionError("a node without moves")
        if folded:
            # Moves left out as images of others under ``group`` are equal only while the
            # history is fixed by it: the result holds for exactly this history.
            q = FULL_MASK
            hits = (1 << h) - 1
        hits &= (1 << h) - 1
        if self.transpositions:
            if best <= alpha_in:
                lower, upper = -INFINITY, best
            elif best >= beta_in:
                lower, upper = best, INFINITY
            else:
                lower = upper = best
            d_keys = tuple(self.keys[i] for i in bit_positions(hits))
            d_bits = 0
            for key in d_keys:
                d_bits |= self.bits[key]
            self.table[tt_key] = (lower, upper, best_move, d_keys, d_bits, q)
        return best, q, hits

    def plan(self, black, white, side, passes, tt_move, group):
        """The moves to try, in order (None for pass): the table's move, captures, quiet moves
        by the history heuristic, pass, moves that remove one's own stones; under ``group``
        one move of each orbit of the automorphisms."""
        moves = self.children(black, white, side)
        if group:
            moves = [c for c in moves if all(sigma[c[1]] >= c[1] for sigma in group)]
        scores = self.history_scores[side]
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

    def reward(self, side: int, v: int, depth: int) -> None:
        """History heuristic: a quiet move that caused a cutoff is tried earlier elsewhere."""
        self.history_scores[side][v] += 1 << min(max(40 - depth, 0), 40)

    def bounds(self, black: int, white: int, side: int) -> tuple[int, int]:
        """Static bounds on the value for the player to move: the Benson bounds on the
        margin (:mod:`gorules.impl.engine.benson`) where they are sound, else [-n, n]."""
        found = self.bound_cache.get((black, white))
        if found is None:
            if self.benson:
                found = margin_bounds(
                    self.kernel, black, white, self.suicide_allowed, not self.stone_scoring, self.territory
                )
            else:
                found = (-self.n, self.n)
            self.bound_cache[(black, white)] = found
        return (-found[1], -found[0]) if side else found

    def stabiliser(self, group, black: int, white: int) -> tuple:
        """The automorphisms of ``group`` that fix the board (black, white)."""
        kept = []
        for sigma in group:
            if self.image(sigma, black) == black and self.image(sigma, white) == white:
                kept.append(sigma)
        return tuple(kept)

    def child_group(self, group: tuple, child, move) -> tuple:
        """The automorphisms of ``group`` that also fix the board of ``child``, reached by
        ``move`` (a pass changes no board, so it keeps ``group``)."""
        if not group or move == PASS:
            return group
        return self.stabiliser(group, child[0], child[1])

    @staticmethod
    def image(sigma, points: int) -> int:
        """The set of points σ(points)."""
        result = 0
        while points:
            low = points & -points
            result |= 1 << sigma[low.bit_length() - 1]
            points ^= low
        return result

    def tick(self) -> None:
        """Check the budget and report progress (called every ``TICK`` nodes)."""
        self.next_tick = self.nodes + TICK
        if self.max_nodes is not None:
            self.next_tick = min(self.next_tick, self.max_nodes + 1)
        self.check_node_budget()
        if self.probe_until is not None and self.nodes > self.probe_until:
            raise ProbeSpent
        if self.split_until is not None and self.nodes > self.split_until:
            raise SplitDue
        self.check_time_budget()
        if self.share_until is not None and self.nodes > self.share_until:
            raise ShareSpent
        if self.progress is not None:
            self.progress(self)

    # ---- the depth-limited prover

    def prove(self, black, white, side, passes, before, t, depth, group=()):
        """Whether the player to move can force a final value (theirs) of at least ``t``
        within ``depth`` more turns: 1 proved, -1 disproved (the opponent forces less), 0
        not decided within the depth; with the history queries of the answer, as in
        :meth:`search`: (answer, Q mask, hits as history indices)."""
        self.nodes += 1
        if self.nodes >= self.next_tick:
            self.tick()
        if passes >= 2:
            d = self.difference(black, white)
            return (1 if (-d if side else d) >= t else -1), 0, 0
        low, high = self.bounds(black, white, side)
        if low >= t:
            return 1, 0, 0
        if high < t:
            return -1, 0, 0
        if passes == 1:
            d = self.difference(black, white)
            if (-d if side else d) >= t:
                return 1, 0, 0
        if depth <= 0:
            return 0, 0, 0
        h = len(self.keys)
        state_key = (black, white, side, passes, before)
        tt_key = (black, white, side, passes, before, t)
        tt_move = None
        if self.transpositions:
            known = self.settled.get(state_key)
            if known is not None:
                answer = self.settled_answer(known, t)
                if answer is not None:
                    return answer
                tt_move = self.settled_move(known)
            entry = self.proofs.get(tt_key)
            if entry is not None:
                tt_move = entry[2]
                if entry[1] >= depth and self.reusable(entry):
                    return 0, entry[5], self.hits_of(entry[3])
        plan = self.plan(black, white, side, passes, tt_move, group)
        folded = group and len(plan) < len(self.children(black, white, side)) + (passes == 0)
        opponent = 1 - side
        ko = self.ko
        cycles = self.cycles
        q = hits = 0
        answer = -1
        best_move = None
        # The child loop below repeats search()'s repetition bookkeeping (the history keys
        # pushed, the queries q and the hits) line for line: both are the solver's innermost
        # loops, and a shared helper would cost a call per child. Change both together.
        for c in plan:
            if c is None:
                nb, nw, npasses, v = black, white, passes + 1, PASS
            else:
                _, v, nb, nw = c
                npasses = 0
                if ko == "simple" and before is not None and (nb, nw) == before:
                    continue
            nbefore = (black, white) if ko == "simple" else None
            pushed = False
            if cycles:
                key = (nb, nw, opponent, npasses, nbefore)
                q |= self.bit(key)
                if key in self.index:
                    hits |= 1 << self.index[key]
                    if 0 >= t:
                        answer, best_move = 1, v
                        break
                    continue
                pushed = self.push(key)
            elif v == PASS:
                if ko == "situational":
                    pushed = self.push(((nb | (nw << self.n)) << 1) | opponent)
            else:
                key = nb | (nw << self.n)
                if ko == "situational":
                    key = (key << 1) | opponent
                b = self.bit(key)
                q |= b
                if key in self.index:
                    hits |= 1 << self.index[key]
                    continue
                self.enter(key, b)
                pushed = True
            child_group = self.stabiliser(group, nb, nw) if group and v != PASS else group
            try:
                result, cq, chits = self.prove(nb, nw, opponent, npasses, nbefore, 1 - t, depth - 1, child_group)
            finally:
                if pushed:
                    self.pop()
            q |= cq
            hits |= chits
            if result == -1:
                answer, best_move = 1, v
                if c is not None and c[0] == 1:
                    self.reward(side, v, h)
                break
            if result == 0:
                answer = 0
                if best_move is None:
                    best_move = v
        if folded:
            q = FULL_MASK
            hits = (1 << h) - 1
        hits &= (1 << h) - 1
        d_keys = tuple(self.keys[i] for i in bit_positions(hits))
        d_bits = 0
        for key in d_keys:
            d_bits |= self.bits[key]
        if self.transpositions:
            if answer:
                self.settle_proof(state_key, answer, t, best_move, d_keys, d_bits, q)
            else:
                self.proofs[tt_key] = (answer, depth, best_move, d_keys, d_bits, q)
        return answer, q, hits

    def settled_answer(self, known, t):
        """The answer to "at least ``t``?" that a decided proof stored for this position gives
        under the current history, with its queries, or None: a proof that the player to move
        forces at least t' answers yes for every t ≤ t', a disproof at t' (the opponent holds
        them below t') answers no for every t ≥ t'."""
        proved, disproved = known
        if proved is not None and proved[0] >= t and self.reusable(proved):
            return 1, proved[5], self.hits_of(proved[3])
        if disproved is not None and disproved[0] <= t and self.reusable(disproved):
            return -1, disproved[5], self.hits_of(disproved[3])
        return None

    @staticmethod
    def settled_move(known):
        """The move of the strongest proof stored for a position (order only), or None."""
        proved = known[0]
        return proved[2] if proved is not None else None

    def settle_proof(self, state_key, answer: int, t: int, move, d_keys, d_bits: int, q: int) -> None:
        """Store a decided answer to "at least ``t``?" in the slot of its kind (proved or
        disproved), replacing the one there unless that one is stronger and still reusable."""
        known = self.settled.get(state_key)
        if known is None:
            known = self.settled[state_key] = [None, None]
        slot = 0 if answer > 0 else 1
        old = known[slot]
        if old is not None:
            stronger = old[0] >= t if answer > 0 else old[0] <= t
            if stronger and self.reusable(old):
                return
        known[slot] = (t, 0, move, d_keys, d_bits, q)

    def check_node_budget(self) -> None:
        """BudgetSpent if more than ``max_nodes`` nodes have been visited."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetSpent(f"the node budget of {self.max_nodes:,} nodes ran out")

    def check_time_budget(self) -> None:
        """BudgetSpent if the time budget's deadline has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetSpent(f"the time budget of {self.max_seconds:g} s ran out")

    def deepen(self, state, t, group=()) -> int:
        """Whether the player to move in ``state`` can force at least ``t``, by iterative
        deepening of :meth:`prove` up to ``max_depth`` turns: 1, -1, or 0 if undecided.
        The compiled core then runs the full test too, so it always decides."""
        if self.core == "compiled":
            return self.compiled_deepen(state, t, group)
        for depth in self.horizons():
            self.depth = depth
            black, white, side, passes, before = state
            answer = self.prove(black, white, side, passes, before, t, depth, group)[0]
            if answer:
                return answer
        return 0

    def compiled_deepen(self, state, t, group=()) -> int:
        """The compiled core's test "at least ``t``?": the horizons of :meth:`horizons`,
        then the full test (the kernel's depth-limited proof without a horizon)."""
        from gorules.impl.kernels.solve import UNBOUNDED

        if self.search_kind == "dfpn":
            self.depth = None
            return self.compiled_dfpn(state, t, group)
        for depth in [*self.horizons(), UNBOUNDED]:
            self.depth = depth if depth < UNBOUNDED else None
            answer = self.compiled_prove(state, t, depth, group)
            if answer:
                return answer
        raise AssertionError("the full test is always decided")

    def compiled_arrays(self) -> tuple:
        """The compiled kernel's arrays (table, history, buffers), made on first use."""
        if self.compiled_state is None:
            from gorules.impl.kernels import solve as _numba_solve

            self.compiled_state = _numba_solve.arrays(
                self.kernel.out,
                self.ko == "situational",
                self.suicide_allowed,
                self.stone_scoring,
                (2 if self.territory else 1) if self.benson else 0,
                self.transpositions,
                self.group,
                self.table_bits,
                self.table_forgets_history,
                self.table_ways,
            )
        return self.compiled_state

    def history_boards(self):
        """The history as three arrays (black, white, player to move) for the kernel."""
        import numpy as np

        n, every = self.n, (1 << self.n) - 1
        boards = []
        for key in self.keys:
            side = 0
            if self.ko == "situational":
                key, side = key >> 1, key & 1
            boards.append((key & every, key >> n, side))
        return (
            np.array([b for b, _, _ in boards], dtype=np.uint64),
            np.array([w for _, w, _ in boards], dtype=np.uint64),
            np.array([s for _, _, s in boards], dtype=np.int64),
        )

    def group_mask(self, group) -> int:
        """The automorphisms of ``group`` as a mask over the kernel's first 64 of ``self.group``
        (a subset of a stabiliser folds soundly too)."""
        index = {sigma: i for i, sigma in enumerate(self.group[:64])}
        mask = 0
        for sigma in group:
            if sigma in index:
                mask |= 1 << index[sigma]
        return mask

    def nodes_left(self) -> int:
        """The nodes that may still be visited before a node budget (``max_nodes``, the
        probe's, the share's, the split's mark) is overrun by more than one node; at most 2^62,
        and 0 or less once one is."""
        left = 1 << 62
        for until in (self.max_nodes, self.probe_until, self.share_until, self.split_until):
            if until is not None:
                left = min(left, until + 1 - self.nodes)
        return left

    def node_allowance(self, chunk: int) -> int:
        """The nodes the kernel may visit before returning: ``chunk``, cut to
        :meth:`nodes_left`, at least one."""
        return max(1, min(chunk, self.nodes_left()))

    def compiled_prove(self, state, t, depth, group=()) -> int:
        """The kernel's answer to "at least ``t`` within ``depth`` turns?" from ``state``
        under the current history: 1, -1 or 0.  The kernel runs in slices of ``chunk``
        nodes (growing from ``CHUNK_FIRST`` to ``CHUNK_LAST``) and resumes where it
        stopped; between slices the budget is checked and the progress shown."""
        import numpy as np

        from gorules.impl.kernels import solve as ks

        arrays = self.compiled_arrays()
        begin: Any = ks.begin
        resume: Any = ks.resume
        black, white, side, passes, _ = state
        mask = np.uint64(self.group_mask(group))
        begin(arrays, *self.history_boards(), np.uint64(black), np.uint64(white), side, passes, t, depth, mask)
        return self.sliced(lambda limit: resume(arrays, limit), lambda chunk, _seconds: min(2 * chunk, CHUNK_LAST))

    def sliced(self, run, grow) -> int:
        """Run a kernel's test set up beforehand in slices of nodes, its code at the end:
        ``run(limit)`` resumes it for at most ``limit`` nodes; between slices the budgets
        are checked and the progress shown; ``grow(size, seconds)`` sizes the next slice
        from the last one's size and time.  A test decided in a slice after which a budget
        has run out is answered all the same (the next slice's check sees the budget): its
        answer would otherwise be lost with the kernel's search."""
        from gorules.impl.kernels import solve as ks

        counters = self.compiled_arrays()[10]
        chunk = CHUNK_FIRST
        while True:
            counters[ks.S_NODES] = 0
            started = time.perf_counter()
            code = int(run(self.node_allowance(chunk)))
            spent = time.perf_counter() - started
            self.nodes += int(counters[ks.S_NODES])
            if code == ks.OVERFLOW:
                raise SolveError(f"{self.graph.name}: a line longer than the compiled core's {ks.MAX_PLY} turns")
            if code != ks.SUSPENDED:
                return code
            self.tick()
            self.move_to_huge_pages()
            chunk = grow(chunk, spent)

    def move_to_huge_pages(self) -> None:
        """Once the solve has run ``huge_pages_after`` seconds, ask for huge pages under the
        compiled core's private tables (once per process: a forked worker asks for its own)."""
        if self.on_huge_pages or time.perf_counter() - self.started < self.huge_pages_after:
            return
        from gorules.impl.kernels import solve as ks

        self.on_huge_pages = True
        ks.huge_pages(self.compiled_arrays())

    def compiled_dfpn(self, state, t, group=(), going_on: bool = False) -> int:
        """The df-pn kernel's answer to "at least ``t``?" from ``state`` under the current
        history: 1 or -1, in slices of nodes as :meth:`compiled_prove` runs them.  With
        ``going_on`` the kernel goes on from where its last search stopped (BudgetSpent), which must
        have been this test under this history, the kernel not called since."""
        import numpy as np

        from gorules.impl.kernels import dfpn as kd

        arrays = self.compiled_arrays()
        if self.dfpn_state is None:
            self.dfpn_state = kd.arrays(
                self.table_bits,
                epsilon_shift=self.dfpn_epsilon,
                mutant=self.dfpn_mutant,
                queries=self.dfpn_queries,
                initial=self.dfpn_initial,
            )
        numbers = self.dfpn_state
        begin: Any = kd.begin
        resume: Any = kd.resume
        black, white, side, passes, _ = state
        mask = np.uint64(self.group_mask(group))
        if not going_on:
            begin(arrays, numbers, *self.history_boards(), np.uint64(black), np.uint64(white), side, passes, t, mask)
        code = self.sliced(lambda limit: resume(arrays, numbers, self.refreshed(numbers, limit)), next_chunk)
        if code == 0:
            raise AssertionError("df-pn left the root undecided")
        return code

    def refreshed(self, numbers, limit: int) -> int:
        """The slice of df-pn nodes ``limit`` cut to end where the table of numbers is next
        emptied (every ``numbers_refresh`` nodes this process has searched), the table emptied
        first if that time has come.  The numbers only order the search, so its answers stay
        exact (``tests/test_solve_dfpn.py``)."""
        if not self.numbers_refresh:
            return limit
        if self.nodes - self.numbers_emptied >= self.numbers_refresh:
            from gorules.impl.kernels.dfpn import empty_numbers

            empty_numbers(numbers)
            self.numbers_emptied = self.nodes
        return min(limit, self.numbers_emptied + self.numbers_refresh - self.nodes)

    def horizons(self):
        """The horizons of the iterative deepening, 1 up to ``max_depth``: one turn at a
        time up to ``deepening_from``, then ``deepening_step`` turns at a time."""
        depth = 1
        while depth < self.max_depth:
            yield depth
            depth += 1 if depth < self.deepening_from else self.deepening_step
        yield self.max_depth

    def at_least(self, state, t, group=()) -> bool:
        """Whether the player to move in ``state`` (with the current history) can force a
        value of at least ``t``: iterative deepening first, the full search if undecided."""
        answer = self.deepen(state, t, group)
        if answer:
            return answer > 0
        self.depth = None
        return self.test(state, t - 1, t, group) >= t

    # ---- driving the search

    def root(self):
        """The initial state (black, white, side, passes, before) with its history pushed."""
        self.keys.clear()
        self.index.clear()
        self.masks[:] = [0]
        self.bit_count.clear()
        self.key_bits.clear()
        black, white, side = self.start
        state = (black, white, side, 0, None)
        self.push(self.history_key(*state))
        return state

    def test(self, state, alpha, beta, group=()) -> int:
        """The search's fail-soft value of ``state`` (with the current history) in (alpha, beta)."""
        black, white, side, passes, before = state
        return self.search(black, white, side, passes, before, alpha, beta, group)[0]

    def mtd(self, state, guess: int = 0) -> int:
        """The exact negamax value of the root ``state`` by tests "is it at least g?"
        closing in from ``guess``: iterative deepening answers most, a full null-window
        search the rest; the bounds proved so far are kept in ``lower`` and ``upper``.
        A first guess above 0 is tried within ``probe_nodes`` nodes (if its test is not
        settled by then, the tables are emptied); the tests then walk up from 0, or from
        the lower bound proved (successes are cheaper than failures, and walking up needs
        one failure where walking down needs one per step), and, with ``alternate``, down
        from the upper bound in turns (:meth:`walk`), so that a budget that runs out
        leaves an upper bound as well as a lower one (what each way costs:
        docs/solver.md, "How the value is found" and "Not done").  The worker processes
        of split tests end with it."""
        try:
            return self.closing_in(state, guess)
        finally:
            if self.pool is not None:
                self.pool.close()
                self.pool = None

    def closing_in(self, state, guess: int) -> int:
        """The walk of thresholds of :meth:`mtd`, from ``guess``."""
        self.lower, self.upper = self.bounds(*state[:3])
        g = min(max(guess, self.lower + 1), self.upper)
        if g > max(0, self.lower + 1) and self.probe_nodes:
            self.probe_until = self.nodes + self.probe_nodes
            try:
                self.settle(state, g)
            except ProbeSpent:
                self.forget()
            finally:
                self.probe_until = None
            g = min(max(0, self.lower + 1), self.upper)
        if not self.alternate:
            while self.lower < self.upper:
                g = self.settle(state, g)
            return self.lower
        share = self.first_share
        while self.lower < self.upper:
            g = self.walk(state, g, share, up=True)
            self.walk(state, g, share, up=False)
            share *= 2
        return self.lower

    def walk(self, state, g: int, share: int, up: bool) -> int:
        """Settle tests in one direction within ``share`` nodes: walking up from ``g`` (the
        next g is returned), or down (:meth:`descent_test`).  A test cut off by the share is
        left to the next turn; the tables keep what it proved."""
        self.share_until = self.nodes + share
        try:
            while self.lower < self.upper:
                if up:
                    g = self.settle(state, min(max(g, self.lower + 1), self.upper))
                else:
                    self.settle(state, self.descent_test())
        except ShareSpent:
            pass
        finally:
            self.share_until = None
        return g

    def descent_test(self) -> int:
        """The next test of the walk down: the upper bound (``step``), or the middle of the
        bounds proved so far, rounded up (``bisect``), so that a failure halves the interval
        and a success raises the lower bound past the middle.  Both lie in [lower + 1, upper]."""
        if self.descent == "bisect":
            return (self.lower + self.upper + 2) // 2
        return self.upper

    def forget(self) -> None:
        """Empty the tables and the history heuristic: what a probe far from the value
        learnt orders the later tests badly (docs/solver.md, "How the value is found")."""
        self.table.clear()
        if self.compiled_state is not None:
            from gorules.impl.kernels.solve import forget, huge_pages

            self.compiled_state = forget(self.compiled_state)
            if self.on_huge_pages:
                huge_pages(self.compiled_state)
        if self.dfpn_state is not None:
            from gorules.impl.kernels.dfpn import forget as forget_numbers

            self.dfpn_state = forget_numbers(self.dfpn_state)
        self.proofs.clear()
        self.settled.clear()
        self.test_nodes.clear()
        self.history_scores = ([0] * self.n, [0] * self.n)

    def settle(self, state, g: int) -> int:
        """Settle the test "at least g?" at the root, narrow ``lower`` or ``upper``; return
        the next g to test."""
        answer = self.decide(state, g)
        if answer > 0:
            self.lower, g = g, g + 1
        elif answer < 0:
            self.upper, g = g - 1, g - 1
        else:
            self.depth = None
            value = self.test(state, g - 1, g, self.group)
            if value >= g:
                self.lower, g = value, value + 1
            else:
                self.upper, g = value, value
        self.iterations += 1
        if self.progress is not None:
            self.progress(self)
        return min(max(g, self.lower + 1), self.upper)

    def decide(self, state, g: int) -> int:
        """The root's test "at least g?" (1, -1, or 0 if the deepening left it undecided):
        split over ``jobs`` worker processes once it has resisted ``split_after`` nodes in
        this process (:meth:`splittable`), else searched here, its nodes counted; a test
        that reaches ``split_after`` nodes here is split at once (SplitDue), not at the
        walk's next turn, so that the other workers do not wait out the turn's share.  A
        split test keeps to its turn's share as well; its tree waits in ``split_trees`` for
        the test's next turn."""
        if self.splittable(g):
            if g not in self.split_trees:
                self.split_trees[g] = Split(self, state, g, self.group)
            if self.pool is None:
                self.share_table()
                self.pool = Pool(self, self.jobs)
            return self.split_trees[g].run(self.pool)
        before = self.nodes
        if self.may_split():
            self.split_until = self.nodes + self.split_after - self.test_nodes.get(g, 0)
        try:
            return self.deepen(state, g, self.group)
        except SplitDue:
            pass
        finally:
            self.split_until = None
            self.test_nodes[g] = self.test_nodes.get(g, 0) + self.nodes - before
        return self.decide(state, g)

    def share_table(self) -> None:
        """Move the compiled core's table of answers into memory shared with the workers
        forked from now on (:func:`gorules.impl.kernels.solve.share`): what one process proves,
        the others reuse where its queries hold under their history.  ``SHARE_TABLE`` off:
        each worker keeps its own copy."""
        from gorules.impl.solving.split import SHARE_TABLE

        if SHARE_TABLE:
            from gorules.impl.kernels.solve import share

            self.compiled_state = share(self.compiled_arrays())

    def may_split(self) -> bool:
        """Whether root tests may be split: with more than one job, under df-pn in the
        compiled core, where processes can be forked, outside the first guess's probe."""
        return (
            self.jobs > 1
            and self.core == "compiled"
            and self.search_kind == "dfpn"
            and self.probe_until is None
            and fork_available()
        )

    def splittable(self, g: int) -> bool:
        """Whether the root's test of ``g`` is split: where tests may be split
        (:meth:`may_split`), once it has taken ``split_after`` nodes here."""
        return self.may_split() and self.test_nodes.get(g, 0) >= self.split_after

    @property
    def splits(self) -> list:
        """The split tests as JSON-able data (:meth:`Split.summary`), in the order they were
        split; a test still open may have been settled since by the other bounds."""
        return [split.summary() for split in self.split_trees.values()]

    def replay(self, path) -> tuple:
        """The state after the moves ``path`` from the root, the history pushed along them,
        and the automorphisms that fix every position of that history."""
        state = self.root()
        group = self.group
        for move in path:
            state, _ = self.step(state, move)
            group = self.child_group(group, state, move)
        return state, group

    def black_bounds(self) -> tuple[int, int]:
        """The bounds proved so far on the root's value for Black (no komi)."""
        return (-self.upper, -self.lower) if self.start[2] else (self.lower, self.upper)

    def step(self, state, move):
        """The state after ``move`` and whether a history key was pushed for it."""
        black, white, side, passes, _before = state
        nbefore = (black, white) if self.ko == "simple" else None
        if move == PASS:
            nb, nw, npasses = black, white, passes + 1
        else:
            nb, nw = self.kernel.play(black, white, move, side)
            npasses = 0
        child = (nb, nw, 1 - side, npasses, nbefore)
        if self.cycles:
            return child, self.push(self.history_key(*child))
        if move == PASS and self.ko != "situational":
            return child, False
        return child, self.push(self.history_key(nb, nw, 1 - side, npasses, nbefore))

    def legal(self, state):
        """The moves allowed in ``state`` under the current history, in search order; for
        cycle rules, moves that repeat a state are listed too (they end the line)."""
        black, white, side, _passes, before = state
        found = []
        for _, v, nb, nw in self.children(black, white, side):
            if self.ko == "simple" and before is not None and (nb, nw) == before:
                continue
            if not self.cycles:
                key = self.history_key(nb, nw, 1 - side, 0, None)
                if key in self.index:
                    continue
            found.append(v)
        return [PASS] + found

    def child_value(self, child, pushed: bool, value: int) -> int:
        """The value of ``child`` for its player to move, as far as telling whether it is at
        most -``value`` goes: 0 for a repeated state under a cycle rule, the final difference
        once two passes end the game, else a null-window search around -``value``."""
        if self.cycles and not pushed:
            return 0
        if child[3] >= 2:
            d = self.difference(child[0], child[1])
            return -d if child[2] else d
        return 1 - value if self.at_least(child, 1 - value) else -value

    def hinted(self, state, value: int, moves: list) -> list:
        """``moves`` with first the moves that the searches' tables remember as best at
        ``state`` (the proof of "at least ``value``", then the alpha-beta entry): the line
        then follows the proof just found instead of refuting the other moves one by one."""
        hints = []
        known = self.settled.get(state)
        proof = known[0] if known is not None and known[0] is not None and known[0][0] >= value else None
        for entry in (proof, self.table.get(state)):
            if entry is not None and entry[2] in moves and entry[2] not in hints:
                hints.append(entry[2])
        if self.compiled_state is not None:
            move = self.compiled_move(state, value)
            if move in moves and move not in hints:
                hints.append(move)
        return hints + [v for v in moves if v not in hints]

    def compiled_move(self, state, value: int):
        """The move of the compiled table's proof of "at least ``value``" at ``state``, or None."""
        import numpy as np

        from gorules.impl.kernels.solve import NO_MOVE, PASS_MOVE, move_of

        black, white, side, passes, _ = state
        move = int(move_of(self.compiled_arrays(), np.uint64(black), np.uint64(white), side, passes, value))
        return None if move == NO_MOVE else PASS if move == PASS_MOVE else move

    def held_move(self, state, value: int):
        """The move of a proof of "at least ``value``" at ``state`` that holds under the current
        history, or None: the compiled core's test is run at this state (which leaves its
        proof in the table, or finds one there that holds), then the table's bucket for the
        state is searched for a proof whose queries the history meets (H ∩ Q = D).  Unlike
        :meth:`compiled_move` it never gives the move of a proof made under another history
        (with several ways per state the bucket keeps such proofs side by side).  None with
        the Python core, or where the test is settled without the table (static bounds)."""
        if self.core != "compiled" or not self.at_least(state, value):
            return None
        import numpy as np

        from gorules.impl.kernels.solve import NO_MOVE, PASS_MOVE, held_move_of

        black, white, side, passes, _ = state
        arrays = self.compiled_arrays()
        move = int(
            held_move_of(arrays, *self.history_boards(), np.uint64(black), np.uint64(white), side, passes, value)
        )
        return None if move == NO_MOVE else PASS if move == PASS_MOVE else move

    def principal_variation(self, state, value: int, line: list | None = None) -> list:
        """Moves from ``state`` to the end of the game, each keeping the value ``value``,
        appended to ``line`` as they are found (so that a budget running out keeps the
        moves found so far)."""
        line = [] if line is None else line
        pushed = []
        try:
            while state[3] < 2:
                for v in self.hinted(state, value, self.legal(state)):
                    child, was_pushed = self.step(state, v)
                    if self.child_value(child, was_pushed, value) <= -value:
                        line.append(v)
                        state = child
                        value = -value
                        if was_pushed:
                            pushed.append(True)
                        break
                    if was_pushed:
                        self.pop()
                else:
                    raise AssertionError("no move keeps the value: the search is inconsistent")
                if self.cycles and not was_pushed:
                    break
        finally:
            for _ in pushed:
                self.pop()
        return line

    def perfect_within(self, state, value: int, limit: int):
        """A line of at most ``limit`` turns from ``state`` to the end of the game in which
        every turn keeps the perfect-play value ``value`` (negamax), or None."""
        if limit <= 0:
            return None
        for v in self.legal(state):
            child, pushed = self.step(state, v)
            try:
                ends = child[3] >= 2 or (self.cycles and not pushed)
                if self.child_value(child, pushed, value) <= -value:
                    if ends:
                        return [v]
                    rest = self.perfect_within(child, -value, limit - 1)
                    if rest is not None:
                        return [v] + rest
            finally:
                if pushed:
                    self.pop()
        return None

    def shortest_perfect_game(self, max_turns: int = 40) -> list | None:
        """A shortest game (fewest turns, passes included) in which every turn is a
        perfect-play turn: it keeps the value of the position it is played in.  Found by
        iterative deepening up to ``max_turns``; None if there is none that short."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 100_000))
        try:
            state = self.root()
            value = self.mtd(state)
            for turns in range(1, max_turns + 1):
                line = self.perfect_within(state, value, turns)
                if line is not None:
                    return line
            return None
        except BudgetSpent:
            raise SolveError(f"{self.graph.name}: the node budget of {self.max_nodes} nodes ran out") from None
        finally:
            sys.setrecursionlimit(limit)

    def solve(self, bounds_on_budget: bool = False) -> Result:
        """Solve the game from the start position: the value (for Black), a principal
        variation, the effort.  When the budget runs out: SolveError, or with
        ``bounds_on_budget`` a Result of status ``bounds`` with the bounds proved so far."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 100_000))
        compiling = self.compile_kernels()
        self.started = start = time.perf_counter()
        if self.max_seconds is not None:
            self.deadline = start + self.max_seconds
        komi = self.rules.komi
        try:
            state = self.root()
            value = self.mtd(state, self.guess())
            raw = -value if state[2] else value
            line: list = []
            try:
                self.principal_variation(state, value, line)
            except BudgetSpent as spent:
                # The value is proved; only the line that shows it was cut short.
                self.line_cut = str(spent)
        except BudgetSpent as spent:
            if not bounds_on_budget:
                raise SolveError(f"{self.graph.name}: {spent} before the value was found") from None
            lower, upper = self.black_bounds()
            return Result(
                graph=self.graph.name,
                rules=self.rules.name or self.rules.describe(),
                value=None,
                principal_variation=[],
                nodes=self.nodes,
                seconds=time.perf_counter() - start,
                cycle_rule=self.cycle_note(),
                details={
                    "rules": self.rules.describe(),
                    "table_entries": len(self.table),
                    "stopped": str(spent),
                    "core": self.core,
                    "search": self.search_kind if self.core == "compiled" else None,
                    "territory": self.territory,
                    "compile_seconds": compiling,
                    "jobs": self.jobs,
                    "descent": self.descent,
                    "splits": self.splits,
                },
                status="bounds",
                lower=lower - komi,
                upper=upper - komi,
            )
        finally:
            sys.setrecursionlimit(limit)
        seconds = time.perf_counter() - start
        return Result(
            graph=self.graph.name,
            rules=self.rules.name or self.rules.describe(),
            value=raw - komi,
            principal_variation=line,
            nodes=self.nodes,
            seconds=seconds,
            raw_value=raw,
            cycle_rule=self.cycle_note(),
            details={
                "rules": self.rules.describe(),
                "table_entries": len(self.table),
                "core": self.core,
                "search": self.search_kind if self.core == "compiled" else None,
                "territory": self.territory,
                "compile_seconds": compiling,
                "jobs": self.jobs,
                "descent": self.descent,
                "splits": self.splits,
            }
            | ({"principal_variation": f"cut short: {self.line_cut}"} if self.line_cut else {}),
            lower=raw - komi,
            upper=raw - komi,
        )

    def compile_kernels(self) -> float:
        """Make the compiled core's kernels ready before the clock and the budgets start, and
        return the seconds it took: numba compiles them on their first call after an install
        and loads them from its cache afterwards, much faster (both timed in docs/solver.md,
        "Budget, progress, bounds").  They are
        called by solving the one-point path under the same rules and search, which calls
        every kernel the search and its principal variation call, with the same types; once
        per search and process (``READIED``)."""
        if self.core != "compiled" or self.n <= 1 or self.search_kind in READIED:
            return 0.0
        from gorules.spec.graph import parse_graph

        started = time.perf_counter()
        self.phase = "compiling"
        if self.progress is not None:
            self.progress(self)
        Solver(parse_graph("path:1"), self.rules, core="compiled", search=self.search_kind).solve()
        READIED.add(self.search_kind)
        self.phase = "searching"
        if self.progress is not None:
            self.progress(self)
        return time.perf_counter() - started

    def guess(self) -> int:
        """The first guess of MTD(f): the whole board for the player to move, the value of
        3×3 (+9) and 2×4 (+8); where the value is smaller the tests then walk up from 0."""
        return self.guess_value

    def cycle_note(self) -> str | None:
        """The convention for lines that repeat a state, under the rules where play can cycle."""
        return "a repeated state ends the line, scored as equal areas" if self.cycles else None


def solve(
    graph: Graph,
    rules: str | Options | None = None,
    komi: float | None = None,
    max_nodes: int | None = None,
    transpositions: bool = True,
    max_points: int = MAX_POINTS,
) -> Result:
    """The perfect-play value of ``graph`` from the empty board under ``rules`` (Tromp–Taylor
    by default), with ``komi`` replacing the ruleset's komi if given."""
    rules = options_of(rules)
    if komi is not None:
        rules = rules.with_komi(komi)
    return Solver(graph, rules, max_nodes, transpositions, max_points).solve()
