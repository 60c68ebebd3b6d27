"""The engine's bitset kernel: a board as two Python ints, and the move of the source on them.

A board is held as two Python ints, the points of Black and the points of White (bit
``v`` set when point ``v`` carries a stone).  Each graph gets a :class:`Kernel` once
(cached), with its neighbour masks precomputed; on a grid, neighbours of a set of points
are found by shifts.  A move looks only at the chains next to the point played (on a
directed graph: at the stones of each colour that reach Empty).

Code that builds on the kernel (the engine, solvers, counting) uses ``kernel(graph)`` and
its operations: ``play(black, white, v, side)`` (the move of the source for Black, side 0,
or White, side 1, on a well-formed board with v empty: returns ``(black, white)`` after
both clears), ``reaching(stones, target)``, ``well_formed(black, white)``,
``area(black, white)`` and the masks ``all``, ``out`` (out-neighbours), ``into``
(in-neighbours); and ``to_bits`` / ``to_board`` to cross the boundary to the spec's
boards (tuples of colours).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence

from gorules.spec.graph import Graph, grid
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE, Board

COLOURS = (BLACK, WHITE, EMPTY)


class EngineError(ValueError):
    """Something the engine was asked to do that the rules do not allow."""


class BoardError(EngineError):
    """A board or state that is not a board of the graph, or not well-formed where required."""


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
        # arrays that other rooms derive from this graph once (the compiled kernels keep theirs here)
        self.derived: dict[str, tuple] = {}
        self.shape = _grid_shape(graph)
        if self.shape is not None:
            rows, columns = self.shape
            first_column = sum(1 << (r * columns) for r in range(rows))
            last_column = first_column << (columns - 1)
            self.not_first_column = self.all & ~first_column
            self.not_last_column = self.all & ~last_column
            self.columns = columns
            self.dilate_in = self._dilate_grid
            self.play = self._play_grid
        else:
            self.dilate_in = functools.partial(_dilate, self.into)
            # ``play`` resolved once per graph to the loop that fits it (saves a call per move).
            self.play = self._play_symmetric if self.symmetric else self._play_directed

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

    # ``play(black, white, v, side)``: clear(clear(b[v ↦ p], p*), p) on a well-formed board
    # with v empty, p Black (side 0) or White (side 1); returns (black, white) after.  The
    # three loops below are its forms for directed graphs, undirected graphs and grids.

    def _play_directed(self, black: int, white: int, v: int, side: int) -> tuple[int, int]:
        """play on any graph: keep the stones of each colour that reach Empty."""
        if side:
            mine, theirs = white, black
        else:
            mine, theirs = black, white
        mine |= 1 << v
        empty = self.all & ~(mine | theirs)
        theirs = self.reaching(theirs, empty)
        empty = self.all & ~(mine | theirs)
        mine = self.reaching(mine, empty)
        return (theirs, mine) if side else (mine, theirs)

    def _play_symmetric(self, black: int, white: int, v: int, side: int) -> tuple[int, int]:
        """play on an undirected graph: only the chains next to v can lose their last liberty."""
        # The same two walks as _play_grid with the neighbours read from the masks, written out
        # for the same reason: a shared helper would cost a call per step of the hottest loop.
        out = self.out
        if side:
            mine, theirs = white, black
        else:
            mine, theirs = black, white
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
                if side:
                    return theirs, mine
                return mine, theirs
            frontier = d & mine & ~chain
            chain |= frontier
        if side:
            return theirs, mine ^ chain
        return mine ^ chain, theirs

    def _play_grid(self, black: int, white: int, v: int, side: int) -> tuple[int, int]:
        """play on a grid, with neighbours found by shifts."""
        # The shift of _dilate_grid is written out in both walks (the opponent's chains, then
        # the mover's): a call per step would cost more than the step in this hottest loop.
        every = self.all
        c = self.columns
        not_first = self.not_first_column
        not_last = self.not_last_column
        if side:
            mine, theirs = white, black
        else:
            mine, theirs = black, white
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
                if side:
                    return theirs, mine
                return mine, theirs
            frontier = d & mine & ~chain
            chain |= frontier
        if side:
            return theirs, mine ^ chain
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


def check_player(p) -> int:
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


def check_point(graph: Graph, v, error: type[EngineError] = BoardError) -> int:
    """v as a point of the graph; ``error`` (BoardError unless told) naming it if it is none."""
    point = as_point(graph, v)
    if point is None:
        raise error(f"unknown point {v!r}: {graph.name} has points 0..{graph.order - 1}")
    return point


def require_well_formed(graph: Graph, black: int, white: int) -> None:
    """BoardError naming a stone that does not reach Empty, if there is one."""
    k = kernel(graph)
    empty = k.all & ~(black | white)
    stranded = (black & ~k.reaching(black, empty)) | (white & ~k.reaching(white, empty))
    if stranded:
        v = (stranded & -stranded).bit_length() - 1
        raise BoardError(f"board is not well-formed: the stone at point {v} does not reach an empty point")
