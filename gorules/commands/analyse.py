"""``gorules analyse SITUATION``: sections IV–VI of source 003 on one situation, for a ruleset
with the ``analyse`` capability (Ultimate and Fundamental Go); any other is refused naming it.

The score (least winning mid-game komi − ½), the cost of each legal move, the optimal moves,
the resignation case, the sente level (the cost of a delay or reverse delay), the phase and,
in Ultimate Go, the result with the draw option and after each move; as a table (with the
board drawn with each placement's cost) or as JSON.
"""

from __future__ import annotations

import os
import sys

from tqdm import tqdm

from gorules import flags, rulesets, situations
from gorules.errors import UsageError
from gorules.impl.formats.graph_files import is_graph_file, read_graph_file
from gorules.impl.rulesets.ultimate.analysis import REVERSE_DELAY, Analysis
from gorules.impl.rulesets.ultimate.search import Engine
from gorules.impl.solving.budget import Budget, BudgetSpent
from gorules.spec.graph import Graph, GraphError, parse_graph, point_name
from gorules.spec.tromp_taylor import EMPTY
from gorules.spec.ultimate import situation_text
from gorules.ultimate_commands import add_core, core_of

MAX_POINTS = 7
"""The largest graph analysed unless --max-points says otherwise (6 points take seconds)."""


def register(subparsers) -> None:
    """Add the ``analyse`` subcommand."""
    parser = subparsers.add_parser(
        "analyse",
        help="Ultimate/Fundamental Go (source 003): score, cost of each move, optimal moves, sente level, phase",
    )
    parser.add_argument(
        "situation",
        metavar="SITUATION",
        help="a graph (grid:2x2, a graph file: its empty board, the ruleset's start), a situation's file, JSON, "
        'or text such as "graph: grid:2x3; board: B../.W.; to move: B"',
    )
    flags.add_graph(parser, flag=True, default=None, help="the graph, if the situation does not name it")
    flags.add_ruleset_flags(parser, "ultimate")
    flags.add_max_points(
        parser,
        MAX_POINTS,
        reason="the yes/no searches of Ultimate Go grow fast with the points; solve takes 12 and prove 16",
    )
    flags.add_nodes(parser, None, help="give up after this many search nodes", reason=flags.BOUNDED_BY_SIZE)
    flags.add_seconds(parser, None, help="give up after this many seconds", reason=flags.BOUNDED_BY_SIZE)
    flags.add_output(parser, "the analysis")
    add_core(parser, default="python")  # its many small questions: faster in Python (docs/ultimate.md)
    parser.set_defaults(func=run)


def named_graph(text: str) -> Graph | None:
    """The graph SITUATION names when it is a graph (a graph's name or a graph file) and not
    a situation, else None; its empty board, the ruleset's start, is then analysed."""
    if is_graph_file(text):
        return read_graph_file(text)
    if os.path.exists(text):
        return None
    try:
        return parse_graph(text)
    except GraphError:
        return None


def graph_of(args) -> Graph:
    """The graph: --graph, else the situation's own graph field; UsageError if neither."""
    name = args.graph or situations.graph_name(situations.text_of(args.situation))
    if name is None:
        raise UsageError("the situation names no graph: add a line 'graph: ...' or give --graph")
    return parse_graph(name)


def move_word(graph: Graph, move) -> str:
    """A move as the table writes it: a point's name or the delay's word."""
    return point_name(graph, move) if isinstance(move, int) else str(move)


def as_json(graph: Graph, ruleset_name: str, situation, analysis: Analysis, engine: Engine) -> dict:
    """The analysis as strict JSON-able data, naming the core that ran the yes/no searches
    and, for the compiled core, its search (``--search``; None for the Python core, which
    has one)."""
    return {
        "graph": graph.name,
        "ruleset": ruleset_name,
        "situation": situation.to_json(),
        "to_move": analysis.to_move,
        "score": analysis.score,
        "sente_level": analysis.sente_level,
        "phase": analysis.phase,
        "optimal_moves": [move_word(graph, m) for m in analysis.optimal],
        "resign": analysis.resign,
        "safe_moves_left": analysis.safe_moves,
        "moves": [
            {
                "move": move_word(graph, m),
                "cost": c,
                "optimal": c == 0,
                "ultimate_result": analysis.move_results.get(m),
            }
            for m, c in analysis.costs.items()
        ]
        + [
            {
                "move": REVERSE_DELAY,
                "cost": analysis.sente_level,
                "optimal": analysis.sente_level == 0,
                "ultimate_result": None,
            }
        ],
        "ultimate_result": analysis.ultimate_result,
        "nodes": analysis.nodes,
        "core": ("auto" if engine.hand_over else "compiled") if engine.compiled else "python",
        "search": engine.search if engine.compiled else None,
        "method": "section IV's score by yes/no searches with mid-game komi; costs from the scores after each move",
    }


def cost_board(graph: Graph, board, costs: dict) -> str:
    """The board with each empty point showing the cost of placing there ("-" if illegal)
    and stones as X (Black) and O (White)."""
    cells = []
    for v in graph.points:
        if board[v] != EMPTY:
            cells.append("X" if board[v] == "B" else "O")
        else:
            cells.append(f"{costs[v]:g}" if v in costs else "-")
    width = max(len(c) for c in cells)
    if graph.is_grid:
        rows, columns = graph.shape
        return "\n".join(
            "  " + " ".join(cells[r * columns + c].rjust(width) for c in range(columns)) for r in range(rows)
        )
    return "  " + " ".join(f"{point_name(graph, v)}:{cells[v]}" for v in graph.points)


def table(graph: Graph, ruleset_name: str, situation, analysis: Analysis) -> str:
    """The analysis as text for people."""
    lines = [situation_text(graph, situation.state), ""]
    side = "Black" if analysis.to_move == "B" else "White"
    lines.append(f"score: {analysis.score:+g} (for Black; {side} to move, {ruleset_name} read as Fundamental Go)")
    lines.append(f"sente level: {analysis.sente_level:g}   phase: {analysis.phase}")
    if analysis.ultimate_result is not None:
        lines.append(f"Ultimate Go result (with the draw option): {analysis.ultimate_result}")
    if analysis.resign:
        lines.append(
            f"no optimal move: {side} should resign (score ½ + {analysis.safe_moves} safe moves of the winner)"
        )
    else:
        lines.append("optimal moves: " + " ".join(move_word(graph, m) for m in analysis.optimal))
    lines += ["", f"{'move':<15}{'cost':>6}  optimal  ultimate result"]
    rows = [(move_word(graph, m), c, analysis.move_results.get(m, "")) for m, c in analysis.costs.items()]
    rows.append((REVERSE_DELAY, analysis.sente_level, ""))
    for word, c, result in rows:
        lines.append(f"{word:<15}{c:>6g}  {'yes' if c == 0 else '':<7}  {result}")
    lines += [
        "",
        "cost of each placement (X Black, O White, - illegal):",
        cost_board(graph, situation.board, analysis.costs),
    ]
    return "\n".join(lines)


def run(args) -> int:
    """Analyse the situation and print the table or JSON."""
    named = named_graph(args.situation)
    if named is not None and args.graph is not None:
        raise UsageError(f"{args.situation} is a graph and --graph names one too: give the graph once")
    graph = named if named is not None else graph_of(args)
    if graph.order > args.max_points:
        raise UsageError(
            f"{graph.name} has {graph.order} points: analyse takes at most {args.max_points} "
            "(raise the limit with --max-points)"
        )
    ruleset = rulesets.from_arguments(args)
    analysis_of = ruleset.capability("analyse")
    if analysis_of is None:
        raise UsageError(f"analyse is refused: {ruleset.capability_gap('analyse')} (sections IV–VI of source 003)")
    situation = situations.read(ruleset, graph, None if named is not None else args.situation)
    if situation.over:
        raise UsageError("the game in this situation is over: there is nothing to analyse")
    try:
        budget = Budget(seconds=args.seconds, nodes=args.nodes)
    except ValueError as error:
        raise UsageError(str(error)) from None
    bar = tqdm(desc="analyse", unit="node", file=sys.stderr, disable=args.json)
    engine = Engine(
        graph,
        meter=budget.meter(),
        progress=lambda n: bar.update(1000),
        **core_of(args),
    )
    try:
        analysis = analysis_of(situation, engine)
    except BudgetSpent as spent:
        raise UsageError(
            f"{spent} after {engine.nodes} nodes before the score was settled: nothing proved "
            "(raise --nodes or --seconds)"
        ) from None
    finally:
        bar.close()
    data = as_json(graph, ruleset.name, situation, analysis, engine) if args.json else None
    flags.emit(args, data, table(graph, ruleset.name, situation, analysis))
    return 0
