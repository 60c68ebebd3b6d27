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
- with ``--targets``, the table of targets of the solver's specification instead, each row
  measured in this run beside its target, with the solver's defaults (df-pn for the
  threshold tests): 3×3 with certificate, 1×8 … 1×12, 2×5, 4×4 under
  situational and positional superko (each within ``--seconds``, bounds where the budget
  ran out), the Fundamental score and the Ultimate result of every connected graph of up to
  6 points (each within ``--ultimate-seconds``, as ``gorules ultimate-table``), the nodes of
  2×3 against plain alpha-beta, and uniform random playouts of
  ``CompiledGame`` against OpenSpiel's ``go`` on 9×9 and 19×19 (``bench_openspiel.py``'s
  loop, OpenSpiel's Python API on both sides).

    python benchmarks/bench_solve.py [--seconds S] [--plain-nodes N] [--quick]
    python benchmarks/bench_solve.py --targets [--seconds S] [--plain-nodes N] [--jobs J] [--ultimate-seconds S]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gorules.arguments import positive_finite
from gorules.impl.rulesets.tromp_taylor import TrompTaylor
from gorules.impl.solving.budget import Budget, BudgetSpent
from gorules.impl.solving.certificate import certificate
from gorules.impl.solving.certificate_check import check
from gorules.impl.solving.search import Minimax
from gorules.impl.solving.solve import DESCENTS, MAX_POINTS, Solver
from gorules.impl.solving.split import default_jobs
from gorules.spec.graph import parse_graph


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
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' references
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


def targets(args) -> None:
    """Print the targets of the solver's specification, each measured in this run."""
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
        f"\ncommand: python benchmarks/bench_solve.py --targets --seconds {args.seconds:g} --plain-nodes {args.plain_nodes}"
        f" --jobs {args.jobs} --descent {args.descent}"
        + (f" --four-seconds {args.four_seconds:g}" if args.four_seconds else "")
        + f" --ultimate-seconds {args.ultimate_seconds:g}"
    )


def main(argv=None) -> int:
    """Run the measurements and print the tables (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_finite, default=600, help="time budget for each 1×n board")
    parser.add_argument("--plain-nodes", type=int, default=3_000_000, help="node budget of the plain search")
    parser.add_argument(
        "--core-seconds", type=positive_finite, default=60, help="time budget of each core on 2×4 and 1×8"
    )
    parser.add_argument("--quick", action="store_true", help="3×3 and 2×3 only, 1×n up to 7")
    parser.add_argument("--targets", action="store_true", help="the table of targets, each measured in this run")
    parser.add_argument(
        "--jobs",
        type=int,
        default=default_jobs(),
        help=f"with --targets: processes a resisting test of 1×n, 2×5, 4×4 is split over (default {default_jobs()}, as solve)",
    )
    parser.add_argument(
        "--descent",
        choices=DESCENTS,
        default="step",
        help="with --targets: how the tests of 1×n, 2×5, 4×4 walk down from the upper bound (as solve --descent)",
    )
    parser.add_argument(
        "--four-seconds",
        type=positive_finite,
        help="with --targets: time budget of each 4×4 solve (default: --seconds; the target is 2 hours)",
    )
    parser.add_argument(
        "--ultimate-seconds",
        type=positive_finite,
        default=120,
        help="with --targets: time budget of each graph's Fundamental score and of its Ultimate result (as ultimate-table --seconds)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each playout measurement (with --targets)")
    args = parser.parse_args(argv)
    if args.targets:
        targets(args)
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
