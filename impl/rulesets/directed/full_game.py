"""The winning conditions of source 000's whole game on its finite arena
(:mod:`gorules.impl.rulesets.directed.full_arena`), each solved by Zielonka's algorithm.

A play's result is read off the colours its arena visits infinitely often: each player's
unsustainability is the highest rank of its actions among them; if either is not 0, the
lower wins (equal: a draw); otherwise no bid recurs, so the score difference e is the same
on every recurring offer, and Black wins iff e plus the live margin is above 0 (0: a draw).
Each question is a game "Black's play meets a condition", an Emerson–Lei condition on the
recurring colours.  Zielonka's recursion needs, for a set C of colours, the largest sets
below C with the other winner; :meth:`Condition.children` lists them from the structure:
above the tie a condition depends only on the two unsustainabilities, so the candidates
are C less the ranks above a chosen pair, and only the tie's colours (live points and e)
are tried one subset at a time.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from gorules.impl.rulesets.directed.arena import WinningRegions, play_plans, solve
from gorules.impl.rulesets.directed.full_arena import FullArena, MarkedArena, Reading
from gorules.spec.directed import KoBid, Turn
from gorules.spec.graph import Graph
from gorules.spec.tromp_taylor import BLACK, DRAW, EMPTY, WHITE, Player

KINDS = ("win", "win-or-draw", "black-reasonable", "white-reasonable")
"""The conditions solved: Black wins; Black wins or draws; Black wins or draws and is never
unsustainable unless White is more so; White wins or draws that way (its complement)."""

SETTLING = ("black-settles", "white-settles")
"""The conditions of stability, on a :class:`~gorules.impl.rulesets.directed.full_arena.MarkedArena`:
Black wins or draws and eventually passes; White wins or draws and eventually passes (its
complement: Black wins, or White places stones for ever)."""


class Condition:
    """Black's winning condition `kind` on the recurring colours of an arena."""

    def __init__(self, arena: FullArena, kind: str):
        if kind not in KINDS + SETTLING:
            raise ValueError(f"unknown condition {kind!r}")
        self.arena = arena
        self.kind = kind
        self.black_ranks = arena.rank_bits(BLACK)
        self.white_ranks = arena.rank_bits(WHITE)
        self.unsustainable = sum(self.black_ranks) + sum(self.white_ranks)
        self._children: dict[int, tuple[int, ...]] = {}
        self._wins: dict[int, bool] = {}
        self.live = (1 << (2 * arena.order)) - 1
        self.flags = ((1 << arena.flag_count) - 1) << arena.flag_bits

    def ranks(self, seen: int) -> tuple[int, int]:
        """Black's and White's unsustainability (0: none recurs)."""
        black = max((r + 1 for r, bit in enumerate(self.black_ranks) if seen & bit), default=0)
        white = max((r + 1 for r, bit in enumerate(self.white_ranks) if seen & bit), default=0)
        return black, white

    def tie(self, seen: int) -> Fraction:
        """e plus the live margin: Black's final score minus White's when nobody is unsustainable."""
        n = self.arena.order
        margin = sum(1 for i in range(n) if not seen & (1 << i)) - sum(1 for i in range(n) if not seen & (1 << (n + i)))
        values = [e for e, bit in self.arena.e_bits.items() if seen & bit]
        return max(values, default=Fraction(0)) + margin

    def __call__(self, seen: int) -> bool:
        """Whether Black meets the condition when exactly `seen` recurs."""
        known = self._wins.get(seen)
        if known is None:
            known = self._wins[seen] = self._meets(seen)
        return known

    def _meets(self, seen: int) -> bool:
        """See :meth:`__call__`."""
        black, white = self.ranks(seen)
        if self.kind == "black-reasonable":
            if black == 0:
                return white > 0 or self.tie(seen) >= 0
            return black < white
        if self.kind == "white-reasonable":
            if white == 0:
                return not (black > 0 or self.tie(seen) <= 0)
            return not white < black
        if self.kind in SETTLING:
            return self._settles(seen, black, white)
        if black or white:
            return black < white if self.kind == "win" else black <= white
        return self.tie(seen) > 0 if self.kind == "win" else self.tie(seen) >= 0

    def keeps_placing(self, seen: int, player: Player) -> bool:
        """Whether `player` does not eventually pass: a stone of its recurs (reading
        ``passing=quiet``: or a deletion of its)."""
        arena = self.arena
        if seen & arena.stone_bit(player):
            return True
        return arena.reading.passing == "quiet" and bool(seen & arena.unsustainable_bit(player, "delete"))

    def _settles(self, seen: int, black: int, white: int) -> bool:
        """Black's side of a settling condition (see :data:`SETTLING`)."""
        if black or white:
            black_wins, black_draws = black < white, black <= white
        else:
            black_wins, black_draws = self.tie(seen) > 0, self.tie(seen) >= 0
        if self.kind == "black-settles":
            return black_draws and not self.keeps_placing(seen, BLACK)
        return black_wins or self.keeps_placing(seen, WHITE)

    def above(self, seen: int, black: int, white: int) -> int:
        """`seen` less every rank of Black above `black` and of White above `white`."""
        drop = sum(self.black_ranks[black:]) + sum(self.white_ranks[white:])
        return seen & ~drop

    def children(self, seen: int) -> tuple[int, ...]:
        """The maximal colour sets inside `seen` whose winner is not the winner of `seen`."""
        if seen not in self._children:
            self._children[seen] = self._find_children(seen)
        return self._children[seen]

    def _find_children(self, seen: int) -> tuple[int, ...]:
        """See :meth:`children`."""
        top = self(seen)
        black_options = [0] + [r + 1 for r, bit in enumerate(self.black_ranks) if seen & bit]
        white_options = [0] + [r + 1 for r, bit in enumerate(self.white_ranks) if seen & bit]
        candidates = []
        for flags in subsets(seen & self.flags):
            for black in black_options:
                for white in white_options:
                    below = self.above(seen, black, white) & ~(self.flags & ~flags)
                    if black or white:
                        if below != seen and self(below) != top:
                            candidates.append(below)
                        continue
                    candidates.extend(
                        d | flags for d in self.ties(below) if d | flags != seen and self(d | flags) != top
                    )
        return maximal(candidates)

    def ties(self, seen: int) -> list[int]:
        """The subsets of a set without unsustainable colours that can be maximal among those of
        one winner: the tie reads the largest e present, so with e* the largest kept, every
        smaller e of `seen` is kept too; the live colours are taken in every way."""
        es = sorted((e, bit) for e, bit in self.arena.e_bits.items() if seen & bit)
        live = seen & self.live
        found: list[int] = []
        kept = 0
        for _, bit in [(None, 0), *es]:
            kept |= bit
            found.extend(kept | sub for sub in subsets(live))
        return found


class Guarantee(Condition):
    """Black's condition when `side` (0 Black, 1 White) must guarantee a final score above
    `floor` over the opponent's while the opponent is not unsustainable: the opponent is
    unsustainable, or neither is and the side's final score minus the other's (± e plus the
    live margin) is above `floor`; for White, Black's condition is its complement.  A sink
    counts for its owner, so the guarantee is exact for floors below the bid step and may be
    too generous above it (a play past the e window is only known to be won)."""

    def __init__(self, arena: FullArena, floor: Fraction, side: int = 0):
        super().__init__(arena, "win")
        self.floor = floor
        self.side = side

    def _meets(self, seen: int) -> bool:
        """See :meth:`Condition.__call__`."""
        black, white = self.ranks(seen)
        mine, theirs = (black, white) if self.side == 0 else (white, black)
        relative = self.tie(seen) if self.side == 0 else -self.tie(seen)
        guaranteed = theirs > 0 or (mine == 0 and relative > self.floor)
        return guaranteed if self.side == 0 else not guaranteed


def subsets(mask: int) -> Iterable[int]:
    """Every subset of a bit mask, the mask itself first."""
    sub = mask
    while True:
        yield sub
        if sub == 0:
            return
        sub = (sub - 1) & mask


def maximal(sets: list[int]) -> tuple[int, ...]:
    """The sets of a list that no other set of it contains."""
    ordered = sorted(set(sets), key=lambda d: -bin(d).count("1"))
    found: list[int] = []
    for d in ordered:
        if not any(d & m == d for m in found):
            found.append(d)
    return tuple(found)


def solve_condition(arena: FullArena, kind: str) -> WinningRegions:
    """Both players' winning regions and plans for Black's condition `kind`."""
    condition = Condition(arena, kind)
    return solve(arena, condition, children_of=condition.children)


def komis(order: int, step: Fraction | None) -> list[Fraction]:
    """One komi per class of komis that every play scores alike: the points of the grid the
    scores move on (the bid step, or whole points) and one point inside each gap, from
    below −n to above n."""
    grid = step if step is not None and step < 1 else Fraction(1)
    half = grid / 2
    top = order + grid
    return [k * half for k in range(int(-top / half), int(top / half) + 1)]


@dataclass
class FullSolution:
    """The arena of a graph under a reading, built from every (start board, komi), and the
    solution of each condition asked for."""

    graph: Graph
    reading: Reading
    arena: FullArena
    boards: list
    komis: list
    solved: dict

    def start(self, board: tuple, komi: Fraction) -> int:
        """The node before the first turn: `board`, Black to move, White's komi."""
        return self.arena.start(board, -Fraction(komi))

    def wins(self, kind: str, board: tuple, komi: Fraction) -> bool:
        """Whether Black meets condition `kind` from the start."""
        return self.start(board, komi) in self.solved[kind].regions[0]

    def outcome(self, board: tuple, komi: Fraction) -> str:
        """B, W or draw under perfect play from the start at this komi."""
        if self.wins("win", board, komi):
            return BLACK
        return DRAW if self.wins("win-or-draw", board, komi) else WHITE

    def drawn_komis(self, board: tuple) -> list[Fraction]:
        """The komis (one per class) at which perfect play draws: the first player's
        win-or-draw komis, whichever colour the second takes."""
        return [k for k in self.komis if self.outcome(board, k) == DRAW]


def empty_board(graph: Graph) -> tuple:
    """The empty board of a graph."""
    return tuple(EMPTY for _ in graph.points)


def full_solution(
    graph: Graph,
    reading: Reading,
    boards: list,
    kinds: Iterable[str] = KINDS,
    max_positions: int = 10**6,
    arena_type: type[FullArena] = FullArena,
) -> FullSolution:
    """Build the arena (of `arena_type`, whose rules a subclass may change) from every start
    board at every komi class and solve each condition; ArenaTooLarge past `max_positions` nodes."""
    ks = komis(graph.order, reading.step)
    probe = arena_type(graph, reading, [], max_positions)
    starts = [probe.bounded(tuple(b), BLACK, frozenset(), -k) for b in boards for k in ks]
    arena = arena_type(graph, reading, starts, max_positions)
    solved = {kind: solve_condition(arena, kind) for kind in kinds}
    return FullSolution(graph, reading, arena, [tuple(b) for b in boards], ks, solved)


@functools.lru_cache(maxsize=32)
def cached_solution(graph: Graph, reading: Reading, boards: tuple, max_positions: int = 10**6) -> FullSolution:
    """:func:`full_solution`, computed once per graph, reading and boards."""
    return full_solution(graph, reading, list(boards), KINDS, max_positions)


@functools.lru_cache(maxsize=32)
def settling_solution(graph: Graph, reading: Reading, boards: tuple, max_positions: int = 10**6) -> FullSolution:
    """The solution of winning, drawing and both settling conditions (:data:`SETTLING`) on the
    marked arena from `boards` at every komi class, computed once per graph, reading and boards."""
    kinds = ("win", "win-or-draw", *SETTLING)
    return full_solution(graph, reading, list(boards), kinds, max_positions, MarkedArena)


def turns_of(arena: FullArena, nodes: list[int], then: int) -> list[Turn]:
    """The spec turns of a stretch of play that starts at an offer and ends just before
    `then`, an offer: the labels of the arcs between offers put together (a ko winner's
    board that is not in the history is the board kept)."""
    turns = []
    labels: list = [None] * 5
    following = [*nodes[1:], then]
    for v, w in zip(nodes, following):
        for k, part in enumerate(arena.labels[v][w]):
            if part is not None and not (k == 4 and kept_board(arena.positions[v], part)):
                labels[k] = part
        if arena.positions[w][0] == "offer":
            turns.append(turn_of(labels))
            labels = [None] * 5
    return turns


def kept_board(key: tuple, board: tuple) -> bool:
    """Whether the reset to `board` at an answer or reset node keeps the board on it, a board
    that is not in the history: the spec's turn names no reset board then."""
    return key[1] == board and board not in key[3]


def turn_of(labels: list) -> Turn:
    """A spec Turn from the parts (deleted_by, move, amount, winner, reset board)."""
    deleted_by, move, amount, winner, reset = labels
    if amount is None:
        return Turn(move, deleted_by)
    return Turn(move, deleted_by, KoBid(amount, winner, reset))


def value_play(solution: FullSolution, board: tuple, komi: Fraction) -> tuple[list[Turn], list[Turn]]:
    """The play of Black's win-or-draw plan against White's (the plans of "win-or-draw" and of
    "win" for White) from the start at a drawn komi, as spec turns: a prefix and a cycle that
    repeats for ever, both cut at offers."""
    arena = solution.arena
    start = solution.start(board, komi)
    lasso = play_plans(arena, solution.solved["win-or-draw"].plans[0], solution.solved["win"].plans[1], start)
    first = next(k for k, v in enumerate(lasso.cycle) if arena.positions[v][0] == "offer")
    cycle = lasso.cycle[first:] + lasso.cycle[:first]
    prefix = lasso.prefix + lasso.cycle[:first]
    head = turns_of(arena, prefix, cycle[0]) if prefix else []
    return head, turns_of(arena, cycle, cycle[0])
