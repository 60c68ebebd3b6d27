"""``gorules solve GRAPH``: the perfect-play value of a game of any two-player ruleset."""

from __future__ import annotations

import json

from gorules import rulesets, situations
from gorules.conjectures import as_number
from gorules.errors import UsageError
from gorules.impl import ultimate_search
from gorules.impl.budget import Budget
from gorules.impl.search import SearchError, Solution, solve
from gorules.impl.solve import MAX_POINTS
from gorules.spec.graph import parse_graph


def register(subparsers) -> None:
    """Add the ``solve`` subcommand."""
    parser = subparsers.add_parser(
        "solve",
        help="solve a small graph exactly under any two-player ruleset: perfect-play value and a principal variation",
    )
    parser.add_argument("graph", help="a graph, e.g. grid:2x2, path:5, cycle:4, atlas:40")
    rulesets.add_arguments(parser)
    parser.add_argument("--max-nodes", type=int, default=None, help="give up after this many search nodes")
    parser.add_argument(
        "--max-points", type=int, default=MAX_POINTS, help=f"refuse larger graphs (default {MAX_POINTS})"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    situations.add_argument(parser)
    parser.set_defaults(func=run)


def report(solution: Solution, ruleset, graph) -> dict:
    """The solution as JSON-able data, moves by name."""
    return {
        "graph": solution.graph,
        "ruleset": solution.ruleset,
        "preset": getattr(ruleset.options, "name", "") or None,
        "options": solution.options,
        "status": solution.status,
        "value": as_number(solution.value),
        "lower": as_number(solution.lower),
        "upper": as_number(solution.upper),
        "principal_variation": [ruleset.move_text(graph, m) for m in solution.principal_variation],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 4),
        "nodes_per_second": round(solution.nodes_per_second),
        "method": solution.method,
        "note": solution.note,
    }


def run(args) -> int:
    """Solve the game from the ruleset's start and print the value, the principal variation, the effort."""
    graph = parse_graph(args.graph)
    ruleset = rulesets.from_arguments(args)
    start = situations.read(ruleset, graph, args.situation)
    try:
        # Ultimate and Fundamental Go: decided by their own yes/no searches
        if ruleset.name in ("ultimate", "fundamental"):
            solution = ultimate_search.solve(start, Budget(nodes=args.max_nodes).meter())
        else:
            solution = solve(start, args.max_nodes, max_points=args.max_points)
    except SearchError as error:
        raise UsageError(str(error)) from error
    result = report(solution, ruleset, graph)
    if args.json:
        print(json.dumps(result))
        return 0
    value = result["value"]
    shown = f"{value:+g} for Black" if isinstance(value, (int, float)) else f"{value}"
    print(f"{graph.name} under {ruleset.describe()}: value {shown}")
    print("principal variation: " + " ".join(result["principal_variation"]))
    print(
        f"{solution.nodes} nodes in {solution.seconds:.2f}s ({result['nodes_per_second']} nodes/s); {solution.method}"
    )
    if solution.note:
        print(f"note: {solution.note}")
    return 0
