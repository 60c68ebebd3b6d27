"""The oracle: what the executable spec says about the next move of a game, and why.

The engine is checked against these answers (differential tests, fuzzing, test vectors,
the errata checker's game prefixes).  They are the game conditions of the source
(``002_8835c2492dce8849.txt``: no move after two passes, no move on an occupied point,
no board repeated by a move) on top of the spec's ``move``, under the options of
``spec.tromp_taylor.Options`` (the spec's ``repeated_state`` says what each ko rule
forbids), each refusal with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import gorules.spec.tromp_taylor as spec_rules
from gorules.impl.engine.options import TROMP_TAYLOR, Options
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import EMPTY, PASS, State

# What each ko rule forbids a stone move to repeat, as the oracle's reasons say it.
REPETITION = {
    "positional": "the board repeats an earlier board",
    "situational": "the position repeats with the same player to move",
    "simple": "the board before the opponent's move comes back",
}


def legal_under(
    ruleset: Options, graph: Graph, history: Sequence[State], v, move: Callable = spec_rules.move
) -> tuple[State | None, str]:
    """The next state when the player to move plays v after ``history`` (the states so far)
    under the options of a Options, with the spec's ``move`` (or the ``move`` given), or
    None and the reason v is not allowed."""
    s = history[-1]
    if v != PASS and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < graph.order):
        return None, "unknown point"
    if s.passes >= 2:
        return None, "the game is over"
    s_next = move(graph, s, v)
    if s_next is None:
        return None, "the point is occupied"
    if v == PASS:
        return s_next, ""
    if ruleset.suicide == "forbidden" and s_next.board[v] == EMPTY:
        return None, "suicide"
    if spec_rules.repeated_state(ruleset, history, s_next) is not None:
        return None, REPETITION[ruleset.ko]
    return s_next, ""


def legal_reason(rules, graph: Graph, history: Sequence[State], v) -> tuple[State | None, str]:
    """``legal_under`` the source's own game conditions (positional superko, suicide
    allowed), with the ``move`` of ``rules`` (any module or object with the spec's API)."""
    return legal_under(TROMP_TAYLOR, graph, history, v, rules.move)


def scores_under(ruleset: Options, graph: Graph, b: tuple) -> tuple[int, int]:
    """(Black's score, White's score) of a board under a Options's scoring, by the spec."""
    if ruleset.scoring == "stone":
        return b.count("B"), b.count("W")
    return spec_rules.score(graph, b, "B"), spec_rules.score(graph, b, "W")
