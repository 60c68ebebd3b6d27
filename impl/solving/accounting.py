"""What a Tromp–Taylor solve (:mod:`gorules.impl.solving.solve`) spends and may spend: its nodes
against the node and time budgets and the marks that end a probe, a turn's share or a test's
run before its split (:class:`Accounting`), and the memory and worker processes over which a
resisting test is split (:class:`Splitting`, :mod:`gorules.impl.solving.split`)."""

from __future__ import annotations

import time

from gorules.impl.solving.budget import BudgetSpent
from gorules.impl.solving.split import (
    SPLIT_AFTER,
    SPLIT_EXPAND,
    SPLIT_FIRST,
    Pool,
    Split,
    Workers,
    fork_available,
    jobs_within,
    memory_available,
)
from gorules.impl.solving.stops import ProbeSpent, ShareSpent, SolveError

TICK = 4096


class SplitDue(Exception):
    """Raised inside the search when the root's test has taken ``split_after`` nodes in this
    process: it is split over the worker processes from there on."""


class Accounting:
    """The nodes of one solve, its budgets, and the marks at which the search stops."""

    def __init__(self, solver, max_nodes: int | None, max_seconds: float | None):
        """Count the nodes of ``solver`` (whose ``progress`` is called at each tick) within
        ``max_nodes`` nodes and ``max_seconds`` seconds (None: no limit)."""
        self.solver = solver
        self.nodes = 0
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.deadline: float | None = None
        self.next_tick = TICK if max_nodes is None else min(TICK, max_nodes + 1)
        self.started = time.perf_counter()
        self.probe_until: int | None = None
        self.share_until: int | None = None
        self.split_until: int | None = None

    def start_clock(self) -> float:
        """Start the time budget now; the time it started."""
        self.started = start = time.perf_counter()
        if self.max_seconds is not None:
            self.deadline = start + self.max_seconds
        return start

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
        solver = self.solver
        if solver.progress is not None:
            solver.progress(solver)

    def check_node_budget(self) -> None:
        """BudgetSpent if more than ``max_nodes`` nodes have been visited."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetSpent(f"the node budget of {self.max_nodes:,} nodes ran out")

    def check_time_budget(self) -> None:
        """BudgetSpent if the time budget's deadline has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetSpent(f"the time budget of {self.max_seconds:g} s ran out")

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


class Splitting:
    """The worker processes over which a root test that resists is split, and the memory they
    take; or the Dask cluster whose workers it is split over (``scheduler``)."""

    def __init__(self, solver, jobs: int | None, cluster_pool=None):
        """Split the tests of ``solver`` over ``jobs`` workers where memory allows
        (:meth:`jobs_within_memory`), or over the Dask cluster of its settings' ``scheduler``
        through ``cluster_pool(solver, address)``, the pool of that cluster's workers (given
        by the solver, so that this module needs no cluster of its own)."""
        self.solver = solver
        self.cluster_pool = cluster_pool
        self.scheduler = solver.settings.scheduler
        self.split_after = SPLIT_AFTER
        self.split_first = SPLIT_FIRST
        self.split_expand = SPLIT_EXPAND
        self.split_mutant = 0
        self.test_nodes: dict = {}
        self.split_trees: dict = {}
        self.pool: Workers | None = None
        self.jobs = 1 if self.scheduler else self.jobs_within_memory(jobs)

    def table_bytes(self) -> int:
        """The bytes of the compiled core's table of answers, which a split shares between
        the solving process and its workers."""
        from gorules.impl.kernels import solve as _numba_solve

        return _numba_solve.table_bytes(self.solver.table_bits)

    def private_bytes(self) -> int:
        """The bytes of the compiled core's other large arrays (bounds' cache, numbering of
        keys, and under df-pn its table of numbers): what each worker of a split may copy."""
        from gorules.impl.kernels import dfpn as _numba_dfpn
        from gorules.impl.kernels import solve as _numba_solve

        solver = self.solver
        numbers = _numba_dfpn.table_bytes(solver.table_bits) if solver.search_kind == "dfpn" else 0
        return _numba_solve.private_bytes(solver.n) + numbers

    def jobs_within_memory(self, jobs: int | None) -> int:
        """The worker processes this solve may split a test over (:func:`jobs_within`):
        ``jobs`` where the shared table and the private arrays of the solving process and of
        that many workers fit in memory, SolveError naming ``--jobs`` where they do not; None
        the cores, as many as fit.  ``jobs`` as asked (None: 1) where no test can be split
        (the Python core, the deepening)."""
        solver = self.solver
        if solver.core != "compiled" or solver.search_kind != "dfpn" or not fork_available():
            return 1 if jobs is None else jobs
        try:
            return jobs_within(jobs, self.private_bytes(), self.table_bytes(), memory_available())
        except ValueError as error:
            raise SolveError(str(error)) from None

    def may_split(self) -> bool:
        """Whether root tests may be split: with more than one job where processes can be
        forked, or on a Dask cluster; under df-pn in the compiled core, outside the first
        guess's probe."""
        solver = self.solver
        return (
            (bool(self.scheduler) or (self.jobs > 1 and fork_available()))
            and solver.core == "compiled"
            and solver.search_kind == "dfpn"
            and solver.account.probe_until is None
        )

    def splittable(self, g: int) -> bool:
        """Whether the root's test of ``g`` is split: where tests may be split
        (:meth:`may_split`), once it has taken ``split_after`` nodes here."""
        return self.may_split() and self.test_nodes.get(g, 0) >= self.split_after

    def run(self, state, g: int) -> int:
        """The root's test of ``g`` split over the workers (forked, or the Dask cluster's),
        within the turn's share: its tree waits in ``split_trees`` for the test's next turn."""
        solver = self.solver
        if g not in self.split_trees:
            self.split_trees[g] = Split(solver, state, g, solver.group)
        if self.pool is None and self.scheduler:
            self.connect()
        elif self.pool is None:
            solver.compiled.share_table()
            self.pool = Pool(solver, self.jobs)
        return self.split_trees[g].run(self.pool)

    def connect(self) -> None:
        """Reach the Dask cluster of ``scheduler``, if any, before the solve starts (SolveError
        in one line if it cannot be reached); ``jobs`` becomes the most threads its workers
        have had."""
        if not self.scheduler or self.pool is not None:
            return
        if self.cluster_pool is None:
            raise SolveError(f"{self.solver.graph.name}: this solver has no pool for a Dask cluster")
        self.pool = self.cluster_pool(self.solver, self.scheduler)

    def close(self) -> None:
        """End the worker processes."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    @property
    def splits(self) -> list:
        """The split tests as JSON-able data (:meth:`Split.summary`), in the order they were
        split; a test still open may have been settled since by the other bounds."""
        return [split.summary() for split in self.split_trees.values()]
