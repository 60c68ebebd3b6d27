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
(:meth:`PythonCore.prove`: proved, disproved, or undecided at the horizon), which finds
short proofs without following the long capture-and-recapture lines that superko allows;
a test still undecided at ``max_depth`` turns is settled by the full negamax alpha-beta
null-window search (:meth:`PythonCore.search`), which has no horizon.

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
default in numba (``impl/kernels/solve.py``, ``core="compiled"``): :meth:`PythonCore.prove` on
bit masks, the same bounds, moves, order, folding and sharing of proofs, and the same
history test with D kept as the size and xor of 64-bit position keys (sound up to a 64-bit
hash collision, see that module); after the last horizon its proof search runs without
one as the full test.  :meth:`Solver.deepen` hands each test to it
(:class:`CompiledCore`); everything around the tests (the thresholds, the principal
variation, certificates, budgets) is Python's.

The parts
---------
:class:`Solver` composes one part per concern, each in a module of its own: the settings
(:class:`SolverSettings`), the accounting of nodes, budgets and worker processes
(:class:`Accounting`, :class:`Splitting`), the history and the reuse test of what was
proved under it (:class:`History`, :class:`SettledProofs`), the static bounds
(:class:`StaticBounds`), the move order and the symmetry (:class:`MoveOrder`), the walk of
thresholds (:class:`ThresholdWalk`), the two cores of the tests (:class:`PythonCore`,
:class:`CompiledCore`), the lines of play (:class:`Lines`) and the report
(:class:`Result`).  An attribute of the solver that a part keeps reads and sets the part's
(:class:`Part`), so that the solver's callers see one object.

Komi only shifts every final score by the same amount, so the solver searches with
komi 0 and subtracts komi from the value (the principal variation does not change).
"""

from __future__ import annotations

import sys
import time
from typing import Any

from gorules.impl.engine.options import Options, options_of
from gorules.impl.engine.rules import kernel
from gorules.impl.solving.accounting import TICK, Accounting, SplitDue, Splitting
from gorules.impl.solving.budget import BudgetSpent
from gorules.impl.solving.compiled_core import (
    CHUNK_FIRST,
    CHUNK_LAST,
    NUMBERS_REFRESH,
    SLICE_SECONDS,
    TABLE_WAYS,
    CompiledCore,
    next_chunk,
)
from gorules.impl.solving.history import FULL_MASK, MASK_BITS, History, SettledProofs, bit_positions
from gorules.impl.solving.lines import Lines
from gorules.impl.solving.move_order import (
    MAX_AUTOMORPHISMS,
    PASS,
    MoveOrder,
    automorphisms,
    child_group,
    image,
    stabiliser,
)
from gorules.impl.solving.python_core import INFINITY, PythonCore
from gorules.impl.solving.solver_result import Result, bounds, exact
from gorules.impl.solving.solver_settings import (
    DEFAULT_CORE,
    DEFAULT_SEARCH,
    MAX_POINTS,
    SEARCHES,
    SolverSettings,
    choose_core,
    choose_search,
)
from gorules.impl.solving.split_dask import DaskPool
from gorules.impl.solving.static_bounds import StaticBounds
from gorules.impl.solving.stops import ProbeSpent, ShareSpent, SolveError
from gorules.impl.solving.threshold_walk import (
    ALTERNATE,
    DEEPENING_FROM,
    DEEPENING_STEP,
    DESCENTS,
    FIRST_SHARE,
    PROBE_NODES,
    ThresholdWalk,
)
from gorules.spec.graph import Graph

__all__ = [
    "ALTERNATE",
    "CHUNK_FIRST",
    "CHUNK_LAST",
    "DEEPENING_FROM",
    "DEEPENING_STEP",
    "DEFAULT_CORE",
    "DEFAULT_SEARCH",
    "DESCENTS",
    "FIRST_SHARE",
    "FULL_MASK",
    "INFINITY",
    "MASK_BITS",
    "MAX_AUTOMORPHISMS",
    "MAX_POINTS",
    "NUMBERS_REFRESH",
    "PASS",
    "PROBE_NODES",
    "READIED",
    "SEARCHES",
    "SLICE_SECONDS",
    "TABLE_WAYS",
    "TICK",
    "BudgetSpent",
    "Part",
    "ProbeSpent",
    "Result",
    "ShareSpent",
    "SolveError",
    "Solver",
    "SolverSettings",
    "SplitDue",
    "automorphisms",
    "bit_positions",
    "next_chunk",
    "solve",
]

READIED: set = set()
"""The compiled searches whose kernels this process has called (``Solver.compile_kernels``)."""


class Part:
    """An attribute of the solver that one of its parts keeps: reading or setting the solver's
    attribute reads or sets the part's of the same name (or of the name ``alias``).  On the
    class it reads the default of the part's class ``kind`` where one is given."""

    def __init__(self, part: str, alias: str | None = None, kind: type | None = None):
        """The attribute of the solver's part ``part`` (an instance of ``kind``)."""
        self.part = part
        self.alias = alias
        self.kind = kind
        self.name = alias or ""

    def __set_name__(self, owner: type, name: str) -> None:
        """The name on the solver, the part's too unless aliased."""
        self.name = self.alias or name

    def __get__(self, solver: Any, owner: Any = None) -> Any:
        """The part's attribute; on the class, the default of ``kind`` (else this descriptor)."""
        if solver is None:
            return self if self.kind is None else getattr(self.kind, self.name)
        return getattr(getattr(solver, self.part), self.name)

    def __set__(self, solver: Any, value: Any) -> None:
        """Set the part's attribute."""
        setattr(getattr(solver, self.part), self.name, value)


class Solver:
    """The exact solver for one graph under one ruleset (see the module docstring): the
    settings of :class:`SolverSettings`, and one part per concern, composed."""

    history_kind: type[History] = History
    """The history's class (a subclass may give a mutant of its reuse test)."""
    settled_kind: type[SettledProofs] = SettledProofs
    """The class of the proof search's decided answers (likewise)."""

    # The accounting of nodes and budgets.
    nodes = Part("account")
    max_nodes = Part("account")
    max_seconds = Part("account")
    deadline = Part("account")
    next_tick = Part("account")
    started = Part("account")
    probe_until = Part("account")
    share_until = Part("account")
    split_until = Part("account")
    tick = Part("account")
    check_node_budget = Part("account")
    check_time_budget = Part("account")
    nodes_left = Part("account")
    node_allowance = Part("account")
    # The worker processes and their memory.
    jobs = Part("splitting")
    split_after = Part("splitting")
    split_first = Part("splitting")
    split_expand = Part("splitting")
    split_mutant = Part("splitting")
    test_nodes = Part("splitting")
    split_trees = Part("splitting")
    pool = Part("splitting")
    splits = Part("splitting")
    table_bytes = Part("splitting")
    private_bytes = Part("splitting")
    may_split = Part("splitting")
    splittable = Part("splitting")
    scheduler = Part("splitting")
    # The history and its reuse test.
    keys = Part("history")
    index = Part("history")
    push = Part("history")
    pop = Part("history")
    bit = Part("history")
    reusable = Part("history")
    hits_of = Part("history")
    history_key = Part("history", "key")
    history_boards = Part("history", "boards")
    # The scores and static bounds.
    difference = Part("static")
    bounds = Part("static")
    benson = Part("static")
    territory = Part("static")
    # The move order and the symmetry.
    children = Part("order")
    plan = Part("order")
    reward = Part("order")
    image = staticmethod(image)
    stabiliser = staticmethod(stabiliser)
    child_group = staticmethod(child_group)
    # The walk of thresholds.
    lower = Part("thresholds")
    upper = Part("thresholds")
    iterations = Part("thresholds")
    descent = Part("thresholds")
    max_depth = Part("thresholds")
    deepening_from = Part("thresholds")
    deepening_step = Part("thresholds")
    guess_value = Part("thresholds")
    probe_nodes = Part("thresholds")
    alternate = Part("thresholds")
    first_share = Part("thresholds")
    horizons = Part("thresholds")
    mtd = Part("thresholds")
    settle = Part("thresholds")
    decide = Part("thresholds")
    descent_test = Part("thresholds")
    # The Python core.
    table = Part("python")
    proofs = Part("python")
    settled = Part("python")
    search = Part("python")
    prove = Part("python")
    test = Part("python")
    # The compiled core.
    compiled_state = Part("compiled")
    dfpn_state = Part("compiled")
    table_bits = Part("compiled")
    table_ways = Part("compiled")
    numbers_refresh = Part("compiled")
    numbers_emptied = Part("compiled")
    on_huge_pages = Part("compiled")
    huge_pages_after = Part("compiled", kind=CompiledCore)
    table_forgets_history = Part("compiled", kind=CompiledCore)
    dfpn_mutant = Part("compiled", kind=CompiledCore)
    dfpn_queries = Part("compiled", kind=CompiledCore)
    dfpn_epsilon = Part("compiled", kind=CompiledCore)
    dfpn_initial = Part("compiled", kind=CompiledCore)
    dfpn_fold = Part("compiled", kind=CompiledCore)
    compiled_arrays = Part("compiled")
    compiled_dfpn = Part("compiled")
    folds = Part("compiled")
    compiled_prove = Part("compiled")
    compiled_move = Part("compiled")
    compiled_deepen = Part("compiled", "deepen")
    share_table = Part("compiled")
    # Lines of play.
    step = Part("lines")
    legal = Part("lines")
    replay = Part("lines")
    child_value = Part("lines")
    hinted = Part("lines")
    principal_variation = Part("lines")
    perfect_within = Part("lines")
    shortest_perfect_game = Part("lines")

    def __init__(self, *args: Any, **kwargs: Any):
        """A solver with the settings ``SolverSettings(*args, **kwargs)`` (SolveError for
        settings it refuses), its parts made."""
        settings = self.settings = SolverSettings(*args, **kwargs)
        graph = self.graph = settings.graph
        self.options: Options = options_of(settings.options)
        self.kernel = kernel(graph)
        self.n = graph.order
        self.transpositions = settings.transpositions
        self.ko = self.options.ko
        self.suicide_allowed = self.options.suicide == "allowed"
        self.stone_scoring = self.options.scoring == "stone"
        self.cycles = self.ko in ("simple", "none")
        self.start = settings.start or (0, 0, 0)
        self.progress = settings.progress
        self.depth: int | None = None
        self.phase = "searching"
        self.line_cut: str | None = None
        self.account = Accounting(self, settings.max_nodes, settings.max_seconds)
        self.history = self.history_kind(self.n, self.ko)
        # Benson's bounds hold for games that end by two passes; a repetition scored as a
        # draw (the cycle rules' convention) is outside them.
        benson = settings.benson and not self.cycles and self.kernel.symmetric
        territory = settings.territory and benson and not self.stone_scoring
        self.static = StaticBounds(self.kernel, self.suicide_allowed, self.stone_scoring, benson, territory)
        self.order = MoveOrder(graph, self.kernel, self.suicide_allowed)
        self.group = automorphisms(graph, *self.start[:2]) if settings.symmetry else ()
        self.core = choose_core(settings.core, self.ko, self.kernel.symmetric, self.n)
        self.search_kind = choose_search(settings.search, self.core)
        self.thresholds = ThresholdWalk(self, settings.descent, settings.max_depth)
        self.python = PythonCore(self)
        self.compiled = CompiledCore(self, settings.table_bits, settings.table_ways)
        self.splitting = Splitting(self, settings.jobs, DaskPool)
        self.lines = Lines(self)

    def root(self):
        """The initial state (black, white, side, passes, before) with its history pushed."""
        self.history.clear()
        black, white, side = self.start
        state = (black, white, side, 0, None)
        self.history.push(self.history.key(*state))
        return state

    def deepen(self, state, t, group=()) -> int:
        """Whether the player to move in ``state`` can force at least ``t``, by iterative
        deepening up to ``max_depth`` turns: 1, -1, or 0 if undecided.  The compiled core
        then runs the full test too, so it always decides."""
        if self.core == "compiled":
            return self.compiled.deepen(state, t, group)
        return self.python.deepen(state, t, group)

    def at_least(self, state, t, group=()) -> bool:
        """Whether the player to move in ``state`` (with the current history) can force a
        value of at least ``t``: iterative deepening first, the full search if undecided."""
        answer = self.deepen(state, t, group)
        if answer:
            return answer > 0
        self.depth = None
        return self.python.test(state, t - 1, t, group) >= t

    def held_move(self, state, value: int):
        """The move of a proof of "at least ``value``" at ``state`` that holds under the current
        history, or None: the compiled core's test is run at this state (which leaves its
        proof in the table, or finds one there that holds), then the table's bucket for the
        state is searched for a proof whose queries the history meets (H ∩ Q = D).  Unlike
        :meth:`CompiledCore.compiled_move` it never gives the move of a proof made under
        another history (with several ways per state the bucket keeps such proofs side by
        side).  None with the Python core, or where the test is settled without the table
        (static bounds)."""
        if self.core != "compiled" or not self.at_least(state, value):
            return None
        return self.compiled.held_move(state, value)

    def forget(self) -> None:
        """Empty the tables and the history heuristic: what a probe far from the value
        learnt orders the later tests badly (docs/solver.md, "How the value is found")."""
        self.python.table.clear()
        self.compiled.forget()
        self.python.proofs.clear()
        self.python.settled.clear()
        self.splitting.test_nodes.clear()
        self.order.forget()

    def black_bounds(self) -> tuple[int, int]:
        """The bounds proved so far on the root's value for Black (no komi)."""
        lower, upper = self.thresholds.lower, self.thresholds.upper
        return (-upper, -lower) if self.start[2] else (lower, upper)

    def solve(self, bounds_on_budget: bool = False) -> Result:
        """Solve the game from the start position: the value (for Black), a principal
        variation, the effort.  When the budget runs out: SolveError, or with
        ``bounds_on_budget`` a Result of status ``bounds`` with the bounds proved so far."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 100_000))
        self.splitting.connect()  # an unreachable cluster is refused before any work
        compiling = self.compile_kernels()
        start = self.account.start_clock()
        try:
            state = self.root()
            value = self.thresholds.mtd(state, self.guess())
            raw = -value if state[2] else value
            line: list = []
            try:
                self.lines.principal_variation(state, value, line)
            except BudgetSpent as spent:
                # The value is proved; only the line that shows it was cut short.
                self.line_cut = str(spent)
        except BudgetSpent as spent:
            if not bounds_on_budget:
                raise SolveError(f"{self.graph.name}: {spent} before the value was found") from None
            return bounds(self, str(spent), time.perf_counter() - start, compiling)
        finally:
            sys.setrecursionlimit(limit)
            self.splitting.close()
        return exact(self, raw, line, time.perf_counter() - start, compiling)

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
        Solver(parse_graph("path:1"), self.options, core="compiled", search=self.search_kind).solve()
        READIED.add(self.search_kind)
        self.phase = "searching"
        if self.progress is not None:
            self.progress(self)
        return time.perf_counter() - started

    def guess(self) -> int:
        """The first guess of MTD(f): the whole board for the player to move, the value of
        3×3 (+9) and 2×4 (+8); where the value is smaller the tests then walk up from 0."""
        return self.thresholds.guess_value

    def cycle_note(self) -> str | None:
        """The convention for lines that repeat a state, under the rules where play can cycle."""
        return "a repeated state ends the line, scored as equal areas" if self.cycles else None


def solve(
    graph: Graph,
    options: str | Options | None = None,
    komi: float | None = None,
    max_nodes: int | None = None,
    transpositions: bool = True,
    max_points: int = MAX_POINTS,
) -> Result:
    """The perfect-play value of ``graph`` from the empty board under ``options`` (Options, or
    a preset's name; Tromp–Taylor by default), with ``komi`` replacing the options' komi if given."""
    options = options_of(options)
    if komi is not None:
        options = options.with_komi(komi)
    return Solver(graph, options, max_nodes, transpositions, max_points).solve()
