"""Exact solving, all figures measured in one run:

- Tromp–Taylor 3×3: value, seconds and nodes to solve, seconds to write the certificate and
  to check it with the spec;
- the solver against plain alpha-beta (the interface's generic minimax with a table keyed
  on the whole history, no bounds, no deepening, no symmetry) in nodes to solve 2×3; the
  plain search runs within a node budget, and a ratio reported as "> r" means it did not
  finish within it;
- the solver against the compiled full-history minimax of the tests
  (``tests/reference_compiled.py``) in nodes on one 5-point graph, atlas:36 under stone
  scoring (a triangle with a tail of two points);
- the compiled core against the Python core (``Solver(core=...)``) on 2×4 and 1×8, each
  within ``--core-seconds``: nodes/s of each in this run, their ratio, and the nodes each
  needed (the compiled one's compile time is outside: it is warmed up on 2×2 first); both
  run the same tests by iterative deepening (``search="deepening"``), so that a node means
  the same in both (the solver's default, df-pn, counts a node per entry and looks at
  every child on entering);
- 1×n from n = 1 up, each within a time budget, as far as it goes; 2×2, 2×3, 2×4;
- with ``--targets``, the frontier targets instead, each row measured in this
  run beside its target and judged from the measurement: 4×4 under positional and
  situational superko split over ``--jobs`` processes (each within ``--four-seconds``, and
  the nodes of each against its limit), 1×12 within ``--seconds`` with a certificate that
  ``gorules check-certificate`` accepts, 1×13 within ``--seconds`` beside the growth of
  nodes fitted on the exact paths from 1×10 up, the rectangles' table to ``--max-points``
  under both superko rules with certificates (``bench_rectangles.py``, each within
  ``--rect-seconds``; the whole table printed after the targets), and 5×5 through a Dask
  cluster of two single-threaded workers started for the run (within ``--five-seconds``)
  beside the cost the exact nodes of 3×3 and 4×4 project; the machine, the load average,
  the commit and the date once at the top, and the worst-case time before any work;
- with ``--first-targets``, the first table of targets of the solver's specification, each
  row measured in this run beside its target, with the solver's defaults (df-pn for the
  threshold tests): 3×3 with certificate, 1×8 … 1×12, 2×5, 4×4 under
  situational and positional superko (each within ``--seconds``, bounds where the budget
  ran out), the Fundamental score and the Ultimate result of every connected graph of up to
  6 points (each within ``--ultimate-seconds``, as ``gorules ultimate-table``), the nodes of
  2×3 against plain alpha-beta, and uniform random playouts of
  ``CompiledGame`` against OpenSpiel's ``go`` on 9×9 and 19×19 (``bench_openspiel.py``'s
  loop, OpenSpiel's Python API on both sides).

    python benchmarks/bench_solve.py [--seconds S] [--plain-nodes N] [--quick]
    python benchmarks/bench_solve.py --targets [--four-seconds S] [--seconds S] [--rect-seconds S] [--max-points N] [--five-seconds S] [--jobs J]
    python benchmarks/bench_solve.py --first-targets [--seconds S] [--plain-nodes N] [--jobs J] [--ultimate-seconds S]
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' Dask cluster

import bench_rectangles as rectangles

from gorules.arguments import positive_finite
from gorules.impl.rulesets.tromp_taylor import TrompTaylor
from gorules.impl.solving.budget import Budget, BudgetSpent
from gorules.impl.solving.certificate import certificate
from gorules.impl.solving.certificate_check import check
from gorules.impl.solving.search import Minimax
from gorules.impl.solving.solve import DESCENTS, MAX_POINTS, Solver
from gorules.impl.solving.split import default_jobs
from gorules.processes import ask_kernel_for_death_signal
from gorules.spec.graph import parse_graph
from tests.dask_cluster import DaskCluster


def measure(
    name: str,
    seconds: float | None,
    preset: str | None = None,
    core: str | None = None,
    search: str | None = None,
    jobs: int = 1,
    descent: str = "step",
) -> dict:
    """Solve one board within ``seconds`` (under the preset named ``preset``, Tromp–Taylor's by
    default; with the solver's ``core`` and the compiled core's ``search``, their defaults
    if None; a test that resists split over ``jobs`` processes; the walk down by ``descent``): value (or bounds), nodes
    (summed over the processes), seconds, nodes/s."""
    graph = parse_graph(name)
    solver = Solver(
        graph,
        preset,
        max_seconds=seconds,
        max_points=max(MAX_POINTS, graph.order),
        core=core,
        search=search,
        jobs=jobs,
        descent=descent,
    )
    found = solver.solve(bounds_on_budget=True)
    return {
        "board": name,
        "value": found.value if found.status == "exact" else f"[{found.lower:+g}, {found.upper:+g}]",
        "nodes": found.nodes,
        "seconds": found.seconds,
        "rate": found.nodes / found.seconds if found.seconds else 0.0,
        "pv": " ".join(str(m) for m in found.principal_variation) or "(budget spent)",
        "solver": solver,
        "raw": found.raw_value,
        "exact": found.status == "exact",
    }


def plain_nodes(name: str, budget: int) -> tuple[int, bool]:
    """Nodes of the plain alpha-beta search on ``name`` (the generic search in the ruleset's
    own move order), and whether it finished."""
    graph = parse_graph(name)
    situation = TrompTaylor().initial(graph)
    search = Minimax(situation.ruleset, graph, Budget(nodes=budget), ordered=False)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))
    try:
        search.search(situation.state, -float("inf"), float("inf"))
    except BudgetSpent:
        return budget, False
    return search.nodes, True


def reference_nodes(name: str, preset: str) -> tuple[int, int, float, int, float]:
    """The value of ``name`` under ``preset``, the solver's nodes and seconds, and the compiled
    full-history minimax's nodes and CPU seconds (the value must be the same)."""
    from gorules.spec.tromp_taylor import PRESETS
    from tests.reference_compiled import compiled_value

    graph, options = parse_graph(name), PRESETS[preset]
    found = Solver(graph, options).solve()
    started = time.process_time()
    value, nodes = compiled_value(graph, options, table_bits=22)
    seconds = time.process_time() - started
    if value != found.raw_value:
        raise AssertionError(f"{name} {preset}: solver {found.raw_value}, reference {value}")
    return value, found.nodes, found.seconds, nodes, seconds


def row(r: dict) -> str:
    """One line of the table."""
    value = r["value"] if isinstance(r["value"], str) else f"{r['value']:+g}"
    return f"| {r['board']} | {value} | {r['nodes']:,} | {r['seconds']:.2f} | {r['rate']:,.0f} | {r['pv']} |"


def solved(r: dict) -> str:
    """A board's measured figure: its value and time, or its bounds when the budget ran out."""
    value = r["value"] if isinstance(r["value"], str) else f"{r['value']:+g}"
    if r["exact"]:
        return f"{value} in {r['seconds']:.1f} s ({r['nodes']:,} nodes)"
    return f"bounds {value} after {r['seconds']:.0f} s ({r['nodes']:,} nodes)"


def within(r: dict, limit: float) -> str:
    """Whether a board was solved exactly within ``limit`` seconds."""
    return "met" if r["exact"] and r["seconds"] <= limit else "not met"


PLAYOUT_GAMES = {9: 1000, 19: 100}
"""Random games per board size in the targets' playout figures (seeded: the same games in
every run).  More 19×19 games narrow the spread of the ratio between runs only so far: what
remains is the machine's timing, which more games do not remove (benchmarks/README.md,
``bench_solve.py``)."""


def fundamental_everywhere(points: int, seconds: float) -> dict:
    """The Fundamental score and the Ultimate result of every connected graph of up to
    ``points`` points, each searched within ``seconds`` (as ``gorules ultimate-table``, with
    its default core and search): the graphs, those with both known, those left open, and
    the seconds of the whole."""
    from gorules.commands.ultimate_table import connected_graphs, fundamental_fields
    from gorules.impl.solving.budget import Budget
    from gorules.ultimate_commands import core_of

    core = core_of(argparse.Namespace(core="auto", search="all"))
    started = time.perf_counter()
    graphs = connected_graphs(points)
    open_graphs = [
        g.name
        for g in graphs
        if not {"fundamental_score", "ultimate_result"} <= fundamental_fields(g, Budget(seconds=seconds), core).keys()
    ]
    return {
        "graphs": len(graphs),
        "known": len(graphs) - len(open_graphs),
        "open": open_graphs,
        "seconds": time.perf_counter() - started,
    }


def playout_ratios(games: dict, repeat: int) -> dict:
    """``CompiledGame`` / OpenSpiel in moves per second, OpenSpiel's loop on both sides, per
    board size (best of ``repeat`` interleaved runs, as ``bench_openspiel.py`` measures)."""
    import bench_openspiel as playouts

    loops = {"OpenSpiel": playouts.openspiel_playouts, "CompiledGame": playouts.compiled_action_playouts}
    for size in games:
        loops["CompiledGame"](size, 1, 0)  # compile before measuring
    ratios = {}
    for size, count in games.items():
        rates = playouts.best_rates(loops, size, count, 1, repeat)
        ratios[size] = rates["CompiledGame"] / rates["OpenSpiel"]
    return ratios


def first_targets(args) -> None:
    """Print the first targets of the solver's specification, each measured in this run."""
    print("| figure | target | measured | |\n|---|---|---|---|")
    measure("grid:2x2", None)  # numba compiles (or loads) the compiled core here, outside the figures
    three = measure("grid:3x3", None)
    started = time.perf_counter()
    verdict = check(certificate(three["solver"], three["raw"]))
    total = three["seconds"] + time.perf_counter() - started
    ok = three["exact"] and three["raw"] == 9 and verdict is None and total <= 60
    shown = f"{three['value']:+g}, solve + certificate + spec check {total:.1f} s"
    print(f"| Tromp–Taylor 3×3, exact, with certificate | ≤ 60 s (value +9) | {shown} | {'met' if ok else 'not met'} |")
    for n in range(8, 13):
        r = measure(f"path:{n}", args.seconds, jobs=args.jobs, descent=args.descent)
        print(f"| Tromp–Taylor 1×{n} | ≤ 10 min | {solved(r)} | {within(r, 600)} |", flush=True)
    r = measure("grid:2x5", args.seconds, jobs=args.jobs, descent=args.descent)
    print(f"| Tromp–Taylor 2×5 | 2×n, n ≤ 5 | {solved(r)} | {within(r, 7200)} |", flush=True)
    for preset in ("situational", "tromp-taylor"):
        r = measure("grid:4x4", args.four_seconds or args.seconds, preset, jobs=args.jobs, descent=args.descent)
        name = "situational" if preset == "situational" else "positional"
        print(f"| Tromp–Taylor 4×4, {name} superko | within 2 hours (+2) | {solved(r)} | {within(r, 7200)} |")
    six = fundamental_everywhere(6, args.ultimate_seconds)
    shown = f"{six['known']} of {six['graphs']} graphs known in {six['seconds']:.0f} s (each search ≤ {args.ultimate_seconds:g} s)"
    if six["open"]:
        shown += "; open: " + ", ".join(six["open"])
    met = "met" if not six["open"] else "not met"
    print(
        f"| Fundamental score, Ultimate result | every connected graph up to 6 points | {shown} | {met} |", flush=True
    )
    two = measure("grid:2x3", None)
    plain, finished = plain_nodes("grid:2x3", args.plain_nodes)
    ratio = plain / two["nodes"]
    shown = f"{ratio:,.0f}×" if finished else f"> {ratio:,.0f}× (plain unfinished at {plain:,} nodes)"
    print(
        f"| solver vs plain alpha-beta, nodes to solve 2×3 | ≥ 100× fewer | {shown} | {'met' if ratio >= 100 else 'not met'} |"
    )
    for size, ratio in playout_ratios(PLAYOUT_GAMES, args.repeat).items():
        met = "met" if ratio >= 1.0 else "not met"
        print(f"| random playouts vs OpenSpiel `go`, {size}×{size} | ≥ 1.0× | {ratio:.2f}× | {met} |", flush=True)
    print(
        f"\ncommand: python benchmarks/bench_solve.py --first-targets --seconds {args.seconds:g} --plain-nodes {args.plain_nodes}"
        f" --jobs {args.jobs} --descent {args.descent}"
        + (f" --four-seconds {args.four_seconds:g}" if args.four_seconds else "")
        + f" --ultimate-seconds {args.ultimate_seconds:g}"
    )


FRONTIER = {
    "four": "grid:4x4",
    "four_value": 2,
    "four_nodes": {"positional": 5_000_000, "situational": 10_000_000},
    "growth": (10, 11),
    "path": 12,
    "next": 13,
    "small": "grid:3x3",
    "five": "grid:5x5",
}
"""The boards of the frontier targets (the tests run the same machinery on smaller ones): 4×4
and its value and node limits per superko rule, the paths whose nodes give the growth, the
path solved with a certificate, the next path, and the boards of the projection to 5×5."""

CHECK_MEMORY = 2 * 2**30
"""The most memory the certificate checker may use for a rectangle to count as met."""


def verdict(ok: bool) -> str:
    """The verdict of a target, computed from its measurement."""
    return "met" if ok else "not met"


def target_row(name: str, target: str, measured: str, ok: bool) -> dict:
    """One row of the targets' table, its verdict computed from ``ok``."""
    return {"figure": name, "target": target, "measured": measured, "verdict": verdict(ok)}


def machine() -> str:
    """The machine in one line: cores, memory, processor model, load average, commit, date."""
    import datetime
    import os
    import platform
    import subprocess

    model = platform.processor() or platform.machine()
    memory = 0.0
    try:
        info = Path("/proc/cpuinfo").read_text()
        model = next(
            (line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), model
        )
        total = next(line for line in Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
        memory = int(total.split()[1]) / 2**20
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"machine: {os.cpu_count()} cores, {memory:.1f} GB, {model}; load average at start {load()}; "
        f"commit {commit or '?'}; {date}"
    )


def load() -> str:
    """The one-minute, five-minute and fifteen-minute load averages."""
    import os

    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def figure(found: dict) -> str:
    """A measured figure: value, bounds or the error, nodes and wall seconds."""
    value = found["value"]
    if found["exact"]:
        value = f"exact {value:+g}"
    elif value.startswith("["):
        value = f"bounds {value}"
    return f"{value}, {found['nodes']:,} nodes, {found['seconds']:.1f} s"


def rounded(amount: float) -> str:
    """A projected amount with its thousands separated, three figures below a hundred."""
    return f"{amount:,.0f}" if amount >= 100 else f"{amount:.3g}"


def commanded(name: str, seconds: float, preset: str | None = None, jobs: int | None = None, extra=()) -> dict:
    """Solve one board as a user does, ``gorules solve`` in a subprocess within ``seconds``
    (so that this process stays small and the checker's peak memory is its own): the
    fields of ``measure``, the seconds being the subprocess's wall time, or the error line."""
    argv = ["solve", name, "--seconds", f"{seconds:g}", "--max-points", str(parse_graph(name).order)]
    argv += (["--preset", preset] if preset else []) + (["--jobs", str(jobs)] if jobs else []) + list(extra)
    code, out, wall, _ = rectangles.measured([*argv, "--json", "--no-progress"])
    result: dict = json.loads(out) if code == 0 else {"status": "error", "nodes": 0, "seconds": 0.0}
    exact = result["status"] == "exact"
    if exact:
        value: str | float = result["value"]
    elif result["status"] == "bounds":
        value = f"[{result['lower']:+d}, {result['upper']:+d}]"
    else:
        value = f"exit {code}: {out}"
    rate = result["nodes"] / result["seconds"] if result["seconds"] else 0.0
    return {"board": name, "value": value, "nodes": result["nodes"], "seconds": wall, "rate": rate, "exact": exact}


def four_row(preset: str | None, superko: str, args, boards: dict) -> tuple[dict, dict]:
    """4×4 under one superko rule, split over ``--jobs`` processes within ``--four-seconds``:
    met when exact at the expected value within the time and the node limit."""
    seconds = args.four_seconds or 30.0
    found = commanded(boards["four"], seconds, preset, jobs=args.jobs)
    limit = boards["four_nodes"][superko]
    ok = (
        found["exact"]
        and found["value"] == boards["four_value"]
        and found["seconds"] <= seconds
        and found["nodes"] <= limit
    )
    target = f"{boards['four_value']:+d} within {seconds:g} s and {limit / 1e6:g} M nodes, --jobs {args.jobs}"
    return target_row(f"{board_name(boards['four'])}, {superko} superko", target, figure(found), ok), found


def board_name(name: str) -> str:
    """``grid:4x4`` as 4×4, ``path:12`` as 1×12."""
    kind, _, size = name.partition(":")
    return f"1×{size}" if kind == "path" else size.replace("x", "×")


def rectangle_args(args, seconds: float) -> argparse.Namespace:
    """The options ``bench_rectangles.row`` reads, with each solve's budget ``seconds``."""
    return argparse.Namespace(seconds=seconds, jobs=args.jobs, certificate_positions=args.certificate_positions)


def certified(found: dict) -> bool:
    """Whether a rectangle's solve is exact with a certificate the checker accepts within
    ``CHECK_MEMORY``."""
    return found.get("status") == "exact" and found.get("valid") is True and found["check_memory"] <= CHECK_MEMORY


def rectangle_figure(found: dict) -> str:
    """A rectangle's solve and check in words: value or bounds, nodes, seconds, the check."""
    if found.get("status") not in ("exact", "bounds"):
        return f"exit {found['solve_exit']}: {found.get('error', '')}"
    value = (
        f"exact {found['value']:+d}"
        if found["status"] == "exact"
        else f"bounds [{found['lower']:+d}, {found['upper']:+d}]"
    )
    shown = f"{value}, {found['nodes']:,} nodes, {found['solve_seconds']:.1f} s"
    if "valid" in found:
        verdict_word = "accepted" if found["valid"] else "REJECTED"
        shown += f"; certificate {verdict_word} by the checker in {found['check_seconds']:.1f} s, {found['check_memory'] / 2**20:,.0f} MB"
    return shown


def path_row(args, boards: dict, folder: Path) -> tuple[dict, dict]:
    """1×12 within ``--seconds`` with a certificate checked by check-certificate (as a row
    of the rectangles' table): met when exact and accepted within the time and memory."""
    n = boards["path"]
    found = rectangles.row(1, n, "positional", rectangle_args(args, args.seconds), folder)
    ok = certified(found) and found["solve_seconds"] <= args.seconds
    row = target_row(
        f"1×{n}, positional superko, with certificate",
        f"exact within {args.seconds:g} s, certificate accepted",
        rectangle_figure(found),
        ok,
    )
    return row, found


def fit(nodes: dict[int, int]) -> tuple[float, float] | None:
    """The least-squares line through (points, natural log of nodes): its slope and
    intercept, or None below two points."""
    if len(nodes) < 2:
        return None
    xs, ys = list(nodes), [math.log(count) for count in nodes.values()]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / sum((x - mean_x) ** 2 for x in xs)
    return slope, mean_y - slope * mean_x


def projection(nodes: dict[int, int], names: dict[int, str], targets: list[int], rate: float) -> str | None:
    """The nodes (and seconds at ``rate`` nodes per second) of the boards of ``targets``
    points, projected by a fit of the exact ones in ``nodes``; None below two."""
    line = fit(nodes)
    if line is None:
        return None
    slope, intercept = line
    used = ", ".join(f"{names[p]} {count:,}" for p, count in nodes.items())
    shown = [
        f"{names[p]} ≈ {rounded(math.exp(intercept + slope * p))} nodes "
        f"(≈ {rounded(math.exp(intercept + slope * p) / rate)} s at {rate:,.0f} nodes/s)"
        for p in targets
    ]
    return f"projected by a fit of {len(nodes)} points ({used}): ×{math.exp(slope):.2f} per point; " + "; ".join(shown)


def next_row(args, boards: dict, certified_path: dict) -> tuple[dict, str | None]:
    """1×13 within ``--seconds``, with the growth of nodes measured on the shorter paths:
    met when exact, or with its bounds and a projection from at least two exact paths."""
    nodes, rate = {}, 0.0
    for n in boards["growth"]:
        found = commanded(f"path:{n}", args.seconds, jobs=args.jobs)
        if found["exact"]:
            nodes[n], rate = found["nodes"], found["rate"]
    if certified_path.get("status") == "exact":
        nodes[boards["path"]] = certified_path["nodes"]
    n = boards["next"]
    found = commanded(f"path:{n}", args.seconds, jobs=args.jobs)
    projected = projection(nodes, {p: f"1×{p}" for p in [*nodes, boards["path"], n]}, [boards["path"], n], rate or 1.0)
    ok = found["exact"] or projected is not None
    shown = (
        figure(found)
        + "; "
        + (projected or f"no projection: fewer than two of 1×{', 1×'.join(map(str, boards['growth']))} exact")
    )
    target = f"exact within {args.seconds:g} s, or proven bounds and the projected cost"
    return target_row(f"1×{n}, positional superko", target, shown, ok), projected


def rectangle_rows(args, folder: Path) -> tuple[dict, list[str]]:
    """The rectangles' table to ``--max-points`` under both superko rules, each within
    ``--rect-seconds`` with a certificate: met when every one is exact and accepted within
    the checker's memory limit."""
    settings = rectangle_args(args, args.rect_seconds)
    lines, missing, count = [], [], 0
    for m, n in rectangles.rectangles(args.max_points):
        for superko in rectangles.SUPERKO:
            found = rectangles.row(m, n, superko, settings, folder)
            lines.append(rectangles.shown(found))
            count += 1
            if not certified(found):
                kept = (
                    f"[{found['lower']:+d}, {found['upper']:+d}]"
                    if found.get("status") == "bounds"
                    else found.get("status", "error")
                )
                missing.append(f"{m}×{n} {superko} {kept}")
    shown = f"{count - len(missing)} of {count} exact with a certificate accepted within 2 GB"
    if missing:
        shown += "; not: " + ", ".join(missing)
    target = f"every m×n to {args.max_points} points, both superko rules, certificates accepted within 2 GB ({args.rect_seconds:g} s each)"
    return target_row(f"rectangles to {args.max_points} points", target, shown, not missing), lines


class LocalCluster(DaskCluster):
    """A Dask scheduler and two single-threaded workers on this machine, each killed by the
    kernel when this process dies."""

    def start(self, argv: list[str]) -> subprocess.Popen:
        """A process of the cluster, its output discarded, dying with this process."""
        return subprocess.Popen(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=ask_kernel_for_death_signal,
        )


def dask_row(args, boards: dict, small: dict, four: dict, folder: Path) -> dict:
    """5×5 under positional superko through the Dask path within ``--five-seconds``, with a
    projection by a fit of the exact nodes of the two smaller boards: met when exact, or
    with its bounds and that projection."""
    from distributed import Client

    cluster = LocalCluster(folder)
    try:
        with Client(cluster.address, timeout=20) as client:
            client.wait_for_workers(2, timeout=60)
        board = boards["five"]
        found = commanded(board, args.five_seconds, extra=["--scheduler", cluster.address])
    finally:
        cluster.close()
    points = {board_name(b): parse_graph(b).order for b in (boards["small"], boards["four"], board)}
    exact = {points[board_name(r["board"])]: r["nodes"] for r in (small, four) if r["exact"]}
    names = {p: name for name, p in points.items()}
    projected = projection(exact, names, [points[board_name(board)]], four["rate"] or 1.0)
    if projected is None:
        projected = f"no projection by a fit of exact figures: {board_name(four['board'])} not exact in this run"
    shown = f"{figure(found)}; {projected}"
    ok = found["exact"] or (found["value"].startswith("[") and projected.startswith("projected"))
    target = f"exact, or proven bounds and the projected cost; Dask, two workers, {args.five_seconds:g} s"
    return target_row(f"{board_name(board)}, positional superko, through Dask", target, shown, ok)


def worst_case(args, boards: dict) -> float:
    """The sum of the run's time budgets, in seconds."""
    shapes = len(rectangles.rectangles(args.max_points)) * len(rectangles.SUPERKO)
    paths = len(boards["growth"]) + 2
    return 2 * (args.four_seconds or 30.0) + paths * args.seconds + shapes * args.rect_seconds + args.five_seconds


def frontier_targets(args, boards: dict = FRONTIER) -> list[dict]:
    """Print the frontier targets, each measured in this run beside its target, then the
    rectangles' table; return the rows."""
    worst = worst_case(args, boards)
    print(machine())
    print(
        f"worst case: {worst / 60:,.1f} min (the sum of the solves' budgets; certificate checks and start-up on top)\n"
    )
    print("| target | budget and goal | measured | |\n|---|---|---|---|", flush=True)
    started = time.perf_counter()
    commanded("grid:2x2", args.seconds)  # numba compiles (or loads) the compiled core here, outside the figures
    rows = []

    def shown(row: dict) -> None:
        rows.append(row)
        print(f"| {row['figure']} | {row['target']} | {row['measured']} | {row['verdict']} |", flush=True)

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        four = {}
        for superko, preset in (("positional", None), ("situational", "situational")):
            row, four[superko] = four_row(preset, superko, args, boards)
            shown(row)
        row, path = path_row(args, boards, folder)
        shown(row)
        shown(next_row(args, boards, path)[0])
        table_row, table = rectangle_rows(args, folder)
        shown(table_row)
        small = commanded(boards["small"], args.seconds, jobs=args.jobs)
        shown(dask_row(args, boards, small, four["positional"], folder))
    print(f"\nload average at end {load()}; {time.perf_counter() - started:,.0f} s in all")
    print("\n| graph | superko | value for Black | nodes | solve s | certificate checked by the spec |")
    print("|---|---|---|---|---|---|")
    print("\n".join(table))
    print(
        f"\ncommand: python benchmarks/bench_solve.py --targets --jobs {args.jobs} --four-seconds {args.four_seconds or 30:g}"
        f" --seconds {args.seconds:g} --rect-seconds {args.rect_seconds:g} --max-points {args.max_points}"
        f" --five-seconds {args.five_seconds:g}"
    )
    return rows


def main(argv=None) -> int:
    """Run the measurements and print the tables (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_finite, default=600, help="time budget for each 1×n board")
    parser.add_argument("--plain-nodes", type=int, default=3_000_000, help="node budget of the plain search")
    parser.add_argument(
        "--core-seconds", type=positive_finite, default=60, help="time budget of each core on 2×4 and 1×8"
    )
    parser.add_argument("--quick", action="store_true", help="3×3 and 2×3 only, 1×n up to 7")
    parser.add_argument("--targets", action="store_true", help="the frontier targets, each measured in this run")
    parser.add_argument(
        "--first-targets", action="store_true", help="the first table of targets, each measured in this run"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=default_jobs(),
        help=f"with --targets or --first-targets: processes a resisting test of 1×n, 2×5, 4×4 is split over (default {default_jobs()}, as solve)",
    )
    parser.add_argument(
        "--descent",
        choices=DESCENTS,
        default="step",
        help="with --first-targets: how the tests of 1×n, 2×5, 4×4 walk down from the upper bound (as solve --descent)",
    )
    parser.add_argument(
        "--four-seconds",
        type=positive_finite,
        help="time budget of each 4×4 solve (default: 30 with --targets, --seconds with --first-targets)",
    )
    parser.add_argument(
        "--rect-seconds", type=positive_finite, default=120, help="with --targets: time budget of each rectangle"
    )
    parser.add_argument(
        "--max-points", type=int, default=20, help="with --targets: the largest m·n of the rectangles' table"
    )
    parser.add_argument(
        "--five-seconds", type=positive_finite, default=900, help="with --targets: time budget of 5×5 through Dask"
    )
    parser.add_argument(
        "--certificate-positions",
        type=int,
        default=5_000_000,
        help="with --targets: the most positions a certificate may have (as bench_rectangles.py)",
    )
    parser.add_argument(
        "--ultimate-seconds",
        type=positive_finite,
        default=120,
        help="with --first-targets: time budget of each graph's Fundamental score and of its Ultimate result (as ultimate-table --seconds)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each playout measurement (with --first-targets)")
    args = parser.parse_args(argv)
    if args.targets:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the Dask cluster is shut down on the way out
        frontier_targets(args)
        return 0
    if args.first_targets:
        first_targets(args)
        return 0

    print("| figure | value |\n|---|---|")
    three = measure("grid:3x3", None)
    started = time.perf_counter()
    proof = certificate(three["solver"], three["raw"])
    written = time.perf_counter() - started
    started = time.perf_counter()
    verdict = check(proof)
    checked = time.perf_counter() - started
    print(f"| 3×3 value | {three['value']:+g} |")
    print(f"| 3×3 solve | {three['seconds']:.1f} s, {three['nodes']:,} nodes |")
    print(f"| 3×3 certificate | {len(proof['nodes']):,} positions, written in {written:.1f} s |")
    print(f"| 3×3 check with the spec | {'valid' if verdict is None else verdict}, {checked:.1f} s |")
    print(f"| 3×3 total (solve + certificate + check) | {three['seconds'] + written + checked:.1f} s |")

    two = measure("grid:2x3", None)
    plain, finished = plain_nodes("grid:2x3", args.plain_nodes)
    ratio = plain / two["nodes"]
    shown = f"{ratio:,.0f}×" if finished else f"> {ratio:,.0f}× (plain search unfinished at {plain:,} nodes)"
    print(f"| 2×3 nodes: solver {two['nodes']:,} vs plain alpha-beta | {shown} |")

    value, solver, solver_seconds, reference, reference_seconds = reference_nodes("atlas:36", "stone")
    print(
        f"| atlas:36 stone (value {value:+d}) nodes: solver {solver:,} ({solver_seconds:.2f} s) vs compiled "
        f"full-history minimax {reference:,} ({reference_seconds:.1f} s, compile included) | {reference / solver:,.0f}× |"
    )

    measure("grid:2x2", None, core="compiled", search="deepening")
    for name in ("grid:2x4", "path:8"):
        python = measure(name, args.core_seconds, core="python")
        compiled = measure(name, args.core_seconds, core="compiled", search="deepening")
        print(
            f"| compiled core vs Python core (nodes/s, same run), {name}: {compiled['rate']:,.0f} vs "
            f"{python['rate']:,.0f}; value {compiled['value']} in {compiled['nodes']:,} nodes / "
            f"{compiled['seconds']:.1f} s vs {python['value']} in {python['nodes']:,} nodes / "
            f"{python['seconds']:.1f} s | {compiled['rate'] / python['rate']:.1f}× |",
            flush=True,
        )

    print("\n| board | value | nodes | seconds | nodes/s | principal variation |\n|---|---|---|---|---|---|")
    boards = ["grid:2x2", "grid:2x3"] + ([] if args.quick else ["grid:2x4"])
    for name in boards:
        print(row(measure(name, args.seconds)), flush=True)
    for n in range(1, 8 if args.quick else 13):
        r = measure(f"path:{n}", args.seconds, jobs=args.jobs)
        print(row(r), flush=True)
        if not r["exact"]:
            break
    print(
        "\ncommand: python benchmarks/bench_solve.py"
        + (" --quick" if args.quick else f" --seconds {args.seconds:g} --plain-nodes {args.plain_nodes}")
        + f" --core-seconds {args.core_seconds:g}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
