"""The boards of Ultimate/Fundamental Go on one graph as bitsets (``Engine``'s part
``boards``): a board's code, the numbering of boards as history bits, strings and their
liberties, a placement with its captures, and the translation between positions and the
spec's situations."""

from __future__ import annotations

from gorules.spec import ultimate as spec
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE

Position = tuple
"""(black, white, player, black bowl, white bowl, ultimate, first, draw, history, forced):
black/white bitsets of stones; player 0 Black, 1 White; ultimate a 2-bit set of the players
still holding an ultimate prisoner (bit 0 Black, bit 1 White); first/draw the player who
played the first ultimate delay / may declare a draw, or −1; history a bitset over board
numbers; forced the delays White still owes (handicap)."""

DELAY = spec.DELAY
ULTIMATE_DELAY = spec.ULTIMATE_DELAY
COLOURS = (BLACK, WHITE)
INF = 1 << 40
"""A prisoner difference beyond any game's (−INF: below any)."""


class Boards:
    """One graph's neighbour sets and the boards numbered on first sight."""

    def __init__(self, graph: Graph):
        """Prepare the graph's neighbour sets; no board numbered yet."""
        self.graph = graph
        self.n = graph.order
        self.neighbours = [sum(1 << w for w in graph.neighbours[v]) for v in graph.points]
        self.full = (1 << self.n) - 1
        self.numbers: dict[int, int] = {}
        self.codes: list[int] = []  # the board of each history bit

    def code(self, black: int, white: int) -> int:
        """One integer for a board: Black's stones, then White's shifted past them."""
        return black | (white << self.n)

    def bit(self, code: int) -> int:
        """The history bit of a board (boards numbered on first sight)."""
        number = self.numbers.get(code)
        if number is None:
            number = self.numbers[code] = len(self.numbers)
            self.codes.append(code)
        return 1 << number

    def group(self, stones: int, v: int) -> int:
        """The points of the string through v among ``stones``."""
        found = frontier = 1 << v
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= self.neighbours[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & stones & ~found
            found |= frontier
        return found

    def breathes(self, string: int, empty: int) -> bool:
        """Whether some point next to the string is empty."""
        while string:
            low = string & -string
            if self.neighbours[low.bit_length() - 1] & empty:
                return True
            string ^= low
        return False

    def place(self, own: int, other: int, v: int) -> tuple[int, int, int] | None:
        """The mover's stone on empty point v, the opponent's surrounded strings taken off:
        (own, other, stones taken), or None if the placed stone is then surrounded."""
        own |= 1 << v
        empty = self.full & ~(own | other)
        taken = 0
        rest = self.neighbours[v] & other
        while rest:
            low = rest & -rest
            string = self.group(other, low.bit_length() - 1)
            rest &= ~string
            if not self.breathes(string, empty):
                taken |= string
        if taken:
            return own, other & ~taken, taken.bit_count()
        if not self.breathes(self.group(own, v), empty):
            return None
        return own, other, 0

    def image(self, sigma: tuple[int, ...], code: int) -> int:
        """A board code with every point v moved to sigma[v] (both colours)."""
        moved = 0
        while code:
            low = code & -code
            i = low.bit_length() - 1
            moved |= 1 << (sigma[i % self.n] + (i // self.n) * self.n)
            code ^= low
        return moved

    def from_situation(self, s: spec.State) -> Position:
        """The position of a spec situation (one not yet over)."""
        black, white = board_bits(s.board)
        history = 0
        for board in s.history:
            history |= self.bit(self.code(*board_bits(board)))
        ultimate = (BLACK in s.ultimate) | (WHITE in s.ultimate) << 1
        return (
            black,
            white,
            COLOURS.index(s.player),
            s.black_prisoners,
            s.white_prisoners,
            ultimate,
            -1 if s.first_ultimate is None else COLOURS.index(s.first_ultimate),
            -1 if s.draw_right is None else COLOURS.index(s.draw_right),
            history,
            getattr(s, "forced_delays", 0),
        )

    def to_situation(self, p: Position) -> spec.State:
        """The spec situation of a position (its bowls as they are)."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        codes = {1 << number: code for code, number in self.numbers.items()}
        boards = frozenset(
            board_tuple(self.n, code & self.full, code >> self.n) for bit, code in codes.items() if history & bit
        )
        held = frozenset(c for i, c in enumerate(COLOURS) if ult >> i & 1)
        named = {-1: None, 0: BLACK, 1: WHITE}
        board = board_tuple(self.n, black, white)
        return spec.State(
            board, COLOURS[player], bb, wb, held, named[first], named[draw], boards | {board}, None, forced
        )


def board_bits(board) -> tuple[int, int]:
    """The (black, white) bitsets of a board tuple."""
    black = sum(1 << v for v, c in enumerate(board) if c == BLACK)
    white = sum(1 << v for v, c in enumerate(board) if c == WHITE)
    return black, white


def board_tuple(n: int, black: int, white: int) -> tuple:
    """The board tuple ("B", "W", ".") of two bitsets on n points."""
    return tuple(BLACK if black >> v & 1 else WHITE if white >> v & 1 else EMPTY for v in range(n))
