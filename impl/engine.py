"""The fast engine: the Tromp–Taylor API of ``spec.tromp_taylor`` over bitsets, and a Game.

A board is held as two Python ints, the points of Black and the points of White
(bit ``v`` set when point ``v`` carries a stone).  Each graph gets a :class:`Kernel`
once (cached), with its neighbour masks precomputed; on a grid, neighbours of a set
of points are found by shifts.  A move looks only at the chains next to the point
played (on a directed graph: at the stones of each colour that reach Empty).

The module-level functions have the spec's names, arguments and results, so either
module can stand behind :class:`spec.api.Rules`.  Unlike the spec, the engine checks
what it is given: a board of the wrong length or with a foreign colour raises
:class:`BoardError`, and ``move`` raises it too on a board that is not well-formed
(some stone does not reach Empty), because such a board never occurs in a game and
the engine's local capture rule would not apply to it.  ``clear``, ``reaches`` and
``score`` are total, as in the spec, and accept any board of the right shape.

:class:`Game` keeps the history, so that it can enforce the ko rule of a
:class:`impl.rules.RuleSet` (positional superko by default), and undo moves.
:class:`CompiledGame` is the same stepping API (``play``, ``pass_``, ``legal_moves``,
``undo``, ``board``, ``to_move``, ``passes``, ``over``, ``score``, ``winner``) over the
numba kernel, with incremental chains, for Python loops that step a game move by move
(undirected graphs only).
:func:`random_playout` plays uniform random games in pure Python;
:func:`compiled_random_playout` plays them in a numba kernel (``impl/_kernel_numba.py``),
about ten times faster (see benchmarks/bench_engine.py).

Code that builds on the kernel (solvers, counting) uses ``kernel(graph)`` and its
bitset operations: ``place(mine, theirs, v)`` (the move of the source, on a
well-formed board with v empty: returns ``(mine, theirs)`` after both clears),
``reaching(stones, target)``, ``well_formed(black, white)``, ``area(black, white)``
and the masks ``all``, ``out`` (out-neighbours), ``into`` (in-neighbours); and
``to_bits`` / ``to_board`` to cross the boundary.
"""

from __future__ import annotations

import functools
import operator
import random as _random
from collections.abc import Sequence
from typing import NamedTuple

from gorules.impl.rules import RuleSet, ruleset
from gorules.spec.graph import Graph, grid
from gorules.spec.tromp_taylor import BLACK, DRAW, EMPTY, PASS, WHITE, Board, Move, State

COLOURS = (BLACK, WHITE, EMPTY)


class EngineError(ValueError):
    """Something the engine was asked to do that the rules do not allow."""


class BoardError(EngineError):
    """A board or state that is not a board of the graph, or not well-formed where required."""


class IllegalMove(EngineError):
    """A move that the rules forbid; the message names the reason."""


# --------------------------------------------------------------------------- kernel


def _dilate(masks: Sequence[int], x: int) -> int:
    """The union of ``masks[v]`` over the points v of the set x."""
    d = 0
    while x:
        low = x & -x
        d |= masks[low.bit_length() - 1]
        x ^= low
    return d


def popcount(x: int) -> int:
    """The number of points in the set x."""
    return bin(x).count("1")


def _grid_shape(graph: Graph) -> tuple[int, int] | None:
    """(rows, columns) if the graph is exactly a grid with row-major points, else None."""
    if not graph.is_grid or graph.directed:
        return None
    rows, columns = graph.shape
    if rows * columns != graph.order or grid(rows, columns).neighbours != graph.neighbours:
        return None
    return rows, columns


class Kernel:
    """The bitset view of one graph: point masks, out- and in-neighbour masks."""

    def __init__(self, graph: Graph):
        """Precompute the masks of ``graph``."""
        n = graph.order
        self.graph = graph
        self.n = n
        self.all = (1 << n) - 1
        self.out = [sum(1 << w for w in graph.neighbours[v]) for v in range(n)]
        into = [0] * n
        for v in range(n):
            for w in graph.neighbours[v]:
                into[w] |= 1 << v
        self.into = into
        self.symmetric = self.out == self.into
        self.shape = _grid_shape(graph)
        if self.shape is not None:
            rows, columns = self.shape
            first_column = sum(1 << (r * columns) for r in range(rows))
            last_column = first_column << (columns - 1)
            self.not_first_column = self.all & ~first_column
            self.not_last_column = self.all & ~last_column
            self.columns = columns
            self.dilate_in = self._dilate_grid
            self.dilate_out = self._dilate_grid
        else:
            self.dilate_in = functools.partial(_dilate, self.into)
            self.dilate_out = functools.partial(_dilate, self.out)
        # ``place`` resolved once per graph to the loop that fits it (saves a call per move).
        if self.shape is not None:
            self.place = self._place_grid
        elif self.symmetric:
            self.place = self._place_symmetric
        else:
            self.place = self._place_directed

    def _dilate_grid(self, x: int) -> int:
        """The neighbours of the set x on a grid, by shifts."""
        c = self.columns
        return ((x << 1) & self.not_first_column) | ((x >> 1) & self.not_last_column) | ((x << c) & self.all) | (x >> c)

    def reaching(self, stones: int, target: int) -> int:
        """The points of ``stones`` from which a path along arcs, through ``stones``,
        ends at a point of ``target``."""
        dilate_in = self.dilate_in
        found = stones & dilate_in(target)
        frontier = found
        while frontier:
            frontier = dilate_in(frontier) & stones & ~found
            found |= frontier
        return found

    def chain(self, seed: int, stones: int) -> int:
        """The chain of ``stones`` that contains the points of ``seed`` (undirected graphs)."""
        dilate = self.dilate_out
        found = seed
        frontier = seed
        while frontier:
            frontier = dilate(frontier) & stones & ~found
            found |= frontier
        return found

    def place(self, mine: int, theirs: int, v: int) -> tuple[int, int]:
        """clear(clear(b[v ↦ p], p*), p) on a well-formed board with v empty: (mine, theirs) after."""
        if self.shape is not None:
            return self._place_grid(mine, theirs, v)
        if self.symmetric:
            return self._place_symmetric(mine, theirs, v)
        return self._place_directed(mine, theirs, v)

    def _place_directed(self, mine: int, theirs: int, v: int) -> tuple[int, int]:
        """place on any graph: keep the stones of each colour that reach Empty."""
        mine |= 1 << v
        empty = self.all & ~(mine | theirs)
        theirs = self.reaching(theirs, empty)
        empty = self.all & ~(mine | theirs)
        return self.reaching(mine, empty), theirs

    def _place_symmetric(self, mine: int, theirs: int, v: int) -> tuple[int, int]:
        """place on an undirected graph: only the chains next to v can lose their last liberty."""
        out = self.out
        point = 1 << v
        mine |= point
        empty = self.all & ~(mine | theirs)
        adjacent = out[v] & theirs
        while adjacent:
            chain = frontier = adjacent & -adjacent
            while frontier:
                d = 0
                while frontier:
                    low = frontier & -frontier
                    d |= out[low.bit_length() - 1]
                    frontier ^= low
                if d & empty:
                    break
                frontier = d & theirs & ~chain
                chain |= frontier
            else:
                theirs ^= chain
                empty |= chain
            adjacent &= ~chain
        chain = frontier = point
        while frontier:
            d = 0
            while frontier:
                low = frontier & -frontier
                d |= out[low.bit_length() - 1]
                frontier ^= low
            if d & empty:
                return mine, theirs
            frontier = d & mine & ~chain
            chain |= frontier
        return mine ^ chain, theirs

    def _place_grid(self, mine: int, theirs: int, v: int) -> tuple[int, int]:
        """place on a grid, with neighbours found by shifts."""
        every = self.all
        c = self.columns
        not_first = self.not_first_column
        not_last = self.not_last_column
        point = 1 << v
        mine |= point
        empty = every & ~(mine | theirs)
        adjacent = self.out[v] & theirs
        while adjacent:
            chain = frontier = adjacent & -adjacent
            while frontier:
                d = (
                    ((frontier << 1) & not_first)
                    | ((frontier >> 1) & not_last)
                    | ((frontier << c) & every)
                    | (frontier >> c)
                )
                if d & empty:
                    break
                frontier = d & theirs & ~chain
                chain |= frontier
            else:
                theirs ^= chain
                empty |= chain
            adjacent &= ~chain
        chain = frontier = point
        while frontier:
            d = (
                ((frontier << 1) & not_first)
                | ((frontier >> 1) & not_last)
                | ((frontier << c) & every)
                | (frontier >> c)
            )
            if d & empty:
                return mine, theirs
            frontier = d & mine & ~chain
            chain |= frontier
        return mine ^ chain, theirs

    def well_formed(self, black: int, white: int) -> bool:
        """Whether every stone reaches Empty."""
        empty = self.all & ~(black | white)
        return self.reaching(black, empty) == black and self.reaching(white, empty) == white

    def territory(self, black: int, white: int) -> tuple[int, int]:
        """The empty points that reach Black and not White, and those that reach White and not Black."""
        empty = self.all & ~(black | white)
        to_black = self.reaching(empty, black)
        to_white = self.reaching(empty, white)
        return to_black & ~to_white, to_white & ~to_black

    def area(self, black: int, white: int) -> tuple[int, int]:
        """(score(b, Black), score(b, White)) as the source defines score."""
        black_territory, white_territory = self.territory(black, white)
        return popcount(black | black_territory), popcount(white | white_territory)


_KERNELS: dict[int, tuple[Graph, Kernel]] = {}


def kernel(graph: Graph) -> Kernel:
    """The kernel of a graph, built once per graph object (looked up by identity, since
    hashing a graph costs as much as a small move)."""
    entry = _KERNELS.get(id(graph))
    if entry is not None and entry[0] is graph:
        return entry[1]
    if len(_KERNELS) >= 4096:
        _KERNELS.clear()
    built = Kernel(graph)
    _KERNELS[id(graph)] = (graph, built)
    return built


# --------------------------------------------------------------------------- boundary


_BLACK_DIGITS = str.maketrans("BW.", "100")
_WHITE_DIGITS = str.maketrans("BW.", "010")
_COLOUR_SET = frozenset(COLOURS)


def to_bits(graph: Graph, b: Board) -> tuple[int, int]:
    """(Black's points, White's points) of a board; BoardError if it is not a board of the graph."""
    if not isinstance(b, tuple) or len(b) != graph.order:
        size = len(b) if isinstance(b, tuple) else type(b).__name__
        raise BoardError(f"a board of {graph.name} is a tuple of {graph.order} colours, got {size}")
    try:
        valid = _COLOUR_SET.issuperset(b)
    except TypeError:
        valid = False
    if not valid:
        for v, colour in enumerate(b):
            if not isinstance(colour, str) or colour not in _COLOUR_SET:
                raise BoardError(f"point {v} has colour {colour!r}: a colour is 'B', 'W' or '.'")
    if not b:
        return 0, 0
    text = "".join(b)[::-1]
    return int(text.translate(_BLACK_DIGITS), 2), int(text.translate(_WHITE_DIGITS), 2)


_COLOUR_OF_BYTE = bytes.maketrans(b"\x90\x91\x92", b".BW")


def to_board(graph: Graph, black: int, white: int) -> Board:
    """The board (tuple of colours) with the given points of Black and White."""
    n = graph.order
    if not n:
        return ()
    # One byte per point, "0"/"1" for White's bit doubled plus Black's bit: 0x90 + colour.
    black_bytes = int.from_bytes(format(black, f"0{n}b")[::-1].encode(), "big")
    white_bytes = int.from_bytes(format(white, f"0{n}b")[::-1].encode(), "big")
    mixed = (black_bytes + 2 * white_bytes).to_bytes(n, "big")
    return tuple(mixed.translate(_COLOUR_OF_BYTE).decode())


def _check_player(p) -> int:
    """0 for Black, 1 for White; BoardError otherwise."""
    if p == BLACK:
        return 0
    if p == WHITE:
        return 1
    raise BoardError(f"a player is 'B' or 'W', got {p!r}")


def as_point(graph: Graph, v) -> int | None:
    """v as a point of the graph (an int, or any integer type such as numpy's, but not a
    bool or a string), or None if it is none."""
    if type(v) is int:
        return v if 0 <= v < graph.order else None
    if isinstance(v, (bool, str)):
        return None
    try:
        point = operator.index(v)
    except TypeError:
        return None
    return point if 0 <= point < graph.order else None


def _check_point(graph: Graph, v) -> int:
    """v as a point of the graph; BoardError if it is none."""
    point = as_point(graph, v)
    if point is None:
        raise BoardError(f"unknown point {v!r}: {graph.name} has points 0..{graph.order - 1}")
    return point


def _require_well_formed(graph: Graph, black: int, white: int) -> None:
    """BoardError naming a stone that does not reach Empty, if there is one."""
    k = kernel(graph)
    empty = k.all & ~(black | white)
    stranded = (black & ~k.reaching(black, empty)) | (white & ~k.reaching(white, empty))
    if stranded:
        v = (stranded & -stranded).bit_length() - 1
        raise BoardError(f"board is not well-formed: the stone at point {v} does not reach an empty point")


def adjacent(graph: Graph, v: int, w: int) -> bool:
    """v ↔ w: an arc leads from v to w."""
    return bool(kernel(graph).out[v] >> w & 1)


def opponent(p):
    """p*: the other player."""
    return WHITE if p == BLACK else BLACK


def move(graph: Graph, s: State, v: Move) -> State | None:
    """move((b, p, n), v): the state after p plays v, or None (⊥) on an occupied point."""
    b, p, n = s
    black, white = to_bits(graph, b)
    side = _check_player(p)
    _require_well_formed(graph, black, white)
    if v == PASS:
        return State(b, opponent(p), n + 1)
    v = _check_point(graph, v)
    if (black | white) >> v & 1:
        return None
    k = kernel(graph)
    if side == 0:
        black, white = k.place(black, white, v)
    else:
        white, black = k.place(white, black, v)
    return State(to_board(graph, black, white), opponent(p), 0)


def clear(graph: Graph, b: Board, p) -> Board:
    """clear(b, p): b with every stone of p that does not reach Empty made Empty."""
    black, white = to_bits(graph, b)
    side = _check_player(p)
    k = kernel(graph)
    empty = k.all & ~(black | white)
    if side == 0:
        black = k.reaching(black, empty)
    else:
        white = k.reaching(white, empty)
    return to_board(graph, black, white)


def reaches(graph: Graph, b: Board, v: int, c) -> bool:
    """reaches(b, v, c): a path from v through points of v's colour ends at a point of colour c."""
    black, white = to_bits(graph, b)
    v = _check_point(graph, v)
    k = kernel(graph)
    sets = {BLACK: black, WHITE: white, EMPTY: k.all & ~(black | white)}
    if c not in sets:
        raise BoardError(f"a colour is 'B', 'W' or '.', got {c!r}")
    if b[v] == c:
        return True
    return bool(k.reaching(sets[b[v]], sets[c]) >> v & 1)


def score(graph: Graph, b: Board, p) -> int:
    """score(b, p): p's stones, plus the empty points that reach p but not p*."""
    black, white = to_bits(graph, b)
    side = _check_player(p)
    return kernel(graph).area(black, white)[side]


def initial_state(graph: Graph) -> State:
    """s₀: the empty board, Black to move, no passes."""
    return State((EMPTY,) * graph.order, BLACK, 0)


def _is_move(graph: Graph, v) -> bool:
    """Whether v is Pass or a point of the graph."""
    return v == PASS or as_point(graph, v) is not None


def _positional_game(graph: Graph, moves: Sequence[Move], keep_states: bool):
    """Play moves under positional superko with suicide allowed (the source's rules):
    (states or None, Black's points, White's points), or None if the moves are not a
    complete game.  A tight loop for ``game`` and ``winner``: the board tuple of each
    state is updated only where the move changed it."""
    k = kernel(graph)
    n = graph.order
    place = k.place
    black = white = side = passes = 0
    seen = {0}
    board = [EMPTY] * n
    states = [State(tuple(board), BLACK, 0)] if keep_states else None
    players = (BLACK, WHITE)
    new_state = tuple.__new__  # State(...) without the keyword-handling constructor
    for v in moves:
        if passes >= 2:
            return None
        if v == PASS:
            passes += 1
            side ^= 1
            if keep_states:
                states.append(new_state(State, (states[-1].board, players[side], passes)))
            continue
        if type(v) is not int:
            v = as_point(graph, v)
            if v is None:
                return None
        if not 0 <= v < n or (black | white) >> v & 1:
            return None
        if side:
            new_white, new_black = place(white, black, v)
        else:
            new_black, new_white = place(black, white, v)
        key = new_black | (new_white << n)
        if key in seen:
            return None
        seen.add(key)
        if keep_states:
            changed = (black ^ new_black) | (white ^ new_white)
            while changed:
                low = changed & -changed
                u = low.bit_length() - 1
                board[u] = BLACK if new_black & low else WHITE if new_white & low else EMPTY
                changed ^= low
            states.append(new_state(State, (tuple(board), players[side ^ 1], 0)))
        black, white, passes = new_black, new_white, 0
        side ^= 1
    if passes != 2:
        return None
    return states, black, white


def game(graph: Graph, moves: Sequence[Move], rules: str | RuleSet | None = None) -> list[State] | None:
    """The states s₀ … s_N of the game v₀ … v_{N-1}, or None if the moves are not a
    complete game (under ``rules``; Tromp–Taylor by default)."""
    rules = ruleset(rules)
    if rules.ko == "positional" and rules.suicide == "allowed":
        played = _positional_game(graph, moves, True)
        return None if played is None else played[0]
    g = Game(graph, rules)
    states = [g.state()]
    for v in moves:
        if not _is_move(graph, v) or not g.try_play(v):
            return None
        states.append(g.state())
    return states if g.over else None


def winner(graph: Graph, moves: Sequence[Move], rules: str | RuleSet | None = None):
    """winner(g): "B", "W" or "draw" by the final scores (komi to White), or None if g is not a game."""
    rules = ruleset(rules)
    if rules.ko == "positional" and rules.suicide == "allowed":
        played = _positional_game(graph, moves, False)
        if played is None:
            return None
        _, black, white = played
        if rules.scoring == "stone":
            black_score, white_score = popcount(black), popcount(white)
        else:
            black_score, white_score = kernel(graph).area(black, white)
        margin = black_score - white_score - rules.komi
        return BLACK if margin > 0 else WHITE if margin < 0 else DRAW
    g = Game(graph, rules)
    for v in moves:
        if not _is_move(graph, v) or not g.try_play(v):
            return None
    return g.winner() if g.over else None


# --------------------------------------------------------------------------- game


class Score(NamedTuple):
    """The two scores of a board under a ruleset, and the komi given to White."""

    black: int
    white: int
    komi: float = 0

    @property
    def margin(self) -> float:
        """Black's score minus White's score and komi."""
        return self.black - self.white - self.komi


class _Position:
    """What :class:`Game` and :class:`CompiledGame` share: the views of the current position
    derived from ``bits``, ``board``, ``_side``, ``passes``, ``rules``, ``kernel`` and ``moves``."""

    @property
    def to_move(self) -> str:
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
        black, white = self.bits
        if self.rules.scoring == "stone":
            return Score(popcount(black), popcount(white), self.rules.komi)
        return Score(*self.kernel.area(black, white), self.rules.komi)

    def winner(self) -> str:
        """ "B", "W" or "draw" by the current scores and komi (the result once the game is over)."""
        margin = self.score().margin
        return BLACK if margin > 0 else WHITE if margin < 0 else DRAW

    def __len__(self) -> int:
        """The number of moves played."""
        return len(self.moves)


class Game(_Position):
    """A game in progress on a graph under a ruleset, with its history.

    ``play(v)`` raises :class:`IllegalMove` naming the reason; ``try_play(v)`` returns
    whether it played.  Two consecutive passes end the game.
    """

    def __init__(
        self,
        graph: Graph,
        rules: str | RuleSet | None = "tromp-taylor",
        board: Board | None = None,
        to_move: str = BLACK,
    ):
        """A new game: the empty board with Black to move, or the given well-formed board."""
        self.graph = graph
        self.rules = ruleset(rules)
        self.kernel = kernel(graph)
        black = white = 0
        if board is not None:
            black, white = to_bits(graph, board)
            _require_well_formed(graph, black, white)
        self._side = _check_player(to_move)
        self._black = black
        self._white = white
        self.passes = 0
        self.moves: list[Move] = []
        self._undo: list[tuple] = []
        self._ko = self.rules.ko
        self._suicide_allowed = self.rules.suicide == "allowed"
        self._seen: dict[int, int] = {}
        self._shift = graph.order
        self._remember(self._key())

    # ---- keys of positions, for the ko rules

    def _key(self) -> int:
        """The key of the current position: the board (and, for situational superko, the player)."""
        key = self._black | (self._white << self._shift)
        if self._ko == "situational":
            key = (key << 1) | self._side
        return key

    def _remember(self, key: int) -> None:
        """Count one more occurrence of a position key."""
        self._seen[key] = self._seen.get(key, 0) + 1

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
        if self._side:
            white, black = self.kernel.place(self._white, self._black, v)
            mine = white
        else:
            black, white = self.kernel.place(self._black, self._white, v)
            mine = black
        if not mine & point and not self._suicide_allowed:
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
        if self._ko != "simple" and self._ko != "none":
            self._remember(self._key())

    def try_play(self, v: Move) -> bool:
        """Play v (a point or "pass") if the rules allow it; return whether it was played."""
        if v == PASS:
            if self.passes >= 2:
                return False
            self._push(PASS, self._black, self._white, self.passes + 1)
            return True
        if type(v) is not int or not 0 <= v < self._shift:
            v = as_point(self.graph, v)
            if v is None:
                return False
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
        v = _check_point_for_move(self.graph, v)
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
        if self._ko != "simple" and self._ko != "none":
            self._forget(self._key())
        self._black, self._white, self._side, self.passes = self._undo.pop()
        return self.moves.pop()

    def why_illegal(self, v: Move) -> str | None:
        """None if v is legal now, else the reason it is not."""
        if v == PASS:
            return "the game is over" if self.passes >= 2 else None
        after = self._after(_check_point_for_move(self.graph, v))
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


def _check_point_for_move(graph: Graph, v) -> int:
    """v as a point of the graph; IllegalMove naming it otherwise."""
    point = as_point(graph, v)
    if point is None:
        raise IllegalMove(f"unknown point {v!r}: {graph.name} has points 0..{graph.order - 1}")
    return point


# --------------------------------------------------------------------------- playouts


def random_playout(
    graph: Graph,
    rng: _random.Random | None = None,
    rules: str | RuleSet | None = "tromp-taylor",
    max_moves: int | None = None,
) -> Game:
    """A game of uniformly random legal moves (pass is one of them) until two passes
    end it or ``max_moves`` moves (default 4·n) have been played; returns the Game."""
    rng = rng or _random.Random()
    g = Game(graph, rules)
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


# --------------------------------------------------------------------------- compiled playouts


class Playout(NamedTuple):
    """A finished random game from the compiled kernel: its moves and final board."""

    moves: list
    board: Board


_BYTE_COLOURS = bytes.maketrans(b"\x00\x01\x02", b".BW")


def compiled_available() -> bool:
    """Whether the compiled kernel (numba) can be used."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def _compiled_arrays(graph: Graph) -> tuple:
    """The numpy arrays the compiled kernel reads for a graph (built once per kernel)."""
    k = kernel(graph)
    arrays = getattr(k, "_compiled", None)
    if arrays is None:
        import numpy as np

        from gorules.impl._kernel_numba import csr

        ptr, idx = csr([graph.neighbours[v] for v in graph.points])
        rptr, ridx = csr([[u for u in graph.points if v in graph.neighbours[u]] for v in graph.points])
        zobrist = np.random.default_rng(20240).integers(0, 2**63, size=(graph.order, 3), dtype=np.uint64)
        arrays = (ptr, idx, rptr, ridx, k.symmetric, zobrist)
        k._compiled = arrays
    return arrays


def compiled_random_playout(
    graph: Graph,
    rng: _random.Random | None = None,
    rules: str | RuleSet | None = "tromp-taylor",
    max_moves: int | None = None,
    pass_last: bool = False,
) -> Playout:
    """Like :func:`random_playout` (uniform random legal moves, pass among them, until two
    passes or ``max_moves``, default 4·n), but the whole game runs in the compiled kernel;
    its random numbers come from numba's generator, seeded from ``rng``.  With
    ``pass_last`` a player passes only when no point is legal."""
    import numpy as np

    from gorules.impl._kernel_numba import KO_CODES, playout

    rules = ruleset(rules)
    rng = rng or _random.Random()
    limit = 4 * graph.order if max_moves is None else max_moves
    ptr, idx, rptr, ridx, symmetric, zobrist = _compiled_arrays(graph)
    moves = np.zeros(max(limit, 1), dtype=np.int32)
    board = np.zeros(graph.order, dtype=np.int8)
    count = playout(
        ptr,
        idx,
        rptr,
        ridx,
        symmetric,
        graph.order,
        zobrist,
        KO_CODES[rules.ko],
        rules.suicide == "allowed",
        limit,
        rng.getrandbits(31),
        moves,
        board,
        pass_last,
    )
    played = [PASS if v < 0 else int(v) for v in moves[:count].tolist()]
    return Playout(played, tuple(board.tobytes().translate(_BYTE_COLOURS).decode()))


# --------------------------------------------------------------------------- compiled game


_REASONS = {
    1: "the point is occupied",
    2: "suicide is forbidden",
    3: "positional superko: the board repeats an earlier board",
    4: "situational superko: the position repeats with the same player to move",
    5: "ko: the board repeats the board before the opponent's move",
    6: "the game is over",
}


def _compiled_game_arrays(graph: Graph) -> tuple:
    """(neighbour pointer, neighbour index, Zobrist keys, chain rows of the empty board) of a
    graph for :class:`CompiledGame`, built once per kernel; the games copy the last."""
    k = kernel(graph)
    arrays = getattr(k, "_compiled_game", None)
    if arrays is None:
        import numpy as np

        from gorules.impl._kernel_numba import HEAD, NEXT, SIZE, csr

        n = graph.order
        ptr, idx = csr([graph.neighbours[v] for v in range(n)])
        zobrist = np.random.default_rng(20240).integers(1, 2**62, size=(max(n, 1), 3), dtype=np.int64)
        pts = np.zeros((8, max(n, 1)), dtype=np.int64)
        pts[HEAD] = pts[NEXT] = np.arange(max(n, 1))
        pts[SIZE] = 1
        arrays = (ptr, idx, zobrist, pts)
        k._compiled_game = arrays
    return arrays


class CompiledGame(_Position):
    """:class:`Game`'s stepping API over the compiled kernel (numba), for loops that call
    ``legal_moves()`` and ``play(v)`` from Python once per move.

    The position lives in numpy arrays with incremental chains: each chain keeps its
    pseudo-liberties with their sum and sum of squares, so the points it dies at, and
    the Zobrist hash of the board after any move, are known from the neighbours of the
    point alone.  ``legal_moves()`` therefore costs a few operations per empty point in
    compiled code; once it has been called, the next ``play(v)`` lists the next player's
    legal moves in the same compiled call, so that a loop of ``legal_moves()`` and
    ``play(v)`` crosses into compiled code once per move.  Every ko rule of :class:`impl.rules.RuleSet` is exact: the hash of
    the board after a move finds the candidate earlier positions, and only an exact
    comparison of boards forbids the move.  Undirected graphs only (a directed graph
    raises :class:`EngineError`); ``undo()`` rebuilds the chains of the earlier board.
    """

    def __init__(
        self,
        graph: Graph,
        rules: str | RuleSet | None = "tromp-taylor",
        board: Board | None = None,
        to_move: str = BLACK,
    ):
        """A new game: the empty board with Black to move, or the given well-formed board."""
        import numpy as np

        from gorules.impl import _kernel_numba as compiled

        self.graph = graph
        self.rules = ruleset(rules)
        self.kernel = k = kernel(graph)
        if not k.symmetric:
            raise EngineError(f"the compiled game plays on undirected graphs only; {graph.name} is directed")
        n = graph.order
        black = white = 0
        if board is not None:
            black, white = to_bits(graph, board)
            _require_well_formed(graph, black, white)
        side = _check_player(to_move)
        self._np = np
        self._c = compiled
        self._n = n
        self._ptr, self._idx, self._zob, empty_pts = _compiled_game_arrays(graph)
        self._pts = empty_pts.copy()
        self._scratch = np.zeros(max(n, 1), dtype=np.int8)
        self._out = np.zeros(max(n, 1), dtype=np.int64)
        self._scal = np.zeros(compiled.COUNTS + 8 * (n + 1), dtype=np.int64)
        self._scal[1] = compiled.KO_CODES[self.rules.ko]
        self._scal[2] = self.rules.suicide == "allowed"
        self._play = compiled.packed_play
        self._legal = compiled.packed_legal
        self._hist = np.zeros((0, 5), dtype=np.int64)
        self._boards = np.zeros((0, max(n, 1)), dtype=np.int8)
        self._allocate(64)
        h = 0
        if black or white:
            start = np.array([[1 if black >> v & 1 else 2 if white >> v & 1 else 0 for v in range(n)]], dtype=np.int8)
            compiled.game_load(self._pts, start, 0, self._ptr, self._idx, n)
            h = compiled.game_zobrist(self._pts, self._zob, n)
        compiled._record(self._pts, self._hist, self._boards, self._table, self._scal, h, side + 1, 0, n)
        self.moves: list[Move] = []
        self._side = side
        self.passes = 0
        self._listing = False  # whether play(v) should list the next legal moves as well
        self._listed = -1  # the number of legal points already in self._out, or -1

    def _allocate(self, capacity: int) -> None:
        """Room for ``capacity`` positions of history (keeping those stored), and a hash table
        four times as large: every int64 array packed in one (see ``_kernel_numba._views``)."""
        np = self._np
        c = self._c
        n = self._n
        width = max(n, 1)
        stored = int(self._scal[0])
        arcs = len(self._idx)
        sizes = (8 * width, 5 * capacity, 4 * capacity, len(self._scal), n + 1, arcs, 3 * width, width)
        mem = np.zeros(c.HEADER + sum(sizes), dtype=np.int64)
        mem[: c.HEADER] = (n, capacity, len(self._scal), arcs)
        views = []
        offset = c.HEADER
        for size in sizes:
            views.append(mem[offset : offset + size])
            offset += size
        pts, hist, table, scal, ptr, idx, zob, out = views
        pts, hist, zob = pts.reshape(8, width), hist.reshape(capacity, 5), zob.reshape(width, 3)
        pts[:] = self._pts
        scal[:] = self._scal
        ptr[:] = self._ptr
        idx[:] = self._idx
        zob[:] = self._zob
        table[:] = -1
        boards = np.zeros((capacity, width), dtype=np.int8)
        if stored:
            hist[:stored] = self._hist[:stored]
            boards[:stored] = self._boards[:stored]
        c.game_rehash(hist, table, stored)
        self._mem = mem
        self._pts, self._hist, self._table, self._scal = pts, hist, table, scal
        self._ptr, self._idx, self._zob, self._out = ptr, idx, zob, out
        self._boards = boards
        self._capacity = capacity
        self._args = (
            self._pts,
            self._hist,
            self._boards,
            self._table,
            self._scal,
            self._ptr,
            self._idx,
            self._zob,
            self._scratch,
            self._n,
            self._out,
        )
        self._packed = (mem, boards, self._scratch)

    # ---- reading the state

    @property
    def board(self) -> Board:
        """The current board, as a tuple of colours."""
        return tuple(self._pts[0, : self._n].astype(self._np.int8).tobytes().translate(_BYTE_COLOURS).decode())

    @property
    def bits(self) -> tuple[int, int]:
        """(Black's points, White's points) of the current board."""
        return to_bits(self.graph, self.board)

    # ---- moves

    def _room(self) -> None:
        """Make sure one more position fits in the history."""
        if len(self.moves) + 1 >= self._capacity:
            self._allocate(2 * self._capacity)

    def _reason(self, v: int) -> int:
        """0 if v is legal now, else the code of the reason (see ``_REASONS``)."""
        if self.passes >= 2:
            return 6
        return self._c._why_illegal(
            self._pts,
            self._hist,
            self._boards,
            self._table,
            self._scal,
            v,
            self._ptr,
            self._idx,
            self._zob,
            self._scratch,
            self._n,
        )

    def try_play(self, v: Move) -> bool:
        """Play v (a point or "pass") if the rules allow it; return whether it was played."""
        if v == PASS:
            if self.passes >= 2:
                return False
            self.pass_()
            return True
        v = as_point(self.graph, v)
        if v is None:
            return False
        self._room()
        self._listed = -1
        if self._play(v, False, *self._packed):
            return False
        self.moves.append(v)
        self._side ^= 1
        self.passes = 0
        return True

    def play(self, v: Move) -> None:
        """Play v (a point or "pass"); IllegalMove names the reason if the rules forbid it."""
        if v == PASS:
            self.pass_()
            return
        if type(v) is not int or not 0 <= v < self._n:
            v = _check_point_for_move(self.graph, v)
        if len(self.moves) + 1 >= self._capacity:
            self._allocate(2 * self._capacity)
        reason = self._play(v, self._listing, *self._packed)
        if reason > 0:
            raise IllegalMove(f"{self.to_move} {v} is illegal: {_REASONS[reason]}")
        self._listed = -1 - reason if self._listing else -1
        self._listing = False
        self.moves.append(v)
        self._side ^= 1
        self.passes = 0

    def pass_(self) -> None:
        """Pass; IllegalMove if the game is already over."""
        if self.passes >= 2:
            raise IllegalMove(f"{self.to_move} pass is illegal: the game is over")
        self._room()
        self._listed = -1
        self._c.game_pass(self._pts, self._hist, self._boards, self._table, self._scal, self._n)
        self.moves.append(PASS)
        self._side ^= 1
        self.passes += 1

    def undo(self) -> Move:
        """Take back the last move and return it; IllegalMove if there is none."""
        if not self.moves:
            raise IllegalMove("nothing to undo")
        c = self._c
        self._listed = -1
        c.game_forget_last(self._hist, self._table, self._scal, self._n)
        t = int(self._scal[0]) - 1
        c.game_load(self._pts, self._boards, t, self._ptr, self._idx, self._n)
        c.game_zobrist(self._pts, self._zob, self._n)
        self._side = int(self._hist[t, 1]) - 1
        self.passes = int(self._hist[t, 2])
        return self.moves.pop()

    def why_illegal(self, v: Move) -> str | None:
        """None if v is legal now, else the reason it is not."""
        if v == PASS:
            return "the game is over" if self.passes >= 2 else None
        reason = self._reason(_check_point_for_move(self.graph, v))
        return _REASONS[reason] if reason else None

    def legal_moves(self) -> list[Move]:
        """The points the player to move may play, then "pass"; empty once the game is over."""
        if self.passes >= 2:
            return []
        count = self._listed
        if count < 0:
            count = self._legal(*self._packed)
        # The loop is listing moves: the next play also lists the next player's moves.
        self._listing = True
        legal = self._out[:count].tolist()
        legal.append(PASS)
        return legal

    # ---- the result

    def states(self) -> list[State]:
        """The states s₀ … s_i of the game so far (s₀ is the starting position)."""
        players = (BLACK, WHITE)
        stored = int(self._scal[0])
        return [
            State(
                tuple(self._boards[t, : self._n].tobytes().translate(_BYTE_COLOURS).decode()),
                players[int(self._hist[t, 1]) - 1],
                int(self._hist[t, 2]),
            )
            for t in range(stored)
        ]
