"""Stepping a list of moves through the Tromp–Taylor spec, with a reason for every refusal.

A move list is written ``"B C3, W D4, B pass"``: each move is an optional colour (``B`` or
``W``) and a point (its number, or on grids its GTP or SGF name) or ``pass``.  Colours must
alternate from Black, as the rules say.  ``replay`` plays the moves with ``spec.tromp_taylor``
(through the spec's ruleset of the common interface, with the source's options unless others are
given) and stops at the first move the rules refuse, naming the move's number and the reason:
an unknown point, the wrong colour, an occupied point, a board that repeats an earlier one
(positional superko, rule 3.2 of the source), or a move after the game ended.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gorules.errors import UsageError
from gorules.spec import tromp_taylor as tt
from gorules.spec.api import IllegalMove, Ruleset
from gorules.spec.graph import Graph, GraphError, parse_point
from gorules.spec.text import board_diagram, colour_lists, move_name

SOURCE_RULES = tt.TrompTaylor()
"""The spec's Tromp–Taylor ruleset with the source's options, which ``replay`` uses by default."""

COLOUR_WORDS = {"b": tt.BLACK, "black": tt.BLACK, "w": tt.WHITE, "white": tt.WHITE}
PLAYER_NAMES: dict[str, str] = {tt.BLACK: "black", tt.WHITE: "white"}


@dataclass(frozen=True)
class WrittenMove:
    """One move as the user wrote it: its number (from 1), its colour if given, its point."""

    number: int
    colour: str | None
    point: tt.Move
    text: str


def parse_move(graph: Graph, number: int, text: str) -> WrittenMove:
    """The move that ``text`` (e.g. ``"B C3"``, ``"w pass"``, ``"7"``) denotes on ``graph``."""
    words = text.split()
    if not words or len(words) > 2:
        raise UsageError(f"move {number}: {text.strip()!r} is not a move like 'B C3' or 'W pass'")
    colour = None
    if len(words) == 2:
        if words[0].lower() not in COLOUR_WORDS:
            raise UsageError(f"move {number}: {words[0]!r} is not a colour (B or W)")
        colour = COLOUR_WORDS[words[0].lower()]
    where = words[-1]
    if where.lower() == "pass":
        return WrittenMove(number, colour, tt.PASS, text.strip())
    try:
        point = parse_point(graph, where)
    except GraphError as error:
        raise UsageError(f"move {number}: {error}") from None
    return WrittenMove(number, colour, point, text.strip())


def parse_moves(graph: Graph, text: str) -> list[WrittenMove]:
    """The moves of a list written ``"B C3, W D4, B pass"`` (commas, semicolons or new lines)."""
    items = [item for item in re.split(r"[,;\n]", text) if item.strip()]
    return [parse_move(graph, i + 1, item) for i, item in enumerate(items)]


@dataclass
class Replay:
    """A game replayed: the moves, and the state after each (``states[0]`` is s₀)."""

    graph: Graph
    moves: list[WrittenMove] = field(default_factory=list)
    states: list[tt.State] = field(default_factory=list)
    ruleset: Ruleset = SOURCE_RULES

    @property
    def final(self) -> tt.State:
        """The state after the last move."""
        return self.states[-1]

    @property
    def over(self) -> bool:
        """Whether the game has ended: two consecutive passes."""
        return self.final.passes >= 2

    def scores(self) -> dict[str, int]:
        """Each player's score on the current board (area scoring unless the options say stones)."""
        options = self.ruleset.options
        return {PLAYER_NAMES[p]: tt.final_score(self.graph, options, self.final.board, p) for p in (tt.BLACK, tt.WHITE)}

    def winner(self) -> str | None:
        """ "black", "white" or "draw" once the game is over (komi counted); None while it goes on."""
        if not self.over:
            return None
        margin = self.ruleset.value(self.graph, tuple(self.states))
        return "black" if margin > 0 else "white" if margin < 0 else "draw"


def refusal(graph: Graph, history: list[tt.State], written: WrittenMove, ruleset: Ruleset = SOURCE_RULES) -> str | None:
    """Why the rules refuse this move after these states, or None if they allow it: the game
    is over, it is not this colour's turn, or the ruleset's ``apply`` refuses it (an occupied
    point, a repetition its ko rule forbids, a forbidden suicide)."""
    s = history[-1]
    if s.passes >= 2:
        return f"the game ended with two passes at move {len(history) - 1}"
    if written.colour is not None and written.colour != s.player:
        return f"{PLAYER_NAMES[s.player]} is to play, not {PLAYER_NAMES[written.colour]}"
    try:
        ruleset.apply(graph, tuple(history), written.point)
    except IllegalMove as error:
        return str(error)
    return None


def replay(graph: Graph, moves: list[WrittenMove], ruleset: Ruleset = SOURCE_RULES) -> Replay:
    """Play the moves from s₀ under the spec's Tromp–Taylor ruleset (the source's rules unless
    other options are given); the first refused move raises UsageError naming it and why."""
    game = Replay(graph, [], [tt.initial_state(graph)], ruleset)
    for written in moves:
        reason = refusal(graph, game.states, written, ruleset)
        if reason is not None:
            raise UsageError(f"move {written.number} ({written.text}): {reason}")
        game.states = list(ruleset.apply(graph, tuple(game.states), written.point))
        game.moves.append(written)
    return game


def board_string(board) -> str:
    """A board as one character per point, in point order: B, W or '.'."""
    return "".join(board)


def board_lines(graph: Graph, board) -> str:
    """A board for people: a grid diagram (X black, O white) or the points of each colour."""
    return board_diagram(graph, board) if graph.is_grid else colour_lists(graph, board)


def move_label(graph: Graph, number: int, player: str, v: tt.Move) -> str:
    """'move 3: B C3' (or 'B pass')."""
    return f"move {number}: {player} {move_name(graph, v)}"


def report(game: Replay) -> str:
    """Every board of the game in turn, then the scores and the winner."""
    graph = game.graph
    parts = ["start: empty board, black to play", board_lines(graph, game.states[0].board)]
    for i, written in enumerate(game.moves):
        parts += ["", move_label(graph, i + 1, game.states[i].player, written.point)]
        parts.append(board_lines(graph, game.states[i + 1].board))
    scores = game.scores()
    parts += ["", f"scores: black {scores['black']}, white {scores['white']}"]
    if game.over:
        parts.append(f"winner: {game.winner()}")
    else:
        parts.append(f"winner: none yet, the game is not over ({PLAYER_NAMES[game.final.player]} to play)")
    return "\n".join(parts)


def summary(game: Replay) -> dict:
    """The JSON summary: final board, scores, winner (None while not over), number of moves."""
    return {
        "board": board_string(game.final.board),
        "scores": game.scores(),
        "winner": game.winner(),
        "moves": len(game.moves),
    }
