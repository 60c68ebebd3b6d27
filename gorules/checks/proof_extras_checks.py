"""Checks of the extra theorems proved through CNF: each proved on a small grid and on every
graph on 5 vertices, each refuting its mutant, and capture exclusivity refuted on a digraph."""

from __future__ import annotations

from gorules.checks.proof_checks import ALL_GRAPHS_ORDER, proof_check
from gorules.verify import Check

EXTRA_THEOREMS = (
    "well-formedness-step-cnf",
    "capture-locality",
    "capture-exclusive",
    "colour-symmetry",
    "automorphism",
    "score-bound",
)
GRAPH = "grid:3x3"
DIRECTED_COUNTEREXAMPLE = "digraph:0>1,1>2,2>0,1>3"


def checks() -> list[Check]:
    """Every extra theorem proved and its mutant refuted; the directed refutation."""
    from gorules.proofs.registry import theorem as module

    rows = []
    for name in EXTRA_THEOREMS:
        rows.append(proof_check(name, GRAPH, "proved", "(CNF)", processes=2))
        rows.append(proof_check(name, f"all-graphs:{ALL_GRAPHS_ORDER}", "proved", "(CNF)"))
        for mutant in module(name).MUTANTS:
            rows.append(proof_check(name, GRAPH, "refuted", f"[mutant {mutant}]", mutant=mutant))
    rows.append(proof_check("capture-exclusive", DIRECTED_COUNTEREXAMPLE, "refuted", "(directed: fails)"))
    return rows
