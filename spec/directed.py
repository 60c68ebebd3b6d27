"""Go on arbitrary directed graphs (source ``000_ca8046d90d75ceee.txt``), executable where it can be.

Each definition below mirrors one heading of ``spec/directed.md`` (same name, same
order).  The source defines an *infinite* game: stone scoring of the points that are
"eventually always" occupied, divide-and-choose komi, a history of boards that either
player may delete, ko bids, and an "unsustainability" order that decides plays in which
unsustainable actions happen infinitely often.  What runs here: the situation (board,
turn, scores, history), the komi choice, one turn with its optional history deletion and
ko bid, the capture order, and the result of every *eventually periodic* infinite play,
given as a finite prefix and a cycle repeated forever (a lasso).  Strategies and the
conjectures quantify over all infinite plays; in the fragment without ko bids and
history deletion they are decided exactly on a finite arena by
``gorules.impl.rulesets.directed.arena`` and ``gorules conjectures 000`` (see spec/directed.md),
and in the whole game, whose bid amounts come from a menu named by a reading, on the finite
arena of ``gorules.impl.rulesets.directed.full_arena`` by ``gorules conjectures 000 --full``
(see docs/directed.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal, NamedTuple

from gorules.spec import api
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import (
    BLACK,
    DRAW,
    EMPTY,
    PASS,
    WHITE,
    Board,
    Move,
    Outcome,
    Player,
    clear,
    opponent,
    update,
)


class State(NamedTuple):
    """Everything the rules look at between turns: board, player to move, both scores, history."""

    board: Board
    player: Player
    black_score: Fraction
    white_score: Fraction
    history: frozenset


# score_of and add_score have the shape of spec/ultimate.py's prisoners and add_prisoners on
# purpose: each spec states its own source's definitions one by one.
def score_of(s: State, p: Player) -> Fraction:
    """The score of player p in situation s."""
    return s.black_score if p == BLACK else s.white_score


def add_score(s: State, p: Player, amount: Fraction) -> State:
    """s with `amount` added to p's score."""
    if p == BLACK:
        return s._replace(black_score=s.black_score + amount)
    return s._replace(white_score=s.white_score + amount)


Seat = Literal["first", "second"]


def colours(second_chooses: Player) -> dict:
    """The colour of each seat once the second player has chosen a colour."""
    return {"second": second_chooses, "first": opponent(second_chooses)}


def starting_situation(graph: Graph, komi: Fraction, board: Board | None = None) -> State:
    """The situation before the first turn: the starting board (empty unless given),
    Black to move, White's score Komi, Black's 0, an empty history."""
    if board is None:
        board = tuple(EMPTY for _ in graph.points)
    return State(board, BLACK, Fraction(0), Fraction(komi), frozenset())


def before_turn(s: State, delete_history: bool) -> State:
    """The current board joins the history; then, if a player so chooses, the whole history is deleted."""
    history = s.history | {s.board}
    if delete_history:
        history = frozenset()
    return s._replace(history=history)


def liberties(graph: Graph, b: Board, v: int) -> frozenset:
    """The empty points reachable from the stone at v along arcs by a path whose internal
    points are stones of v's colour."""
    inside = {v}
    frontier = [v]
    while frontier:
        u = frontier.pop()
        for w in graph.neighbours[u]:
            if b[w] == b[v] and w not in inside:
                inside.add(w)
                frontier.append(w)
    return frozenset(w for u in inside for w in graph.neighbours[u] if b[w] == EMPTY)


def place(graph: Graph, b: Board, v: int, p: Player) -> Board:
    """p's stone on v; then the opponent's stones without liberties go, then p's own."""
    return clear(graph, clear(graph, update(b, v, p), opponent(p)), p)


def play(graph: Graph, s: State, v: Move) -> State | None:
    """The player to move places a stone on v or passes; None (⊥) on an unknown or occupied point."""
    if v == PASS:
        return s._replace(player=opponent(s.player))
    if v not in graph.points or s.board[v] != EMPTY:
        return None
    return s._replace(board=place(graph, s.board, v, s.player), player=opponent(s.player))


class KoBid(NamedTuple):
    """A bid of `amount`, and the answer: `winner` None if the opponent ignores it, else the
    ko winner, who resets the board to `reset_to` (a board of the history) or keeps it (None)."""

    amount: Fraction
    winner: Player | None = None
    reset_to: Board | None = None


def ko_bid(s: State, bidder: Player, bid: KoBid) -> State | None:
    """The situation after `bidder`'s ko bid is answered; None if the bid is negative or the
    reset is not to a board of the history."""
    if bid.amount < 0:
        return None
    if bid.winner is None:
        return s
    if bid.reset_to is not None and bid.reset_to not in s.history:
        return None
    board = s.board if bid.reset_to is None else bid.reset_to
    after = add_score(s, opponent(bid.winner), Fraction(bid.amount))
    return after._replace(board=board, player=bid.winner)


class Turn(NamedTuple):
    """One turn: who (if anyone) deletes the history first, the move, and the ko bid after it."""

    move: Move
    deleted_by: Player | None = None
    bid: KoBid | None = None


def turn(graph: Graph, s: State, t: Turn) -> State | None:
    """The situation after turn t, or None if t is not a legal turn (a bid needs a placed stone)."""
    if t.bid is not None and t.move == PASS:
        return None
    after = play(graph, before_turn(s, t.deleted_by is not None), t.move)
    if after is None or t.bid is None:
        return after
    return ko_bid(after, s.player, t.bid)


UNSUSTAINABLE = ("make a ko bid", "choose yourself as ko winner", "ignore a ko bid", "delete the history")


def unsustainable_actions(s: State, t: Turn) -> list:
    """The (player, rank) of each unsustainable action in turn t from s; rank 1 is the least
    unsustainable (a ko bid), 4 the most (deleting the history)."""
    actions = []
    if t.deleted_by is not None:
        actions.append((t.deleted_by, 4))
    if t.bid is not None:
        bidder, answerer = s.player, opponent(s.player)
        actions.append((bidder, 1))
        if t.bid.winner is None:
            actions.append((answerer, 3))
        elif t.bid.winner == answerer:
            actions.append((answerer, 2))
    return actions


# The fold of spec/ultimate.py's game, repeated on purpose: each spec states its own source.
def plays(graph: Graph, s: State, turns: Sequence[Turn]) -> list | None:
    """The situations s, s₁, …, s_N of a finite sequence of turns, or None if one is illegal."""
    situations = [s]
    for t in turns:
        after = turn(graph, situations[-1], t)
        if after is None:
            return None
        situations.append(after)
    return situations


def without_scores(s: State) -> tuple:
    """What decides which turns are legal next: the situation less the scores."""
    return (s.board, s.player, s.history)


def unsustainability(cycle_situations: list, cycle: Sequence[Turn], p: Player) -> int:
    """The rank of the most unsustainable action p takes infinitely often (0 if none): in a
    lasso, the actions taken infinitely often are exactly those of the cycle."""
    ranks = [r for s, t in zip(cycle_situations, cycle) for q, r in unsustainable_actions(s, t) if q == p]
    return max(ranks, default=0)


def live_stones(cycle_situations: list, p: Player) -> int:
    """The points that eventually always hold a stone of p: those that hold one on every
    board of the repeated cycle."""
    boards = [s.board for s in cycle_situations]
    return sum(1 for v in range(len(boards[0])) if all(b[v] == p for b in boards))


def final_score(cycle_situations: list, p: Player) -> Fraction:
    """p's eventual score plus p's live stones."""
    return score_of(cycle_situations[-1], p) + live_stones(cycle_situations, p)


def outcome(graph: Graph, s: State, prefix: Sequence[Turn], cycle: Sequence[Turn]) -> Outcome | None:
    """The result of the infinite play prefix, cycle, cycle, …; None if that is not a play
    (an illegal turn or an empty cycle) or if the cycle is not seen to repeat forever: the
    situation less scores must be the same after the second and the third cycle."""
    if not cycle:
        return None
    situations = plays(graph, s, list(prefix) + 3 * list(cycle))
    if situations is None:
        return None
    twice, thrice = len(prefix) + 2 * len(cycle), len(prefix) + 3 * len(cycle)
    if without_scores(situations[twice]) != without_scores(situations[thrice]):
        return None
    repeated = situations[twice : thrice + 1]
    u_black = unsustainability(repeated, cycle, BLACK)
    u_white = unsustainability(repeated, cycle, WHITE)
    if u_black or u_white:
        if u_black == u_white:
            return DRAW
        return BLACK if u_black < u_white else WHITE
    black, white = final_score(repeated, BLACK), final_score(repeated, WHITE)
    if black == white:
        return DRAW
    return BLACK if black > white else WHITE


@dataclass(frozen=True)
class Options(api.Options):
    """The options of the directed ruleset: ``komi``, White's score when the game starts (the
    first player's choice under divide-and-choose, here given), and ``board``, the starting
    state (one of B, W, . per point; empty if not given)."""

    komi: Fraction = Fraction(0)
    board: str = ""

    def __post_init__(self) -> None:
        """A komi is a rational number; a board holds only B, W and '.'."""
        if isinstance(self.komi, bool) or not isinstance(self.komi, (int, Fraction)):
            raise api.OptionError(f"komi must be a rational number, got {self.komi!r}")
        if not isinstance(self.board, str) or any(c not in (BLACK, WHITE, EMPTY) for c in self.board):
            raise api.OptionError(f"a board is one of B, W and '.' per point, got {self.board!r}")


def parse_player(text: str, what: str) -> Player:
    """B or W; IllegalMove otherwise."""
    if text not in (BLACK, WHITE):
        raise api.IllegalMove(f"{what} is B or W, got {text!r}")
    return text


def parse_bid(text: str) -> Fraction:
    """A ko bid's amount: a nonnegative rational number (3, 1/2, 0.25); IllegalMove otherwise."""
    try:
        amount = Fraction(text)
    except (ValueError, ZeroDivisionError):
        amount = None
    if amount is None or amount < 0:
        raise api.IllegalMove(f"a ko bid is a nonnegative rational number, got {text!r}")
    return amount


TURN_PARTS = ("delete", "bid", "winner", "reset")


# The class attributes and field readers have the shape of every spec's ruleset, on purpose:
# they are the common interface's declarations.
class Directed(api.Ruleset):
    """Go on directed graphs as a ruleset of the common interface.  Its moves are the plain
    turns (a placement or a pass); ``apply`` also plays a full Turn, with history deletion
    and a ko bid.  The game is infinite: it is never over, and what a play is worth depends
    on what recurs forever, so the situation reports the result if both players pass from
    now on."""

    name = "directed"
    source = "000_ca8046d90d75ceee.txt"
    value_kind = "outcome"
    options_type = Options
    presets: ClassVar[dict[str, api.Options]] = {"directed": Options()}
    default_preset = "directed"

    @property
    def finite(self) -> bool:
        """Plays are infinite sequences of turns."""
        return False

    def start(self, graph: Graph) -> State:
        """The starting board (empty unless the option ``board`` gives one), Black to move,
        White's score Komi, an empty history; OptionError for a board of another size."""
        text = self.options.board
        if text and len(text) != graph.order:
            raise api.OptionError(f"{text!r} is not a board of {graph.name}: it needs {graph.order} points")
        board = tuple(text) if text else None
        return starting_situation(graph, Fraction(self.options.komi), board)

    def player(self, s: State) -> Player:
        """The player to move."""
        return s.player

    def board_of(self, graph: Graph, s: State) -> Board:
        """The board."""
        return s.board

    def moves(self, graph: Graph, s: State) -> list:
        """The empty points, then pass."""
        return [*(v for v in graph.points if s.board[v] == EMPTY), PASS]

    def apply(self, graph: Graph, s: State, v) -> State:
        """The situation after the turn v (a Turn, or a point or pass as a plain turn);
        IllegalMove on an occupied point, a bid after a pass, or a reset to a board that is
        not in the history."""
        after = turn(graph, s, v if isinstance(v, Turn) else Turn(v))
        if after is None:
            raise api.IllegalMove(
                "the point is occupied, or a bid follows a pass, or the reset board is not in the history"
            )
        return after

    def parse_move(self, graph: Graph, text: str):
        """A turn: a point or pass, then optionally ``:delete=P`` (P deletes the history before
        the turn), ``:bid=Q`` (a ko bid of Q after the stone), answered by ``:winner=P`` (absent:
        ignored) and ``:reset=BOARD`` (absent: the board is kept).  A point or pass alone is a
        plain turn."""
        first, *rest = text.strip().split(":")
        move = super().parse_move(graph, first)
        if not rest:
            return move
        parts: dict = {}
        for part in rest:
            key, sep, value = part.partition("=")
            if not sep or key not in TURN_PARTS or key in parts:
                raise api.IllegalMove(
                    f"{part!r} in {text!r}: a turn's parts are delete=P, bid=Q, winner=P, reset=BOARD"
                )
            parts[key] = value
        deleted_by = parse_player(parts["delete"], "who deletes the history") if "delete" in parts else None
        if "bid" not in parts:
            if "winner" in parts or "reset" in parts:
                raise api.IllegalMove(f"{text!r}: winner and reset answer a ko bid, and there is none")
            return Turn(move, deleted_by)
        winner = parse_player(parts["winner"], "the ko winner") if "winner" in parts else None
        reset = parts.get("reset")
        if reset is not None and (winner is None or len(reset) != graph.order or any(c not in "BW." for c in reset)):
            raise api.IllegalMove(f"{reset!r}: a reset needs a ko winner and a board of {graph.name}")
        bid = KoBid(parse_bid(parts["bid"]), winner, tuple(reset) if reset is not None else None)
        return Turn(move, deleted_by, bid)

    def move_text(self, graph: Graph, move) -> str:
        """A turn written as parse_move reads it."""
        if not isinstance(move, Turn):
            return super().move_text(graph, move)
        text = super().move_text(graph, move.move)
        if move.deleted_by is not None:
            text += f":delete={move.deleted_by}"
        if move.bid is not None:
            text += f":bid={move.bid.amount}"
            if move.bid.winner is not None:
                text += f":winner={move.bid.winner}"
            if move.bid.reset_to is not None:
                text += ":reset=" + "".join(move.bid.reset_to)
        return text

    def is_over(self, graph: Graph, s: State) -> bool:
        """Never: the game is infinite."""
        return False

    def value(self, graph: Graph, s: State) -> Outcome | None:
        """No finite play is finished."""
        return None

    def key(self, s: State) -> tuple:
        """The board, the player to move and the scores: the history matters only to ko bids."""
        return (s.board, s.player, s.black_score, s.white_score)

    def details(self, graph: Graph, s: State) -> dict:
        """Both scores, and the result of the play in which both players pass from now on."""
        forever = outcome(graph, s, [], [Turn(PASS), Turn(PASS)])
        return {
            "scores": {BLACK: str(s.black_score), WHITE: str(s.white_score)},
            "history": sorted("".join(b) for b in s.history),
            "result_if_both_pass_forever": forever,
        }
