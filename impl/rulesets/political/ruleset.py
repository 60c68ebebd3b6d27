"""Political Go (source 004) as a ruleset with a ``solve`` capability: the spec's ruleset,
solved by best play for several players (:mod:`gorules.impl.rulesets.political.best_play`,
what ``gorules best-play`` runs).

A game of several players has no single perfect-play value: what is computed is best play
under a named solution concept, max-n (each player maximises eir own final score; the
default, as in ``gorules best-play``) or paranoid (the first player in turn order against
all the others together), to a horizon of moves, over placements and passes (no alliance
offered, no war declared).  The value is each player's score at the end of that line of
play; the concept and the horizon are the request's ``tuning`` (``concept``, ``horizon``).
"""

from __future__ import annotations

import time
from typing import ClassVar

from gorules.impl.rulesets.political.best_play import CONCEPTS, Result, best_play
from gorules.impl.solving.budget import TooExpensive
from gorules.impl.solving.search import SearchError, Solution, SolveRequest
from gorules.spec import political
from gorules.spec.api import Situation

SOLVE = "gorules.impl.rulesets.political.ruleset:solve"

DEFAULT_CONCEPT = "max-n"
DEFAULT_HORIZON = 6
"""The concept and horizon taken when the request names none: those of ``gorules best-play``."""

FRAGMENT = "placements and passes (no alliance offered, no war declared)"


class Political(political.Political):
    """Political Go (source 004), solved by best play for several players under a named
    solution concept to a horizon."""

    capabilities: ClassVar[dict[str, str]] = {"solve": SOLVE}


def placement_or_pass(move) -> bool:
    """Whether a move places a stone or passes: the moves the search considers."""
    return getattr(move, "kind", "place") in ("place", "pass")


def concept_and_horizon(request: SolveRequest) -> tuple[str, int]:
    """The solution concept and the horizon the request asks for (the defaults where it names
    none); SearchError for an unknown concept or a horizon below 1."""
    settings = request.settings()
    concept = settings.get("concept") or DEFAULT_CONCEPT
    if concept not in CONCEPTS:
        raise SearchError(f"unknown solution concept {concept!r}: expected one of {', '.join(CONCEPTS)}")
    horizon = settings.get("horizon", DEFAULT_HORIZON)
    if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 1:
        raise SearchError(f"--horizon must be a whole number of moves, at least 1, got {horizon!r}")
    return concept, horizon


def solve(situation: Situation, request: SolveRequest) -> Solution:
    """Best play from ``situation`` under the request's concept to its horizon, deepened one
    move at a time within its budget: each player's score at the end of the deepest line
    found; SearchError when the estimate exceeds the node budget or no horizon is finished."""
    request.refuse_tuning("best play for several players", ("concept", "horizon"))
    concept, horizon = concept_and_horizon(request)
    ruleset, graph = situation.ruleset, situation.graph
    root = ruleset.options.players[0]
    started = time.perf_counter()
    try:
        results, stopped = best_play(
            situation, concept, horizon, request.budget, root=root, allowed=placement_or_pass, progress=False
        )
    except TooExpensive as error:
        raise SearchError(str(error)) from None
    if not results:
        raise SearchError(f"{graph.name}: {stopped} before any horizon was finished (raise --seconds / --nodes)")
    deepest = results[-1]
    return Solution(
        graph=graph.name,
        ruleset=ruleset.name,
        options=ruleset.options.as_dict(),
        value=dict(deepest.scores),
        principal_variation=[ruleset.parse_move(graph, text) for text in deepest.line],
        nodes=sum(r.nodes for r in results),
        seconds=time.perf_counter() - started,
        method=(
            f"best play for several players under {concept} (gorules best-play's search) to a horizon of "
            f"{deepest.horizon} move{'s' if deepest.horizon > 1 else ''}, deepened one move at a time, over {FRAGMENT}"
        ),
        note=note(deepest, horizon, stopped),
        details=details(deepest, horizon, stopped),
    )


def note(deepest: Result, horizon: int, stopped: str | None) -> str:
    """What the scores are exact for, and why the search stopped short of the horizon asked."""
    if deepest.exact:
        text = "exact for the whole game: every line ended before the horizon"
    else:
        text = (
            f"exact for the game cut after {deepest.horizon} moves: a situation reached there, not over, "
            "is scored as if the game ended"
        )
    if stopped:
        text += f"; stopped short of the horizon {horizon} asked: {stopped}"
    return text


def details(deepest: Result, horizon: int, stopped: str | None) -> dict:
    """The concept, the horizon reached and asked, the movers of the line and, under
    paranoid, the score the first player can make sure of."""
    found = {
        "concept": deepest.concept,
        "horizon": deepest.horizon,
        "horizon_asked": horizon,
        "exact_for_whole_game": deepest.exact,
        "fragment": FRAGMENT,
        "movers": list(deepest.movers),
        "stopped": stopped,
    }
    if deepest.root is not None:
        found["root"] = deepest.root
        found["guaranteed"] = deepest.guaranteed
    return found
