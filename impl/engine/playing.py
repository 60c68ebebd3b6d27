"""A game in progress on the bitset kernel: history, ko rules, undo, random playouts.

:class:`Game` keeps the history, so that it can enforce the ko rule of a
:class:`gorules.spec.tromp_taylor.Options` (positional superko by default), and undo moves.  What it
shares with :class:`impl.engine.compiled.CompiledGame` (the same stepping API over numba arrays)
is in :class:`Position`.  :func:`random_playout` plays uniform random games in pure Python.
"""

from __future__ import annotations

import random as _random
from typing import NamedTuple

from gorules.impl.engine.bitset import (
    EngineError,
    Kernel,
    as_point,
    check_player,
    check_point,
    kernel,
    popcount,
    require_well_formed,
    to_bits,
    to_board,
)
from gorules.impl.engine.options import Options, options_of
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, DRAW, PASS, WHITE, Board, Move, Player, State


class IllegalMove(EngineError):
    """A move that the rules forbid; the message names the reason."""


class Score(NamedTuple):
    """The two scores of a board under a ruleset, and the komi given to White."""

    black: int
    white: int
    komi: float = 0

    @property
    def margin(self) -> float:
        """Black's score minus White's score and komi."""
        return self.black - self.white - self.komi


def outcome(margin: float) -> str:
    """ "B", "W" or "draw": the sign of Black's margin over White."""
    return BLACK if margin > 0 else WHITE if margin < 0 else DRAW


def scores(options: Options, k, black: int, white: int) -> Score:
    """The scores of a position under the options' scoring (area or stones), with komi."""
    if options.scoring == "stone":
        return Score(popcount(black), popcount(white), options.komi)
    black_area, white_area = k.area(black, white)
    return Score(black_area, white_area, options.komi)


class Position:
    """What :class:`Game` and :class:`impl.engine.compiled.CompiledGame` share: the views of the
    current position derived from ``bits``, ``board``, ``_side``, ``passes``, ``options``,
    ``kernel`` and ``moves``."""

    graph: Graph
    options: Options
    kernel: Kernel
    moves: list[Move]
    passes: int
    _side: int

    @property
    def board(self) -> Board:
        """The current board (each subclass reads it from its own representation)."""
        raise NotImplementedError

    @property
    def bits(self) -> tuple[int, int]:
        """The current board as (black, white) bitsets."""
        raise NotImplementedError

    @property
    def to_move(self) -> Player:
        """The player to move: "B" or "W"."""
        return WHITE if self._side else BLACK

    @property
    def over(self) -> bool:
        """Whether two consecutive passes have ended the game."""
        return self.passes >= 2

    def state(self) -> State:
        """The current state (b, p, n) in the spec's terms."""
        return State(self.board, self.to_move, self.passes)

    def score(self) -> Score:
        """The scores of the current board under the ruleset (area or stones), with komi."""
        return scores(self.options, self.kernel, *self.bits)

    def winner(self) -> str:
        """ "B", "W" or "draw" by the current scores and komi (the result once the game is over)."""
        return outcome(self.score().margin)

    def __len__(self) -> int:
        """The number of moves played."""
        return len(self.moves)

    def _begin(self, graph: Graph, options: str | Options | None, board: Board | None, to_move: str) -> tuple:
        """Set ``graph``, ``options`` (given as Options or a preset's name) and ``kernel``; return
        (Black's points, White's points, side to move) of the start: the empty board, or the
        given board, which must be well-formed."""
        self.graph = graph
        self.options = options_of(options)
        self.kernel = kernel(graph)
        black = white = 0
        if board is not None:
            black, white = to_bits(graph, board)
            require_well_formed(graph, black, white)
        return black, white, check_player(to_move)


class Game(Position):
    """A game in progress on a graph under a ruleset, with its history.

    ``play(v)`` raises :class:`IllegalMove` naming the reason; ``try_play(v)`` returns
    whether it played.  Two consecutive passes end the game.
    """

    def __init__(
        self,
        graph: Graph,
        options: str | Options | None = "tromp-taylor",
        board: Board | None = None,
        to_move: str = BLACK,
    ):
        """A new game under ``options`` (or the preset of that name): the empty board with Black
        to move, or the given well-formed board."""
        self._black, self._white, self._side = self._begin(graph, options, board, to_move)
        self.passes = 0
        self.moves: list[Move] = []
        self._undo: list[tuple] = []
        self._ko = self.options.ko
        self._suicide_allowed = self.options.suicide == "allowed"
        self._superko = self._ko in ("positional", "situational")  # whether positions are counted
        self._shift = graph.order
        self._play = self.kernel.play  # looked up once: it runs for every move tried
        self._seen: dict[int, int] = {self._key(): 1}  # how often each position key occurred

    # ---- keys of positions, for the ko rules

    def _key(self) -> int:
        """The key of the current position: the board (and, for situational superko, the player)."""
        key = self._black | (self._white << self._shift)
        if self._ko == "situational":
            key = (key << 1) | self._side
        return key

    def _forget(self, key: int) -> None:
        """Count one occurrence of a position key less."""
        count = self._seen[key] - 1
        if count:
            self._seen[key] = count
        else:
            del self._seen[key]

    # ---- reading the state

    @property
    def board(self) -> Board:
        """The current board, as a tuple of colours."""
        return to_board(self.graph, self._black, self._white)

    @property
    def bits(self) -> tuple[int, int]:
        """(Black's points, White's points) of the current board."""
        return self._black, self._white

    # ---- moves

    def _after(self, v: int) -> str | tuple[int, int]:
        """The (Black, White) bitsets after the player to move plays v, or the reason it is illegal."""
        if self.passes >= 2:
            return "the game is over"
        point = 1 << v
        if (self._black | self._white) & point:
            return "the point is occupied"
        black, white = self._play(self._black, self._white, v, self._side)
        if not (black | white) & point and not self._suicide_allowed:
            return "suicide is forbidden"
        ko = self._ko
        if ko == "positional":
            if (black | (white << self._shift)) in self._seen:
                return "positional superko: the board repeats an earlier board"
        elif ko == "situational":
            if (((black | (white << self._shift)) << 1) | (1 - self._side)) in self._seen:
                return "situational superko: the position repeats with the same player to move"
        elif ko == "simple" and len(self._undo) >= 1:
            before_black, before_white = self._undo[-1][0], self._undo[-1][1]
            if black == before_black and white == before_white:
                return "ko: the board repeats the board before the opponent's move"
        return black, white

    def _push(self, move_: Move, black: int, white: int, passes: int) -> None:
        """Make the position after ``move_`` current, keeping the old one for undo."""
        self._undo.append((self._black, self._white, self._side, self.passes))
        self.moves.append(move_)
        self._black, self._white = black, white
        self._side ^= 1
        self.passes = passes
        if self._superko:
            key = self._key()
            self._seen[key] = self._seen.get(key, 0) + 1

    def try_play(self, v: Move) -> bool:
        """Play v (a point or "pass") if the rules allow it; return whether it was played."""
        if v == PASS:
            if self.passes >= 2:
                return False
            self._push(PASS, self._black, self._white, self.passes + 1)
            return True
        if type(v) is not int or not 0 <= v < self._shift:
            point = as_point(self.graph, v)
            if point is None:
                return False
            v = point
        after = self._after(v)
        if isinstance(after, str):
            return False
        self._push(v, after[0], after[1], 0)
        return True

    def play(self, v: Move) -> None:
        """Play v (a point or "pass"); IllegalMove names the reason if the rules forbid it."""
        if v == PASS:
            self.pass_()
            return
        # The same opening in Game.play and CompiledGame.play, inline: it runs once per move.
        if type(v) is not int or not 0 <= v < self._shift:
            v = check_point(self.graph, v, IllegalMove)
        after = self._after(v)
        if isinstance(after, str):
            raise IllegalMove(f"{self.to_move} {v} is illegal: {after}")
        self._push(v, after[0], after[1], 0)

    def pass_(self) -> None:
        """Pass; IllegalMove if the game is already over."""
        if self.passes >= 2:
            raise IllegalMove(f"{self.to_move} pass is illegal: the game is over")
        self._push(PASS, self._black, self._white, self.passes + 1)

    def undo(self) -> Move:
        """Take back the last move and return it; IllegalMove if there is none."""
        if not self._undo:
            raise IllegalMove("nothing to undo")
        if self._superko:
            self._forget(self._key())
        self._black, self._white, self._side, self.passes = self._undo.pop()
        return self.moves.pop()

    def why_illegal(self, v: Move) -> str | None:
        """None if v is legal now, else the reason it is not."""
        if v == PASS:
            return "the game is over" if self.passes >= 2 else None
        after = self._after(check_point(self.graph, v, IllegalMove))
        return after if isinstance(after, str) else None

    def legal_moves(self) -> list[Move]:
        """The points the player to move may play, then "pass"; empty once the game is over."""
        if self.passes >= 2:
            return []
        empty = self.kernel.all & ~(self._black | self._white)
        legal: list[Move] = []
        while empty:
            low = empty & -empty
            v = low.bit_length() - 1
            if not isinstance(self._after(v), str):
                legal.append(v)
            empty ^= low
        legal.append(PASS)
        return legal

    # ---- the result

    def states(self) -> list[State]:
        """The states s₀ … s_i of the game so far (s₀ is the starting position)."""
        players = (BLACK, WHITE)
        earlier = [
            State(to_board(self.graph, black, white), players[side], passes)
            for black, white, side, passes in self._undo
        ]
        return earlier + [self.state()]


def random_playout(
    graph: Graph,
    rng: _random.Random | None = None,
    options: str | Options | None = "tromp-taylor",
    max_moves: int | None = None,
) -> Game:
    """A game of uniformly random legal moves (pass is one of them) under ``options`` (or the
    preset of that name) until two passes end it or ``max_moves`` moves (default 4·n) have been
    played; returns the Game."""
    rng = rng or _random.Random()
    g = Game(graph, options)
    limit = 4 * graph.order if max_moves is None else max_moves
    randrange = rng.randrange
    order = graph.order
    try_play = g.try_play
    moves = g.moves
    while len(moves) < limit and g.passes < 2:
        refused = g._black | g._white
        while True:
            v = randrange(order + 1)
            if v == order:
                g.pass_()
                break
            if refused >> v & 1:
                continue
            if try_play(v):
                break
            refused |= 1 << v
    return g
