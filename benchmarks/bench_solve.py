"""Exact solving: seconds, nodes and nodes/s for 1×1 … 1×7 and 2×2, with budgeted attempts
at 2×3 and 3×3, all measured in one run; also the transposition table's effect (nodes with
the table ÷ nodes without) where the search without it finishes within its budget.

    python benchmarks/bench_solve.py [--budget NODES] [--quick]
"""

from __future__ import annotations

import argparse
import sys
import time

from gorules.impl.solve import SolveError, Solver
from gorules.spec.graph import parse_graph

BOARDS = ["path:1", "path:2", "path:3", "path:4", "path:5", "path:6", "path:7", "grid:2x2"]
ATTEMPTS = ["grid:2x3", "grid:3x3"]


def measure(name: str, budget: int, transpositions: bool = True) -> dict:
    """Solve one board; its value, nodes, seconds and nodes/s (or how far it got)."""
    solver = Solver(parse_graph(name), max_nodes=budget, transpositions=transpositions)
    start = time.perf_counter()
    try:
        solution = solver.solve()
    except SolveError:
        seconds = time.perf_counter() - start
        return {
            "board": name,
            "value": None,
            "nodes": solver.nodes,
            "seconds": seconds,
            "rate": solver.nodes / seconds,
            "pv": "(budget spent)",
        }
    return {
        "board": name,
        "value": solution.value,
        "nodes": solution.nodes,
        "seconds": solution.seconds,
        "rate": solution.nodes_per_second,
        "pv": " ".join(str(m) for m in solution.principal_variation),
    }


def main(argv=None) -> int:
    """Run the measurements and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=3_000_000, help="node budget for each attempt")
    parser.add_argument("--quick", action="store_true", help="stop at 1×6 (for a smoke run)")
    args = parser.parse_args(argv)
    boards = BOARDS if not args.quick else BOARDS[:6] + ["grid:2x2"]
    rows = [measure(b, None if b in BOARDS else args.budget) for b in boards]
    if not args.quick:
        rows += [measure(b, args.budget) for b in ATTEMPTS]
    print(f"{'board':10} {'value':>6} {'nodes':>10} {'seconds':>9} {'nodes/s':>9}  principal variation")
    for r in rows:
        value = "-" if r["value"] is None else f"{r['value']:+g}"
        print(f"{r['board']:10} {value:>6} {r['nodes']:>10} {r['seconds']:>9.2f} {r['rate']:>9.0f}  {r['pv']}")
    print("\ntransposition table: nodes without it / nodes with it (budget 1,000,000)")
    for name in ["path:5", "grid:2x2", "cycle:5", "path:6"]:
        with_table = measure(name, None)
        without = measure(name, 1_000_000, transpositions=False)
        ratio = (
            "> %.0f" % (without["nodes"] / with_table["nodes"])
            if without["value"] is None
            else "%.1f" % (without["nodes"] / with_table["nodes"])
        )
        print(f"  {name:10} {ratio}")
    print("\ncommand: python benchmarks/bench_solve.py" + (" --quick" if args.quick else f" --budget {args.budget}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
