"""GTP and game records for any ruleset, through the common ruleset interface.

A ruleset without a ``gtp`` or ``sgf`` capability of its own is still served and replayed
here when its moves are the points and pass of a two-player game: each GTP or record move
becomes the ruleset's move that ``parse_move`` reads from the point's number (or ``pass``),
and is played by :meth:`gorules.spec.api.Situation.play`, whose refusal is the reason.

- :class:`InterfaceEndpoint` is the engine's GTP endpoint with a game of situations in place
  of the engine's game: the same commands and answers; ``komi`` sets the ruleset's komi
  option (a failure where it has none), ``final_score`` is the finished game's value (a
  margin as ``B+3``, an outcome as ``B+``, ``W+`` or ``0``; a failure before the end).
- :func:`replay_record` plays a record's moves from the ruleset's start and reports where
  it stops and why, in the form of ``gorules replay-sgf``'s reports (no other opinions).
"""

from __future__ import annotations

from typing import Any

from gorules.impl.engine.rules import IllegalMove as EngineIllegalMove
from gorules.impl.formats.gtp_server import GtpEndpoint, GtpFailure, komi_value
from gorules.spec.api import IllegalMove, OptionError, Ruleset, Situation
from gorules.spec.graph import Graph, GraphError, point_name

PASS = "pass"


def point_moves(ruleset: Ruleset, graph: Graph) -> dict[Any, Any]:
    """The ruleset's move for each point of the graph (by number) and for ``pass``, mapped
    to the point (or "pass"); a word ``parse_move`` refuses is left out."""
    moves: dict[Any, Any] = {}
    for v in [*graph.points, PASS]:
        try:
            moves[ruleset.parse_move(graph, str(v))] = v
        except (ValueError, GraphError):
            continue
    return moves


def unplayable(ruleset: Ruleset, graph: Graph) -> str | None:
    """Why the ruleset's games on ``graph`` cannot be played as points and passes between
    Black and White, or None when they can: other players, or other moves at the start."""
    if ruleset.players != ("B", "W"):
        return f"its players are not Black and White ({', '.join(ruleset.players or ('named by the options',))})"
    known = point_moves(ruleset, graph)
    others = [ruleset.move_text(graph, m) for m in ruleset.initial(graph).legal_moves() if m not in known]
    if others:
        return f"its moves are not only points and pass ({', '.join(others)})"
    return None


class SituationGame:
    """A game of a ruleset as the GTP endpoint plays it: points and "pass" in, the
    situations after each move kept for ``undo``."""

    def __init__(self, ruleset: Ruleset, graph: Graph):
        """The game from the ruleset's start on ``graph``."""
        self.ruleset = ruleset
        self.graph = graph
        self.known = point_moves(ruleset, graph)
        self.move_of = {v: m for m, v in self.known.items()}
        self.situations: list[Situation] = [ruleset.initial(graph)]
        self.moves: list[Any] = []

    @property
    def current(self) -> Situation:
        """The situation now."""
        return self.situations[-1]

    @property
    def to_move(self) -> str | None:
        """The player to move ("B" or "W"; None once the game is over)."""
        return self.current.to_move

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.current.over

    @property
    def board(self) -> tuple:
        """The colour of each point."""
        return self.current.board

    def play(self, v) -> None:
        """Play a point or "pass"; the engine's IllegalMove with the ruleset's reason."""
        if v not in self.move_of:
            raise EngineIllegalMove(f"{v}: the {self.ruleset.name} ruleset has no such move")
        try:
            after = self.current.play(self.move_of[v])
        except IllegalMove as error:
            raise EngineIllegalMove(f"{v}: {error}") from None
        self.situations.append(after)
        self.moves.append(v)

    def pass_(self) -> None:
        """Pass."""
        self.play(PASS)

    def undo(self) -> None:
        """Take back the last move."""
        self.situations.pop()
        self.moves.pop()

    def legal_moves(self) -> list:
        """The legal moves as points and "pass" (a move of another kind is left out)."""
        return [self.known[m] for m in self.current.legal_moves() if m in self.known]


class InterfaceEndpoint(GtpEndpoint):
    """The GTP endpoint over a ruleset's situations (see the module docstring)."""

    game: SituationGame  # type: ignore[assignment]  # plays as the engine's Game does, on situations

    def __init__(self, ruleset: Ruleset, graph: Graph, seed: int | None = None):
        """A session on ``graph`` under ``ruleset``; genmove's generator seeded with ``seed``."""
        super().__init__(graph, seed=seed)
        self.ruleset = ruleset
        self.game = SituationGame(ruleset, graph)

    def snapshot(self) -> tuple:
        """The graph, the ruleset, the moves and the engine moves of each GTP move."""
        return self.graph, self.ruleset, tuple(self.game.moves), tuple(self.steps)

    def restore(self, saved: tuple) -> None:
        """Put the session back as :meth:`snapshot` saw it, replaying the moves."""
        self.graph, self.ruleset, moves, steps = saved
        self.game = self.replayed(moves)
        self.steps = list(steps)

    def replayed(self, moves) -> SituationGame:
        """A new game of the current ruleset with these moves played."""
        game = SituationGame(self.ruleset, self.graph)
        for v in moves:
            game.play(v)
        return game

    def clear_board(self, args: list[str]) -> str:
        """Start a new game from the ruleset's start."""
        self.game = SituationGame(self.ruleset, self.graph)
        self.steps = []
        return ""

    def komi(self, args: list[str]) -> str:
        """Set the ruleset's komi option and replay the game under it."""
        value = komi_value(args)
        try:
            options = self.ruleset.options.replace(komi=int(value) if value.is_integer() else value)
            ruleset = type(self.ruleset)(options)
        except (OptionError, TypeError, ValueError) as error:
            raise GtpFailure(f"komi cannot be set: {error}") from None
        saved = self.ruleset
        self.ruleset = ruleset
        try:
            self.game = self.replayed(self.game.moves)
        except EngineIllegalMove:
            self.ruleset = saved
            raise GtpFailure("komi cannot be set: the game so far is not legal under it") from None
        return ""

    def final_score(self, args: list[str]) -> str:
        """The finished game's value: B+x, W+x or 0 for a margin, B+, W+ or 0 for an outcome."""
        if not self.game.over:
            raise GtpFailure(f"the game is not over: the {self.ruleset.name} ruleset scores finished games")
        value = self.game.current.result()
        if value in ("B", "W"):
            return f"{value}+"
        if value == "draw":
            return "0"
        if value > 0:
            return f"B+{value:g}"
        if value < 0:
            return f"W+{-value:g}"
        return "0"


def endpoint(ruleset: Ruleset, graph: Graph, seed: int | None = None) -> InterfaceEndpoint:
    """The interface's GTP endpoint for a ruleset whose games are points and passes between
    Black and White; OptionError saying why not otherwise."""
    problem = unplayable(ruleset, graph)
    if problem is not None:
        raise OptionError(problem)
    return InterfaceEndpoint(ruleset, graph, seed)


def replay_record(ruleset: Ruleset, record) -> dict[str, Any]:
    """A record's moves played from the ruleset's start through the interface: the report of
    ``gorules replay-sgf`` (record, board, moves, how many replayed, where it stops and why),
    with the result once the game is over and no other opinions."""
    graph = record.graph
    known = {v: m for m, v in point_moves(ruleset, graph).items()}
    situation = ruleset.initial(graph)
    problem = None
    if any(colour != "." for colour in record.setup):
        problem = f"move 1: the record sets up stones, which the {ruleset.name} ruleset does not start from"
    played = 0
    for number, (player, v) in enumerate(record.moves, start=1):
        if problem is not None:
            break
        after = step(situation, known, number, player, v)
        if isinstance(after, str):
            problem = after
        else:
            situation, played = after, played + 1
    return {
        "record": record.source,
        "board": graph.name,
        "moves": len(record.moves),
        "replayed": played,
        "unclean": problem,
        "repetitions": [],
        "suicides": [],
        "opinions": {},
        "ruleset": ruleset.describe(),
        "result": situation.result(),
    }


def step(situation: Situation, known: dict, number: int, player: str, v) -> Situation | str:
    """The situation after move ``number`` of a record (``player`` plays ``v``), or why it
    cannot be played there."""
    graph = situation.graph
    name = v if v == PASS else point_name(graph, v)
    if situation.over:
        return f"move {number}: {player} {name} comes after the end of the game"
    if player != situation.to_move:
        return f"move {number}: {situation.to_move} is to play, not {player}"
    if v not in known:
        return f"move {number}: the {situation.ruleset.name} ruleset has no move {name}"
    try:
        return situation.play(known[v])
    except IllegalMove as error:
        return f"move {number}: {player} {name} is illegal: {error}"
