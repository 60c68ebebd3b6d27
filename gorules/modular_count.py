"""The packed count of legal positions split by modulus: one task per prime, run on a local
process pool or a Dask cluster, each finished residue stored, the exact count recombined.

The packed count (:mod:`gorules.impl.counting.packed`) keeps the number of legal positions
modulo several word primes, enough that their product exceeds 3^points, and recombines them
by the Chinese remainder theorem.  The residues modulo distinct primes are independent, so
each can be one task: a task keeps one count a state instead of several, and the tasks run
on as many processes or machines as there are primes.  One prime more than the count needs
is computed too, as a check: the count recombined from the needed primes must have, modulo
the check prime, the residue computed for it.  A wrong residue (a faulty machine, a
corrupted database row) makes the recombined count a number unrelated to the true one,
whose residue modulo the check prime agrees by chance with probability about 2^-62.

The tasks run on the pool and the Dask cluster of the sweeps (:mod:`gorules.sweep`): a
worker killed part way has its task run again; and the residues are stored in the sweeps'
results database (:mod:`gorules.store`) as each task finishes, so that a rerun on the same
database computes only the primes missing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

from gorules.errors import UsageError
from gorules.impl.counting.packed import chinese_remainder, primes_for, residues_modulo, word_primes
from gorules.shard_tasks import sharded_residues
from gorules.spec.graph import Graph, parse_graph
from gorules.store import Residue, Store
from gorules.sweep import dask_outcomes, local_outcomes


@dataclass(frozen=True)
class Moduli:
    """The primes of a count: those whose product exceeds 3^points, and one more to check."""

    needed: tuple[int, ...]
    check: int

    @property
    def primes(self) -> tuple[int, ...]:
        """Every prime a task is run for, the check prime last."""
        return (*self.needed, self.check)


def moduli_for(graph: Graph) -> Moduli:
    """The primes of the exact count of ``graph``, and the next word prime as its check."""
    needed = primes_for(graph.order)
    return Moduli(needed, word_primes(len(needed) + 1)[-1])


def peak_memory() -> int | None:
    """The most resident memory this process has held, in bytes (None where unknown)."""
    try:
        import resource
    except ImportError:
        return None
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class OutOfTime(Exception):
    """A task's time budget ran out."""


class TaskClock:
    """The progress of one task, which stops it once its time budget is spent."""

    def __init__(self, seconds: float, points: int):
        self.seconds, self.points = seconds, points
        self.started = time.perf_counter()
        self.done = 0

    def update(self, steps: int = 1) -> None:
        """One more point placed; OutOfTime once the budget is spent."""
        self.done += steps
        if time.perf_counter() - self.started > self.seconds:
            raise OutOfTime(
                f"its time budget of {self.seconds:g} s ran out after {self.done} of {self.points} points "
                "(raise it with --seconds)"
            )


@dataclass(frozen=True)
class Task:
    """One modulus of a count: the graph as written, the prime and the task's time budget."""

    graph: str
    prime: int
    seconds: float


@dataclass(frozen=True)
class Outcome:
    """What a task gave: its residue (None when lost, with why) and its process's peak memory."""

    prime: int
    found: Residue | None
    reason: str | None = None
    peak_bytes: int | None = None


def residue_task(task: Task) -> Outcome:
    """The task a worker runs: the number of legal positions of the graph modulo one prime,
    by the packed count with one count a state."""
    graph = parse_graph(task.graph)
    start = time.perf_counter()
    try:
        (residue,), states = residues_modulo(graph, (task.prime,), TaskClock(task.seconds, graph.order))
    except OutOfTime as error:
        return Outcome(task.prime, None, str(error), peak_memory())
    except MemoryError:
        return Outcome(task.prime, None, "out of memory (raise the ceiling with gorules --memory-limit)")
    found = Residue(task.graph, task.prime, residue, time.perf_counter() - start, states)
    return Outcome(task.prime, found, None, peak_memory())


def lost(task: Task, reason: str) -> Outcome:
    """The outcome of a task whose workers kept dying."""
    return Outcome(task.prime, None, reason)


def sharded_outcomes(tasks: list[Task], address: str, bits: int):
    """The outcome of each task, one modulus after another, its states in 2^``bits`` shards
    by ranges of their hash, each shard of each step a task on the Dask cluster at
    ``address``; a modulus whose shards failed (a worker lost part way) is lost with why."""
    for task in tasks:
        start = time.perf_counter()
        try:
            (residue,), states = sharded_residues(parse_graph(task.graph), (task.prime,), bits, address)
        except UsageError:
            raise
        except Exception as error:  # the cluster's error for lost pieces: the modulus is computed again on a rerun
            yield lost(task, f"its shards failed on the Dask cluster ({type(error).__name__}: {error})")
            continue
        yield Outcome(task.prime, Residue(task.graph, task.prime, residue, time.perf_counter() - start, states))


@dataclass
class ModularCount:
    """The residues of a count: those read from the database, those computed now with their
    workers' peak memory, and the primes whose task was lost, with why."""

    graph: str
    moduli: Moduli
    residues: dict[int, Residue] = field(default_factory=dict)
    from_database: list[int] = field(default_factory=list)
    computed: list[int] = field(default_factory=list)
    lost: dict[int, str] = field(default_factory=dict)
    peaks: dict[int, int | None] = field(default_factory=dict)

    @property
    def missing(self) -> list[int]:
        """The primes without a residue."""
        return [p for p in self.moduli.primes if p not in self.residues]

    def recombined(self) -> int | None:
        """The count recombined from the needed primes (None while one is missing)."""
        if any(p not in self.residues for p in self.moduli.needed):
            return None
        return chinese_remainder([self.residues[p].residue for p in self.moduli.needed], self.moduli.needed)

    def check(self) -> dict | None:
        """The check against the extra prime: the recombined count modulo it beside its
        residue, and whether they agree (None while a residue is missing)."""
        count = self.recombined()
        if count is None or self.moduli.check not in self.residues:
            return None
        expected = self.residues[self.moduli.check].residue
        return {
            "prime": self.moduli.check,
            "residue": expected,
            "count_modulo": count % self.moduli.check,
            "agrees": count % self.moduli.check == expected,
        }

    def count(self) -> int | None:
        """The exact count, once every residue is known and the check agrees; else None."""
        check = self.check()
        return self.recombined() if check is not None and check["agrees"] else None


def count_by_moduli(
    graph: Graph,
    seconds: float,
    store: Store | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    on_residue: Callable[[Residue], None] | None = None,
    shard_bits: int = 0,
) -> ModularCount:
    """The residues of the count of ``graph`` modulo each prime of :func:`moduli_for`: read
    from ``store`` where it holds them, the others computed (one task each, ``seconds`` the
    budget of a task) on the Dask cluster at ``scheduler``, else on a local pool of
    ``workers`` processes (0: this process), and stored as each arrives.  With
    ``shard_bits``, the moduli are computed one after another on the cluster, each with its
    states in 2^``shard_bits`` shards (:mod:`gorules.shard_tasks`)."""
    moduli = moduli_for(graph)
    result = ModularCount(graph.name, moduli)
    stored = store.residues(graph.name) if store is not None else {}
    for prime in moduli.primes:
        if prime in stored:
            result.residues[prime] = stored[prime]
            result.from_database.append(prime)
    tasks = [Task(graph.name, p, seconds) for p in moduli.primes if p not in stored]
    if not tasks:
        outcomes = no_outcomes()  # nothing to compute: no cluster is reached
    elif scheduler and shard_bits:
        outcomes = sharded_outcomes(tasks, scheduler, shard_bits)
    elif scheduler:
        outcomes = dask_outcomes(residue_task, tasks, scheduler, lost)
    else:
        outcomes = local_outcomes(residue_task, tasks, workers, lost)
    try:
        for outcome in outcomes:
            collect(result, outcome, store, on_residue)
    finally:
        outcomes.close()  # a local pool's workers stop now, not when the generator is collected
    return result


def no_outcomes() -> Generator[Outcome, None, None]:
    """The outcomes of no task."""
    yield from ()


def collect(result: ModularCount, outcome: Outcome, store: Store | None, on_residue) -> None:
    """Take one task's outcome into the count, storing its residue at once."""
    if outcome.found is None:
        result.lost[outcome.prime] = outcome.reason or "no reason given"
        return
    if store is not None:
        store.record_residue(outcome.found)
    result.residues[outcome.prime] = outcome.found
    result.computed.append(outcome.prime)
    result.peaks[outcome.prime] = outcome.peak_bytes
    if on_residue is not None:
        on_residue(outcome.found)


__all__ = [
    "ModularCount",
    "Moduli",
    "Outcome",
    "Task",
    "count_by_moduli",
    "moduli_for",
    "peak_memory",
    "residue_task",
]
