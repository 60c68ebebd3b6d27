"""Sweeps: test a conjecture on every graph of a family, resumably, locally or on Dask.

``run_sweep`` lists the graphs of a family, asks the results store which are done,
computes the figures of the others on workers (a local process pool, or a Dask
cluster given its scheduler address), and records each graph's figures and verdict as
soon as they arrive.  Killed and started again on the same store, a sweep computes only
what is missing, so the final table holds each graph exactly once.

Families (``--graphs``; several may be joined with ``+``):

=====================  ===============================================================
``paths:A-B``          the paths on A..B points (``paths:5`` is ``paths:1-5``)
``cycles:A-B``         the cycles on A..B points (A >= 3)
``stars:A-B``          the stars with A..B leaves
``complete:A-B``       the complete graphs on A..B points
``pairs:A-B``          N disjoint edges (N pairs of points), N = A..B
``grids:RxC``          every grid r x c with r <= c, r <= R, c <= C
``atlas-connected:N``  every connected graph of networkx's atlas on 1..N points
``graph:SPEC``         one graph, written as ``gorules`` graphs are (``graph:petersen``)
=====================  ===============================================================
"""

from __future__ import annotations

import functools
import re
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from gorules.conjectures import Conjecture, check_figures, compute_figures
from gorules.errors import UsageError, shown
from gorules.processes import die_with_parent, workers_for
from gorules.spec.api import OptionError, Ruleset
from gorules.spec.graph import GraphError, parse_graph
from gorules.store import Row, Store

FAMILY_HELP = (
    "paths:A-B, cycles:A-B, stars:A-B, complete:A-B, pairs:A-B, grids:RxC, "
    "atlas-connected:N, graph:SPEC (join several with +)"
)


MAX_FAMILY = 10_000  # graphs in one family


def _range(body: str, family: str, least: int = 1) -> range:
    """The integers A..B written as ``A-B`` (or ``B`` for least..B), at most MAX_FAMILY of them."""
    match = re.fullmatch(r"([0-9]{1,9})(?:-([0-9]{1,9}))?", body.strip())
    if not match:
        raise UsageError(f"bad family {shown(family)}: expected a range like 1-7 (numbers of at most 9 digits)")
    if match.group(2) is None:
        low, high = least, int(match.group(1))
    else:
        low, high = int(match.group(1)), int(match.group(2))
    if low < least or high < low:
        raise UsageError(f"bad family {shown(family)}: the range must run from at least {least} upwards")
    if high - low + 1 > MAX_FAMILY:
        raise UsageError(f"bad family {shown(family)}: {high - low + 1:,} graphs; a family has at most {MAX_FAMILY:,}")
    return range(low, high + 1)


def pairs_spec(count: int) -> str:
    """The graph spec of ``count`` disjoint edges."""
    return "edges:" + ",".join(f"{2 * i}-{2 * i + 1}" for i in range(count))


def connected_atlas(limit: int) -> list[str]:
    """The atlas graphs on 1..limit points that are connected, as ``atlas:I`` specs."""
    import networkx as nx

    if not 1 <= limit <= 7:
        raise UsageError("atlas-connected:N needs 1 <= N <= 7 (the atlas ends at 7 points)")
    found = []
    for i, g in enumerate(nx.graph_atlas_g()):
        if 1 <= g.number_of_nodes() <= limit and nx.is_connected(g):
            found.append(f"atlas:{i}")
    return found


def family_graphs(family: str) -> list[str]:
    """The graph specs of a family, in a fixed order (see the module docstring)."""
    specs: list[str] = []
    for part in family.split("+"):
        part = part.strip()
        kind, _, body = part.partition(":")
        if kind == "paths":
            specs += [f"path:{n}" for n in _range(body, part)]
        elif kind == "cycles":
            specs += [f"cycle:{n}" for n in _range(body, part, least=3)]
        elif kind == "stars":
            specs += [f"star:{n}" for n in _range(body, part)]
        elif kind == "complete":
            specs += [f"complete:{n}" for n in _range(body, part)]
        elif kind == "pairs":
            specs += [pairs_spec(n) for n in _range(body, part)]
        elif kind == "grids":
            match = re.fullmatch(r"([0-9]{1,2})[xX]([0-9]{1,2})", body)
            if not match:
                raise UsageError(f"bad family {shown(part)}: expected grids:RxC (at most 25x25)")
            rows, columns = int(match.group(1)), int(match.group(2))
            if rows > 25 or columns > 25:
                raise UsageError(f"bad family {shown(part)}: grids have at most 25 rows and columns")
            specs += [f"grid:{r}x{c}" for r in range(1, rows + 1) for c in range(r, columns + 1)]
        elif kind == "atlas-connected":
            specs += connected_atlas(_range(body, part).stop - 1)
        elif kind == "graph" and body:
            specs.append(body)
        else:
            raise UsageError(f"unknown graph family {shown(part)}: expected {FAMILY_HELP}")
        if len(specs) > MAX_FAMILY:
            raise UsageError(f"the family {shown(family)} has more than {MAX_FAMILY:,} graphs")
    for spec in specs:
        try:
            parse_graph(spec)
        except GraphError as error:
            raise UsageError(str(error)) from error
    return list(dict.fromkeys(specs))


def work(spec: str, figures: list, ruleset: Ruleset) -> tuple[str, dict | None, float, str | None]:
    """The task a worker runs: the figures of one graph and the seconds they took, or — when a
    figure is out of reach (a solver's node budget spent) — None and the reason."""
    from gorules.impl.solving.search import SearchError
    from gorules.impl.solving.solve import SolveError

    start = time.perf_counter()
    try:
        result = compute_figures(parse_graph(spec), figures, ruleset)
    except (SolveError, SearchError) as error:
        return spec, None, time.perf_counter() - start, str(error)
    except (UsageError, OptionError):
        raise
    except MemoryError:
        return spec, None, time.perf_counter() - start, "out of memory (raise the ceiling with gorules --memory-limit)"
    except RecursionError:
        return spec, None, time.perf_counter() - start, "the computation recursed too deeply"
    except Exception as error:  # a figure that failed on this graph: unknown, with why
        return spec, None, time.perf_counter() - start, f"a figure failed: {type(error).__name__}: {error}"
    return spec, result, time.perf_counter() - start, None


@dataclass
class Summary:
    """What a sweep found: every row of the conjecture, and the counterexamples."""

    conjecture: str
    ruleset: str
    family: str
    rows: list
    computed: int
    skipped: int
    counterexamples: list = field(default_factory=list)
    unknown: list = field(default_factory=list)  # (graph, reason): figures out of reach, not stored

    def as_json(self) -> dict:
        """The summary as JSON-able data."""
        return {
            "conjecture": self.conjecture,
            "ruleset": self.ruleset,
            "family": self.family,
            "graphs": len(self.rows),
            "computed_now": self.computed,
            "already_done": self.skipped,
            "holds": all(r.holds for r in self.rows),
            "counterexamples": [r.graph for r in self.counterexamples],
            "unknown": [{"graph": g, "reason": why} for g, why in self.unknown],
            "rows": [
                {"graph": r.graph, "holds": r.holds, "figures": r.figures, "seconds": round(r.seconds, 4)}
                for r in self.rows
            ],
        }


POOL_BREAKS = 3
"""How often a sweep starts its local pool again after one of its workers died (killed with
SIGKILL, or by the kernel out of memory) before the graphs left are reported unknown."""


def local_results(tasks: list, figures: list, ruleset: Ruleset, workers: int | None):
    """(spec, figures, seconds, reason) of each task as it finishes, on a local process pool
    (:func:`local_outcomes`); a task whose workers kept dying is unknown with why."""
    return local_outcomes(functools.partial(work, figures=figures, ruleset=ruleset), tasks, workers, unknown)


def unknown(spec: str, reason: str) -> tuple[str, None, float, str]:
    """The outcome of a graph whose task was lost: no figures, and why."""
    return spec, None, 0.0, reason


def local_outcomes(run: Callable, tasks: list, workers: int | None, lost: Callable):
    """``run(task)`` of each task as it finishes, on a local process pool whose workers stop
    when this process ends, however it ends, and at once when the consumer stops (they are
    killed as the generator closes); as many workers as asked, capped by the tasks and the
    cores (0: in this process).  A worker that dies (SIGKILL) breaks the pool: the tasks it
    left unfinished run again on a new pool, up to POOL_BREAKS times, then give
    ``lost(task, why)``.  ``run`` must be picklable (a module's function, or a partial of one)."""
    if workers == 0:
        for task in tasks:
            yield run(task)
        return
    left = list(tasks)
    for _ in range(POOL_BREAKS + 1):
        if not left:
            return
        left = yield from pool_outcomes(run, left, workers_for(workers, len(left)))
    for task in left:
        yield lost(task, f"its worker process died {POOL_BREAKS + 1} times (killed, or out of memory?)")


def pool_outcomes(run: Callable, tasks: list, workers: int):
    """Yield ``run(task)`` of each task a pool of ``workers`` processes finishes; return the
    tasks left unfinished because a worker died."""
    pool = ProcessPoolExecutor(workers, initializer=die_with_parent)
    try:
        futures = {pool.submit(run, task): task for task in tasks}
        broken = []
        for future in as_completed(futures):
            try:
                result = future.result()
            except BrokenProcessPool:
                broken.append(futures[future])
                continue
            yield result
        return broken
    finally:
        stop_pool(pool)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: its queued tasks cancelled, its workers killed (a worker inside
    compiled code would otherwise finish its task first), then joined."""
    # The executor lists its processes only in _processes (Python 3.14 adds terminate_workers).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join()
    pool.shutdown(wait=True)  # its threads joined too, so that no lock is held when the next pool forks


def dask_results(tasks: list, figures: list, ruleset: Ruleset, address: str):
    """(spec, figures, seconds, reason) of each task as it finishes, on the Dask cluster at
    ``address`` (:func:`dask_outcomes`); a task whose workers kept dying is unknown with why."""
    return dask_outcomes(functools.partial(work, figures=figures, ruleset=ruleset), tasks, address, unknown)


def dask_outcomes(run: Callable, tasks: list, address: str, lost: Callable):
    """``run(task)`` of each task as it finishes, on the Dask cluster at ``address``.  A
    worker killed part way has its tasks run again by the scheduler on the others; a task
    whose workers died too often (Dask's ``allowed-failures``) gives ``lost(task, why)``, as
    a rerun computes it again."""
    from distributed import Client
    from distributed import as_completed as dask_completed
    from distributed.scheduler import KilledWorker

    try:
        client = Client(address, timeout=20)
    except Exception as error:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {error}") from error
    try:
        futures = {client.submit(run, task, pure=False): task for task in tasks}
        for future in dask_completed(futures):
            try:
                result = future.result()
            except KilledWorker as error:  # the scheduler gave up on a task whose workers kept dying
                result = lost(futures[future], f"its Dask workers died while computing it ({error})")
            yield result
    finally:
        client.close()


def run_sweep(
    conjecture: Conjecture,
    family: str,
    store: Store,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = True,
    on_row: Callable[[Row], None] | None = None,
) -> Summary:
    """Test ``conjecture`` on every graph of ``family``, resuming from ``store``."""
    from tqdm import tqdm

    specs = family_graphs(family)
    ruleset = conjecture.make_ruleset()
    check_figures(conjecture.figures, ruleset)  # a figure the ruleset lacks is refused before any work
    done = store.done(conjecture.name, conjecture.label)
    tasks = [s for s in specs if s not in done]
    if scheduler:
        results = dask_results(tasks, conjecture.figures, ruleset, scheduler)
    else:
        results = local_results(tasks, conjecture.figures, ruleset, workers)
    bar = tqdm(
        total=len(specs),
        initial=len(specs) - len(tasks),
        desc=conjecture.name,
        unit="graph",
        disable=not progress,
        file=sys.stderr,
    )
    computed = 0
    unknown = []
    try:
        for spec, figures, seconds, reason in results:
            if figures is None:
                unknown.append((spec, reason))
                bar.update(1)
                continue
            graph = parse_graph(spec)
            try:
                holds = conjecture.holds(graph, figures)
            except Exception as error:  # the user's predicate failed: unknown, with why, not stored
                unknown.append((spec, f"the conjecture's predicate raised {type(error).__name__}: {error}"))
                bar.update(1)
                continue
            row = Row(
                conjecture.name,
                conjecture.label,
                spec,
                family,
                figures,
                holds,
                seconds,
            )
            store.record(row)
            computed += 1
            bar.update(1)
            if on_row is not None:
                on_row(row)
    finally:
        bar.close()
        results.close()  # a local pool's workers stop now, not when the generator is collected
    wanted = set(specs)
    rows = [r for r in store.rows(conjecture.name, conjecture.label) if r.graph in wanted]
    order = {s: i for i, s in enumerate(specs)}
    rows.sort(key=lambda r: order[r.graph])
    return Summary(
        conjecture.name,
        conjecture.label,
        family,
        rows,
        computed,
        len(specs) - len(tasks),
        [r for r in rows if not r.holds],
        unknown,
    )


def summary_table(summary: Summary) -> str:
    """The summary as a text table: one line per graph, counterexamples marked, a verdict."""
    lines = [f"{summary.conjecture} under {summary.ruleset} on {summary.family}:"]
    header = ("graph", "holds", "figures")
    cells = []
    for r in summary.rows:
        shown = "; ".join(f"{k}={short(v)}" for k, v in sorted(r.figures.items()))
        cells.append((r.graph, "yes" if r.holds else "NO  <- counterexample", shown))
    width0 = max([len(header[0])] + [len(c[0]) for c in cells])
    width1 = max([len(header[1])] + [len(c[1]) for c in cells])
    lines.append(f"{header[0].ljust(width0)}  {header[1].ljust(width1)}  {header[2]}")
    for c in cells:
        lines.append(f"{c[0].ljust(width0)}  {c[1].ljust(width1)}  {c[2]}")
    held = sum(r.holds for r in summary.rows)
    verdict = (
        f"holds on all {len(summary.rows)} graphs"
        if held == len(summary.rows)
        else f"fails on {len(summary.rows) - held} of {len(summary.rows)} graphs: "
        + ", ".join(r.graph for r in summary.counterexamples)
    )
    lines.append(f"{verdict} ({summary.computed} computed now, {summary.skipped} already in the store)")
    for graph, reason in summary.unknown:
        lines.append(f"unknown on {graph} (not stored; a rerun tries again): {reason}")
    return "\n".join(lines)


def short(value) -> str:
    """A figure shown briefly: numbers as is, dicts by their entries that are numbers or words."""
    if isinstance(value, dict):
        parts = [f"{k}:{v}" for k, v in value.items() if isinstance(v, (int, float, str)) or v is None]
        return "{" + ",".join(parts) + "}"
    return str(value)
