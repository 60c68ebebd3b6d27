"""Section IV's score of Fundamental Go and section VI's reading of the Ultimate result from
it (``Engine``'s part ``scoring``), both asked of the engine's yes/no searches.

The score is found by asking ``can_win`` with more and more mid-game komi: whether K more
prisoners for the side behind turn the result is monotone in K, so the score is where the
answer turns.  The engine is asked for what its variants override (the questions, the
probe, the symmetric start and the reading of a score)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gorules.impl.rulesets.ultimate.boards import INF, Position
from gorules.impl.rulesets.ultimate.proving import Abandoned

PROBE = 20_000
"""The node cap of a probe: a komi question of the score search that costs more is put
aside (unanswered) while other komi are tried."""
JUMPS = 3
"""How many probes above a question put aside (K + 1, K + 2, K + 4) before it is asked in full."""


class Scoring:
    """The score questions of one engine; ``bounds`` holds what is proved of the score so far
    (for a report when the budget runs out)."""

    def __init__(self, engine: Any):
        """Nothing proved of the score yet."""
        self.engine = engine
        self.bounds: tuple[float, float] = (-INF, INF)  # the score, as far as proved

    @staticmethod
    def fundamental(p: Position) -> Position:
        """The position with the draw option ignored: ultimate prisoners still held become
        plain prisoners and nobody may declare a draw (section VI's reading)."""
        black, white, player, bb, wb, ult, first, _, history, forced = p
        return (black, white, player, bb + (ult & 1), wb + (ult >> 1 & 1), 0, first, -1, history, forced)

    @staticmethod
    def with_komi(p: Position, colour: int, k: int) -> Position:
        """The position with k more stones in the bowl of ``colour`` (0 Black, 1 White)."""
        q = list(p)
        q[3 + colour] += k
        return tuple(q)

    def black_wins(self, p: Position) -> bool:
        """In Fundamental Go, whether Black has a winning strategy."""
        return self.engine.can_win(p) == (p[2] == 0)

    def score(self, p: Position, probe: int | None = PROBE) -> float:
        """Section IV's score of a position read as Fundamental Go: min{K : White wins with
        K more prisoners} − ½ if Black wins, else −min{K : Black wins with K more} + ½.

        The questions are asked for K = 1, 2, … each first as a probe of ``probe`` nodes;
        one that costs more is put aside while K + 1, K + 2 and K + 4 are probed, so that a
        cheap answer above it bounds the score from the other side, and is then asked in
        full.  ``probe=None`` asks every question in full at once (K = 1, 2, … in turn)."""
        engine = self.engine
        p = self.fundamental(p)
        self.bounds = (-INF, INF)
        black_ahead = self.black_wins(p)
        behind = 1 if black_ahead else 0
        self.bounds = self.score_bounds(black_ahead, 0, None)

        def turns(k: int) -> bool:
            """Whether k more prisoners for the side behind turn the result."""
            return self.black_wins(self.with_komi(p, behind, k)) != black_ahead

        low, high = 0, None  # the largest K known not to turn it, the least known to turn it
        if not black_ahead and engine.lemmas and engine.symmetric_start(p):
            high = 1  # the delay lemma (``symmetric_start``)
            self.bounds = self.score_bounds(black_ahead, low, high)
        aside: list[int] = []  # questions put aside, all between low and high
        while high is None or high > low + 1:
            k, cap = self.next_question(low, high, aside, probe)
            answer = engine.probed(turns, k, cap)
            if answer is None:
                aside.append(k)
                continue
            if answer:
                high = k
                aside = [a for a in aside if a < k]
            else:
                low = k
                aside = [a for a in aside if a > k]
            self.bounds = self.score_bounds(black_ahead, low, high)
        return self.bounds[0]

    def symmetric_start(self, p: Position) -> bool:
        """Whether p is a start that swapping the colours leaves alone: the empty board,
        Black to move, equal bowls, nobody owing delays, no ultimate delay played (both
        ultimate prisoners held, or none), the empty board the only board of the history.

        Two lemmas hold there.  The delay lemma: if Black loses Fundamental Go at p, she
        wins with one more prisoner (score −½), for she delays and White is to move at p
        with the colours swapped, where the player to move loses.  The ultimate-delay
        lemma: if the score of Fundamental Go at p is −½ and both ultimate prisoners are
        held, Black can draw Ultimate Go: she plays her ultimate delay first; White is then
        to move where, as long as she keeps her own ultimate prisoner, the game is
        Fundamental Go with equal bowls and White to move (p with the colours swapped), which
        White loses, and once she plays it Black holds the right to declare a draw.  Nor
        can Black win: White wins Fundamental Go at p (the score is negative) with each
        ultimate prisoner taken as an ordinary one (one more prisoner each changes no
        winner), and the right to a draw is all that Ultimate Go adds for Black."""
        black, white, player, bb, wb, ult, first, draw, history, forced = p
        if black or white or player != 0 or bb != wb or forced or first >= 0 or draw >= 0:
            return False
        boards = self.engine.boards
        return ult in (0, 3) and history == boards.bit(boards.code(0, 0))

    @staticmethod
    def next_question(low: int, high: int | None, aside: list[int], probe: int | None) -> tuple[int, int | None]:
        """The next K to ask and its node cap (None: in full): K = low + 1 as a probe, or a
        probe above the first question put aside, or that question in full."""
        if not aside:
            return low + 1, probe
        if len(aside) <= JUMPS:
            k = aside[0] + (1 << (len(aside) - 1))
            if high is None or k < high:
                return k, probe
        return aside[0], None

    def probed(self, question: Callable[[int], bool], k: int, probe: int | None) -> bool | None:
        """The answer to ``question(k)`` within ``probe`` more nodes, or None if it costs
        more (the proofs finished meanwhile stay in the table: they hold whatever the cap)."""
        if probe is None:
            return question(k)
        engine = self.engine
        engine.cap = engine.nodes + probe
        try:
            return question(k)
        except Abandoned:
            return None
        finally:
            engine.cap = None

    @staticmethod
    def score_bounds(black_ahead: bool, low: int, high: int | None) -> tuple[float, float]:
        """The score's bounds (for Black) when K = ``low`` more prisoners for the side behind
        keep the result and K = ``high`` turns it (None: no K known to)."""
        if black_ahead:
            return (low + 0.5, INF if high is None else high - 0.5)
        return (-INF if high is None else -high + 0.5, -low - 0.5)

    # ---- section VI: the Ultimate result from the score

    @staticmethod
    def untouched(p: Position) -> bool:
        """Whether both ultimate prisoners are still held and nobody holds a draw right."""
        return p[5] == 3 and p[6] < 0 and p[7] < 0

    @staticmethod
    def result_range(score: float, player: int) -> tuple[int, int]:
        """The Ultimate results (for the player to move: 1 win, 0 draw, −1 loss) that section
        IV's score of the same position allows while both ultimate prisoners are held.

        With the score ≥ 1½ for a player she wins Fundamental Go even with one more prisoner
        for the opponent: she never plays her ultimate delay and counts the opponent's as a
        plain prisoner, so no draw right can arise and she wins.  With the score ½ she wins
        Fundamental Go with both ultimate prisoners read as plain ones: played so, the
        opponent can at most declare a draw.  The same from the other side."""
        mine = score if player == 0 else -score
        if mine >= 1.5:
            return 1, 1
        if mine <= -1.5:
            return -1, -1
        return (0, 1) if mine > 0 else (-1, 0)

    @staticmethod
    def results_between(
        low: float, high: float, player: int, result_range: Callable[[float, int], tuple[int, int]]
    ) -> tuple[int, int]:
        """The least and greatest Ultimate result (for the player to move) that a score in
        [low, high] allows while both ultimate prisoners are held, each end read by
        ``result_range``: −1 to 1 if its sign is not known."""
        if low < 0 < high:
            return -1, 1
        ends = result_range(low, player), result_range(high, player)
        return min(e[0] for e in ends), max(e[1] for e in ends)

    def result_given_score(self, p: Position, low: float, high: float | None = None) -> int:
        """The Ultimate result for the player to move, with the score of p known to lie in
        [low, high] (high=None: the score is low): decided by the score alone when it is at
        least 1½ from 0 for one player, else by one yes/no search (by both if its sign is
        not known, or if an ultimate prisoner has been used)."""
        engine = self.engine
        high = low if high is None else high
        if low == high == -0.5 and engine.lemmas and engine.symmetric_start(p) and p[5] == 3:
            return 0  # the ultimate-delay lemma (``symmetric_start``): Black draws
        if not engine.untouched(p) or low < 0 < high:
            return engine.result(p)
        least, most = engine.results_between(low, high, p[2])
        if least == most:
            return least
        if least == 0:
            return 1 if engine.can_win(p) else 0
        return 0 if engine.can_draw(p) else -1
