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
from dataclasses import dataclass, field
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


class State(NamedTuple):
    """Everything on and beside the board: the board, the player to move, both prisoner
    bowls, the players still holding an ultimate prisoner, who played the first ultimate
    delay, who may declare a draw, the boards that have occurred, the result once over, and
    the delays White still owes under a handicap."""

    board: Board
    player: Player
    black_prisoners: int
    white_prisoners: int
    ultimate: frozenset
    first_ultimate: Player | None
    draw_right: Player | None
    history: frozenset
    result: Outcome | None
    owed_delays: int = 0


def prisoners(s: State, p: Player) -> int:
    """The number of stones in p's prisoner bowl."""
    return s.black_prisoners if p == BLACK else s.white_prisoners


def add_prisoners(s: State, p: Player, k: int) -> State:
    """s with k stones added to p's prisoner bowl (k < 0 takes them out)."""
    if p == BLACK:
        return s._replace(black_prisoners=s.black_prisoners + k)
    return s._replace(white_prisoners=s.white_prisoners + k)


def surrounded(graph: Graph, b: Board, v: int) -> bool:
    """The stone on v is surrounded: no path from it to an empty point avoids the opponent's
    stones, that is, it does not reach Empty in the Tromp–Taylor sense."""
    return not reaches(graph, b, v, EMPTY)


def initial_situation(
    graph: Graph, fundamental: bool = False, komi: int = 0, komi_to: Player = WHITE, handicap: int = 0
) -> State:
    """The empty board and empty bowls (but for a komi of `komi` stones in the bowl of
    `komi_to`), each player holding an ultimate prisoner unless the game is Fundamental Go,
    Black to move.  A handicap H > 1 is komi H − 1 more for White, who must then delay in
    her first H − 1 moves (the source's remark)."""
    board = tuple(EMPTY for _ in graph.points)
    ultimate = frozenset() if fundamental else frozenset({BLACK, WHITE})
    owed = max(handicap - 1, 0)
    s = State(board, BLACK, 0, owed, ultimate, None, None, frozenset({board}), None, owed)
    return add_prisoners(s, komi_to, komi)


def placement(graph: Graph, b: Board, v: int, p: Player) -> tuple:
    """p's stone on v, then every surrounded opponent stone taken off: the board and the
    number of stones taken."""
    placed = update(b, v, p)
    after = clear(graph, placed, opponent(p))
    return after, sum(1 for w in graph.points if placed[w] != after[w])


def legal_placement(graph: Graph, s: State, v: int) -> State | None:
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


def delay(s: State) -> State | None:
    """The player to move returns one of her prisoners; None if her bowl is empty.  A delay
    White owes under a handicap is counted off."""
    if prisoners(s, s.player) == 0:
        return None
    owed = s.owed_delays - 1 if s.player == WHITE and s.owed_delays else s.owed_delays
    return add_prisoners(s, s.player, -1)._replace(player=opponent(s.player), owed_delays=owed)


def moves(graph: Graph, s: State) -> dict:
    """Every move open to the player to move, mapped to the situation it makes: a delay,
    the ultimate delay, the legal placements (by point); only a delay while White owes one."""
    if s.player == WHITE and s.owed_delays:
        after = delay(s)
        return {} if after is None else {DELAY: after}
    options: dict[int | str, State | None] = {DELAY: delay(s), ULTIMATE_DELAY: ultimate_delay(s)}
    options.update({v: legal_placement(graph, s, v) for v in graph.points})
    return {m: after for m, after in options.items() if after is not None}


def ultimate_delay(s: State) -> State | None:
    """The player to move returns her ultimate prisoner; played second, it is set beside the
    opponent's supply, which gives the opponent the right to declare a draw.  None if she
    does not hold it (she has returned it already)."""
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


def act(graph: Graph, s: State, a: Action) -> State | None:
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
def wins(graph: Graph, s: State) -> bool:
    """In Fundamental Go (no draws), whether the player to move has a winning strategy: some
    move leaves the opponent without one.  A player with no move must resign."""
    return any(not wins(graph, after) for after in moves(graph, s).values())


def black_wins(graph: Graph, s: State) -> bool:
    """Whether Black has a winning strategy in situation s of Fundamental Go."""
    return wins(graph, s) == (s.player == BLACK)


def score(graph: Graph, s: State):
    """Section IV: min{K : White wins with K more prisoners} − ½ if Black wins, else
    −min{K : Black wins with K more prisoners} + ½."""
    if black_wins(graph, s):
        K = next(k for k in itertools.count() if not black_wins(graph, add_prisoners(s, WHITE, k)))
        return K - 0.5
    K = next(k for k in itertools.count() if black_wins(graph, add_prisoners(s, BLACK, k)))
    return -K + 0.5


def no_move_improves(graph: Graph, s: State) -> bool:
    """Section IV's claim at s: no move by Black increases the score, no move by White decreases it."""
    here = score(graph, s)
    after = [score(graph, t) for t in moves(graph, s).values()]
    if s.player == BLACK:
        return all(a <= here for a in after)
    return all(a >= here for a in after)


@functools.lru_cache(maxsize=None)
def value(graph: Graph, s: State) -> int:
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
    """The options of Ultimate and Fundamental Go: ``komi``, the stones the bowl of
    ``komi_to`` holds when the game starts (the source's remark: komi K is K stones
    surrendered to the opponent's bowl), and ``handicap`` H (komi H − 1 more to White, who
    then delays in her first H − 1 moves; 0 and 1 mean none)."""

    komi: int = 0
    komi_to: str = field(default=WHITE, metadata={"choices": (WHITE, BLACK), "help": "whose bowl holds the komi"})
    handicap: int = 0

    def __post_init__(self) -> None:
        """A komi and a handicap are numbers of stones."""
        super().__post_init__()
        for name in ("komi", "handicap"):
            k = getattr(self, name)
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                raise api.OptionError(f"{name} must be a number of stones (an integer >= 0), got {k!r}")


WORDS = {"delay": DELAY, "ultimate": ULTIMATE_DELAY, "draw": DECLARE_DRAW, "resign": RESIGN}


class SituationError(api.OptionError):
    """Text or JSON that is not a situation of the graph; the message says what is wrong."""


PLAYERS = {"B": BLACK, "W": WHITE, "none": None}


def board_word(graph: Graph, b: Board) -> str:
    """A board as one word: its colours point by point, rows joined by "/" on a grid."""
    if graph.is_grid:
        columns = graph.shape[1]
        return "/".join("".join(b[r : r + columns]) for r in range(0, graph.order, columns))
    return "".join(b)


def read_board(graph: Graph, word, what: str = "board") -> Board:
    """The board a word (or a list of colours) names; SituationError unless it has one of
    B, W, . on every point of the graph and no stone of it is surrounded (rule 5 never
    leaves one)."""
    colours = list(word) if isinstance(word, list) else list(str(word).replace("/", "").replace(" ", ""))
    if len(colours) != graph.order or any(c not in (BLACK, WHITE, EMPTY) for c in colours):
        raise SituationError(
            f"{what} {word!r} is not a board of {graph.name}: write B, W or . for each of its {graph.order} points"
        )
    b = tuple(colours)
    stuck = [v for v in graph.points if b[v] != EMPTY and surrounded(graph, b, v)]
    if stuck:
        raise SituationError(
            f"{what} {word!r} has a surrounded stone on point {stuck[0]}, which no game of {graph.name} leaves"
        )
    return b


def read_count(word, what: str) -> int:
    """A number of stones; SituationError unless a non-negative integer."""
    text = str(word).strip()
    if isinstance(word, bool) or not text.isdigit():
        raise SituationError(f"{what} must be a number of stones (an integer >= 0), got {word!r}")
    return int(text)


def read_player(word, what: str, none: bool = True) -> Player | None:
    """B, W (or none, where allowed); SituationError otherwise."""
    key = "none" if word is None else str(word).strip()
    if key not in PLAYERS or (key == "none" and not none):
        raise SituationError(f"{what} must be {'B, W or none' if none else 'B or W'}, got {word!r}")
    return PLAYERS[key]


def situation_data(graph: Graph, s: State) -> dict:
    """The situation as JSON-able data (what ``read_situation`` reads back)."""
    return {
        "graph": graph.name,
        "board": board_word(graph, s.board),
        "to_move": s.player,
        "prisoners": {BLACK: s.black_prisoners, WHITE: s.white_prisoners},
        "ultimate_prisoners": sorted(s.ultimate),
        "first_ultimate": s.first_ultimate,
        "draw_right": s.draw_right,
        "owed_delays": s.owed_delays,
        "history": sorted(board_word(graph, b) for b in s.history),
    }


def read_situation(graph: Graph, data: dict, fundamental: bool = False) -> State:
    """The situation the data state, checked: SituationError naming the first field that
    is missing, unknown or inconsistent.  Left out: the bowls are empty, each player still
    holds her ultimate prisoner (none in Fundamental Go), and the boards that have occurred
    are the empty board and this one."""
    known = {
        "graph",
        "board",
        "to_move",
        "prisoners",
        "ultimate_prisoners",
        "first_ultimate",
        "draw_right",
        "owed_delays",
        "history",
    }
    unknown = sorted(set(data) - known - {"ruleset", "options", "over"})
    if unknown:
        raise SituationError(f"unknown field {unknown[0]!r} in a situation: expected {', '.join(sorted(known))}")
    if data.get("graph", graph.name) != graph.name:
        raise SituationError(f"the situation is one of {data['graph']}, not of {graph.name}")
    for needed in ("board", "to_move"):
        if needed not in data:
            raise SituationError(f"a situation needs its {needed.replace('_', ' ')}")
    board = read_board(graph, data["board"])
    player = read_player(data["to_move"], "to move", none=False)
    if player is None:
        raise SituationError("to move must be B or W")
    bowls = data.get("prisoners", {})
    if not isinstance(bowls, dict) or set(bowls) - {BLACK, WHITE}:
        raise SituationError(f"prisoners must give B and W their numbers of stones, got {bowls!r}")
    black, white = (read_count(bowls.get(c, 0), f"{c}'s prisoners") for c in (BLACK, WHITE))
    held = data.get("ultimate_prisoners", [] if fundamental else [BLACK, WHITE])
    if not isinstance(held, list) or len(set(held)) != len(held):
        raise SituationError(f"ultimate prisoners must list who still holds one (B, W), got {held!r}")
    ultimate = frozenset(read_player(c, "an ultimate prisoner's holder", none=False) for c in held)
    first = read_player(data.get("first_ultimate"), "first ultimate delay")
    draw = read_player(data.get("draw_right"), "draw right")
    check_ultimate(ultimate, first, draw, fundamental)
    owed = read_count(data.get("owed_delays", 0), "owed delays")
    if owed > white:
        raise SituationError(f"White owes {owed} delays but holds only {white} prisoners")
    empty = tuple(EMPTY for _ in graph.points)
    words = data.get("history", [board_word(graph, empty)])
    if not isinstance(words, list):
        raise SituationError(f"history must list the boards that have occurred, got {words!r}")
    history = frozenset(read_board(graph, w, "history board") for w in words) | {board}
    return State(board, player, black, white, ultimate, first, draw, history, None, owed)


def check_ultimate(ultimate: frozenset, first: Player | None, draw: Player | None, fundamental: bool) -> None:
    """SituationError unless the ultimate prisoners, the first ultimate delay and the draw
    right fit rules 3, 6 and 8: whoever delayed first holds no ultimate prisoner; the draw
    right is hers exactly when both have been returned."""
    if fundamental and (ultimate or first or draw):
        raise SituationError("Fundamental Go has no ultimate prisoners, ultimate delays or draw rights")
    if fundamental:
        return
    returned = {BLACK, WHITE} - ultimate
    if first is None and returned:
        raise SituationError("an ultimate prisoner was returned, so the first ultimate delay must be named")
    if first is not None and first in ultimate:
        raise SituationError(f"{first} played the first ultimate delay, so she no longer holds an ultimate prisoner")
    if (draw is not None) != (not ultimate) or (draw is not None and draw != first):
        raise SituationError(
            "the draw right belongs to the first ultimate delayer exactly when both ultimate prisoners are returned"
        )


TEXT_FIELDS = {
    "graph": "graph",
    "board": "board",
    "to move": "to_move",
    "prisoners": "prisoners",
    "ultimate prisoners": "ultimate_prisoners",
    "first ultimate delay": "first_ultimate",
    "draw right": "draw_right",
    "owed delays": "owed_delays",
    "history": "history",
}


def situation_text(graph: Graph, s: State) -> str:
    """The situation as text, one ``field: value`` line each (what ``parse_situation`` reads)."""
    data = situation_data(graph, s)
    words = {
        "prisoners": f"B={s.black_prisoners} W={s.white_prisoners}",
        "ultimate_prisoners": " ".join(data["ultimate_prisoners"]) or "none",
        "history": ", ".join(data["history"]),
    }
    lines = []
    for name, key in TEXT_FIELDS.items():
        value = words.get(key, data[key])
        lines.append(f"{name}: {'none' if value is None else value}")
    return "\n".join(lines)


def parse_situation(graph: Graph, text: str, fundamental: bool = False) -> State:
    """The situation that text of ``field: value`` lines (or ``;``-separated fields) states;
    SituationError naming what is wrong."""
    data: dict = {}
    for line in text.replace(";", "\n").splitlines():
        if not line.strip():
            continue
        name, colon, value = line.partition(":")
        key = TEXT_FIELDS.get(name.strip().lower())
        if not colon or key is None:
            raise SituationError(
                f"bad situation line {line.strip()!r}: write FIELD: VALUE with FIELD one of {', '.join(TEXT_FIELDS)}"
            )
        data[key] = value.strip()
    if "prisoners" in data:
        data["prisoners"] = read_bowls(data["prisoners"])
    if "ultimate_prisoners" in data:
        data["ultimate_prisoners"] = [] if data["ultimate_prisoners"] == "none" else data["ultimate_prisoners"].split()
    if "history" in data:
        data["history"] = [w.strip() for w in data["history"].split(",") if w.strip()]
    return read_situation(graph, data, fundamental)


def read_bowls(text: str) -> dict:
    """``B=1 W=0`` as {"B": "1", "W": "0"}; SituationError for another form."""
    bowls = {}
    for word in text.replace(",", " ").split():
        colour, equals, count = word.partition("=")
        if not equals or colour not in (BLACK, WHITE):
            raise SituationError(f"bad prisoners {text!r}: write e.g. B=1 W=0")
        bowls[colour] = count
    return bowls


class Ultimate(api.Ruleset):
    """Ultimate Go as a ruleset of the common interface: a state is a ``State``; the moves
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

    def start(self, graph: Graph) -> State:
        """The empty board and bowls, komi in White's bowl, ultimate prisoners unless Fundamental Go."""
        o = self.options
        return initial_situation(graph, self.fundamental, o.komi, o.komi_to, o.handicap)

    def player(self, s: State) -> Player:
        """The player to move."""
        return s.player

    def board_of(self, graph: Graph, s: State) -> Board:
        """The board."""
        return s.board

    def moves(self, graph: Graph, s: State) -> list:
        """The legal placements, the delays open to her, a draw if she has the right, resigning."""
        if s.result is not None:
            return []
        open_moves = moves(graph, s)
        ordered: list[int | str] = [v for v in graph.points if v in open_moves]
        ordered += [m for m in (DELAY, ULTIMATE_DELAY) if m in open_moves]
        if s.draw_right == s.player:
            ordered.append(DECLARE_DRAW)
        return [*ordered, RESIGN]

    def apply(self, graph: Graph, s: State, a: Action) -> State:
        """The situation after action a; IllegalMove if it is not open to the player to move."""
        after = act(graph, s, a)
        if after is None:
            raise api.IllegalMove(
                "not open to the player to move (occupied, surrounded, repeated, no prisoner, no right, or game over)"
            )
        return after

    def is_over(self, graph: Graph, s: State) -> bool:
        """The game has a result."""
        return s.result is not None

    def value(self, graph: Graph, s: State) -> Outcome | None:
        """The result: "B", "W" or "draw"."""
        return s.result

    def key(self, s: State) -> State:
        """The situation less the boards that have occurred."""
        return s._replace(history=frozenset())

    def history(self, s: State) -> frozenset:
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

    def details(self, graph: Graph, s: State) -> dict:
        """The prisoner bowls, who still holds an ultimate prisoner, who delayed first, who
        may declare a draw, the delays White owes, the boards that have occurred."""
        data = situation_data(graph, s)
        del data["graph"], data["board"], data["to_move"]
        return data

    def state_from_json(self, graph: Graph, data: dict) -> State:
        """The situation that JSON data state (as ``Situation.to_json`` writes it)."""
        return read_situation(graph, data, self.fundamental)

    def state_from_text(self, graph: Graph, text: str) -> State:
        """The situation that ``field: value`` lines state (as ``situation_text`` writes them)."""
        return parse_situation(graph, text, self.fundamental)


class Fundamental(Ultimate):
    """Fundamental Go: Ultimate Go without ultimate prisoners (so without draws)."""

    name = "fundamental"
    presets: ClassVar[dict[str, api.Options]] = {"fundamental": Options()}
    default_preset = "fundamental"
    fundamental = True
