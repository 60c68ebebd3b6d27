"""The Tromp–Taylor rules on any graph, executable.

Each definition below mirrors one heading of ``spec/tromp_taylor.md`` (same name, same
order), which in turn follows the formalization in the source document
``002_8835c2492dce8849.txt``.  Where the source is wrong the corrected definition
stands here under the source's name; the literal readings live in ``spec/errata.py``.

The spec is literal rather than fast: boards are tuples of colours indexed by point,
``reaches`` is a least fixed point computed by plain iteration, and a partial
function returns ``None`` for ⊥.  Every function takes the graph first: the source
fixes one graph (Point, ↔) for all of its definitions.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar, Final, Literal, NamedTuple

from gorules.spec import api
from gorules.spec.graph import Graph, point_name


def adjacent(graph: Graph, v: int, w: int) -> bool:
    """v ↔ w: w is a neighbour of v (on a directed graph: an arc leads from v to w)."""
    return w in graph.neighbours[v]


Player = Literal["B", "W"]
BLACK: Player = "B"
WHITE: Player = "W"


Color = Literal["B", "W", "."]
EMPTY: Color = "."


Move = int | Literal["pass"]
PASS: Final = "pass"


Board = tuple  # a tuple of Color, indexed by point: the function Point → Color


def update(b: Board, v: int, c: Color) -> Board:
    """b[v ↦ c]: the board that agrees with b except that point v has colour c."""
    return b[:v] + (c,) + b[v + 1 :]


def opponent(p: Player) -> Player:
    """p*: the other player."""
    return WHITE if p == BLACK else BLACK


class State(NamedTuple):
    """(b, p, n): the board, the player to move, the number of consecutive passes."""

    board: Board
    player: Player
    passes: int


def move(graph: Graph, s: State, v: Move) -> State | None:
    """move((b, p, n), v): the state after p plays v, or None (⊥) on an occupied point."""
    b, p, n = s
    if v == PASS:
        return State(b, opponent(p), n + 1)
    if b[v] == EMPTY:
        b_prime = clear(graph, clear(graph, update(b, v, p), opponent(p)), p)
        return State(b_prime, opponent(p), 0)
    return None


def clear(graph: Graph, b: Board, p: Player) -> Board:
    """clear(b, p): b with every stone of p that does not reach Empty made Empty."""
    return tuple(EMPTY if b[v] == p and not reaches(graph, b, v, EMPTY) else b[v] for v in graph.points)


@functools.lru_cache(maxsize=1 << 14)
def reaching(graph: Graph, b: Board, c: Color) -> frozenset:
    """The least set R with: v ∈ R if b(v) = c, or if some w with v ↔ w, b(w) ∈ {b(v), c}
    is in R.  Computed from R = ∅ by applying the equation until nothing changes."""
    R: frozenset = frozenset()
    while True:
        R_next = frozenset(
            v for v in graph.points if b[v] == c or any(b[w] in (b[v], c) and w in R for w in graph.neighbours[v])
        )
        if R_next == R:
            return R
        R = R_next


def reaches(graph: Graph, b: Board, v: int, c: Color) -> bool:
    """reaches(b, v, c): a path from v through points of v's colour ends at a point of colour c."""
    return v in reaching(graph, b, c)


def score(graph: Graph, b: Board, p: Player) -> int:
    """score(b, p): p's stones, plus the empty points that reach p but not p*."""
    return len(
        [
            v
            for v in graph.points
            if b[v] == p or (b[v] == EMPTY and reaches(graph, b, v, p) and not reaches(graph, b, v, opponent(p)))
        ]
    )


def initial_state(graph: Graph) -> State:
    """s₀ = (_ ↦ Empty, Black, 0): the empty board, Black to move, no passes."""
    return State(tuple(EMPTY for _ in graph.points), BLACK, 0)


def game(graph: Graph, moves: Sequence[Move], move=move) -> list[State] | None:
    """The states s₀ … s_N of the game v₀ … v_{N-1}, or None if the moves are not a game
    (each state the ``move`` of the one before: the spec's unless a literal reading is given)."""
    states = [initial_state(graph)]
    for i, v in enumerate(moves):
        if v != PASS and v not in graph.points:
            return None
        if states[i].passes >= 2:
            return None
        s_next = move(graph, states[i], v)
        if s_next is None:
            return None
        if v != PASS and any(s_next.board == states[j].board for j in range(i + 1)):
            return None
        states.append(s_next)
    if states[-1].passes != 2:
        return None
    return states


Outcome = Literal["B", "W", "draw"]
DRAW: Outcome = "draw"


def winner(graph: Graph, moves: Sequence[Move]) -> Outcome | None:
    """winner(g): the player with the higher score on the final board, or Draw; None if g ∉ G."""
    states = game(graph, moves)
    if states is None:
        return None
    S_black = score(graph, states[-1].board, BLACK)
    S_white = score(graph, states[-1].board, WHITE)
    if S_black > S_white:
        return BLACK
    if S_black < S_white:
        return WHITE
    return DRAW


KO_RULES = ("positional", "situational", "simple", "none")


SUICIDE_RULES = ("allowed", "forbidden")


SCORING_RULES = ("area", "stone")


@dataclass(frozen=True)
class Options(api.Options):
    """The options beyond the source: which repetitions a stone move may not make, whether it
    may remove its own stones, how a final board is scored, and White's komi.  The source's
    rules are ko=positional, suicide=allowed, scoring=area, komi=0; ``name`` labels a preset."""

    ko: str = field(default="positional", metadata={"choices": KO_RULES})
    suicide: str = field(default="allowed", metadata={"choices": SUICIDE_RULES})
    scoring: str = field(default="area", metadata={"choices": SCORING_RULES})
    komi: float = 0
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        """Reject option values that are not among the known ones."""
        for option, value, allowed in (
            ("ko", self.ko, KO_RULES),
            ("suicide", self.suicide, SUICIDE_RULES),
            ("scoring", self.scoring, SCORING_RULES),
        ):
            if value not in allowed:
                raise api.OptionError(f"unknown {option} rule {value!r}: expected one of {', '.join(allowed)}")
        if isinstance(self.komi, bool) or not isinstance(self.komi, (int, float)) or self.komi != self.komi:
            raise api.OptionError(f"komi must be a number, got {self.komi!r}")

    def with_komi(self, komi: float) -> Options:
        """The same options with another komi."""
        return replace(self, komi=komi, name=f"{self.name}+komi={komi}" if self.name else "")

    def describe(self) -> str:
        """A one-line statement of the options, e.g. ``ko=positional suicide=allowed ...``."""
        return f"ko={self.ko} suicide={self.suicide} scoring={self.scoring} komi={self.komi:g}"


PRESETS: dict[str, Options] = {
    # The source's rules: positional superko, suicide allowed, area scoring, no komi.
    "tromp-taylor": Options("positional", "allowed", "area", 0, name="tromp-taylor"),
    # GNU Go with --chinese-rules --allow-all-suicide --positional-superko --komi 0: the
    # closest GNU Go comes to tromp-taylor, but not the same rules: GNU Go does not apply
    # superko to suicides, so it accepts a suicide that brings back an earlier board.
    "gnugo-tromp-taylor": Options("positional", "allowed", "area", 0, name="gnugo-tromp-taylor"),
    # GNU Go with --chinese-rules and its defaults otherwise: simple ko, suicide forbidden.
    "gnugo-chinese": Options("simple", "forbidden", "area", 0, name="gnugo-chinese"),
    # OpenSpiel's go: simple ko, suicide forbidden, area (Tromp–Taylor) scoring, komi 7.5.
    "openspiel": Options("simple", "forbidden", "area", 7.5, name="openspiel"),
    # Stones only are scored, with positional superko and the two-pass end: Tromp–Taylor
    # play with stone scoring.  Not the game of 000_ca8046d90d75ceee.txt (no ko bids, no
    # history deletion, a finite game): that is the directed ruleset.
    "stone": Options("positional", "allowed", "stone", 0, name="stone"),
    # Superko variants of the source's rules.
    "situational": Options("situational", "allowed", "area", 0, name="situational"),
    "no-suicide": Options("positional", "forbidden", "area", 0, name="no-suicide"),
}


def repeated_state(options: Options, states: Sequence[State], after: State) -> int | None:
    """The j of the earlier state s_j that the ko rule forbids the stone move from the last of
    ``states`` (s₀ … s_i) to ``after`` to repeat, or None if it allows the move: positional,
    a j with b_j equal to its board; situational, with (b_j, p_j) equal to its board and player;
    simple, j = i - 1 if b_{i-1} is its board; none, never."""
    if options.ko == "positional":
        return next((j for j, s in enumerate(states) if s.board == after.board), None)
    if options.ko == "situational":
        return next((j for j, s in enumerate(states) if (s.board, s.player) == (after.board, after.player)), None)
    if options.ko == "simple" and len(states) >= 2 and after.board == states[-2].board:
        return len(states) - 2
    return None


def final_score(graph: Graph, options: Options, b: Board, p: Player) -> int:
    """p's score on a final board: ``score`` under area scoring, p's stones under stone scoring."""
    if options.scoring == "stone":
        return sum(1 for c in b if c == p)
    return score(graph, b, p)


class TrompTaylor(api.Ruleset[Options]):
    """The rules as a ruleset of the common interface, with the options above.  A state is the
    tuple of states s₀ … s_i played so far, the last one current: what the ko rules consult."""

    name = "tromp-taylor"
    source = "002_8835c2492dce8849.txt"
    value_kind = "margin"
    options_type = Options
    presets: ClassVar[dict[str, Options]] = PRESETS
    default_preset = "tromp-taylor"

    @property
    def history_rule(self) -> api.HistoryRule:
        """Positional or situational superko consult the history; simple ko only the last board."""
        ko = self.options.ko
        return "positional" if ko == "positional" else "situational" if ko == "situational" else "none"

    @property
    def finite(self) -> bool:
        """Under superko no board recurs with a stone move, so every game ends; not otherwise."""
        return self.options.ko in ("positional", "situational")

    def start(self, graph: Graph) -> tuple:
        """s₀ alone."""
        return (initial_state(graph),)

    def player(self, states: tuple) -> Player:
        """p_i."""
        return states[-1].player

    def board_of(self, graph: Graph, states: tuple) -> Board:
        """b_i."""
        return states[-1].board

    def is_over(self, graph: Graph, states: tuple) -> bool:
        """n_i = 2: two consecutive passes end the game."""
        return states[-1].passes >= 2

    def apply(self, graph: Graph, states: tuple, v: Move) -> tuple:
        """s_{i+1} = move(s_i, v) appended, if v is a pass or an empty point whose result the
        suicide and ko options allow; IllegalMove naming the reason otherwise."""
        s = states[-1]
        if v == PASS:
            return (*states, move(graph, s, v))
        if isinstance(v, bool) or v not in graph.points:
            raise api.IllegalMove(f"{v!r} is not a point of {graph.name}")
        after = move(graph, s, v)
        if after is None:
            colour = "black" if s.board[v] == BLACK else "white"
            raise api.IllegalMove(f"{point_name(graph, v)} is occupied by {colour}")
        if self.options.suicide == "forbidden" and after.board[v] == EMPTY:
            raise api.IllegalMove(f"{point_name(graph, v)} is suicide, which is forbidden")
        j = repeated_state(self.options, states, after)
        if j is not None:
            when = "the empty starting board" if j == 0 else f"the board after move {j}"
            rule = "simple ko" if self.options.ko == "simple" else f"{self.options.ko} superko"
            raise api.IllegalMove(f"{point_name(graph, v)} repeats {when} ({rule})")
        return (*states, after)

    def moves(self, graph: Graph, states: tuple) -> list:
        """The empty points the player may play, then pass."""
        legal: list = []
        for v in graph.points:
            if states[-1].board[v] == EMPTY:
                try:
                    self.apply(graph, states, v)
                except api.IllegalMove:
                    continue
                legal.append(v)
        return [*legal, PASS]

    def value(self, graph: Graph, states: tuple) -> float:
        """S_Black − S_White − komi on the final board."""
        b = states[-1].board
        margin = final_score(graph, self.options, b, BLACK) - final_score(graph, self.options, b, WHITE)
        return margin - self.options.komi

    def key(self, states: tuple) -> tuple:
        """s_i, with b_{i-1} under simple ko (the one earlier board that rule consults)."""
        if self.options.ko == "simple" and len(states) >= 2:
            return (states[-1], states[-2].board)
        return (states[-1],)

    def history(self, states: tuple) -> frozenset:
        """The boards b₀ … b_i (positional) or the pairs (b_j, p_j) (situational); empty otherwise."""
        if self.options.ko == "positional":
            return frozenset(s.board for s in states)
        if self.options.ko == "situational":
            return frozenset((s.board, s.player) for s in states)
        return frozenset()

    def details(self, graph: Graph, states: tuple) -> dict:
        """The consecutive passes, and both scores of the current board."""
        b = states[-1].board
        return {
            "passes": states[-1].passes,
            "scores": {p: final_score(graph, self.options, b, p) for p in (BLACK, WHITE)},
        }
