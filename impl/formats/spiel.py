"""OpenSpiel's ``go`` game in the engine's terms: its actions as points, its board as ours,
and the whole game as a ruleset class (:class:`OpenSpielGo`) for the fuzzing campaign.

OpenSpiel numbers the points of an n×n board from the bottom line (action r·n + c with row
0 at the bottom) and passes with action n²; our grids number from the top.
"""

from __future__ import annotations

from typing import ClassVar

from gorules.spec.api import IllegalMove, Ruleset
from gorules.spec.graph import Graph, GraphError, point_name
from gorules.spec.tromp_taylor import PASS, PRESETS, Options


def openspiel_action(size: int, v) -> int:
    """OpenSpiel's action for a point (its row 0 is the bottom line) or a pass."""
    if v == PASS:
        return size * size
    r, c = divmod(v, size)
    return (size - 1 - r) * size + c


def openspiel_point(size: int, action: int):
    """The point (or PASS) of an OpenSpiel action."""
    if action == size * size:
        return PASS
    row, c = divmod(action, size)
    return (size - 1 - row) * size + c


def openspiel_board(size: int, state) -> tuple:
    """OpenSpiel's board, from the black and white planes of its observation tensor."""
    planes = state.observation_tensor(0)
    n = size * size
    board = ["."] * n
    for action in range(n):
        v = openspiel_point(size, action)
        if planes[action]:
            board[v] = "B"
        elif planes[n + action]:
            board[v] = "W"
    return tuple(board)


class OpenSpielGo(Ruleset[Options]):
    """OpenSpiel's ``go`` game behind the ruleset interface, so that ``gorules fuzz
    --implementation gorules.impl.formats.spiel:OpenSpielGo`` compares it with the spec.

    A state is the tuple of OpenSpiel's actions played; OpenSpiel's own state is kept per
    tuple.  The komi is the options'; OpenSpiel's other rules are its own whatever the options
    say (simple ko by a ko point, suicide forbidden, a repeated board ending the game), which
    is what the campaign is to find out: compare under the ``openspiel`` preset.  OpenSpiel
    gives the winner, not the margin, so its value is an outcome.  It plays square boards of
    2 to 19 lines only (:meth:`takes`)."""

    name = "openspiel-go"
    source = "OpenSpiel's go game (go.cc, go_board.cc), not a source of gorules"
    value_kind = "outcome"
    options_type = Options
    presets: ClassVar[dict[str, Options]] = PRESETS
    default_preset = "openspiel"
    LENGTH = 64
    """OpenSpiel's cap on a game's moves, in moves per point: beyond any game the campaign plays."""

    def __init__(self, options: Options | None = None):
        super().__init__(options)
        self.states: dict = {}

    @staticmethod
    def takes(graph: Graph) -> bool:
        """Whether OpenSpiel plays on ``graph``: a square grid of 2 to 19 lines."""
        if not graph.is_grid or graph.directed:
            return False
        rows, columns = graph.shape
        return rows == columns and 2 <= rows <= 19 and graph.order == rows * columns

    def spiel_state(self, graph: Graph, actions: tuple):
        """OpenSpiel's state after ``actions`` from the empty board."""
        found = self.states.get((graph, actions))
        if found is None:
            if actions:
                found = self.spiel_state(graph, actions[:-1]).clone()
                found.apply_action(actions[-1])
            else:
                import pyspiel

                size = graph.shape[0]
                parameters = {
                    "board_size": size,
                    "komi": float(self.options.komi),
                    "max_game_length": self.LENGTH * size * size,
                }
                found = pyspiel.load_game("go", parameters).new_initial_state()
            self.states[graph, actions] = found
        return found

    def start(self, graph: Graph) -> tuple:
        """No action yet; GraphError on a graph OpenSpiel does not play."""
        if not self.takes(graph):
            raise GraphError(f"OpenSpiel's go plays square boards of 2 to 19 lines, not {graph.name}")
        return ()

    def player(self, actions: tuple):
        """Black first, then by turns."""
        return "B" if len(actions) % 2 == 0 else "W"

    def board_of(self, graph: Graph, actions: tuple) -> tuple:
        """OpenSpiel's board in the spec's numbering."""
        return openspiel_board(graph.shape[0], self.spiel_state(graph, actions))

    def moves(self, graph: Graph, actions: tuple) -> list:
        """OpenSpiel's legal actions as points, and the pass."""
        state = self.spiel_state(graph, actions)
        if state.is_terminal():
            return []
        size = graph.shape[0]
        return [openspiel_point(size, a) for a in state.legal_actions()]

    def apply(self, graph: Graph, actions: tuple, v) -> tuple:
        """The action of ``v`` appended; IllegalMove if OpenSpiel does not allow it."""
        state = self.spiel_state(graph, actions)
        size = graph.shape[0]
        if v != PASS and (isinstance(v, bool) or v not in graph.points):
            raise IllegalMove(f"{v!r} is not a point of {graph.name}")
        action = openspiel_action(size, v)
        if state.is_terminal():
            raise IllegalMove("OpenSpiel's game is over")
        if action not in state.legal_actions():
            raise IllegalMove(f"OpenSpiel does not allow {point_name(graph, v) if v != PASS else 'pass'}")
        return (*actions, action)

    def is_over(self, graph: Graph, actions: tuple) -> bool:
        """OpenSpiel's game is over (two passes, a repeated board, or its cap on moves)."""
        return self.spiel_state(graph, actions).is_terminal()

    def value(self, graph: Graph, actions: tuple) -> str:
        """The winner by OpenSpiel's returns: "B", "W" or "draw"."""
        black = self.spiel_state(graph, actions).returns()[0]
        return "B" if black > 0 else "W" if black < 0 else "draw"

    def key(self, actions: tuple) -> tuple:
        """The actions themselves."""
        return actions

    def history(self, actions: tuple) -> frozenset:
        """The actions (OpenSpiel consults its own history)."""
        return frozenset(enumerate(actions))
