"""A split test's leaves as tasks of a Dask cluster: the pool of :class:`impl.solving.split.Split`
when the workers are other machines (``gorules solve --scheduler ADDRESS``).

Each open leaf handed out becomes one task, :class:`Leaf`: the solve's settings (graph,
rules, tables; what the leaf's answer depends on), the moves from the test's root, the
threshold, the node budget and the seconds left.  On the worker, :func:`leaf_task` keeps one
solver per thread for the settings it was last given (``WORKER_SOLVERS``), so that its tables
go on from leaf to leaf, and decides the leaf as a forked worker does
(:func:`impl.solving.split.decide_leaf`): by df-pn from the leaf's exact position with the
leaf's exact history pushed.  Its table is its own, not the driver's nor another worker's.

Why nothing is lost.  A leaf's answer depends on nothing but the leaf (its position, its
history, its threshold, the rules): a task started again on another worker, whose table
holds other answers, gives the same answer, or runs out of its budget and comes back open.
A worker that dies has its tasks run again by the scheduler on the others; a task whose
workers kept dying (Dask's ``KilledWorker``) comes back as no reply, and its leaf is open
again and handed out anew.  The soundness of the split (each answer used at its own node
only) does not rest on the table being shared: an answer reused from a table is reused
where its history queries hold, in whichever process holds the table.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, fields, replace

from gorules.impl.solving.solver_settings import SolverSettings
from gorules.impl.solving.split import decide_leaf, quiet
from gorules.impl.solving.stops import SolveError

CONNECT_SECONDS = 20
"""How long the driver tries to reach the scheduler before the solve is refused."""

WORKER_SOLVERS: dict = {}
"""On a Dask worker: for each thread, the settings it solved last, its solver, and the
(path, t) of the leaf its df-pn stopped on last (None if decided)."""


@dataclass(frozen=True)
class Leaf:
    """A leaf's task: the solve's ``settings`` (no budget, no progress, one job) and the class
    of its solver, ``make`` (sent by reference: the worker builds its own), the leaf's moves
    from the test's root ``path``, its threshold ``t`` for the player to move, the nodes it
    may take, ``budget``, and the seconds left of the solve's time budget (None: none)."""

    settings: SolverSettings
    make: type
    path: tuple
    t: int
    budget: int
    seconds: float | None


def worker_settings(settings: SolverSettings) -> SolverSettings:
    """The settings a worker's solver is made with: the solve's, without its budgets, its
    progress, its jobs or its scheduler (the driver keeps to those), so that the leaves of one
    solve find the same solver."""
    return replace(settings, max_nodes=None, max_seconds=None, progress=None, jobs=1, scheduler=None)


def worker_solver(settings: SolverSettings, make: type) -> list:
    """This thread's [settings, solver, cut] for ``settings``: the one kept from its last leaf
    if that leaf was of the same settings and class, else a new solver of class ``make`` (its
    kernels readied), which replaces it."""
    kept = WORKER_SOLVERS.get(threading.get_ident())
    if kept is None or kept[0] != settings or type(kept[1]) is not make:
        solver = make(**{field.name: getattr(settings, field.name) for field in fields(settings)})
        solver.compile_kernels()
        quiet(solver)
        kept = WORKER_SOLVERS[threading.get_ident()] = [settings, solver, None]
    return kept


def leaf_task(leaf: Leaf) -> tuple:
    """On a Dask worker: decide ``leaf`` within its budget and its seconds, with this thread's
    solver for its settings; the reply (answer, nodes, (pn, dn)) of
    :func:`impl.solving.split.decide_leaf`."""
    kept = worker_solver(leaf.settings, leaf.make)
    solver = kept[1]
    deadline = None
    if leaf.seconds is not None:
        solver.max_seconds = leaf.seconds
        deadline = time.perf_counter() + leaf.seconds
    reply, kept[2] = decide_leaf(solver, (leaf.path, leaf.t, leaf.budget, deadline), kept[2])
    return reply


def connect(address: str):
    """A Dask client of the scheduler at ``address``; SolveError in one line if it cannot be reached."""
    from distributed import Client

    try:
        return Client(address, timeout=CONNECT_SECONDS)
    except Exception as error:
        why = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SolveError(f"cannot reach the Dask scheduler at {address}: {why}") from None


class DaskPool:
    """The workers of a Dask cluster as the pool of split tests (the interface of
    :class:`impl.solving.split.Pool`): one slot per thread of the cluster's workers as they
    are when leaves are handed out (workers join and die), each slot holding at most one
    leaf's task."""

    def __init__(self, solver, address: str):
        """Reach the scheduler at ``address`` (SolveError if it cannot be reached)."""
        self.solver = solver
        self.address = address
        self.client = connect(address)
        self.settings = worker_settings(solver.settings)
        self.futures: dict = {}
        self.width = 1
        self.slots()

    def slots(self) -> range:
        """One slot per thread of the cluster's workers now, at least one; ``width`` the most
        there have been, and the solver's ``jobs`` with it."""
        now = max(1, sum(self.client.nthreads().values()))
        self.width = max(self.width, now)
        self.solver.jobs = self.width
        return range(now)

    def hand(self, index: int, task: tuple) -> None:
        """Submit the leaf ``task`` (path, t, budget, deadline) for slot ``index``: its
        deadline sent as the seconds left, each machine having its own clock."""
        path, t, budget, deadline = task
        seconds = None if deadline is None else max(0.0, deadline - time.perf_counter())
        leaf = Leaf(self.settings, type(self.solver), tuple(path), t, budget, seconds)
        self.futures[index] = self.client.submit(leaf_task, leaf, pure=False)

    def answers(self, busy: list, seconds: float) -> list:
        """(index, reply) of the busy slots whose tasks finish within ``seconds``; the reply
        None for a task Dask gave up on (``KilledWorker``: its workers kept dying)."""
        from distributed import wait
        from distributed.scheduler import KilledWorker

        futures = [self.futures[index] for index in busy]
        try:
            wait(futures, timeout=seconds, return_when="FIRST_COMPLETED")
        except (TimeoutError, asyncio.TimeoutError):  # one class from Python 3.11 on
            return []
        replies = []
        for index in busy:
            future = self.futures[index]
            if not future.done():
                continue
            del self.futures[index]
            try:
                replies.append((index, future.result()))
            except KilledWorker:
                replies.append((index, None))
        return replies

    def end(self, index: int) -> None:
        """Drop slot ``index``'s task: its answer is not wanted (a task already running
        finishes within its budget on its worker and is ignored)."""
        future = self.futures.pop(index, None)
        if future is not None:
            future.cancel()

    def close(self) -> None:
        """Drop every task and leave the cluster."""
        for index in list(self.futures):
            self.end(index)
        self.client.close()
