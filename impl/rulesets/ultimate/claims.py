"""The claims of sections IV–VI of source ``003_ba4357ff6ddc9904.txt``, checked on every
situation reachable on a small graph.

Each claim is a predicate of one situation (read through :mod:`gorules.impl.rulesets.ultimate.analysis`);
:func:`check_claims` runs all of them over the situations reachable from the empty board of
Ultimate Go and reports, per claim, how many situations it was asked of and the first
counterexample (fewest moves from the start).  How we read each claim:

- ``no move raises the score`` (IV): every move's cost is ≥ 0;
- ``optimal set never empty`` (V): some move has cost 0, or the reverse delay has
  (sente level 0);
- ``second ultimate delay: only when unique`` (VI): where the second ultimate delay is open
  and another move (a placement or a plain delay) is optimal, some other optimal move does
  at least as well in Ultimate Go (win > draw > loss) as the ultimate delay;
- ``second ultimate delay: then the opponent wins or draws`` (VI): where it is open and is
  the unique optimal move (no placement optimal, no prisoner in her bowl), the Ultimate
  result after it is the opponent's win or a draw;
- ``second ultimate delay: a draw exactly when the opponent has no optimal move`` (VI, read
  literally): in the same situations, the result after it is a draw exactly when the
  opponent then has no optimal move (the source argues from the end of counting, where the
  player is the loser; read literally, the claim also speaks of a player who is ahead);
- ``first ultimate delay: only at sente level 0`` (VI): where the first ultimate delay is
  open and the sente level is positive, some other move does at least as well in Ultimate
  Go as the ultimate delay.

A situation is taken once per (board, player to move, bowls less their common part,
ultimate prisoners, first delayer, draw right, history): the claims depend on nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gorules.impl.rulesets.ultimate.analysis import Analysis, _analyse
from gorules.impl.rulesets.ultimate.search import DELAY, ULTIMATE_DELAY, Engine, Position, deep
from gorules.spec.ultimate import State

CLAIMS = (
    "no move raises the score",
    "optimal set never empty",
    "second ultimate delay: only when unique",
    "second ultimate delay: then the opponent wins or draws",
    "second ultimate delay: a draw exactly when the opponent has no optimal move",
    "first ultimate delay: only at sente level 0",
)


@dataclass
class ClaimReport:
    """One claim on one graph: the situations it was asked of, and the first counterexample."""

    claim: str
    asked: int = 0
    counterexample: Position | None = None
    detail: str = ""
    situation: State | None = None  # the counterexample as a spec situation

    @property
    def status(self) -> str:
        """holds, fails, or vacuous (asked of no situation)."""
        if self.counterexample is not None:
            return "fails"
        return "holds" if self.asked else "vacuous"


@dataclass
class Report:
    """All claims on one graph."""

    graph: str
    situations: int
    claims: list[ClaimReport] = field(default_factory=list)
    nodes: int = 0


def reachable(engine: Engine, start: Position, limit: int | None = None) -> list[Position]:
    """The positions reachable from start (start first, then by number of moves), each once
    up to the bowls' common part; at most ``limit`` of them (None: all)."""
    seen = {engine.normal(start)}
    order = [engine.normal(start)]
    i = 0
    while i < len(order) and (limit is None or len(order) < limit):
        for _, child, _ in engine.children(order[i])[0]:
            child = engine.normal(child)
            if child not in seen:
                seen.add(child)
                order.append(child)
        i += 1
    return order if limit is None else order[:limit]


def rank(result: int) -> int:
    """A result for the mover as a rank: win 1 > draw 0 > loss −1 (already that)."""
    return result


def ultimate_after(engine: Engine, child: Position) -> int:
    """The Ultimate result for the mover of the move that made ``child``."""
    return -engine.result(child)


def judge(engine: Engine, p: Position, a: Analysis) -> dict[str, tuple[bool, str] | None]:
    """Each claim at p: None if it does not apply, else (holds, what was seen)."""
    moves = {m: child for m, child, _ in engine.children(p)[0]}
    verdicts: dict[str, tuple[bool, str] | None] = dict.fromkeys(CLAIMS)
    negative = {m: c for m, c in a.costs.items() if c < 0}
    verdicts[CLAIMS[0]] = (not negative, f"costs {negative}" if negative else "")
    verdicts[CLAIMS[1]] = (bool(a.optimal) or a.sente_level == 0, f"sente level {a.sente_level}, no optimal move")
    if ULTIMATE_DELAY in moves and p[6] >= 0:
        mine = ultimate_after(engine, moves[ULTIMATE_DELAY])
        others = [m for m in a.optimal if m != ULTIMATE_DELAY]
        if others:
            best = max(ultimate_after(engine, moves[m]) for m in others)
            verdicts[CLAIMS[2]] = (best >= mine, f"ultimate delay {mine} beats every other optimal move ({best})")
        elif a.optimal == [ULTIMATE_DELAY]:
            opponent = _analyse(engine, moves[ULTIMATE_DELAY], False)
            seen = f"result {mine} for the mover after it, the opponent's optimal moves {opponent.optimal}"
            verdicts[CLAIMS[3]] = (mine in (-1, 0), seen)
            verdicts[CLAIMS[4]] = ((mine == 0) == opponent.resign, seen)
    if ULTIMATE_DELAY in moves and p[6] < 0 and a.sente_level > 0:
        mine = ultimate_after(engine, moves[ULTIMATE_DELAY])
        others = [ultimate_after(engine, child) for m, child in moves.items() if m != ULTIMATE_DELAY]
        best = max(others, default=-2)
        verdicts[CLAIMS[5]] = (
            best >= mine,
            f"sente level {a.sente_level}: ultimate delay {mine}, others at best {best}",
        )
    return verdicts


def check_claims(
    engine: Engine,
    start: Position,
    limit: int | None = None,
    analyser: Callable[[Engine, Position, bool], Analysis] = _analyse,
) -> Report:
    """Every claim on every position reachable from start (at most ``limit``); ``analyser``
    may be replaced by a mutant to show that the claims catch it."""
    return deep(_check, engine, start, limit, analyser)


def _check(engine: Engine, start: Position, limit: int | None, analyser) -> Report:
    """The check, run inside :func:`deep`."""
    positions = reachable(engine, start, limit)
    report = Report(engine.graph.name, len(positions), [ClaimReport(c) for c in CLAIMS])
    by_name = {c.claim: c for c in report.claims}
    for p in positions:
        a = analyser(engine, p, False)
        for claim, verdict in judge(engine, p, a).items():
            if verdict is None:
                continue
            entry = by_name[claim]
            entry.asked += 1
            if not verdict[0] and entry.counterexample is None:
                entry.counterexample, entry.detail = p, verdict[1]
                entry.situation = engine.to_situation(p)
    report.nodes = engine.nodes
    return report


def is_delay(move) -> bool:
    """Whether a move is a plain delay."""
    return move == DELAY


# --------------------------------------------------------------------------- mutants the claims must refute


class StaticScore(Engine):
    """Mutant: the score read off the board (stones and prisoners, Black's less White's,
    ½ toward the player to move) instead of by search, as a naive count would."""

    def score(self, p: Position, probe: int | None = None) -> float:
        """The static count."""
        p = self.fundamental(p)
        count = p[0].bit_count() + p[3] - p[1].bit_count() - p[4]
        return count + (0.5 if p[2] == 0 else -0.5)


class DrawToSecond(Engine):
    """Mutant: rule 8 misread, the right to declare a draw goes to the player who made the
    second ultimate delay rather than to her opponent."""

    def children(self, p: Position):
        """The moves, the second ultimate delay handing the draw right to its maker."""
        moves, asked = super().children(p)
        if p[6] >= 0:
            moves = [(m, c[:7] + (p[2],) + c[8:], b) if m == ULTIMATE_DELAY else (m, c, b) for m, c, b in moves]
        return moves, asked


class DrawToFirstAtOnce(Engine):
    """Mutant: the first ultimate delay gives its maker the draw right at once."""

    def children(self, p: Position):
        """The moves, the first ultimate delay handing its maker the draw right."""
        moves, asked = super().children(p)
        if p[6] < 0:
            moves = [(m, c[:7] + (p[2],) + c[8:], b) if m == ULTIMATE_DELAY else (m, c, b) for m, c, b in moves]
        return moves, asked


MUTANTS = {
    "static score": StaticScore,
    "draw right to the second delayer": DrawToSecond,
    "draw right at the first delay": DrawToFirstAtOnce,
}

REFUTING = {
    CLAIMS[0]: "static score",
    CLAIMS[1]: "static score",
    CLAIMS[2]: "static score",
    CLAIMS[3]: "draw right to the second delayer",
    CLAIMS[4]: "draw right to the second delayer",
    CLAIMS[5]: "static score",
}
"""For each claim, the mutant it refutes already on path:2."""
