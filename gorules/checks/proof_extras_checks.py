"""Checks of the extra theorems proved through CNF: each proved on a small grid and on every
graph on 5 vertices, each refuting its mutants, and each refuted on the graphs where the
theorem says it fails (capture exclusivity on a digraph)."""

from __future__ import annotations

from gorules.checks.proof_checks import ALL_GRAPHS_ORDER, proof_check
from gorules.verify import Check

GRAPH = "grid:3x3"


def checks() -> list[Check]:
    """Every CNF theorem proved and its mutants refuted; the refutations it expects."""
    from gorules.proofs.registry import cnf_theorems

    rows = []
    for t in cnf_theorems():
        rows.append(proof_check(t.name, GRAPH, t.expected, "(CNF)", processes=2))
        rows.append(proof_check(t.name, f"all-graphs:{ALL_GRAPHS_ORDER}", t.expected, "(CNF)"))
        for mutant in t.mutants:
            rows.append(proof_check(t.name, GRAPH, "refuted", f"[mutant {mutant}]", mutant=mutant))
    for t in cnf_theorems():
        for graph, why in t.refuted_on:
            rows.append(proof_check(t.name, graph, "refuted", f"({why}: fails)"))
    return rows
