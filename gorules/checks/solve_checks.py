"""Checks of exact solving and sweeps: the 2×2 value against the published figure, and one
fast sweep run end to end through the results store."""

from __future__ import annotations

import tempfile
from pathlib import Path

from gorules.conjectures import built_in
from gorules.impl.solving.solve import solve
from gorules.spec.graph import parse_graph
from gorules.store import Store
from gorules.sweep import run_sweep
from gorules.verify import Check, Outcome

TWO_BY_TWO_VALUE = 1  # Tromp's 2×2 solver: area scoring, positional superko, suicide allowed, no komi


def two_by_two_check() -> Check:
    """The solver finds Black +1 on 2×2 under Tromp–Taylor rules."""

    def run() -> Outcome:
        solution = solve(parse_graph("grid:2x2"))
        line = " ".join(str(m) for m in solution.principal_variation)
        return Outcome(
            solution.value == TWO_BY_TWO_VALUE,
            f"value {solution.value:+g} (published +1), {solution.nodes} nodes, pv {line}",
            {"value": solution.value, "nodes": solution.nodes},
        )

    return Check("solve 2x2 = Black +1 (Tromp)", "grid:2x2", run, "solve")


def certificate_check() -> Check:
    """The 2×2 certificate checks with the spec, and the same certificate claiming +2 does not."""

    def run() -> Outcome:
        from gorules.impl.solving.certificate import certificate
        from gorules.impl.solving.certificate_check import check
        from gorules.impl.solving.solve import Solver

        solver = Solver(parse_graph("grid:2x2"))
        found = solver.solve()
        proof = certificate(solver, found.raw_value)
        valid = check(proof)
        mutant = dict(proof, value=2, lower=2, strategies=dict(proof["strategies"]))
        mutant["strategies"]["lower"] = dict(proof["strategies"]["lower"], bound=2)
        refuted = check(mutant)
        ok = valid is None and refuted is not None
        return Outcome(
            ok,
            f"{len(proof['nodes'])} positions valid: {valid is None}; mutant (+2) rejected: {refuted}",
            {"positions": len(proof["nodes"])},
        )

    return Check("solve 2x2 certificate checks with the spec", "grid:2x2", run, "solve")


def sweep_check() -> Check:
    """'Going first is good' swept over paths of 1..5 points in a fresh store."""

    def run() -> Outcome:
        with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "sweep.sqlite") as store:
            conjecture = built_in("going-first-is-good")
            if conjecture is None:
                return Outcome(False, "the conjecture going-first-is-good is not built in")
            summary = run_sweep(conjecture, "paths:1-5", store, workers=0, progress=False)
            again = run_sweep(conjecture, "paths:1-5", store, workers=0, progress=False)
        values = [r.figures["value"]["value"] for r in summary.rows]
        ok = not summary.counterexamples and len(values) == 5 and again.computed == 0
        return Outcome(ok, f"values {values}; holds on {len(values)} graphs; rerun computed {again.computed}")

    return Check("sweep going-first-is-good", "paths:1-5", run, "solve")


def checks() -> list[Check]:
    """The solver and sweep checks."""
    return [two_by_two_check(), certificate_check(), sweep_check()]
