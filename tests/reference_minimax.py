"""A deliberately simple full-history minimax, the reference the solver is checked against.

Alpha-beta minimax over the Tromp–Taylor ruleset's interface (the engine's twin of the
spec's ruleset, whose every state carries its whole history: the set of positions the ko
rule consults), with a table keyed on the whole state, so that no bound is ever reused
under another history.  No static bounds, no move ordering beyond the ruleset's, no
symmetry, no iterative deepening: every legal move (pass first) is searched until
alpha-beta cuts.
Under the rules where play can cycle (simple ko, no ko) a line that comes back to a
whole state it has passed through ends there and counts as equal areas (margin 0 before
komi), the solver's stated convention; the table is not used then (a value would depend
on the line).
"""

from __future__ import annotations

import sys

from gorules.impl.rulesets.tromp_taylor import TrompTaylor


def reference_value(graph, options) -> int:
    """Black's perfect-play margin before komi from the empty board."""
    ruleset = TrompTaylor(options.replace(komi=0))
    cycles = options.ko in ("simple", "none")
    table: dict = {}
    line: set = set()
    bound = graph.order

    def value(state, alpha: float, beta: float) -> float:
        """The value of ``state`` for Black, fail-soft within (alpha, beta)."""
        if ruleset.is_over(graph, state):
            return ruleset.value(graph, state)
        if cycles:
            whole = ruleset.key(state)
            if whole in line:
                return 0
            line.add(whole)
            try:
                return search(state, alpha, beta)
            finally:
                line.discard(whole)
        lower, upper = table.get(state, (-bound, bound))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        found = search(state, max(alpha, lower), min(beta, upper))
        if found <= alpha:
            upper = min(upper, found)
        elif found >= beta:
            lower = max(lower, found)
        else:
            lower = upper = found
        table[state] = (lower, upper)
        return found

    def search(state, alpha: float, beta: float) -> float:
        """Alpha-beta over every legal move of ``state``."""
        black = ruleset.player(state) == "B"
        best = -bound - 1 if black else bound + 1
        moves = ruleset.moves(graph, state)
        for move in moves[-1:] + moves[:-1]:  # pass first: it bounds the value soonest
            v = value(ruleset.apply(graph, state, move), alpha, beta)
            if black:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        start = ruleset.start(graph)
        guess = 0  # null-window tests "is the value at least g?" walking from 0 (MTD(f))
        lower, upper = -bound, bound
        while lower < upper:
            g = max(guess, lower + 1)
            found = value(start, g - 1, g)
            if found >= g:
                lower, guess = found, found + 1
            else:
                upper, guess = found, found
            guess = min(guess, upper)
        return int(lower)
    finally:
        sys.setrecursionlimit(limit)
