"""Ultimate Go and Fundamental Go (source ``003_ba4357ff6ddc9904.txt``), executable.

Each definition below mirrors one heading of ``spec/ultimate.md`` (same name, same
order).  There are no passes: a player places a stone (never a surrounded one, never
repeating a board), or delays by returning a prisoner, or, once, her ultimate prisoner.
Fundamental Go is the same game without ultimate prisoners: ``initial_situation(graph,
fundamental=True)``.  Section IV's score (the least mid-game komi that turns the result)
is computed by exact search, which is practical on boards of a handful of points.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from gorules.spec import api
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import (
    BLACK,
    DRAW,
    EMPTY,
    WHITE,
    Board,
    Outcome,
    Player,
    clear,
    opponent,
    reaches,
    update,
)


class Situation(NamedTuple):
    """Everything on and beside the board: the board, the player to move, both prisoner
    bowls, the players still holding an ultimate prisoner, who played the first ultimate
    delay, who may declare a draw, the boards that have occurred, and the result once over."""

    board: Board
    player: Player
    black_prisoners: int
    white_prisoners: int
    ultimate: frozenset
    first_ultimate: Player | None
    draw_right: Player | None
    history: frozenset
    result: Outcome | None


def prisoners(s: Situation, p: Player) -> int:
    """The number of stones in p's prisoner bowl."""
    return s.black_prisoners if p == BLACK else s.white_prisoners


def add_prisoners(s: Situation, p: Player, k: int) -> Situation:
    """s with k stones added to p's prisoner bowl (k < 0 takes them out)."""
    if p == BLACK:
        return s._replace(black_prisoners=s.black_prisoners + k)
    return s._replace(white_prisoners=s.white_prisoners + k)


def surrounded(graph: Graph, b: Board, v: int) -> bool:
    """The stone on v is surrounded: no path from it to an empty point avoids the opponent's
    stones, that is, it does not reach Empty in the Tromp–Taylor sense."""
    return not reaches(graph, b, v, EMPTY)


def initial_situation(graph: Graph, fundamental: bool = False, komi: int = 0) -> Situation:
    """The empty board and empty bowls (but for a komi of `komi` stones in White's bowl), each
    player holding an ultimate prisoner unless the game is Fundamental Go, Black to move."""
    board = tuple(EMPTY for _ in graph.points)
    ultimate = frozenset() if fundamental else frozenset({BLACK, WHITE})
    return Situation(board, BLACK, 0, komi, ultimate, None, None, frozenset({board}), None)


def placement(graph: Graph, b: Board, v: int, p: Player) -> tuple:
    """p's stone on v, then every surrounded opponent stone taken off: the board and the
    number of stones taken."""
    placed = update(b, v, p)
    after = clear(graph, placed, opponent(p))
    return after, sum(1 for w in graph.points if placed[w] != after[w])


def legal_placement(graph: Graph, s: Situation, v: int) -> Situation | None:
    """The situation after the player to move places on v, or None if that placement is not
    legal: v is not an empty point, the placed stone is surrounded, or the board has occurred."""
    if v not in graph.points or s.board[v] != EMPTY:
        return None
    after, taken = placement(graph, s.board, v, s.player)
    if surrounded(graph, after, v) or after in s.history:
        return None
    s = add_prisoners(s, s.player, taken)
    return s._replace(board=after, player=opponent(s.player), history=s.history | {after})


DELAY = "delay"
ULTIMATE_DELAY = "ultimate delay"


def delay(s: Situation) -> Situation | None:
    """The player to move returns one of her prisoners; None if her bowl is empty."""
    if prisoners(s, s.player) == 0:
        return None
    return add_prisoners(s, s.player, -1)._replace(player=opponent(s.player))


def moves(graph: Graph, s: Situation) -> dict:
    """Every move open to the player to move, mapped to the situation it makes: a delay,
    the ultimate delay, the legal placements (by point)."""
    options = {DELAY: delay(s), ULTIMATE_DELAY: ultimate_delay(s)}
    options.update({v: legal_placement(graph, s, v) for v in graph.points})
    return {m: after for m, after in options.items() if after is not None}


def ultimate_delay(s: Situation) -> Situation | None:
    """The player to move returns her ultimate prisoner; played second, it is set beside the
    opponent's supply, which gives the opponent the right to declare a draw.  None if she
    no longer holds it."""
    p = s.player
    if p not in s.ultimate:
        return None
    s = s._replace(ultimate=s.ultimate - {p}, player=opponent(p))
    if s.first_ultimate is None:
        return s._replace(first_ultimate=p)
    return s._replace(draw_right=opponent(p))


DECLARE_DRAW = "declare draw"
RESIGN = "resign"
Action = int | str


def act(graph: Graph, s: Situation, a: Action) -> Situation | None:
    """The situation after the player to move makes a move, declares a draw (only with the
    right to) or resigns; None if the action is not open to her or the game is over."""
    if s.result is not None:
        return None
    if a == RESIGN:
        return s._replace(result=opponent(s.player))
    if a == DECLARE_DRAW:
        return s._replace(result=DRAW) if s.draw_right == s.player else None
    return moves(graph, s).get(a)


def game(graph: Graph, actions: Sequence[Action], fundamental: bool = False, komi: int = 0) -> list | None:
    """The situations of a sequence of actions from the start, or None if one is not open."""
    situations = [initial_situation(graph, fundamental, komi)]
    for a in actions:
        after = act(graph, situations[-1], a)
        if after is None:
            return None
        situations.append(after)
    return situations


@functools.lru_cache(maxsize=None)
def wins(graph: Graph, s: Situation) -> bool:
    """In Fundamental Go (no draws), whether the player to move has a winning strategy: some
    move leaves the opponent without one.  A player with no move must resign."""
    return any(not wins(graph, after) for after in moves(graph, s).values())


def black_wins(graph: Graph, s: Situation) -> bool:
    """Whether Black has a winning strategy in situation s of Fundamental Go."""
    return wins(graph, s) == (s.player == BLACK)


def score(graph: Graph, s: Situation):
    """Section IV: min{K : White wins with K more prisoners} − ½ if Black wins, else
    −min{K : Black wins with K more prisoners} + ½."""
    if black_wins(graph, s):
        K = next(k for k in itertools.count() if not black_wins(graph, add_prisoners(s, WHITE, k)))
        return K - 0.5
    K = next(k for k in itertools.count() if black_wins(graph, add_prisoners(s, BLACK, k)))
    return -K + 0.5


def no_move_improves(graph: Graph, s: Situation) -> bool:
    """Section IV's claim at s: no move by Black increases the score, no move by White decreases it."""
    here = score(graph, s)
    after = [score(graph, t) for t in moves(graph, s).values()]
    if s.player == BLACK:
        return all(a <= here for a in after)
    return all(a >= here for a in after)


@functools.lru_cache(maxsize=None)
def value(graph: Graph, s: Situation) -> int:
    """In Ultimate Go, the result for the player to move under best play by both: 1 a win,
    0 a draw, -1 a loss.  She may declare a draw if she has the right, resign, or move."""
    best = 0 if s.draw_right == s.player else -1
    for after in moves(graph, s).values():
        best = max(best, -value(graph, after))
        if best == 1:
            break
    return best


@dataclass(frozen=True)
class Options(api.Options):
    """The options of Ultimate and Fundamental Go: ``komi``, the stones White's prisoner bowl
    holds when the game starts (the source's remark: komi K is K stones surrendered)."""

    komi: int = 0

    def __post_init__(self) -> None:
        """A komi is a number of stones."""
        if isinstance(self.komi, bool) or not isinstance(self.komi, int) or self.komi < 0:
            raise api.OptionError(f"komi must be a number of stones (an integer >= 0), got {self.komi!r}")


WORDS = {"delay": DELAY, "ultimate": ULTIMATE_DELAY, "draw": DECLARE_DRAW, "resign": RESIGN}


class Ultimate(api.Ruleset):
    """Ultimate Go as a ruleset of the common interface: a state is a ``Situation``; the moves
    are the legal placements, the delays, declaring a draw (with the right) and resigning;
    the game is over once it has a result, "B", "W" or "draw"."""

    name = "ultimate"
    source = "003_ba4357ff6ddc9904.txt"
    value_kind = "outcome"
    options_type = Options
    presets: ClassVar[dict[str, api.Options]] = {"ultimate": Options()}
    default_preset = "ultimate"
    fundamental: ClassVar[bool] = False

    @property
    def history_rule(self) -> api.HistoryRule:
        """Rule 5: no placement may repeat a board of the game."""
        return "positional"

    def start(self, graph: Graph) -> Situation:
        """The empty board and bowls, komi in White's bowl, ultimate prisoners unless Fundamental Go."""
        return initial_situation(graph, self.fundamental, self.options.komi)  # type: ignore[attr-defined]

    def player(self, s: Situation) -> Player:
        """The player to move."""
        return s.player

    def board_of(self, graph: Graph, s: Situation) -> Board:
        """The board."""
        return s.board

    def moves(self, graph: Graph, s: Situation) -> list:
        """The legal placements, the delays open to her, a draw if she has the right, resigning."""
        if s.result is not None:
            return []
        open_moves = moves(graph, s)
        ordered = [v for v in graph.points if v in open_moves]
        ordered += [m for m in (DELAY, ULTIMATE_DELAY) if m in open_moves]
        if s.draw_right == s.player:
            ordered.append(DECLARE_DRAW)
        return [*ordered, RESIGN]

    def apply(self, graph: Graph, s: Situation, a: Action) -> Situation:
        """The situation after action a; IllegalMove if it is not open to the player to move."""
        after = act(graph, s, a)
        if after is None:
            raise api.IllegalMove(
                "not open to the player to move (occupied, surrounded, repeated, no prisoner, no right, or game over)"
            )
        return after

    def is_over(self, graph: Graph, s: Situation) -> bool:
        """The game has a result."""
        return s.result is not None

    def value(self, graph: Graph, s: Situation) -> Outcome | None:
        """The result: "B", "W" or "draw"."""
        return s.result

    def key(self, s: Situation) -> Situation:
        """The situation less the boards that have occurred."""
        return s._replace(history=frozenset())

    def history(self, s: Situation) -> frozenset:
        """The boards that have occurred (rule 5)."""
        return s.history

    def parse_move(self, graph: Graph, text: str) -> Action:
        """A point, or "delay", "ultimate", "draw", "resign"."""
        word = text.strip().lower()
        return WORDS[word] if word in WORDS else super().parse_move(graph, text)

    def move_text(self, graph: Graph, a: Action) -> str:
        """A point's name, or the word of a delay, draw or resignation."""
        words = {v: k for k, v in WORDS.items()}
        return words[a] if isinstance(a, str) else super().move_text(graph, a)

    def details(self, graph: Graph, s: Situation) -> dict:
        """The prisoner bowls, who still holds an ultimate prisoner, and who may declare a draw."""
        return {
            "prisoners": {BLACK: s.black_prisoners, WHITE: s.white_prisoners},
            "ultimate_prisoners": sorted(s.ultimate),
            "draw_right": s.draw_right,
        }


class Fundamental(Ultimate):
    """Fundamental Go: Ultimate Go without ultimate prisoners (so without draws)."""

    name = "fundamental"
    presets: ClassVar[dict[str, api.Options]] = {"fundamental": Options()}
    default_preset = "fundamental"
    fundamental = True
