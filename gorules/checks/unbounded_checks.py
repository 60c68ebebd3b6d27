"""Checks of the proofs for every graph (``proofs/unbounded.py``): each theorem proved, each
of its mutants refuted by a counterexample replayed on the spec, and each as-written
statement that fails refuted, with its counterexample held against the smallest one the
errata's enumeration finds (``gorules errata``)."""

from __future__ import annotations

from gorules.verify import Check, Outcome

EVERY_GRAPH = "every graph"


def proved_check(theorem: str) -> Check:
    """A row: the theorem proved for every graph, each obligation by both solvers with a witness."""

    def run() -> Outcome:
        import shutil

        from gorules.proofs import unbounded
        from gorules.verify import not_run

        if unbounded.theorem(theorem).coq and shutil.which("coqc") is None:
            return not_run("coqc (Coq) is not installed")
        result = unbounded.prove(theorem)
        parts = ", ".join(f"{p['part']} {p['status']}" for p in result.parts)
        return Outcome(result.proved, f"{result.status} ({parts}), expected proved", result.to_json())

    return Check(f"prove {theorem} --unbounded", EVERY_GRAPH, run, "proofs")


def refuted_check(theorem: str, mutant: str | None, directed: bool = False) -> Check:
    """A row: the theorem refuted under the mutant, on digraphs, or as written, by a replayed
    counterexample; as written, also held against the errata's smallest counterexample."""

    def run() -> Outcome:
        from gorules.proofs import unbounded

        as_written = mutant is None and not directed
        result = unbounded.refute(theorem, mutant, as_written=as_written, directed=directed)
        cx = result.counterexample
        if not result.refuted or cx is None:
            return Outcome(False, f"{result.status}, expected refuted", result.to_json())
        text = f"refuted on {cx['graph']['name']} ({cx['boards'][0]['board']} → {cx['boards'][-1]['board']})"
        if as_written:
            agrees, note = errata_agrees(cx)
            return Outcome(agrees, f"{text}; {note}", result.to_json())
        return Outcome(True, f"{text}, expected refuted", result.to_json())

    label = f"[mutant {mutant}]" if mutant else "(on digraphs)" if directed else "(as written)"
    return Check(f"prove {theorem} --unbounded {label}", "every digraph" if directed else EVERY_GRAPH, run, "proofs")


def errata_agrees(counterexample: dict) -> tuple[bool, str]:
    """Whether the errata checker's literal reading of the same statement fails on the
    solver's counterexample too, and the errata's smallest counterexample has as many points."""
    from gorules.spec.graph import graph_from_json

    graph = graph_from_json(counterexample["graph"])
    if counterexample["part"] == "definedness-as-written":
        fails_there, smallest = definedness_in_errata(graph)
    else:
        fails_there, smallest = characterization_in_errata(graph, counterexample)
    same_size = smallest is not None and smallest.graph.order == graph.order
    order = smallest.graph.order if smallest else "none"
    note = f"the errata's reading fails there: {fails_there}; the order of its smallest counterexample: {order}"
    return fails_there and same_size, note


def characterization_in_errata(graph, counterexample: dict) -> tuple:
    """T3 as the errata reads it literally: whether it fails on the counterexample's move, and
    the smallest counterexample of the errata's enumeration."""
    from gorules.errata import statements
    from gorules.errata.graphs import QUICK, state_graphs
    from gorules.spec import tromp_taylor as tt

    board, m, p = tuple(counterexample["boards"][0]["board"]), counterexample["point"], counterexample["player"]
    to_empty, kept = statements.step_claim_as_written(graph, board, p, m, m)
    claimed = tt.EMPTY if to_empty else kept
    after = tt.move(graph, tt.State(board, p, 0), m)
    fails_there = after is not None and after.board[m] != claimed
    smallest = statements.one_step(statements.step_claim_as_written, state_graphs(QUICK)).counterexample
    return fails_there, smallest


def definedness_in_errata(graph) -> tuple:
    """T2 as the errata reads it (states compared): whether its enumeration fails on the
    counterexample's graph, and its smallest counterexample."""
    from gorules.errata import statements
    from gorules.errata.cases import CORRECTED
    from gorules.errata.graphs import QUICK, prefix_graphs

    fails_there = not statements.definedness(CORRECTED, True, [graph]).holds
    smallest = statements.definedness(CORRECTED, True, prefix_graphs(QUICK)).counterexample
    return fails_there, smallest


def checks() -> list[Check]:
    """Every unbounded theorem proved, every mutant refuted, every failing as-written statement refuted."""
    from gorules.proofs.unbounded import THEOREMS

    rows = [proved_check(name) for name in THEOREMS]
    for name, t in THEOREMS.items():
        rows += [refuted_check(name, mutant) for mutant in t.mutants]
        if t.as_written:
            rows.append(refuted_check(name, None))
        if t.on_digraphs:
            rows.append(refuted_check(name, None, directed=True))
    return rows
