"""The driver of the Tromp–Taylor solver's compiled core (:mod:`gorules.impl.solving.solve`,
"The compiled core"): it hands each threshold test to the numba kernels
(``impl/kernels/solve.py``, the deepening; ``impl/kernels/dfpn.py``, df-pn) with the current
history, runs them in slices of nodes between which the budgets are checked and the progress
shown, and keeps their arrays (table of answers, table of numbers)."""

from __future__ import annotations

import time
from typing import Any

from gorules.impl.solving.move_order import PASS
from gorules.impl.solving.stops import SolveError

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
FOLD_FROM = 7
"""The fewest points of a graph on which df-pn's numbers are shared by symmetric boards by
default (``CompiledCore.dfpn_fold``)."""
CHUNK_FIRST = 1 << 16
CHUNK_LAST = 1 << 20
"""The compiled kernel's nodes between returns to Python (budget, progress): from 2^16
doubling to 2^20 within one test; the kernel resumes where it stopped."""
SLICE_SECONDS = 0.25
"""The time a slice of the df-pn kernel aims at (``next_chunk``)."""


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


class CompiledCore:
    """The compiled kernels' arrays for one solve, and the tests run in them."""

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
    """df-pn's numbers of a node not searched yet: (1, 1) (0 here); a dn of its empty points
    divided by this (positive); or, negative, numbers from the area score its board would
    have if the game ended now, its distance below the threshold (in units of minus this)
    added to pn and its distance at or above added to dn."""
    dfpn_fold: bool | None = None
    """Whether df-pn's numbers are shared by the boards the graph's automorphisms map onto
    each other (kept under the least image); None: on graphs of at least ``FOLD_FROM``
    points.  Numbers order the search and decide nothing, so sharing them is sound whatever
    the histories; it saves nodes on the rectangles and strips and loses on the dense
    graphs of six points, whose few boards already share their numbers across many
    histories (docs/solver.md, "Numbers shared by symmetric boards")."""
    huge_pages_after = 60.0
    """Seconds of solving after which the compiled core's private tables move to huge pages
    (``kernels.solve.huge_pages``): worth it for a long solve, whose random probes of the
    table miss the address translation cache less often on huge pages, a loss for a short one,
    which would clear a whole huge page for each of its first answers (docs/solver.md, "Huge
    pages, once a solve has run long")."""

    def __init__(self, solver, table_bits: int | None, table_ways: int | None):
        """The compiled core of ``solver``: a table of 2^``table_bits`` slots (about four per
        state, 4·3^n bounding the states, up to 2^20), ``table_ways`` slots per state."""
        self.solver = solver
        self.table_bits = table_bits if table_bits is not None else min(20, (4 * 3**solver.n).bit_length() + 2)
        self.table_ways = table_ways or (TABLE_WAYS if solver.search_kind == "dfpn" else 1)
        self.compiled_state: tuple | None = None
        self.dfpn_state: tuple | None = None
        self.numbers_refresh = NUMBERS_REFRESH
        self.numbers_emptied = 0
        self.on_huge_pages = False

    def compiled_arrays(self) -> tuple:
        """The compiled kernel's arrays (table, history, buffers), made on first use."""
        if self.compiled_state is None:
            from gorules.impl.kernels import solve as _numba_solve

            solver = self.solver
            self.compiled_state = _numba_solve.arrays(
                solver.kernel.out,
                solver.ko == "situational",
                solver.suicide_allowed,
                solver.stone_scoring,
                (2 if solver.territory else 1) if solver.benson else 0,
                solver.transpositions,
                solver.group,
                self.table_bits,
                self.table_forgets_history,
                self.table_ways,
            )
        return self.compiled_state

    def group_mask(self, group) -> int:
        """The automorphisms of ``group`` as a mask over the kernel's first 64 of the solver's
        group (a subset of a stabiliser folds soundly too)."""
        index = {sigma: i for i, sigma in enumerate(self.solver.group[:64])}
        mask = 0
        for sigma in group:
            if sigma in index:
                mask |= 1 << index[sigma]
        return mask

    def deepen(self, state, t, group=()) -> int:
        """The compiled core's test "at least ``t``?": df-pn, or the horizons of the
        deepening then the full test (the kernel's depth-limited proof without a horizon)."""
        from gorules.impl.kernels.solve import UNBOUNDED

        solver = self.solver
        if solver.search_kind == "dfpn":
            solver.depth = None
            return self.compiled_dfpn(state, t, group)
        for depth in [*solver.horizons(), UNBOUNDED]:
            solver.depth = depth if depth < UNBOUNDED else None
            answer = self.compiled_prove(state, t, depth, group)
            if answer:
                return answer
        raise AssertionError("the full test is always decided")

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
        boards = self.solver.history.boards()
        begin(arrays, *boards, np.uint64(black), np.uint64(white), side, passes, t, depth, mask)
        return self.sliced(lambda limit: resume(arrays, limit), lambda chunk, _seconds: min(2 * chunk, CHUNK_LAST))

    def sliced(self, run, grow) -> int:
        """Run a kernel's test set up beforehand in slices of nodes, its code at the end:
        ``run(limit)`` resumes it for at most ``limit`` nodes; between slices the budgets
        are checked and the progress shown; ``grow(size, seconds)`` sizes the next slice
        from the last one's size and time.  A test decided in a slice after which a budget
        has run out is answered all the same (the next slice's check sees the budget): its
        answer would otherwise be lost with the kernel's search."""
        from gorules.impl.kernels import solve as ks

        account = self.solver.account
        counters = self.compiled_arrays()[10]
        chunk = CHUNK_FIRST
        while True:
            counters[ks.S_NODES] = 0
            started = time.perf_counter()
            code = int(run(account.node_allowance(chunk)))
            spent = time.perf_counter() - started
            account.nodes += int(counters[ks.S_NODES])
            if code == ks.OVERFLOW:
                raise SolveError(f"{self.solver.graph.name}: a line longer than the compiled core's {ks.MAX_PLY} turns")
            if code != ks.SUSPENDED:
                return code
            account.tick()
            self.move_to_huge_pages()
            chunk = grow(chunk, spent)

    def move_to_huge_pages(self) -> None:
        """Once the solve has run ``huge_pages_after`` seconds, ask for huge pages under the
        compiled core's private tables (once per process: a forked worker asks for its own)."""
        if self.on_huge_pages or time.perf_counter() - self.solver.account.started < self.huge_pages_after:
            return
        from gorules.impl.kernels import solve as ks

        self.on_huge_pages = True
        ks.huge_pages(self.compiled_arrays())

    def compiled_dfpn(self, state, t, group=(), going_on: bool = False) -> int:
        """The df-pn kernel's answer to "at least ``t``?" from ``state`` under the current
        history: 1 or -1, in slices of nodes as :meth:`compiled_prove` runs them.  With
        ``going_on`` the kernel goes on from where its last search stopped (BudgetSpent), which
        must have been this test under this history, the kernel not called since."""
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
                fold=min(64, len(self.solver.group)) if self.folds() else 0,
            )
        numbers = self.dfpn_state
        begin: Any = kd.begin
        resume: Any = kd.resume
        black, white, side, passes, _ = state
        mask = np.uint64(self.group_mask(group))
        if not going_on:
            boards = self.solver.history.boards()
            begin(arrays, numbers, *boards, np.uint64(black), np.uint64(white), side, passes, t, mask)
        code = self.sliced(lambda limit: resume(arrays, numbers, self.refreshed(numbers, limit)), next_chunk)
        if code == 0:
            raise AssertionError("df-pn left the root undecided")
        return code

    def folds(self) -> bool:
        """Whether df-pn's numbers are shared by symmetric boards (``dfpn_fold``)."""
        return self.dfpn_fold if self.dfpn_fold is not None else self.solver.n >= FOLD_FROM

    def refreshed(self, numbers, limit: int) -> int:
        """The slice of df-pn nodes ``limit`` cut to end where the table of numbers is next
        emptied (every ``numbers_refresh`` nodes this process has searched), the table emptied
        first if that time has come.  The numbers only order the search, so its answers stay
        exact (``tests/test_solve_dfpn.py``)."""
        if not self.numbers_refresh:
            return limit
        nodes = self.solver.account.nodes
        if nodes - self.numbers_emptied >= self.numbers_refresh:
            from gorules.impl.kernels.dfpn import empty_numbers

            empty_numbers(numbers)
            self.numbers_emptied = nodes
        return min(limit, self.numbers_emptied + self.numbers_refresh - nodes)

    def compiled_move(self, state, value: int):
        """The move of the compiled table's proof of "at least ``value``" at ``state``, or None."""
        import numpy as np

        from gorules.impl.kernels.solve import NO_MOVE, PASS_MOVE, move_of

        black, white, side, passes, _ = state
        move = int(move_of(self.compiled_arrays(), np.uint64(black), np.uint64(white), side, passes, value))
        return None if move == NO_MOVE else PASS if move == PASS_MOVE else move

    def held_move(self, state, value: int):
        """The move of the table's proof of "at least ``value``" at ``state`` whose queries the
        current history meets (H ∩ Q = D), or None; the test has been run at this state."""
        import numpy as np

        from gorules.impl.kernels.solve import NO_MOVE, PASS_MOVE, held_move_of

        black, white, side, passes, _ = state
        arrays = self.compiled_arrays()
        boards = self.solver.history.boards()
        move = int(held_move_of(arrays, *boards, np.uint64(black), np.uint64(white), side, passes, value))
        return None if move == NO_MOVE else PASS if move == PASS_MOVE else move

    def forget(self) -> None:
        """Empty the table of answers and the table of numbers."""
        if self.compiled_state is not None:
            from gorules.impl.kernels.solve import forget, huge_pages

            self.compiled_state = forget(self.compiled_state)
            if self.on_huge_pages:
                huge_pages(self.compiled_state)
        if self.dfpn_state is not None:
            from gorules.impl.kernels.dfpn import forget as forget_numbers

            self.dfpn_state = forget_numbers(self.dfpn_state)

    def share_table(self) -> None:
        """Move the compiled core's table of answers into memory shared with the workers
        forked from now on (:func:`gorules.impl.kernels.solve.share`): what one process proves,
        the others reuse where its queries hold under their history.  ``SHARE_TABLE`` off:
        each worker keeps its own copy."""
        from gorules.impl.solving.split import SHARE_TABLE

        if SHARE_TABLE:
            from gorules.impl.kernels.solve import share

            self.compiled_state = share(self.compiled_arrays())
