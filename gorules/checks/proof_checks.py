"""Checks of the Z3 proofs: the source's theorems, as corrected and as written, and the mutants.

Each row proves one statement on one small graph (or on every graph on 5 vertices) and
passes when the outcome is the one the theorem expects (``proofs/registry.py``): the
corrected theorems proved, the false as-written statements refuted, every mutant refuted.
T1 as written holds (degenerately: with the source's reaches only the empty board is
well-formed), so its row expects a proof.
"""

from __future__ import annotations

from gorules.verify import Check, Outcome

DEFAULT_GRAPHS = ("grid:3x3", "cycle:5", "petersen", "digraph:0>1,1>2,2>0,2>3,3>1")
ALL_GRAPHS_ORDER = 5
# move-definedness's bounded histories are checked on the fixed graphs only
ON_EVERY_GRAPH = ("well-formedness", "clear-characterization")
MUTANT_GRAPH = "grid:3x3"


def proof_check(theorem: str, graph: str, expected: str, label: str, **options) -> Check:
    """A row: prove ``theorem`` on ``graph`` with the options; pass if the status is ``expected``."""

    def run() -> Outcome:
        from gorules.proofs.graphs import SymbolicGraph
        from gorules.proofs.registry import theorem as named

        target = SymbolicGraph(ALL_GRAPHS_ORDER) if graph == f"all-graphs:{ALL_GRAPHS_ORDER}" else graph
        result = named(theorem).prove(target, **options)
        text: str = result.status
        if result.counterexample and result.counterexample.get("boards"):
            text += f" ({result.counterexample['boards'][-1]['board']})"
        return Outcome(result.status == expected, f"{text}, expected {expected}", result.to_json())

    return Check(f"prove {theorem} {label}", graph, run, "proofs")


def checks() -> list[Check]:
    """The seed theorems corrected on the default graphs and on every graph on 5 vertices,
    the as-written forms, and every theorem's mutants."""
    from gorules.proofs.registry import seed_theorems

    seeds = seed_theorems()
    rows = []
    for t in seeds:
        for graph in DEFAULT_GRAPHS:
            rows.append(proof_check(t.name, graph, t.expected, "(corrected)"))
    for t in seeds:
        if t.name in ON_EVERY_GRAPH:
            rows.append(proof_check(t.name, f"all-graphs:{ALL_GRAPHS_ORDER}", t.expected, "(corrected)"))
    for t in seeds:
        rows.append(proof_check(t.name, MUTANT_GRAPH, t.expected_as_written, "(as written)", as_written=True))
    for t in seeds:
        for mutant in t.mutants:
            rows.append(proof_check(t.name, MUTANT_GRAPH, "refuted", f"[mutant {mutant}]", mutant=mutant))
    return rows
