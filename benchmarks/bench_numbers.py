"""The solver's switches that order its search, measured in nodes in one run.

Each board is solved exactly in one process (``jobs=1``, so that the nodes do not depend on
how a split falls) with the solver's defaults and then with one switch changed at a time:

- ``no fold``: df-pn's numbers kept apart for each board instead of shared by the boards the
  graph's automorphisms map onto each other (``Solver.dfpn_fold``);
- ``score``: a new node's numbers from the area score its board would have if the game ended
  now (``Solver.dfpn_initial = -1``) instead of (1, 1);
- ``walk up``: the thresholds walked up from the lower bound alone, without the turns down
  from the upper bound (``Solver.alternate``).

These switches change the order of the search, never a value: the run checks that every
variant finds the default's value.  Nodes are the same on any machine; processor seconds
are printed beside them.

    python benchmarks/bench_numbers.py [--boards grid:3x4,path:11,grid:4x4] [--preset PRESET]
"""

from __future__ import annotations

import argparse
import sys
import time

from gorules.impl.solving.solve import Solver
from gorules.spec.graph import parse_graph

VARIANTS = {
    "default": {},
    "no fold": {"dfpn_fold": False},
    "score": {"dfpn_initial": -1},
    "walk up": {"alternate": False},
}
"""Each variant's attributes of the solver, set after it is made."""

BOARDS = "grid:3x3,grid:2x5,grid:3x4,path:10,path:11,grid:4x4"


def measure(board: str, preset: str | None, switches: dict) -> dict:
    """Solve ``board`` exactly in one process with ``switches`` set: value, nodes, processor seconds."""
    solver = Solver(parse_graph(board), preset, max_points=30, jobs=1, max_seconds=86_400)
    for name, value in switches.items():
        setattr(solver, name, value)
    started = time.process_time()
    found = solver.solve()
    return {"value": found.value, "nodes": found.nodes, "seconds": time.process_time() - started}


def rows(boards: list[str], preset: str | None) -> list[str]:
    """The table's rows: per board and variant, value, nodes, its ratio to the default's, seconds."""
    lines = ["| board | variant | value | nodes | nodes / default's | processor s |", "|---|---|---|---|---|---|"]
    for board in boards:
        base = None
        for variant, switches in VARIANTS.items():
            found = measure(board, preset, switches)
            base = base or found
            if found["value"] != base["value"]:
                raise AssertionError(f"{board} {variant}: value {found['value']} against {base['value']}")
            ratio = found["nodes"] / base["nodes"]
            lines.append(
                f"| {board} | {variant} | {found['value']:+g} | {found['nodes']:,} | {ratio:.2f} | {found['seconds']:.1f} |"
            )
            print(lines[-1], file=sys.stderr, flush=True)
    return lines


def main(argv=None) -> int:
    """Print the table (Markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default=BOARDS, help=f"graphs, comma-separated (default {BOARDS})")
    parser.add_argument("--preset", default=None, help="the ruleset's preset (default: Tromp–Taylor's own)")
    args = parser.parse_args(argv)
    measure("grid:2x2", args.preset, {})  # numba compiles (or loads) the kernels here, outside the figures
    print("\n".join(rows(args.boards.split(","), args.preset)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
