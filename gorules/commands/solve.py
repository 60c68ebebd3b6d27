"""``gorules solve GRAPH``: the perfect-play value of a graph from the empty board."""

from __future__ import annotations

import json

from gorules.conjectures import as_number, move_names
from gorules.errors import UsageError
from gorules.impl.rules import RuleError, ruleset
from gorules.impl.solve import MAX_POINTS, SolveError, solve
from gorules.spec.graph import parse_graph


def register(subparsers) -> None:
    """Add the ``solve`` subcommand."""
    parser = subparsers.add_parser(
        "solve",
        help="solve a small graph exactly: perfect-play value and a principal variation",
    )
    parser.add_argument("graph", help="a graph, e.g. grid:2x2, path:5, cycle:4, atlas:40")
    parser.add_argument("--rules", default="tromp-taylor", help="a ruleset preset (default tromp-taylor)")
    parser.add_argument("--komi", type=float, default=None, help="komi for White (default: the preset's)")
    parser.add_argument("--max-nodes", type=int, default=None, help="give up after this many search nodes")
    parser.add_argument(
        "--max-points", type=int, default=MAX_POINTS, help=f"refuse larger graphs (default {MAX_POINTS})"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def run(args) -> int:
    """Solve the graph and print the value, the principal variation and the effort."""
    graph = parse_graph(args.graph)
    try:
        rules = ruleset(args.rules)
        solution = solve(graph, rules, args.komi, args.max_nodes, max_points=args.max_points)
    except (RuleError, SolveError) as error:
        raise UsageError(str(error)) from error
    result = {
        "graph": graph.name,
        "rules": args.rules,
        "value": as_number(solution.value),
        "principal_variation": move_names(graph, solution.principal_variation),
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 4),
        "nodes_per_second": round(solution.nodes_per_second),
        "ruleset": solution.details["rules"],
    }
    if solution.cycle_rule:
        result["cycle_rule"] = solution.cycle_rule
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{graph.name} under {args.rules} ({result['ruleset']}): value {result['value']:+g} for Black")
    print("principal variation: " + " ".join(result["principal_variation"]))
    print(f"{solution.nodes} nodes in {solution.seconds:.2f}s ({result['nodes_per_second']} nodes/s)")
    if solution.cycle_rule:
        print(f"note: {solution.cycle_rule}")
    return 0
