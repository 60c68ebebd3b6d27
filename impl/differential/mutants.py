"""Engines broken on purpose: a checker that cannot tell one from the real engine proves nothing."""

from __future__ import annotations

from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import EMPTY, PASS, State


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
