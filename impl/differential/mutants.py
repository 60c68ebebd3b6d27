"""Engines broken on purpose: a checker that cannot tell one from the real engine proves nothing."""

from __future__ import annotations

from typing import cast

from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import EMPTY, PASS, Options, State, TrompTaylor


class NoSuicideMutant:
    """The engine with one rule broken on purpose: a played stone is never removed, even
    when it has no liberty after the captures (suicide forgotten).  Differential fuzzing
    must tell it from the spec; a fuzzer that cannot would prove nothing."""

    def __getattr__(self, name):
        from gorules.impl.engine import rules as engine

        return getattr(engine, name)

    @staticmethod
    def move(graph: Graph, s: State, v) -> State | None:
        """The engine's move, with the played point put back if the move removed it."""
        from gorules.impl.engine import rules as engine

        result = engine.move(graph, s, v)
        if result is None or v == PASS or result.board[v] != EMPTY:
            return result
        board = result.board[:v] + (s.player,) + result.board[v + 1 :]
        return State(board, result.player, 0)


class SuperkoBlindRuleset(TrompTaylor):
    """The spec's ruleset with its ko rule forgotten on purpose: every stone move that the
    suicide option allows is legal, whatever board it brings back.  A campaign must tell it
    from the spec under any preset with a ko rule."""

    name = "tromp-taylor-superko-blind"

    def apply(self, graph: Graph, states: tuple, v) -> tuple:
        """The spec's move under the same options but ``ko=none``."""
        return TrompTaylor(cast(Options, self.options.replace(ko="none"))).apply(graph, states, v)


class SuicideKeepingRuleset(TrompTaylor):
    """The spec's ruleset with suicide broken on purpose: a stone that removes its own chain
    stays on the board (the rest of the chain goes)."""

    name = "tromp-taylor-suicide-keeping"

    def apply(self, graph: Graph, states: tuple, v) -> tuple:
        """The spec's move, with the played stone put back if the move removed it."""
        after = super().apply(graph, states, v)
        s = after[-1]
        if v == PASS or s.board[v] != EMPTY:
            return after
        board = s.board[:v] + (states[-1].player,) + s.board[v + 1 :]
        return (*after[:-1], State(board, s.player, 0))
