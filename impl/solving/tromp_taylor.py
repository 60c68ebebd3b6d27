"""The ``solve`` capability of the Tromp–Taylor engine's ruleset: its threshold search.

:class:`gorules.impl.solving.solve.Solver` (Benson bounds, iterative deepening or df-pn
threshold tests, MTD, history-aware tables, splitting over processes) solves a game from the
empty board; with a request's ``certify`` it also writes the certificate of the value.  From
any other situation it declines, and the generic search takes the situation.
"""

from __future__ import annotations

from gorules.impl.solving.budget import BudgetSpent
from gorules.impl.solving.certificate import MAX_POSITIONS, CertificateRefused, PositionsSpent, certificate
from gorules.impl.solving.search import TUNING, Declined, SearchError, Solution, SolveRequest
from gorules.impl.solving.solve import MAX_POINTS, SolveError, Solver
from gorules.spec.api import Situation


def solve(situation: Situation, request: SolveRequest) -> Solution:
    """The value of the game from the empty board by the engine's solver, and its certificate
    when asked; Declined from any other situation."""
    ruleset = situation.ruleset
    if situation.state != ruleset.start(situation.graph):
        raise Declined("the Tromp–Taylor engine's solver starts from the empty board")
    request.refuse_tuning("the Tromp–Taylor engine's threshold search", (*TUNING, "certify"))
    solver = solver_for(situation, request)
    try:
        found = solver.solve(bounds_on_budget=request.bounds_on_budget)
    except SolveError as error:
        raise SearchError(str(error)) from None
    effort: dict = {}
    proof = certified(situation, solver, found, request, effort) if request.certify else None
    return Solution.of(
        situation,
        value=found.value,
        principal_variation=found.principal_variation,
        nodes=solver.nodes,
        seconds=found.seconds,
        method=method(solver),
        status=found.status,
        lower=found.lower,
        upper=found.upper,
        note=found.cycle_rule or emptied_note(effort.get("tables_emptied", 0), effort.get("disagreement")),
        details=found.details,
        certificate=proof,
    )


def solver_for(situation: Situation, request: SolveRequest) -> Solver:
    """The engine's solver for the situation's graph and options, within the request's budget
    and with its tuning; SearchError for settings the solver refuses."""
    tuning = request.settings()
    budget = request.budget
    try:
        return Solver(
            situation.graph,
            situation.ruleset.options,
            budget.nodes,
            max_points=request.max_points or MAX_POINTS,
            max_seconds=budget.seconds,
            progress=request.progress,
            core=tuning.get("core"),
            territory=bool(tuning.get("territory", False)),
            search=tuning.get("search"),
            jobs=request.jobs,
            descent=tuning.get("descent", "step"),
            scheduler=tuning.get("scheduler"),
        )
    except SolveError as error:
        raise SearchError(str(error)) from None


def certified(situation: Situation, solver: Solver, found, request: SolveRequest, effort: dict) -> dict | None:
    """The certificate of an exact value, written from the solver's own table (None for bounds);
    SearchError naming the flag to raise when the positions or the budget run out."""
    if found.status != "exact":
        return None
    name = situation.graph.name
    try:
        return certificate(solver, found.raw_value, request.certificate_positions or MAX_POSITIONS, effort)
    except CertificateRefused as error:
        raise SearchError(str(error)) from None
    except PositionsSpent as spent:
        raise SearchError(f"{name}: {spent} while it was written (raise --certificate-positions)") from None
    except BudgetSpent as spent:
        raise SearchError(f"{name}: {spent} while the certificate was written (raise --seconds / --nodes)") from None


def method(solver: Solver) -> str:
    """How the solver found its value, in words."""
    if solver.core == "python":
        tests = "MTD(f) tests by iterative-deepening proofs, then null-window alpha-beta, on the engine's bitsets; "
    elif solver.search_kind == "deepening":
        tests = "MTD(f) tests by iterative-deepening proofs in the compiled core (numba, bit masks); "
    else:
        tests = "MTD(f) tests by depth-first proof-number search (weak rule) in the compiled core (numba, bit masks); "
    return tests + "Benson bounds, automorphism folding, history heuristic, history-aware transposition tables"


def emptied_note(times: int, where: str | None = None) -> str | None:
    """What a solve says when its certificate writer had to empty the solver's tables
    (``certificate``'s ``tables_emptied``, first at ``where``), or None."""
    if not times:
        return None
    return (
        f"while the certificate was written the solver's answers disagreed {times} time(s) (first at {where}), "
        "and its tables were emptied and the moves searched afresh; check the file with gorules check-certificate"
    )
