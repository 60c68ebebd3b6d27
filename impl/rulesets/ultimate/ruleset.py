"""Ultimate and Fundamental Go as rulesets with capabilities: the spec's rulesets, whose
``solve`` capability is the pair of yes/no searches of :mod:`gorules.impl.rulesets.ultimate.search`
(Ultimate Go: the result; Fundamental Go: section IV's score), and whose ``analyse``
capability is sections IV–VI of :mod:`gorules.impl.rulesets.ultimate.analysis`."""

from __future__ import annotations

from typing import ClassVar

from gorules.impl.rulesets.ultimate import analysis, search
from gorules.impl.solving.search import Solution, SolveRequest
from gorules.spec import ultimate
from gorules.spec.api import Situation

SOLVE = "gorules.impl.rulesets.ultimate.ruleset:solve"


class Ultimate(ultimate.Ultimate):
    """Ultimate Go (source 003), solved by its yes/no searches and analysed by sections IV–VI
    with the result of the draw option."""

    capabilities: ClassVar[dict[str, str]] = {"solve": SOLVE, "analyse": f"{__name__}:analyse_ultimate"}


class Fundamental(ultimate.Fundamental):
    """Fundamental Go (source 003), its score found by the score's yes/no searches and
    analysed by sections IV–VI."""

    capabilities: ClassVar[dict[str, str]] = {"solve": SOLVE, "analyse": f"{__name__}:analyse_fundamental"}


def solve(situation: Situation, request: SolveRequest) -> Solution:
    """The situation's value by the yes/no searches, within the request's budget; ``core``
    (python, compiled; default auto) is the only setting they take."""
    request.refuse_tuning("the Ultimate and Fundamental yes/no searches", ("core",))
    core = request.settings().get("core") or "auto"
    return search.solve(situation, request.budget.meter(), core=core)


def analyse_ultimate(situation: Situation, engine: search.Engine) -> analysis.Analysis:
    """Sections IV–VI at the situation, with Ultimate Go's result (the draw option) here and
    after each move."""
    return analysis.analyse(engine, engine.from_situation(situation.state), True)


def analyse_fundamental(situation: Situation, engine: search.Engine) -> analysis.Analysis:
    """Sections IV–VI at the situation, read as Fundamental Go."""
    return analysis.analyse(engine, engine.from_situation(situation.state), False)
