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
- 1×n from n = 1 up, each within a time budget, as far as it goes; 2×2, 2×3, 2×4.

    python benchmarks/bench_solve.py [--seconds S] [--plain-nodes N] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from gorules.impl.certificate import certificate
from gorules.impl.certificate_check import check
from gorules.impl.search import SearchError
from gorules.impl.search import solve as generic_solve
from gorules.impl.solve import Solver
from gorules.impl.tromp_taylor import TrompTaylor
from gorules.spec.graph import parse_graph


def measure(name: str, seconds: float | None) -> dict:
    """Solve one board within ``seconds``: value (or bounds), nodes, seconds, nodes/s."""
    solver = Solver(parse_graph(name), max_seconds=seconds)
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
    """Nodes of the plain alpha-beta search on ``name``, and whether it finished."""
    graph = parse_graph(name)
    try:
        return generic_solve(TrompTaylor().initial(graph), max_nodes=budget, generic=True).nodes, True
    except SearchError:
        return budget, False


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


def main(argv=None) -> int:
    """Run the measurements and print the tables (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600, help="time budget for each 1×n board")
    parser.add_argument("--plain-nodes", type=int, default=3_000_000, help="node budget of the plain search")
    parser.add_argument("--quick", action="store_true", help="3×3 and 2×3 only, 1×n up to 7")
    args = parser.parse_args(argv)

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

    print("\n| board | value | nodes | seconds | nodes/s | principal variation |\n|---|---|---|---|---|---|")
    boards = ["grid:2x2", "grid:2x3"] + ([] if args.quick else ["grid:2x4"])
    for name in boards:
        print(row(measure(name, args.seconds)), flush=True)
    for n in range(1, 8 if args.quick else 13):
        r = measure(f"path:{n}", args.seconds)
        print(row(r), flush=True)
        if not r["exact"]:
            break
    print(
        "\ncommand: python benchmarks/bench_solve.py"
        + (" --quick" if args.quick else f" --seconds {args.seconds:g} --plain-nodes {args.plain_nodes}")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
