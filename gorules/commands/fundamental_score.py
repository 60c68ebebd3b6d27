"""Source 003 at reach: ``gorules fundamental-score GRAPH``, section IV's score of a
situation (the empty board unless ``--situation``) in Fundamental Go and, with
``--ultimate``, the Ultimate Go result; with ``--check``, the claims of sections IV–VI on
every reachable situation.
"""

from __future__ import annotations

import time

from gorules import flags, rulesets, situations
from gorules.impl.rulesets.ultimate import claims as ultimate_claims
from gorules.impl.rulesets.ultimate.search import INF, Engine, deep
from gorules.impl.solving.budget import BudgetSpent
from gorules.ultimate_commands import (
    RESULTS,
    add_budget,
    add_core,
    bar,
    budget_of,
    checked_graph,
    core_of,
    show,
)


def register(subparsers) -> None:
    """Add the ``fundamental-score`` subcommand."""
    score = subparsers.add_parser(
        "fundamental-score", help="section IV's score in Fundamental Go (source 003), by yes/no searches"
    )
    flags.add_graph(score)
    situations.add_argument(score)
    score.add_argument("--ultimate", action="store_true", help="also the Ultimate Go result (with ultimate prisoners)")
    score.add_argument(
        "--check", action="store_true", help="also the claims of sections IV-VI at every reachable situation"
    )
    score.add_argument("--max-situations", type=int, default=None, help="with --check: at most this many situations")
    add_budget(score)
    add_core(score)
    score.set_defaults(func=run_score)


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
