"""Source 003 at reach: ``gorules ultimate-claims GRAPH...``, each claim of sections IV–VI
per graph: holds, fails (with the first counterexample), or unknown (the situation or node
budget ran out first).
"""

from __future__ import annotations

import sys

from tqdm import tqdm

from gorules import flags
from gorules.impl.rulesets.ultimate import claims as ultimate_claims
from gorules.impl.rulesets.ultimate.search import Engine
from gorules.impl.solving.budget import BudgetSpent
from gorules.spec import ultimate
from gorules.spec.graph import Graph
from gorules.ultimate_commands import (
    add_budget,
    budget_of,
    checked_graph,
)


def register(subparsers) -> None:
    """Add the ``ultimate-claims`` subcommand."""
    claims = subparsers.add_parser(
        "ultimate-claims", help="the claims of source 003 sections IV-VI on every reachable situation, per graph"
    )
    flags.add_graph(claims, dest="graphs", nargs="+", metavar="GRAPH")
    claims.add_argument("--max-situations", type=int, default=200_000, help="at most this many situations per graph")
    add_budget(claims)
    claims.set_defaults(func=run_claims)


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


def claims_text(rows: list[dict]) -> str:
    """The claims per graph for people: one line per graph, then one per claim."""
    lines = []
    for row in rows:
        lines.append(
            f"{row['graph']}: {row.get('situations', '?')} situations"
            + ("" if row.get("complete", False) else " (not all)")
        )
        if "why" in row:
            lines.append(f"  unknown: {row['why']}")
        for claim, entry in row.get("claims", {}).items():
            lines.append(f"  {entry['status']:<8} {claim} ({entry['asked']} situations)")
            if entry["status"] == "fails":
                lines.append("    first counterexample: " + entry["counterexample"].replace("\n", "; "))
                lines.append(f"    {entry['detail']}")
    return "\n".join(lines)


def run_claims(args) -> int:
    """The claims on each graph, one status per claim and graph."""
    graphs = [checked_graph(name, args.max_points) for name in args.graphs]
    rows = [claims_on(graph, args) for graph in tqdm(graphs, desc="graphs", file=sys.stderr, disable=args.json)]
    flags.emit(args, rows, claims_text(rows))
    return 1 if any(e["status"] == "fails" for r in rows for e in r.get("claims", {}).values()) else 0
