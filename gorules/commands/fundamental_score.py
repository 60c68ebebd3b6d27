"""Source 003 at reach: ``gorules fundamental-score``, ``gorules ultimate-claims`` and
``gorules ultimate-table``.

- ``fundamental-score GRAPH`` — section IV's score of a situation (the empty board unless
  ``--situation``) in Fundamental Go and, with ``--ultimate``, the Ultimate Go result; with
  ``--check``, the claims of sections IV–VI on every reachable situation;
- ``ultimate-claims GRAPH...`` — each claim's status per graph: holds, fails (with the first
  counterexample), or unknown (the situation or node budget ran out first);
- ``ultimate-table`` — over every connected graph up to ``--max-points`` points: the
  Tromp–Taylor area value, the Fundamental score, the Ultimate result and the territory on
  the final board of Tromp–Taylor perfect play, and where area and Ultimate Go part.

Every search runs within a budget (``--max-nodes``, ``--seconds``); larger graphs than
``--max-points`` are refused before any work; progress goes to stderr; a budget that runs
out reports what was proved so far.
"""

from __future__ import annotations

import json
import sys
import time

from tqdm import tqdm

from gorules import rulesets, situations
from gorules.arguments import positive_finite, worker_count
from gorules.errors import UsageError
from gorules.impl.formats.files import write_text_atomically
from gorules.impl.rulesets.ultimate import claims as ultimate_claims
from gorules.impl.rulesets.ultimate.search import AUTO_NODES, INF, Engine, deep
from gorules.impl.solving.budget import Budget, BudgetSpent
from gorules.impl.solving.split import SPLIT_AFTER
from gorules.spec import ultimate
from gorules.spec.graph import Graph, parse_graph

MAX_POINTS = 7
"""Graphs above this size are refused unless --max-points raises it (6 points: seconds)."""


def add_budget(parser, seconds: float | None = None) -> None:
    """The budget flags every command here takes."""
    parser.add_argument(
        "--max-points", type=int, default=MAX_POINTS, help=f"refuse larger graphs (default {MAX_POINTS})"
    )
    parser.add_argument("--max-nodes", type=int, default=None, help="give up after this many search nodes")
    parser.add_argument("--seconds", type=positive_finite, default=seconds, help="give up after this many seconds")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


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


def register(subparsers) -> None:
    """Add ``fundamental-score``, ``ultimate-claims`` and ``ultimate-table``."""
    score = subparsers.add_parser(
        "fundamental-score", help="section IV's score in Fundamental Go (source 003), by yes/no searches"
    )
    score.add_argument("graph")
    situations.add_argument(score)
    score.add_argument("--ultimate", action="store_true", help="also the Ultimate Go result (with ultimate prisoners)")
    score.add_argument(
        "--check", action="store_true", help="also the claims of sections IV-VI at every reachable situation"
    )
    score.add_argument("--max-situations", type=int, default=None, help="with --check: at most this many situations")
    add_budget(score)
    add_core(score)
    score.set_defaults(func=run_score)
    claims = subparsers.add_parser(
        "ultimate-claims", help="the claims of source 003 sections IV-VI on every reachable situation, per graph"
    )
    claims.add_argument("graphs", nargs="+", metavar="GRAPH")
    claims.add_argument("--max-situations", type=int, default=200_000, help="at most this many situations per graph")
    add_budget(claims)
    claims.set_defaults(func=run_claims)
    table = subparsers.add_parser(
        "ultimate-table",
        help="area value, Fundamental score, Ultimate result and territory over every connected graph up to N points",
    )
    table.add_argument("--points", type=int, default=6, help="the largest graphs (default 6)")
    table.add_argument("--out", default=None, help="also write the table (markdown, or JSON with --json) to this file")
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
        f"(default: the machine's cores, as many as fit in memory; 1: one process); a test is split after "
        f"{SPLIT_AFTER:,} nodes, so only with --area-nodes above that",
    )
    table.add_argument(
        "--max-minutes",
        type=positive_finite,
        default=MAX_MINUTES,
        help=f"refuse to start when the worst-case time exceeds this (default {MAX_MINUTES:g})",
    )
    add_budget(table, seconds=30.0)
    add_core(table)
    table.set_defaults(func=run_table)


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
        return Budget(seconds=args.seconds, nodes=args.max_nodes)
    except ValueError as error:
        raise UsageError(str(error)) from None


def bar(args, what: str):
    """A progress bar on stderr (off with --json)."""
    return tqdm(desc=what, unit="node", unit_scale=True, file=sys.stderr, disable=args.json)


def run_score(args) -> int:
    """The score (and result, and claims) of one situation; bounds on a spent budget."""
    graph = checked_graph(args.graph, args.max_points)
    start = situations.read(rulesets.make("ultimate"), graph, args.situation)
    progress = bar(args, "search")
    engine = Engine(
        graph,
        meter=budget_of(args).meter(),
        progress=lambda n: progress.update(1000),
        **core_of(args),
    )
    p = engine.from_situation(start.state)
    report: dict = {"graph": graph.name, "to_move": start.to_move}
    started = time.perf_counter()
    failed = False
    try:
        report["score"] = deep(engine.score, p)
        if args.ultimate:
            outcome = deep(engine.result_given_score, p, report["score"])  # one search at most
            report["ultimate_go_result"] = RESULTS[outcome * (1 if p[2] == 0 else -1)]
        if args.check:
            found = ultimate_claims.check_claims(engine, p, args.max_situations)
            report["situations"] = found.situations
            report["claims"] = {c.claim: c.status for c in found.claims}
            failed = any(c.status == "fails" for c in found.claims)
    except BudgetSpent as spent:
        report["status"] = "budget spent"
        if "score" not in report:
            low, high = engine.bounds
            report["score_bounds"] = [None if abs(low) >= INF else low, None if abs(high) >= INF else high]
        report["note"] = f"{spent} after {engine.nodes} nodes; proved so far: " + (
            ", ".join(k for k in ("score", "ultimate_go_result") if k in report) or "nothing"
        )
    finally:
        progress.close()
    report["nodes"] = engine.nodes
    report["seconds"] = round(time.perf_counter() - started, 2)
    show(args, report)
    return 1 if failed else 0


def show(args, report: dict) -> None:
    """Print a report as JSON or as ``key: value`` lines."""
    if args.json:
        print(json.dumps(report, allow_nan=False))
        return
    for key, value in report.items():
        print(f"{key}: {value}")


def claims_on(graph: Graph, args) -> dict:
    """Every claim's status on one graph: holds, fails (first counterexample) or unknown."""
    engine = Engine(graph, meter=budget_of(args).meter())
    start = engine.from_situation(ultimate.Ultimate().start(graph))
    try:
        found = ultimate_claims.check_claims(engine, start, args.max_situations)
    except BudgetSpent as spent:
        return {"graph": graph.name, "status": "unknown", "why": f"{spent} after {engine.nodes} nodes"}
    complete = found.situations < args.max_situations
    row: dict = {"graph": graph.name, "situations": found.situations, "complete": complete, "claims": {}}
    for c in found.claims:
        status = c.status if c.status == "fails" or complete else "unknown"
        entry: dict = {"status": status, "asked": c.asked}
        if status == "unknown":
            entry["why"] = f"held at the first {found.situations} situations; the situation limit stopped the rest"
        if c.status == "fails":
            entry["counterexample"] = None if c.situation is None else ultimate.situation_text(graph, c.situation)
            entry["detail"] = c.detail
        row["claims"][c.claim] = entry
    return row


def run_claims(args) -> int:
    """The claims on each graph, one status per claim and graph."""
    graphs = [checked_graph(name, args.max_points) for name in args.graphs]
    rows = [claims_on(graph, args) for graph in tqdm(graphs, desc="graphs", file=sys.stderr, disable=args.json)]
    if args.json:
        print(json.dumps(rows, allow_nan=False))
    else:
        for row in rows:
            print(
                f"{row['graph']}: {row.get('situations', '?')} situations"
                + ("" if row.get("complete", False) else " (not all)")
            )
            if "why" in row:
                print(f"  unknown: {row['why']}")
            for claim, entry in row.get("claims", {}).items():
                print(f"  {entry['status']:<8} {claim} ({entry['asked']} situations)")
                if entry["status"] == "fails":
                    print("    first counterexample: " + entry["counterexample"].replace("\n", "; "))
                    print(f"    {entry['detail']}")
    return 1 if any(e["status"] == "fails" for r in rows for e in r.get("claims", {}).values()) else 0


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
            rulesets.make("tromp-taylor").initial(graph), nodes, max_seconds=seconds, bounds_on_budget=True, jobs=jobs
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


RESULTS = {1: "B", 0: "draw", -1: "W"}
"""Black's Ultimate result as the table writes it."""


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
    budget_of(args)  # a bad --seconds or --max-nodes is refused before any work
    if args.points > args.max_points:
        raise UsageError(
            f"--points {args.points} exceeds --max-points {args.max_points} (raise the limit with --max-points)"
        )
    graphs = connected_graphs(args.points)
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
    text = json.dumps(rows, allow_nan=False, indent=1) if args.json else markdown(rows)
    if args.out:
        write_text_atomically(args.out, text + "\n")
    print(text)
    return 0
