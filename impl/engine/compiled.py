"""The compiled engine: :class:`CompiledGame` and whole random playouts, over numba kernels.

:class:`CompiledGame` is :class:`impl.engine.playing.Game`'s stepping API (``play``, ``pass_``,
``legal_moves``, ``undo``, ``board``, ``to_move``, ``passes``, ``over``, ``score``,
``winner``), with OpenSpiel's beside it (``legal_actions``, ``apply_action``,
``is_terminal``), over the step kernel ``impl/kernels/game.py``, with incremental chains,
for Python loops that step a game move by move (undirected graphs only).
:func:`compiled_random_playout` plays whole uniform random games in the playout kernel
``impl/kernels/playout.py``, far faster than :func:`impl.engine.playing.random_playout`
(benchmarks/README.md, ``bench_openspiel.py``, measures both).  numpy and numba are imported when first used.
"""

from __future__ import annotations

import functools
import random as _random
from typing import Any, NamedTuple

from gorules.impl.engine.bitset import EngineError, as_point, check_point, kernel, to_bits
from gorules.impl.engine.options import Options, options_of
from gorules.impl.engine.playing import IllegalMove, Position
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
    options: str | Options | None = "tromp-taylor",
    max_moves: int | None = None,
    pass_last: bool = False,
) -> Playout:
    """Like :func:`random_playout` (uniform random legal moves, pass among them, under
    ``options`` or the preset of that name, until two passes or ``max_moves``, default 4·n),
    but the whole game runs in the compiled kernel;
    its random numbers come from numba's generator, seeded from ``rng``.  With
    ``pass_last`` a player passes only when no point is legal."""
    import numpy as np

    from gorules.impl.kernels.playout import playout

    options = options_of(options)
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
        KO_CODES[options.ko],
        options.suicide == "allowed",
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

        from gorules.impl.kernels.game import HEAD, NEXT, ROWS, SIZE

        n = graph.order
        ptr, idx = csr([graph.neighbours[v] for v in range(n)])
        zobrist = np.random.default_rng(20240).integers(1, 2**62, size=(max(n, 1), 3), dtype=np.int64)
        pts = np.zeros((ROWS, max(n, 1)), dtype=np.int64)
        pts[HEAD] = pts[NEXT] = np.arange(max(n, 1))
        pts[SIZE] = 1
        arrays = (ptr, idx, zobrist, pts)
        k.derived["game"] = arrays
    return arrays


def _first_capacity(n: int) -> int:
    """The history room a new game starts with: a power of two from 64 on, enough for 2·n
    moves (most random games) unless the log of legal actions would pass 2²⁰ entries."""
    capacity = 64
    while capacity < 2 * n + 2 and 2 * capacity * (n + 1) <= 1 << 20:
        capacity *= 2
    return capacity


class _Arrays(NamedTuple):
    """The arrays of a compiled game, as views of its memory (``kernels.game._views``)."""

    pts: Any
    hist: Any
    table: Any
    scal: Any
    ptr: Any
    idx: Any
    zob: Any
    out: Any
    boards: Any
    scratch: Any


@functools.lru_cache(maxsize=64)
def _packed_offsets(n: int, capacity: int, scal_length: int, arcs: int) -> tuple:
    """(offset, length) in int64 words of each array packed in a compiled game's memory, in
    the order of ``kernels.game._views``."""
    from gorules.impl.kernels.game import HEADER, packed_sizes

    offsets = []
    offset = HEADER
    for size in packed_sizes(n, capacity, scal_length, arcs):
        offsets.append((offset, size))
        offset += size
    return tuple(offsets)


@functools.lru_cache(maxsize=64)
def _first_position_parts(n: int, capacity: int, scal_length: int, arcs: int) -> tuple:
    """The ranges of int64 words of a compiled game's memory that hold something while one
    position is stored: the header, the chains, the first row of the history, the hash
    table, the scalars, the graph, the Zobrist keys, and the first board."""
    _pts, hist, table, *_, boards, _scratch, _log = _packed_offsets(n, capacity, scal_length, arcs)
    first_board = -(-max(n, 1) // 8)
    return ((0, hist[0] + hist[1] // capacity), (table[0], boards[0] + first_board))


_ENTRIES: list = []


def _entry_points() -> tuple:
    """(step, list): the compiled entries of ``packed_step`` and ``packed_list`` for an
    int64 code and the address of the packed int64 memory, compiled (or loaded from numba's
    cache) once.  Calling an entry spares each call the dispatcher's typing of its
    arguments; where numba does not hand an entry out, the dispatcher itself serves."""
    if not _ENTRIES:
        from numba import types

        from gorules.impl.kernels import game as compiled

        for dispatcher, signature in (
            (compiled.packed_step, (types.int64, types.int64)),
            (compiled.packed_list, (types.int64,)),
        ):
            entry = dispatcher.compile(signature)
            _ENTRIES.append(entry if callable(entry) else dispatcher)
    return tuple(_ENTRIES)


class CompiledGame(Position):
    """:class:`Game`'s stepping API over the compiled kernel (numba), for loops that step a
    game from Python, with OpenSpiel's step API beside it (``legal_actions``,
    ``apply_action``, ``is_terminal``: an action is a point, or n = the number of points for
    pass).

    The position lives in numpy arrays with incremental chains: each chain keeps its
    pseudo-liberties with their sum and sum of squares, so the points it dies at, and
    the Zobrist hash of the board after any move, are known from the neighbours of the
    point alone.  Each point also keeps its class for each player (occupied, a placement
    that removes nothing, a capture, a suicide), refreshed after a move only where the
    move can change it; listing the legal moves reads one class per point, and looks
    closer only at captures, suicides and the placements that would repeat a stored board.
    Once they have been listed, the next move lists the next player's legal actions in the
    same compiled call, so that a loop of ``legal_actions()`` and ``apply_action(a)``
    crosses into compiled code once per move.  The legal actions of
    each position are kept in a log that is written once, so ``legal_actions()`` hands out
    a read-only view of its row without copying, which stays valid.  Every ko rule of
    :class:`gorules.spec.tromp_taylor.Options` is exact: the hash of the board after a move finds the
    candidate earlier positions, and only an exact comparison of boards forbids the move.
    Undirected graphs only (a directed graph raises :class:`EngineError`); ``undo()``
    rebuilds the chains of the earlier board.
    """

    def __init__(
        self,
        graph: Graph,
        options: str | Options | None = "tromp-taylor",
        board: Board | None = None,
        to_move: str = BLACK,
    ):
        """A new game under ``options`` (or the preset of that name): the empty board with Black
        to move, or the given well-formed board (Game's signature on purpose: the two games are
        interchangeable)."""
        import numpy as np

        from gorules.impl.kernels import game as compiled

        if not kernel(graph).symmetric:
            raise EngineError(f"the compiled game plays on undirected graphs only; {graph.name} is directed")
        black, white, side = self._begin(graph, options, board, to_move)
        self._np = np
        self._c = compiled
        self._n = graph.order
        # A game from the empty board starts from a copy of the first one's memory.
        key = f"empty game {self.options.ko} {self.options.suicide} {side}"
        start = None if black or white else self.kernel.derived.get(key)
        if start is not None:
            self._restore(*start)
        else:
            self._start(black, white, side)
            if not (black or white):
                self.kernel.derived[key] = (self._mem.copy(), self._capacity)
        self._step, self._list = _entry_points()
        self.moves: list[Move] = []
        self._side = side
        self.passes = 0
        self._listing = 0  # 1 when each move should list the next legal actions as well
        self._listed = -1  # the number of legal actions in the log row of this position, or -1
        self._row = 0  # where that row starts in the log

    def _start(self, black: int, white: int, side: int) -> None:
        """Build the memory of a game that starts at the board (black, white) with ``side`` to
        move: chains, Zobrist hash, and the start as the first position of the history."""
        np = self._np
        compiled = self._c
        n = self._n
        ptr, idx, zob, empty_pts = _compiled_game_arrays(self.graph)
        scal = np.zeros(compiled.COUNTS + 8 * (n + 1), dtype=np.int64)
        scal[1] = KO_CODES[self.options.ko]
        scal[2] = self.options.suicide == "allowed"
        none = np.zeros((0, compiled.HISTORY_COLUMNS), dtype=np.int64), np.zeros((0, max(n, 1)), dtype=np.int8)
        self._allocate(_first_capacity(n), _Arrays(empty_pts, none[0], None, scal, ptr, idx, zob, None, none[1], None))
        a = self._arrays
        h = 0
        if black or white:
            start = np.array([[1 if black >> v & 1 else 2 if white >> v & 1 else 0 for v in range(n)]], dtype=np.int8)
            compiled.game_load(a.pts, start, 0, a.ptr, a.idx, n)
            h = compiled.game_zobrist(a.pts, a.zob, n)
        compiled.game_classes(a.pts, a.scal, a.ptr, a.idx, n)
        compiled._record(a.pts, a.hist, a.boards, a.table, a.scal, h, side + 1, 0, -1, -1, n)

    def _restore(self, memory, capacity: int) -> None:
        """Take a copy of the memory of a game just started (the same start, graph and rules
        were built before): every array in it is as ``_start`` leaves it.  Only the first
        position of the history and of the boards is stored, and rows past the stored
        positions (like the log of legal actions) are not read before they are written, so
        only the parts that hold something are copied."""
        mem = self._np.empty_like(memory)
        for start, stop in _first_position_parts(self._n, capacity, int(memory[2]), int(memory[3])):
            mem[start:stop] = memory[start:stop]
        self._views(mem, capacity)

    def _allocate(self, capacity: int, old: _Arrays | None = None) -> None:
        """Room for ``capacity`` positions of history (keeping those stored in ``old``, by
        default the game's arrays), a hash table four times as large and a new log of legal
        actions: every array packed in one int64 array (see ``kernels.game._views``); views
        handed out of the old log stay valid."""
        c = self._c
        n = self._n
        old = old or self._arrays
        stored = int(old.scal[0])
        arcs = len(old.idx)
        sizes = c.packed_sizes(n, capacity, len(old.scal), arcs)
        mem = self._np.zeros(c.HEADER + sum(sizes), dtype=self._np.int64)
        mem[: c.HEADER] = (n, capacity, len(old.scal), arcs)
        self._views(mem, capacity)
        new = self._arrays
        for name in ("pts", "scal", "ptr", "idx", "zob"):
            getattr(new, name)[:] = getattr(old, name)
        new.table[:] = -1
        if stored:
            new.hist[:stored] = old.hist[:stored]
            new.boards[:stored] = old.boards[:stored]
        c.game_rehash(new.hist, new.table, stored)

    def _views(self, mem, capacity: int) -> None:
        """Make ``mem`` the game's memory, with room for ``capacity`` positions: the log of
        legal actions as a read-only view, no legal actions listed yet, and the views of
        the other arrays made when first asked for (``_arrays``)."""
        self._mem = mem
        self._address = mem.ctypes.data  # the step kernel's handle on it; ``_mem`` keeps it alive
        self._capacity = capacity
        self._listed = -1
        offset, size = _packed_offsets(self._n, capacity, int(mem[2]), int(mem[3]))[-1]
        self._log = memoryview(mem[offset : offset + size].view(self._np.int32)).toreadonly()
        self._unpacked: _Arrays | None = None

    @property
    def _arrays(self) -> _Arrays:
        """The views of the arrays packed in the memory (the layout of
        ``kernels.game._views``), made on first use: a playout that only steps never needs them."""
        if self._unpacked is None:
            np = self._np
            mem = self._mem
            width = max(self._n, 1)
            capacity = self._capacity
            pts, hist, table, scal, ptr, idx, zob, out, boards, scratch, _ = (
                mem[offset : offset + size]
                for offset, size in _packed_offsets(self._n, capacity, int(mem[2]), int(mem[3]))
            )
            self._unpacked = _Arrays(
                pts.reshape(self._c.ROWS, width),
                hist.reshape(capacity, self._c.HISTORY_COLUMNS),
                table,
                scal,
                ptr,
                idx,
                zob.reshape(width, 3),
                out,
                boards.view(np.int8)[: capacity * width].reshape(capacity, width),
                scratch.view(np.int8)[:width],
            )
        return self._unpacked

    # ---- reading the state

    @property
    def board(self) -> Board:
        """The current board, as a tuple of colours."""
        return board_of_bytes(self._arrays.pts[0, : self._n].astype(self._np.int8))

    @property
    def bits(self) -> tuple[int, int]:
        """(Black's points, White's points) of the current board."""
        return to_bits(self.graph, self.board)

    def is_terminal(self) -> bool:
        """Whether two consecutive passes have ended the game (OpenSpiel's name for ``over``)."""
        return self.passes >= 2

    # ---- moves

    def _reason(self, v: int) -> int:
        """0 if v is legal now, else the code of the reason (see ``_REASONS``)."""
        if self.passes >= 2:
            return 6
        return self._c.packed_why_illegal(v, self._mem)

    def try_play(self, v: Move) -> bool:
        """Play v (a point or "pass") if the rules allow it; return whether it was played."""
        if v == PASS:
            if self.passes >= 2:
                return False
            self.pass_()
            return True
        point = as_point(self.graph, v)
        if point is None or self._reason(point):
            return False
        self.play(point)
        return True

    def apply_action(self, action: int) -> None:
        """Play an action: a point, or n (the number of points) for pass; IllegalMove names
        the reason if the rules forbid it.  OpenSpiel's name and numbering."""
        if type(action) is not int:
            action = self._n if action == PASS else check_point(self.graph, action, IllegalMove)
        listed = self._step(2 * action + self._listing, self._address)
        if listed < -1:
            listed = self._refused(action, listed)
        n = self._n
        self._row += n + 1
        self._listed = listed
        self._listing = 0
        self._side ^= 1
        if action == n:
            self.moves.append(PASS)
            self.passes += 1
        else:
            self.moves.append(action)
            self.passes = 0

    def _refused(self, action: int, code: int) -> int:
        """What the step kernel's refusal ``code`` of an action means: an unknown point or an
        illegal move raises IllegalMove; a full history is made larger and the action
        played again (its result returned)."""
        if code == -9:
            check_point(self.graph, action, IllegalMove)  # raises: not a point of the graph
        if code == -8:  # no room in the history: make some and play again
            self._allocate(2 * self._capacity)
            code = self._step(2 * action + self._listing, self._address)
        if code < -1:
            move = PASS if action == self._n else action
            raise IllegalMove(f"{self.to_move} {move} is illegal: {_REASONS[-1 - code]}")
        return code

    def play(self, v: Move) -> None:
        """Play v (a point or "pass"); IllegalMove names the reason if the rules forbid it."""
        if v == PASS:
            v = self._n
        elif type(v) is not int or not 0 <= v < self._n:
            v = check_point(self.graph, v, IllegalMove)
        self.apply_action(v)

    def pass_(self) -> None:
        """Pass; IllegalMove if the game is already over."""
        self.apply_action(self._n)

    def undo(self) -> Move:
        """Take back the last move and return it; IllegalMove if there is none."""
        if not self.moves:
            raise IllegalMove("nothing to undo")
        c = self._c
        a = self._arrays
        c.game_forget_last(a.hist, a.table, a.scal, self._n)
        t = int(a.scal[0]) - 1
        c.game_load(a.pts, a.boards, t, a.ptr, a.idx, self._n)
        c.game_zobrist(a.pts, a.zob, self._n)
        c.game_classes(a.pts, a.scal, a.ptr, a.idx, self._n)
        self._side = int(a.hist[t, 1]) - 1
        self.passes = int(a.hist[t, 2])
        # A new log: the rows from here on will be written again, and views of them handed
        # out before must not change.
        self._allocate(self._capacity)
        self._row = t * (self._n + 1)
        return self.moves.pop()

    def why_illegal(self, v: Move) -> str | None:
        """None if v is legal now, else the reason it is not."""
        if v == PASS:
            return "the game is over" if self.passes >= 2 else None
        reason = self._reason(check_point(self.graph, v, IllegalMove))
        return _REASONS[reason] if reason else None

    def legal_actions(self):
        """The legal actions of the player to move, as OpenSpiel numbers them (the legal
        points in increasing order, then n for pass; empty once the game is over): a
        read-only sequence of ints that stays as it is when the game goes on."""
        count = self._listed
        if count < 0:
            count = self._listed = self._list(self._address)
        # The loop is listing moves: the next move also lists the next player's actions.
        self._listing = 1
        row = self._row
        return self._log[row : row + count]

    def legal_moves(self) -> list[Move]:
        """The points the player to move may play, then "pass"; empty once the game is over."""
        legal = self.legal_actions().tolist()
        if legal:
            legal[-1] = PASS
        return legal

    # ---- the result

    def states(self) -> list[State]:
        """The states s₀ … s_i of the game so far (s₀ is the starting position)."""
        players = (BLACK, WHITE)
        a = self._arrays
        stored = int(a.scal[0])
        return [
            State(
                board_of_bytes(a.boards[t, : self._n]),
                players[int(a.hist[t, 1]) - 1],
                int(a.hist[t, 2]),
            )
            for t in range(stored)
        ]
