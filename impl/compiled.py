"""The compiled engine: :class:`CompiledGame` and whole random playouts, over numba kernels.

:class:`CompiledGame` is :class:`impl.game.Game`'s stepping API (``play``, ``pass_``,
``legal_moves``, ``undo``, ``board``, ``to_move``, ``passes``, ``over``, ``score``,
``winner``) over the step kernel ``impl/_numba_game.py``, with incremental chains, for
Python loops that step a game move by move (undirected graphs only).
:func:`compiled_random_playout` plays whole uniform random games in the playout kernel
``impl/_numba_playout.py``, about ten times faster than :func:`impl.game.random_playout`
(see benchmarks/bench_engine.py).  numpy and numba are imported when first used.
"""

from __future__ import annotations

import random as _random
from typing import NamedTuple

from gorules.impl.bitset import EngineError, as_point, check_point, kernel, to_bits
from gorules.impl.game import IllegalMove, Position
from gorules.impl.rules import RuleSet, ruleset
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, PASS, WHITE, Board, Move, State

KO_CODES = {"positional": 0, "situational": 1, "simple": 2, "none": 3}  # a ko rule as the kernels read it


def csr(rows) -> tuple:
    """Compressed rows (pointer, index: int32 numpy arrays) of a list of neighbour lists."""
    import numpy as np

    pointer = np.zeros(len(rows) + 1, dtype=np.int32)
    for v, row in enumerate(rows):
        pointer[v + 1] = pointer[v] + len(row)
    index = np.array([w for row in rows for w in row], dtype=np.int32)
    return pointer, index


# --------------------------------------------------------------------------- compiled playouts


class Playout(NamedTuple):
    """A finished random game from the compiled kernel: its moves and final board."""

    moves: list
    board: Board


_BYTE_COLOURS = bytes.maketrans(b"\x00\x01\x02", b".BW")


def board_of_bytes(colours) -> Board:
    """The board of an int8 numpy array of colours as the kernels hold them (0 Empty, 1 Black, 2 White)."""
    return tuple(colours.tobytes().translate(_BYTE_COLOURS).decode())


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
    arrays = k.derived.get("playout")
    if arrays is None:
        import numpy as np

        ptr, idx = csr([graph.neighbours[v] for v in graph.points])
        rptr, ridx = csr([[u for u in graph.points if v in graph.neighbours[u]] for v in graph.points])
        zobrist = np.random.default_rng(20240).integers(0, 2**63, size=(graph.order, 3), dtype=np.uint64)
        arrays = (ptr, idx, rptr, ridx, k.symmetric, zobrist)
        k.derived["playout"] = arrays
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

    from gorules.impl._numba_playout import playout

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
    return Playout(played, board_of_bytes(board))


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
    arrays = k.derived.get("game")
    if arrays is None:
        import numpy as np

        from gorules.impl._numba_game import HEAD, NEXT, SIZE

        n = graph.order
        ptr, idx = csr([graph.neighbours[v] for v in range(n)])
        zobrist = np.random.default_rng(20240).integers(1, 2**62, size=(max(n, 1), 3), dtype=np.int64)
        pts = np.zeros((8, max(n, 1)), dtype=np.int64)
        pts[HEAD] = pts[NEXT] = np.arange(max(n, 1))
        pts[SIZE] = 1
        arrays = (ptr, idx, zobrist, pts)
        k.derived["game"] = arrays
    return arrays


class CompiledGame(Position):
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
        """A new game: the empty board with Black to move, or the given well-formed board
        (Game's signature on purpose: the two games are interchangeable)."""
        import numpy as np

        from gorules.impl import _numba_game as compiled

        if not kernel(graph).symmetric:
            raise EngineError(f"the compiled game plays on undirected graphs only; {graph.name} is directed")
        black, white, side = self._begin(graph, rules, board, to_move)
        n = graph.order
        self._np = np
        self._c = compiled
        self._n = n
        self._ptr, self._idx, self._zob, empty_pts = _compiled_game_arrays(graph)
        self._pts = empty_pts.copy()
        self._scratch = np.zeros(max(n, 1), dtype=np.int8)
        self._out = np.zeros(max(n, 1), dtype=np.int64)
        self._scal = np.zeros(compiled.COUNTS + 8 * (n + 1), dtype=np.int64)
        self._scal[1] = KO_CODES[self.rules.ko]
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
        four times as large: every int64 array packed in one (see ``_numba_game._views``)."""
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
        self._packed = (mem, boards, self._scratch)

    # ---- reading the state

    @property
    def board(self) -> Board:
        """The current board, as a tuple of colours."""
        return board_of_bytes(self._pts[0, : self._n].astype(self._np.int8))

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
        point = as_point(self.graph, v)
        if point is None:
            return False
        v = point
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
        # The same opening in Game.play and CompiledGame.play, inline: it runs once per move.
        if type(v) is not int or not 0 <= v < self._n:
            v = check_point(self.graph, v, IllegalMove)
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
        reason = self._reason(check_point(self.graph, v, IllegalMove))
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
                board_of_bytes(self._boards[t, : self._n]),
                players[int(self._hist[t, 1]) - 1],
                int(self._hist[t, 2]),
            )
            for t in range(stored)
        ]
