"""The fast engine: the Tromp–Taylor API of ``spec.tromp_taylor`` over bitsets, and its parts.

The module-level functions have the spec's names, arguments and results, so either
module can stand behind :class:`spec.rules.Rules`.  Unlike the spec, the engine checks
what it is given: a board of the wrong length or with a foreign colour raises
:class:`BoardError`, and ``move`` raises it too on a board that is not well-formed
(some stone does not reach Empty), because such a board never occurs in a game and
the engine's local capture rule would not apply to it.  ``clear``, ``reaches`` and
``score`` are total, as in the spec, and accept any board of the right shape.

The engine's parts live in their own modules and are named here too, so that
``impl.engine.rules`` is the one place to import the engine from:

- ``impl.engine.bitset``: the bitset kernel (``kernel(graph)``, ``Kernel.play``, ``reaching``,
  ``area``), ``to_bits`` / ``to_board``, the errors;
- ``impl.engine.playing``: :class:`Game` (history, ko rules, undo) and :func:`random_playout`;
- ``impl.engine.compiled``: :class:`CompiledGame` and :func:`compiled_random_playout`, over the
  numba kernels ``impl/kernels/game.py`` and ``impl/kernels/playout.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

# The engine's parts, named again here: impl.engine.rules is where callers import the engine from.
from gorules.impl.engine.bitset import (
    COLOURS,
    BoardError,
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
from gorules.impl.engine.compiled import CompiledGame, Playout, compiled_available, compiled_random_playout
from gorules.impl.engine.options import Options, options_of
from gorules.impl.engine.playing import Game, IllegalMove, Position, Score, outcome, random_playout, scores
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, PASS, WHITE, Board, Move, State, opponent

__all__ = [
    "COLOURS",
    "BoardError",
    "CompiledGame",
    "EngineError",
    "Game",
    "IllegalMove",
    "Kernel",
    "Playout",
    "Position",
    "Score",
    "adjacent",
    "as_point",
    "clear",
    "compiled_available",
    "compiled_random_playout",
    "game",
    "initial_state",
    "kernel",
    "move",
    "opponent",
    "popcount",
    "random_playout",
    "reaches",
    "score",
    "to_bits",
    "to_board",
    "winner",
]


def adjacent(graph: Graph, v: int, w: int) -> bool:
    """v ↔ w: an arc leads from v to w."""
    return bool(kernel(graph).out[v] >> w & 1)


def move(graph: Graph, s: State, v: Move) -> State | None:
    """move((b, p, n), v): the state after p plays v, or None (⊥) on an occupied point."""
    b, p, n = s
    black, white = to_bits(graph, b)
    side = check_player(p)
    require_well_formed(graph, black, white)
    if v == PASS:
        return State(b, opponent(p), n + 1)
    v = check_point(graph, v)
    if (black | white) >> v & 1:
        return None
    black, white = kernel(graph).play(black, white, v, side)
    return State(to_board(graph, black, white), opponent(p), 0)


def clear(graph: Graph, b: Board, p) -> Board:
    """clear(b, p): b with every stone of p that does not reach Empty made Empty."""
    black, white = to_bits(graph, b)
    side = check_player(p)
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
    v = check_point(graph, v)
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
    side = check_player(p)
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
    n = graph.order
    play = kernel(graph).play
    black = white = side = passes = 0
    seen = {0}
    board = [EMPTY] * n
    states: list[State] | None = [State(tuple(board), BLACK, 0)] if keep_states else None
    players = (BLACK, WHITE)
    new_state = tuple.__new__  # State(...) without the keyword-handling constructor
    for v in moves:
        if passes >= 2:
            return None
        if v == PASS:
            passes += 1
            side ^= 1
            if states is not None:
                states.append(new_state(State, (states[-1].board, players[side], passes)))
            continue
        if type(v) is not int:
            point = as_point(graph, v)
            if point is None:
                return None
            v = point
        if not 0 <= v < n or (black | white) >> v & 1:
            return None
        new_black, new_white = play(black, white, v, side)
        key = new_black | (new_white << n)
        if key in seen:
            return None
        seen.add(key)
        if states is not None:
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


def game(graph: Graph, moves: Sequence[Move], options: str | Options | None = None) -> list[State] | None:
    """The states s₀ … s_N of the game v₀ … v_{N-1}, or None if the moves are not a
    complete game (under ``options``, or the preset of that name; Tromp–Taylor by default)."""
    options = options_of(options)
    if options.ko == "positional" and options.suicide == "allowed":
        played = _positional_game(graph, moves, True)
        return None if played is None else played[0]
    g = Game(graph, options)
    states = [g.state()]
    for v in moves:
        if not _is_move(graph, v) or not g.try_play(v):
            return None
        states.append(g.state())
    return states if g.over else None


def winner(graph: Graph, moves: Sequence[Move], options: str | Options | None = None):
    """winner(g): "B", "W" or "draw" by the final scores (komi to White), or None if g is not a
    game (under ``options``, or the preset of that name; Tromp–Taylor by default)."""
    options = options_of(options)
    if options.ko == "positional" and options.suicide == "allowed":
        played = _positional_game(graph, moves, False)
        if played is None:
            return None
        _, black, white = played
        return outcome(scores(options, kernel(graph), black, white).margin)
    g = Game(graph, options)
    for v in moves:
        if not _is_move(graph, v) or not g.try_play(v):
            return None
    return g.winner() if g.over else None
