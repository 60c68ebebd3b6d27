"""What the commands over source 003's searches share (``fundamental-score``,
``ultimate-claims``, ``ultimate-table``, ``analyse``): the budget flags (``--max-points``,
``--nodes``, ``--seconds``, with ``--json`` and ``--out``, built by :mod:`gorules.flags`),
the ``--core`` and ``--search`` flags of the yes/no searches, and the reading of them; a
progress bar and a report printer.

Every search runs within a budget (``--nodes``, ``--seconds``); larger graphs than
``--max-points`` are refused before any work; progress goes to stderr; a budget that runs
out reports what was proved so far.
"""

from __future__ import annotations

import sys

from tqdm import tqdm

from gorules import flags
from gorules.errors import UsageError
from gorules.impl.rulesets.ultimate.search import AUTO_NODES
from gorules.impl.solving.budget import Budget
from gorules.spec.graph import Graph, parse_graph

MAX_POINTS = 7
"""Graphs above this size are refused unless --max-points raises it (6 points: seconds)."""


def add_budget(parser, seconds: float | None = None, reason: str | None = None) -> None:
    """The budget and output flags every command here takes; ``reason`` says why the
    command's ``--seconds`` has a default where the others have none."""
    flags.add_max_points(
        parser,
        MAX_POINTS,
        reason="the yes/no searches of Ultimate Go grow fast with the points; solve takes 12 and prove 16",
    )
    flags.add_nodes(parser, None, help="give up after this many search nodes", reason=flags.BOUNDED_BY_SIZE)
    flags.add_seconds(parser, seconds, reason=reason or flags.BOUNDED_BY_SIZE, help="give up after this many seconds")
    flags.add_output(parser)


def add_core(parser, default: str = "auto") -> None:
    """The ``--core`` flag: the compiled core of the yes/no searches, the Python one, or the
    Python one for ``AUTO_NODES`` nodes and then the compiled one (auto)."""
    parser.add_argument(
        "--core",
        choices=("auto", "compiled", "python"),
        default=default,
        help=f"the yes/no searches compiled (numba, graphs of at most 7 points), in Python, or in Python for "
        f"{AUTO_NODES:,} nodes and then compiled (auto); default {default}",
    )
    parser.add_argument(
        "--search",
        choices=("race", "dfpn", "all"),
        default="all",
        help="the compiled core's search: two depth-first move orders and proof-number search racing (all), "
        "the two orders alone (race), or proof-number search alone (dfpn); default all",
    )


def checked_graph(name: str, max_points: int) -> Graph:
    """The graph, refused in one line if it is larger than --max-points."""
    graph = parse_graph(name)
    if graph.order > max_points:
        raise UsageError(
            f"{graph.name} has {graph.order} points: at most {max_points} are searched (raise the limit with --max-points)"
        )
    return graph


def core_of(args) -> dict:
    """The engine's flags for ``--core`` and ``--search``: the compiled core, with the Python
    search first for ``AUTO_NODES`` nodes under ``auto``."""
    core = getattr(args, "core", "python")
    return {
        "compiled": core in ("compiled", "auto"),
        "hand_over": AUTO_NODES if core == "auto" else 0,
        "search": getattr(args, "search", "all"),
    }


def budget_of(args) -> Budget:
    """The budget the flags set."""
    try:
        return Budget(seconds=args.seconds, nodes=args.nodes)
    except ValueError as error:
        raise UsageError(str(error)) from None


def bar(args, what: str):
    """A progress bar on stderr (off with --json)."""
    return tqdm(desc=what, unit="node", unit_scale=True, file=sys.stderr, disable=args.json)


def show(args, report: dict) -> None:
    """Give a report as JSON or as ``key: value`` lines (see :func:`gorules.flags.emit`)."""
    flags.emit(args, report, "\n".join(f"{key}: {value}" for key, value in report.items()))


RESULTS = {1: "B", 0: "draw", -1: "W"}
"""Black's Ultimate result as the table writes it."""
