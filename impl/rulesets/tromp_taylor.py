"""The Tromp–Taylor ruleset on bitsets: the engine's twin of ``gorules.spec.tromp_taylor.TrompTaylor``.

Both implement the common ruleset interface (``gorules.spec.api.Ruleset``) with the same
options and presets; the differential suite plays them side by side.  A state here is a
tuple ``(black, white, side, passes, seen, before)``: the two bitsets of the board, the
player to move (0 Black, 1 White), the consecutive passes, the set of position keys the ko
rule consults (boards under positional superko, board and player under situational), and
under simple ko the bitsets of the board before the last move.
"""

from __future__ import annotations

from typing import ClassVar

from gorules.impl.engine.rules import kernel, popcount, to_board
from gorules.spec import api, tromp_taylor
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, PASS, WHITE, Player

PLAYERS = (BLACK, WHITE)


def position_key(order: int, black: int, white: int, side: int, ko: str) -> int:
    """The key the ko rule remembers for a board: the board, and under situational superko
    the player to move as well."""
    key = black | (white << order)
    return (key << 1) | side if ko == "situational" else key


class TrompTaylor(tromp_taylor.TrompTaylor):
    """The Tromp–Taylor ruleset with its options, played on the engine's bitset kernel: the
    spec's ruleset (its name, options, presets, history rule) with every method on states
    written again for bitset states; its ``solve`` capability is the engine's threshold search
    (:mod:`gorules.impl.solving.tromp_taylor`)."""

    capabilities: ClassVar[dict[str, str]] = {
        "solve": "gorules.impl.solving.tromp_taylor:solve",
        "count-games": "gorules.impl.rulesets.engine_capabilities:count_games",
        "engine": "gorules.impl.rulesets.engine_capabilities:engine_options",
        "gtp": "gorules.impl.rulesets.engine_capabilities:endpoint",
        "replay": "gorules.impl.rulesets.engine_capabilities:replay_ruleset",
        "sgf": "gorules.impl.rulesets.engine_capabilities:check_record",
    }
    """``solve``, the engine's threshold search; the others, the engine's counter, GTP endpoint,
    record checker and the spec's replay (:mod:`gorules.impl.rulesets.engine_capabilities`)."""

    def start(self, graph: Graph) -> tuple:
        """The empty board, Black to move, no passes; the empty board remembered."""
        ko = self.options.ko
        seen = frozenset({position_key(graph.order, 0, 0, 0, ko)}) if self.history_rule != "none" else frozenset()
        return (0, 0, 0, 0, seen, None)

    def player(self, state: tuple) -> Player:
        """The player to move."""
        return PLAYERS[state[2]]

    def board_of(self, graph: Graph, state: tuple) -> tuple:
        """The board as a tuple of colours."""
        return to_board(graph, state[0], state[1])

    def is_over(self, graph: Graph, state: tuple) -> bool:
        """Two consecutive passes end the game."""
        return state[3] >= 2

    def after(self, graph: Graph, state: tuple, v: int) -> tuple | str:
        """The state after the player to move plays on point v, or the reason it is illegal."""
        black, white, side, _passes, seen, _before = state
        point = 1 << v
        if (black | white) & point:
            return "the point is occupied"
        new_black, new_white = kernel(graph).play(black, white, v, side)
        options = self.options
        if not (new_black | new_white) & point and options.suicide == "forbidden":
            return "suicide is forbidden"
        ko = options.ko
        key = position_key(graph.order, new_black, new_white, 1 - side, ko)
        if ko in ("positional", "situational") and key in seen:
            return f"{ko} superko: the position repeats an earlier one"
        if ko == "simple" and _before is not None and (new_black, new_white) == _before:
            return "ko: the board repeats the board before the opponent's move"
        if ko in ("positional", "situational"):
            seen = seen | {key}
        before = (black, white) if ko == "simple" else None
        return (new_black, new_white, 1 - side, 0, seen, before)

    def apply(self, graph: Graph, state: tuple, move) -> tuple:
        """The state after ``move``; IllegalMove names the reason it is not legal."""
        black, white, side, passes, seen, _before = state
        if move == PASS:
            if self.options.ko == "situational":
                seen = seen | {position_key(graph.order, black, white, 1 - side, "situational")}
            before = (black, white) if self.options.ko == "simple" else None
            return (black, white, 1 - side, passes + 1, seen, before)
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < graph.order:
            raise api.IllegalMove(f"{move!r} is not a point of {graph.name}")
        result = self.after(graph, state, move)
        if isinstance(result, str):
            raise api.IllegalMove(f"{PLAYERS[side]} {move} is illegal: {result}")
        return result

    def moves(self, graph: Graph, state: tuple) -> list:
        """The empty points the player may play, in order, then pass."""
        empty = kernel(graph).all & ~(state[0] | state[1])
        legal: list = []
        while empty:
            low = empty & -empty
            v = low.bit_length() - 1
            if not isinstance(self.after(graph, state, v), str):
                legal.append(v)
            empty ^= low
        return [*legal, PASS]

    def scores(self, graph: Graph, state: tuple) -> tuple[int, int]:
        """Black's and White's scores of the board under the scoring option."""
        black, white = state[0], state[1]
        if self.options.scoring == "stone":
            return popcount(black), popcount(white)
        return kernel(graph).area(black, white)

    def value(self, graph: Graph, state: tuple) -> float:
        """Black's score minus White's, komi taken off."""
        black, white = self.scores(graph, state)
        return black - white - self.options.komi

    def key(self, state: tuple) -> tuple:
        """The board, the player to move and the passes (and the board before, under simple ko)."""
        return (state[0], state[1], state[2], state[3], state[5])

    def history(self, state: tuple) -> frozenset:
        """The position keys the superko rule consults."""
        return state[4]

    def details(self, graph: Graph, state: tuple) -> dict:
        """The consecutive passes and both scores of the current board."""
        black, white = self.scores(graph, state)
        return {"passes": state[3], "scores": {BLACK: black, WHITE: white}}
