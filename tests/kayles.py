"""Node Kayles on a graph: the smallest ruleset of the common interface.

Two players take turns choosing a point that is neither chosen already nor next to a chosen
point; the player who cannot choose loses.  The board shows each chosen point in the colour
of the player who chose it.  ``docs/adding-a-ruleset.md`` builds this module step by step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gorules.spec import api
from gorules.spec.graph import Graph


@dataclass(frozen=True)
class Options(api.Options):
    """Node Kayles has no options."""


class NodeKayles(api.Ruleset):
    """A state is (board, player to move); a move is a point."""

    name = "node-kayles"
    source = "a classic game on graphs (Node Kayles, Schaefer 1978)"
    value_kind = "outcome"
    options_type = Options
    presets: ClassVar[dict[str, api.Options]] = {"normal-play": Options()}
    default_preset = "normal-play"

    def start(self, graph: Graph) -> tuple:
        """No point chosen, Black to choose."""
        return (tuple("." for _ in graph.points), "B")

    def player(self, state: tuple) -> str:
        """The player to choose."""
        return state[1]

    def board_of(self, graph: Graph, state: tuple) -> tuple:
        """The chosen points, in their chooser's colour."""
        return state[0]

    def moves(self, graph: Graph, state: tuple) -> list:
        """The points neither chosen nor next to a chosen point."""
        board = state[0]
        return [v for v in graph.points if board[v] == "." and all(board[w] == "." for w in graph.neighbours[v])]

    def apply(self, graph: Graph, state: tuple, v) -> tuple:
        """Choose v; IllegalMove if it is chosen or next to a chosen point."""
        if v not in self.moves(graph, state):
            raise api.IllegalMove(f"{v!r} is not a point that is free and away from the chosen ones")
        board, player = state
        return (board[:v] + (player,) + board[v + 1 :], "W" if player == "B" else "B")

    def is_over(self, graph: Graph, state: tuple) -> bool:
        """The player to move has no point to choose."""
        return not self.moves(graph, state)

    def value(self, graph: Graph, state: tuple) -> str:
        """The player who cannot choose loses."""
        return "W" if state[1] == "B" else "B"
