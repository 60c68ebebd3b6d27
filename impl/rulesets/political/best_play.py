"""Best play for several players, through the common ruleset interface: max-n and paranoid.

Two solution concepts, each named in every result:

- **max-n** (Luckhardt and Irani): at each situation the player to move chooses the move
  that maximises eir own final score, every later player doing the same; between moves of
  equal worth to em, e takes the first in the ruleset's move order.  The result is each
  player's score on that line of play (a subgame-perfect line of the game searched).
- **paranoid** (Sturtevant and Korf): the highest score one player, the *root*, can make
  sure of when all the other players play together to minimise it: a two-player zero-sum
  game, searched by alpha-beta.

A game such as Political Go need not end, so the search looks ``horizon`` moves ahead and
scores a situation it reaches at the horizon, not over, as if the game ended there (the
ruleset's ``value``).  A result in which every line ended before the horizon is exact for
the game itself, and says so (``exact``); otherwise it is exact for the game cut at the
horizon.  ``allowed`` restricts the moves considered (for Political Go: placements and
passes, leaving alliances aside), and the result names that fragment.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from gorules.impl.solving.budget import Budget, BudgetSpent, Meter, TooExpensive
from gorules.spec.api import Situation

CONCEPTS = ("max-n", "paranoid")
Utility = Callable[[dict, str], float]


def own_score(values: dict, player: str) -> float:
    """What a player maximises under max-n: eir own score."""
    return values[player]


@dataclass(frozen=True)
class Result:
    """Best play to one horizon: the concept, the scores, the line, how it was found."""

    concept: str
    horizon: int
    scores: dict  # each player's score at the end of the line
    line: tuple[str, ...]  # the line of play, as move texts
    movers: tuple[str, ...]  # who makes each move of the line
    exact: bool  # every line ended before the horizon: exact for the game itself
    nodes: int  # situations searched
    root: str | None = None  # paranoid: the player whose guaranteed score `guaranteed` is
    guaranteed: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return dataclasses.asdict(self)


class Search:
    """One search of a situation's game tree to a horizon, counting nodes on a meter."""

    def __init__(self, situation: Situation, meter: Meter, allowed: Callable[[Any], bool] | None = None):
        """Search from `situation`, considering the moves `allowed` accepts (all if None)."""
        self.ruleset, self.graph = situation.ruleset, situation.graph
        self.start = situation.state
        self.meter = meter
        self.allowed = allowed or (lambda move: True)
        self.table: dict = {}

    def moves(self, state) -> list:
        """The moves considered in a state."""
        return [m for m in self.ruleset.moves(self.graph, state) if self.allowed(m)]

    def leaf(self, state, depth: int):
        """(scores, exact) at a leaf: the game over, or the horizon reached; None otherwise."""
        if self.ruleset.is_over(self.graph, state):
            return self.ruleset.value(self.graph, state), True
        if depth == 0 or not self.moves(state):
            return self.ruleset.value(self.graph, state), False
        return None

    def max_n(self, state, depth: int, utility: Utility) -> tuple[dict, tuple, bool]:
        """(scores, line, exact) of max-n play from a state, `depth` moves ahead."""
        key = (self.ruleset.key(state), depth)
        if key in self.table:
            return self.table[key]
        self.meter.tick()
        ended = self.leaf(state, depth)
        if ended is not None:
            found = (ended[0], (), ended[1])
        else:
            mover = str(self.ruleset.player(state))
            best: tuple | None = None
            exact = True
            for move in self.moves(state):
                scores, line, child_exact = self.max_n(self.ruleset.apply(self.graph, state, move), depth - 1, utility)
                exact = exact and child_exact
                if best is None or utility(scores, mover) > utility(best[0], mover):
                    best = (scores, (move, *line))
            assert best is not None, "a situation not at a leaf has a move"
            found = (best[0], best[1], exact)
        self.table[key] = found
        return found

    def paranoid(self, state, depth: int, root: str, alpha: float, beta: float) -> tuple[float, dict, tuple, bool]:
        """(root's score, scores, line, exact) with the root maximising and every other
        player minimising the root's score, by alpha-beta within (alpha, beta)."""
        self.meter.tick()
        ended = self.leaf(state, depth)
        if ended is not None:
            return ended[0][root], ended[0], (), ended[1]
        maximising = self.ruleset.player(state) == root
        best: tuple | None = None
        exact = True
        for move in self.moves(state):
            value, scores, line, child_exact = self.paranoid(
                self.ruleset.apply(self.graph, state, move), depth - 1, root, alpha, beta
            )
            exact = exact and child_exact
            if best is None or (value > best[0] if maximising else value < best[0]):
                best = (value, scores, (move, *line))
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        assert best is not None
        return best[0], best[1], best[2], exact


def estimate(situation: Situation, horizon: int, allowed: Callable[[Any], bool] | None = None) -> int:
    """An upper bound on the situations searched to every horizon up to `horizon`: the
    root's number of moves, b, to the powers 1..horizon (transpositions only lower it)."""
    b = max(1, len([m for m in situation.legal_moves() if allowed is None or allowed(m)]))
    return sum(b**h for h in range(horizon + 1))


def best_play(
    situation: Situation,
    concept: str,
    horizon: int,
    budget: Budget,
    root: str | None = None,
    allowed: Callable[[Any], bool] | None = None,
    utility: Utility | None = None,
    progress: bool = False,
) -> tuple[list[Result], str | None]:
    """Best play under the concept to horizons 1, 2, ... up to `horizon` (stopping early
    once a result is exact): the results found, and why the search stopped short (the
    budget ran out) or None.  Under max-n each player maximises `utility` (eir own score,
    `own_score`, unless another is given).  TooExpensive before any work if the estimate
    exceeds the node budget."""
    if concept not in CONCEPTS:
        raise ValueError(f"unknown solution concept {concept!r}: expected one of {', '.join(CONCEPTS)}")
    cost = estimate(situation, horizon, allowed)
    if budget.nodes is not None and cost > budget.nodes:
        raise TooExpensive(
            f"best play to {horizon} moves may search {cost:,} situations, over the budget of "
            f"{budget.nodes:,}: raise --max-nodes or lower --horizon"
        )
    meter = budget.meter()
    results: list[Result] = []
    for h in tqdm(range(1, horizon + 1), desc=concept, unit="horizon", file=sys.stderr, disable=not progress):
        search = Search(situation, meter, allowed)
        try:
            results.append(one_horizon(search, situation, concept, h, root, utility or own_score))
        except BudgetSpent as spent:
            return results, f"{spent} during horizon {h}"
        if results[-1].exact:
            break
    return results, None


def one_horizon(search: Search, situation: Situation, concept: str, h: int, root, utility: Utility) -> Result:
    """The result of one search to horizon h."""
    text = situation.ruleset.move_text
    before = search.meter.nodes
    state = search.start
    movers: list[str] = []
    if concept == "max-n":
        scores, line, exact = search.max_n(search.start, h, utility)
        guaranteed = None
    else:
        guaranteed, scores, line, exact = search.paranoid(search.start, h, root, float("-inf"), float("inf"))
    for move in line:
        movers.append(str(situation.ruleset.player(state)))
        state = situation.ruleset.apply(situation.graph, state, move)
    return Result(
        concept=concept,
        horizon=h,
        scores=dict(scores),
        line=tuple(text(situation.graph, m) for m in line),
        movers=tuple(movers),
        exact=exact,
        nodes=search.meter.nodes - before,
        root=root if concept == "paranoid" else None,
        guaranteed=guaranteed,
    )
