"""Source 003 at reach: ``gorules ultimate-table``, over every connected graph up to
``--points`` points: the Tromp–Taylor area value, the Fundamental score, the Ultimate result
and the territory on the final board of Tromp–Taylor perfect play, and where area and
Ultimate Go part.  Every search runs within a budget; a budget that runs out gives the
bounds proved so far.
"""

from __future__ import annotations

import sys

from tqdm import tqdm

from gorules import flags, rulesets
from gorules.arguments import positive_finite, worker_count
from gorules.errors import UsageError
from gorules.impl.rulesets.ultimate.search import INF, Engine, deep
from gorules.impl.solving.budget import Budget, BudgetSpent
from gorules.impl.solving.split import SPLIT_AFTER
from gorules.spec import ultimate
from gorules.spec.graph import Graph
from gorules.ultimate_commands import (
    RESULTS,
    add_budget,
    add_core,
    budget_of,
    core_of,
)


def register(subparsers) -> None:
    """Add the ``ultimate-table`` subcommand."""
    table = subparsers.add_parser(
        "ultimate-table",
        help="area value, Fundamental score, Ultimate result and territory over every connected graph up to N points",
    )
    flags.add_points(
        table,
        6,
        "every connected graph of 1..N points",
        reason="one below the atlas's 7 points, where the searches grow long",
    )
    table.add_argument(
        "--area-nodes",
        type=int,
        default=TT_NODES,
        help=f"node budget of each Tromp-Taylor solve (default {TT_NODES:,}); bounds when it runs out",
    )
    table.add_argument(
        "--area-seconds",
        type=positive_finite,
        default=TT_SECONDS,
        help=f"time budget of each Tromp-Taylor solve (default {TT_SECONDS:g} s); bounds when it runs out",
    )
    table.add_argument(
        "--area-jobs",
        type=worker_count,
        default=None,
        help="worker processes over which a Tromp-Taylor test that resists is split, as in 'gorules solve --jobs' "
        f"(default: the machine's cores, as many as fit in memory, and never more; 1: one process); a test is split after "
        f"{SPLIT_AFTER:,} nodes, so only with --area-nodes above that",
    )
    table.add_argument(
        "--max-minutes",
        type=positive_finite,
        default=MAX_MINUTES,
        help=f"refuse to start when the worst-case time exceeds this (default {MAX_MINUTES:g})",
    )
    add_budget(table, seconds=30.0, reason="the table needs a time bound on each search to bound its worst case")
    add_core(table)
    table.set_defaults(func=run_table)


def connected_graphs(points: int) -> list[Graph]:
    """Every connected graph with 1 to ``points`` points, up to isomorphism (networkx's atlas)."""
    import networkx as nx

    from gorules.spec.graph import from_networkx

    if points > 7:
        raise UsageError("the graph atlas lists graphs of at most 7 points (give --points 7 or less)")
    if points < 1:
        raise UsageError(f"--points must be at least 1, got {points}")
    return [
        from_networkx(g, name=f"atlas:{i}")
        for i, g in enumerate(nx.graph_atlas_g())
        if 1 <= g.number_of_nodes() <= points and nx.is_connected(g)
    ]


TT_NODES = 1_000_000
"""The default node budget of each Tromp–Taylor solve in the table."""


TT_SECONDS = 120.0
"""The default time budget of each Tromp–Taylor solve in the table."""


MAX_MINUTES = 120.0
"""The table refuses to start when its worst-case time exceeds this many minutes."""


def area_fields(graph: Graph, nodes: int = TT_NODES, seconds: float | None = None, jobs: int | None = 1) -> dict:
    """The Tromp–Taylor perfect-play area value for Black and the territory on the board
    its principal variation ends on, by a solve split over ``jobs`` processes where a test
    resists (None: the cores, as many as fit); if the solver's node or time budget runs
    out, the value if its bounds already meet (the territory then unknown), else the bounds
    ``area_bounds``; {} if it proved nothing.  UsageError where the solver refuses the solve
    (``jobs`` that do not fit in memory)."""
    from gorules.impl.solving.search import SearchError, solve

    try:
        found = solve(
            rulesets.make("tromp-taylor").initial(graph),
            max_nodes=nodes,
            max_seconds=seconds,
            bounds_on_budget=True,
            jobs=jobs,
        )
    except SearchError as error:
        raise UsageError(str(error)) from None
    if found.status == "exact":
        return {"area_value": found.value, "territory": final_territory(graph, found.principal_variation)}
    if found.lower is None or found.upper is None:
        return {}
    if found.lower == found.upper:
        return {"area_value": found.lower}
    return {"area_bounds": [found.lower, found.upper]}


def final_territory(graph: Graph, line: list) -> int:
    """Black's territory less White's (empty points that reach only her colour) on the board
    the Tromp–Taylor line ends on."""
    from gorules.spec import tromp_taylor as tt

    ruleset = rulesets.make("tromp-taylor", implementation="spec")
    situation = ruleset.initial(graph)
    for move in line:
        situation = situation.play(move)
    b = situation.board
    stones = {c: sum(1 for v in graph.points if b[v] == c) for c in (tt.BLACK, tt.WHITE)}
    return (tt.score(graph, b, tt.BLACK) - stones[tt.BLACK]) - (tt.score(graph, b, tt.WHITE) - stones[tt.WHITE])


def table_row(graph: Graph, args) -> dict:
    """One graph's row: area value, Fundamental score, Ultimate result, territory; where a
    budget ran out, the bounds proved instead (``*_bounds``, None for no bound)."""
    row: dict = {"graph": graph.name, "points": graph.order, "edges": len(graph.edges())}
    row.update(
        area_fields(
            graph,
            getattr(args, "area_nodes", TT_NODES),
            getattr(args, "area_seconds", None),
            getattr(args, "area_jobs", 1),
        )
    )
    row.update(fundamental_fields(graph, budget_of(args), core_of(args)))
    differ = area_and_ultimate_differ(row)
    if differ is not None:
        row["area_and_ultimate_differ"] = differ
    return row


def fundamental_fields(graph: Graph, budget: Budget, core: dict) -> dict:
    """The Fundamental score and the Ultimate result of the empty board, each searched within
    a meter of ``budget`` of its own (the engine's ``core`` flags, as ``core_of``); where one
    runs out, the bounds proved instead (``*_bounds``, None for no bound) and a ``note``
    saying after how many nodes; ``nodes`` the nodes of both."""
    row: dict = {}
    engine = Engine(graph, meter=budget.meter(), **core)
    notes = []
    low, high = float(-INF), float(INF)
    try:
        row["fundamental_score"] = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
        low = high = row["fundamental_score"]
    except BudgetSpent as spent:
        low, high = engine.bounds
        row["fundamental_score_bounds"] = [None if low <= -INF else low, None if high >= INF else high]
        notes.append(f"score: {spent} after {engine.nodes} nodes")
    start = engine.from_situation(ultimate.initial_situation(graph))
    engine.meter = budget.meter()  # the Ultimate result gets a budget of its own
    before = engine.nodes
    try:
        row["ultimate_result"] = RESULTS[deep(engine.result_given_score, start, low, high)]
    except BudgetSpent as spent:
        least, most = Engine.results_between(low, high, 0)
        row["ultimate_result_bounds"] = [RESULTS[least], RESULTS[most]]
        notes.append(f"Ultimate result: {spent} after {engine.nodes - before} nodes")
    if notes:
        row["note"] = "; ".join(notes)
    row["nodes"] = engine.nodes
    return row


def area_winners(row: dict) -> set[str] | None:
    """The area winners (B, draw, W) the row's area value or bounds allow, or None."""
    if "area_value" in row:
        low = high = row["area_value"]
    elif "area_bounds" in row:
        low, high = row["area_bounds"]
    else:
        return None
    return {name for name, fits in (("W", low < 0), ("draw", low <= 0 <= high), ("B", high > 0)) if fits}


def ultimate_results(row: dict) -> set[str]:
    """The Ultimate results the row's result or bounds allow."""
    if "ultimate_result" in row:
        return {row["ultimate_result"]}
    least, most = row.get("ultimate_result_bounds", ("W", "B"))
    order = ["W", "draw", "B"]
    return set(order[order.index(least) : order.index(most) + 1])


def area_and_ultimate_differ(row: dict) -> bool | None:
    """Whether the area winner and the Ultimate result differ: None unless the values or
    bounds settle it."""
    area, final = area_winners(row), ultimate_results(row)
    if area is None:
        return None
    if not area & final:
        return True
    if len(area) == len(final) == 1:
        return False
    return None


def signed(value: float | None) -> str:
    """A number with its sign (``+3.5``), or … for no bound."""
    return "…" if value is None else f"{value:+g}"


def markdown(rows: list[dict]) -> str:
    """The table as markdown: a bound pair [low, high] where a budget ran out."""
    lines = [
        "| graph | points | edges | area value (TT) | territory (TT final board) | Fundamental score | Ultimate result | area ≠ Ultimate |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "fundamental_score" in r:
            score = f"{r['fundamental_score']:+g}"
        else:
            score = "[{}, {}]".format(*map(signed, r["fundamental_score_bounds"]))
        if "area_value" in r:
            area = f"{r['area_value']:+g}"
        elif "area_bounds" in r:
            area = "[{}, {}]".format(*map(signed, r["area_bounds"]))
        else:
            area = "unknown"
        territory = f"{r['territory']:+d}" if "territory" in r else "unknown"
        if "ultimate_result" in r:
            result = r["ultimate_result"]
        else:
            least, most = r["ultimate_result_bounds"]
            result = "unknown" if (least, most) == ("W", "B") else f"{least} or {most}"
        differ = {True: "yes", False: "", None: "?"}[r.get("area_and_ultimate_differ")]
        lines.append(
            f"| {r['graph']} | {r['points']} | {r['edges']} | {area} | {territory} | {score} | {result} | {differ} |"
        )
    return "\n".join(lines)


def worst_case_seconds(graphs: int, args) -> float | None:
    """The longest the table can take: per graph, the Tromp–Taylor solve's time budget and
    the score's and the Ultimate result's (each --seconds); None if --seconds is unset."""
    if args.seconds is None:
        return None
    return graphs * (args.area_seconds + 2 * args.seconds)


def estimate_line(graphs: int, worst: float, args) -> str:
    """The worst-case time in one line, with the budgets it adds up."""
    return (
        f"{graphs} graphs, at most {worst / 60:,.1f} min "
        f"(each: Tromp-Taylor {args.area_seconds:g} s, score {args.seconds:g} s, Ultimate result {args.seconds:g} s)"
    )


def run_table(args) -> int:
    """The comparison table over every connected graph up to --points points, refused before
    any work if its worst-case time exceeds --max-minutes."""
    if args.area_nodes <= 0:
        raise UsageError(f"--area-nodes must be positive, got {args.area_nodes}")
    for flag, value in (("--area-seconds", args.area_seconds), ("--max-minutes", args.max_minutes)):
        if not value > 0 or value == float("inf"):
            raise UsageError(f"{flag} must be a positive number, got {value:g}")
    budget_of(args)  # a bad --seconds or --nodes is refused before any work
    points = flags.largest(args)
    if points > args.max_points:
        raise UsageError(
            f"--points {points} exceeds --max-points {args.max_points} (raise the limit with --max-points)"
        )
    graphs = connected_graphs(points)
    worst = worst_case_seconds(len(graphs), args)
    if worst is None:
        raise UsageError("the table needs --seconds: without it no time bounds the score and Ultimate searches")
    print(f"ultimate-table: {estimate_line(len(graphs), worst, args)}", file=sys.stderr)
    if worst > args.max_minutes * 60:
        raise UsageError(
            f"the worst case, {worst / 60:,.1f} min, exceeds --max-minutes {args.max_minutes:g} "
            "(raise the limit with --max-minutes, or lower --seconds/--area-seconds)"
        )
    rows = [table_row(g, args) for g in tqdm(graphs, desc="graphs", unit="graph", file=sys.stderr, disable=args.json)]
    flags.emit(args, rows, markdown(rows), indent=1)
    return 0
