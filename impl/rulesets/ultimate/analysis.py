"""Sections IV–VI of source ``003_ba4357ff6ddc9904.txt`` on any situation: the score, the
cost of each move, the optimal moves, the sente level, the phase, and the Ultimate result.

Every quantity is read from section IV's score (the least mid-game komi that turns the
result, less ½), which the yes/no searches of :mod:`gorules.impl.rulesets.ultimate.search` find:

- the **cost** of a move: how far it moves the score against the mover (Black's moves lower
  it, White's raise it; section IV proves the cost is never negative);
- the **optimal** moves: those of cost 0;
- the **reverse delay**: surrendering one prisoner to the opponent (always possible); its
  cost is the cost of a delay, the **sente level** (section V);
- the **phase** (section V): normal play when the sente level is positive; counting when it
  is 0 and some move besides the reverse delay is optimal; you-should-resign-now when only
  the reverse delay is;
- the **resignation case** (section IV): no optimal move at all; the score is then read as
  ½ plus the winner's safe moves left.

A situation of Ultimate Go is analysed as the source's section VI says: "ignore the declare
a draw option" (ultimate prisoners still held count as plain prisoners), and its Ultimate
result (win, draw, loss, with the draw option) is given beside.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gorules.impl.rulesets.ultimate.search import COLOURS, DELAY, ULTIMATE_DELAY, Engine, Position, deep, for_black

REVERSE_DELAY = "reverse delay"
PHASES = ("normal play", "counting", "you should resign now")
RESULT_WORDS = {1: "B", 0: "draw", -1: "W"}


@dataclass
class Analysis:
    """What sections IV–VI say of one situation, every number exact."""

    to_move: str
    score: float
    costs: dict = field(default_factory=dict)  # move -> cost (placements by point, delays by word)
    sente_level: float = 0.0
    optimal: list = field(default_factory=list)
    phase: str = ""
    resign: bool = False
    safe_moves: int | None = None  # in the resignation case: |score| − ½
    ultimate_result: str | None = None  # "B", "W" or "draw", with the draw option
    move_results: dict = field(default_factory=dict)  # move -> Ultimate result for Black
    nodes: int = 0


def reverse_delay(p: Position) -> Position:
    """The position after the player to move surrenders a prisoner to the opponent."""
    q = list(p)
    q[3 + (1 - p[2])] += 1
    q[2] = 1 - p[2]
    return tuple(q)


def cost(score_before: float, score_after: float, player: int) -> float:
    """How far a move of ``player`` (0 Black) moved the score against her."""
    return score_before - score_after if player == 0 else score_after - score_before


def analyse(engine: Engine, p: Position, ultimate: bool = True) -> Analysis:
    """Sections IV–VI at position p (the searches share the engine's table)."""
    return deep(_analyse, engine, p, ultimate)


def _analyse(engine: Engine, p: Position, ultimate: bool) -> Analysis:
    """The analysis, run inside :func:`deep`."""
    player = p[2]
    here = engine.score(p)
    result = Analysis(to_move=COLOURS[player], score=here)
    moves, _ = engine.children(p)
    for move, child, _ in moves:
        result.costs[move] = cost(here, engine.score(child), player)
    result.sente_level = cost(here, engine.score(reverse_delay(engine.fundamental(p))), player)
    result.optimal = [m for m, c in result.costs.items() if c == 0]
    result.resign = not result.optimal
    if result.sente_level > 0:
        result.phase = PHASES[0]
    else:
        result.phase = PHASES[1] if result.optimal else PHASES[2]
    if result.resign:
        result.safe_moves = int(abs(here) - 0.5)
    if ultimate and p[5] | (p[7] >= 0):
        result.ultimate_result = RESULT_WORDS[for_black(engine.result(p), player)]
        for move, child, _ in moves:
            result.move_results[move] = RESULT_WORDS[for_black(-engine.result(child), player)]
    result.nodes = engine.nodes
    return result


def is_delay(move) -> bool:
    """Whether a move is a delay (plain or ultimate)."""
    return move in (DELAY, ULTIMATE_DELAY)
