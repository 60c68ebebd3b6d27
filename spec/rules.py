"""The function API of the Tromp–Taylor formalization (source ``002_8835c2492dce8849.txt``):
``move``, ``clear``, ``reaches``, ``score``, ``game``, ``winner`` and ``initial_state``,
which ``gorules.spec.tromp_taylor`` (the executable spec) and ``gorules.impl.engine.rules``
(the fast engine) both provide, so that one behavioural suite runs over each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import Board, Color, Move, Outcome, Player, State

API_NAMES = ("move", "clear", "reaches", "score", "game", "winner", "initial_state")


@runtime_checkable
class Rules(Protocol):
    """A module (or object) implementing the rules of the source ``002_8835c2492dce8849.txt``."""

    def move(self, graph: Graph, s: State, v: Move) -> State | None:
        """The state after the player to move plays v, or None (⊥) on an occupied point."""
        ...

    def clear(self, graph: Graph, b: Board, p: Player) -> Board:
        """b with every stone of p that does not reach Empty made Empty."""
        ...

    def reaches(self, graph: Graph, b: Board, v: int, c: Color) -> bool:
        """Whether a path from v through points of v's colour ends at a point of colour c."""
        ...

    def score(self, graph: Graph, b: Board, p: Player) -> int:
        """p's stones plus the empty points that reach p but not p*."""
        ...

    def game(self, graph: Graph, moves: Sequence[Move]) -> list[State] | None:
        """The states of a complete game, or None if the moves are not one."""
        ...

    def winner(self, graph: Graph, moves: Sequence[Move]) -> Outcome | None:
        """ "B", "W" or "draw" for a complete game, None if the moves are not one."""
        ...

    def initial_state(self, graph: Graph) -> State:
        """The empty board, Black to move, no passes."""
        ...


def satisfies(module) -> bool:
    """Whether a module provides every function of the API."""
    return all(callable(getattr(module, name, None)) for name in API_NAMES)
