"""Perfect play and game counts for any ruleset, through the common ruleset interface.

``solve(situation, request)`` finds the perfect-play value of the game from a situation.
It asks the ruleset for its ``solve`` capability (:meth:`gorules.spec.api.Ruleset.capability`):
a ruleset that declares one is solved by it (the Tromp–Taylor engine's threshold search,
the yes/no searches of Ultimate and Fundamental Go, the infinite-game solver of source
000, best play for several players); every other ruleset, and a subclass that changed a
rule without declaring the capability again, gets the generic search here: minimax with
alpha-beta pruning, moves ordered by what the table and the cut-offs elsewhere say, and a
transposition table keyed by the situation's key *and* the history its rules consult, so a
stored value is reused only where the same moves are legal for ever after (sound under any
superko, at the price of fewer transpositions).  The generic search
needs a finite two-player game whose value is a margin (Black's score minus White's) or an
outcome ("B", "W", "draw").

``count_games(situation)`` counts the complete games from a situation (every line of play
to a finished game), memoised on the same keys.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gorules.impl.solving.budget import UNLIMITED, Budget, BudgetSpent, Meter
from gorules.spec.api import Ruleset, Situation

OUTCOME_VALUE = {"B": 1, "draw": 0, "W": -1}
VALUE_OUTCOME = {1: "B", 0: "draw", -1: "W"}


class SearchError(ValueError):
    """A search that cannot be done: the game is infinite or not two-player, or the budget ran out."""


class Declined(Exception):
    """A solve capability that cannot start from this situation: the generic search takes it."""


@dataclass(frozen=True)
class SolveRequest:
    """What a solve is asked to do, the same for every ruleset and every solver.

    ``budget`` bounds the work (seconds, nodes); ``max_points`` refuses larger graphs;
    ``progress`` is called now and then with the running search; with ``bounds_on_budget``
    a spent budget returns the bounds proved so far (status ``bounds``) where the solver can,
    instead of SearchError; ``certify`` asks for a certificate of the value, at most
    ``certificate_positions`` positions; ``jobs`` is how many worker processes a solver that
    can split its work may use (None: the machine's cores, as many as fit in memory);
    ``tuning`` holds the settings of one solver (for the Tromp–Taylor engine's: ``core``,
    ``search``, ``territory``, ``descent``, and ``scheduler``, the Dask cluster its split
    tests run on), each refused by a solver that does not take it;
    ``generic`` skips every capability.
    """

    budget: Budget = UNLIMITED
    max_points: int | None = None
    progress: Callable[[Any], None] | None = None
    bounds_on_budget: bool = False
    certify: bool = False
    certificate_positions: int | None = None
    jobs: int | None = 1
    tuning: Mapping[str, Any] = field(default_factory=dict)
    generic: bool = False

    def settings(self) -> dict[str, Any]:
        """The tuning that was actually given (None and False left out)."""
        return {name: value for name, value in self.tuning.items() if value is not None and value is not False}

    def refuse_tuning(self, solver: str, accepted: tuple[str, ...] = ()) -> None:
        """SearchError naming the first setting of ``tuning`` that ``solver`` does not take,
        and a certificate where it writes none."""
        for name in self.settings():
            if name not in accepted:
                raise SearchError(f"--{name} is not a setting of this game's solver ({solver})")
        if self.certify and "certify" not in accepted:
            raise SearchError(f"this game's solver ({solver}) writes no certificate")


@dataclass
class Solution:
    """A perfect-play value and how it was found.

    ``value`` is what the solver computes, for Black: by the generic search, of the ruleset's
    value kind (a margin, Black's score minus White's with komi taken off, or an outcome); a
    solve capability may compute a finer value and says which in ``method`` (Fundamental Go:
    section IV's score, its outcome in ``details["result"]``; source 000's game: the margin
    under perfect play for ever, its outcome in ``details["outcome"]``; Political Go: each
    player's score).  ``lower`` and ``upper`` bound it (equal when ``status`` is ``exact``);
    ``principal_variation`` is a line of moves that keeps it.
    """

    graph: str
    ruleset: str
    options: dict
    value: Any
    principal_variation: list
    nodes: int
    seconds: float
    method: str
    status: str = "exact"
    lower: Any = None
    upper: Any = None
    note: str | None = None
    details: dict = field(default_factory=dict)
    certificate: dict | None = None

    @classmethod
    def of(cls, situation: Situation, **fields: Any) -> Solution:
        """The solution of ``situation``: its graph, ruleset and options named, the rest given."""
        ruleset = situation.ruleset
        return cls(graph=situation.graph.name, ruleset=ruleset.name, options=ruleset.options.as_dict(), **fields)

    @property
    def nodes_per_second(self) -> float:
        """Search nodes visited per second of wall-clock time."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def require_two_player(ruleset: Ruleset) -> None:
    """SearchError unless the game has two players and a margin or outcome value."""
    if ruleset.players != ("B", "W") or ruleset.value_kind not in ("margin", "outcome"):
        raise SearchError(f"the {ruleset.name} ruleset is not a two-player game with a margin or outcome value")


def require_two_player_finite(ruleset: Ruleset) -> None:
    """SearchError unless minimax applies: two players, games that end, a margin or outcome value."""
    require_two_player(ruleset)
    if not ruleset.finite:
        raise SearchError(
            f"the {ruleset.name} ruleset ({ruleset.options.describe()}) is not a finite game: "
            "play can go on forever, so minimax search does not apply"
        )


Number = TypeVar("Number", int, float)


def window_step(
    maximising: bool, best: Number, value: Number, alpha: Number, beta: Number
) -> tuple[Number, Number, Number]:
    """One child's value taken into a fail-soft alpha-beta node: the node's best value so far
    and its window (alpha, beta) after it; the node is cut off once alpha >= beta."""
    if maximising:
        best = max(best, value)
        return best, max(alpha, best), beta
    best = min(best, value)
    return best, alpha, min(beta, best)


class Minimax:
    """Alpha-beta minimax over a ruleset's states, every value for Black (Black maximises,
    White minimises); the player to move is asked of each state, never assumed to alternate.
    Ordered, each node searches first the move that decided it before and then the moves
    that cut off most often elsewhere; unordered, the ruleset's own order (plain alpha-beta,
    the benchmarks' baseline)."""

    def __init__(self, ruleset: Ruleset, graph, budget: Budget = UNLIMITED, progress=None, ordered: bool = True):
        """Prepare to search games of ``ruleset`` on ``graph`` within ``budget``, calling
        ``progress(self)`` now and then, with moves ``ordered`` or not."""
        self.ordered_moves = ordered
        self.ruleset = ruleset
        self.graph = graph
        self.meter = Meter(budget)
        self.progress = progress
        self.table: dict[Hashable, tuple[float, float, Any]] = {}
        self.cutoffs: dict[tuple[str | None, Any], int] = {}

    @property
    def nodes(self) -> int:
        """The nodes searched so far."""
        return self.meter.nodes

    def count(self) -> None:
        """One more node; BudgetSpent when the nodes or the time are spent."""
        self.meter.tick()
        if self.progress is not None and self.meter.nodes % Meter.CLOCK_EVERY == 0:
            self.progress(self)

    def final_value(self, state) -> float:
        """The value of a finished game for Black, as a number."""
        value = self.ruleset.value(self.graph, state)
        return OUTCOME_VALUE[value] if self.ruleset.value_kind == "outcome" else value

    def table_key(self, state) -> Hashable:
        """The key of a state in the table: its key and the history its rules consult."""
        return (self.ruleset.key(state), self.ruleset.history(state))

    def search(self, state, alpha: float, beta: float) -> float:
        """The value of ``state`` for Black, fail-soft within (alpha, beta)."""
        self.count()
        ruleset, graph = self.ruleset, self.graph
        if ruleset.is_over(graph, state):
            return self.final_value(state)
        key = self.table_key(state)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            lower, upper, first = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        window = (alpha, beta)
        player = ruleset.player(state)
        maximising = player == "B"
        best = -float("inf") if maximising else float("inf")
        best_move = None
        for move in self.ordered(player, ruleset.moves(graph, state), first):
            value = self.search(ruleset.apply(graph, state, move), alpha, beta)
            if (value > best) if maximising else (value < best):
                best_move = move
            best, alpha, beta = window_step(maximising, best, value, alpha, beta)
            if alpha >= beta:
                self.cutoffs[player, move] = self.cutoffs.get((player, move), 0) + 1
                break
        self.store(key, best, window, entry, best_move)
        return best

    def ordered(self, player: str | None, moves, first) -> list:
        """The moves in the order they are searched: the best move found here before, then
        those that cut off the search most often elsewhere (the history heuristic); the order
        changes only how soon a window closes, never a value."""
        if not self.ordered_moves:
            return list(moves)
        cutoffs = self.cutoffs
        ordered = sorted(moves, key=lambda move: -cutoffs.get((player, move), 0))
        if first is not None and first in ordered:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def store(self, key: Hashable, best: float, window: tuple[float, float], entry, move) -> None:
        """Remember what a fail-soft search within ``window`` proved, a bound or the value,
        and the move that gave it."""
        if best <= window[0]:
            lower, upper = -float("inf"), best
        elif best >= window[1]:
            lower, upper = best, float("inf")
        else:
            lower = upper = best
        if entry is not None:
            lower, upper = max(lower, entry[0]), min(upper, entry[1])
        self.table[key] = (lower, upper, move)

    def principal_variation(self, state, value: float) -> list:
        """Moves from ``state`` to the end of the game, each keeping the value ``value``."""
        line = []
        ruleset, graph = self.ruleset, self.graph
        while not ruleset.is_over(graph, state):
            for move in ruleset.moves(graph, state):
                child = ruleset.apply(graph, state, move)
                if self.search(child, -float("inf"), float("inf")) == value:
                    line.append(move)
                    state = child
                    break
            else:
                raise AssertionError("no move keeps the value: the search is inconsistent")
        return line


def solve(situation: Situation, request: SolveRequest | None = None, **fields: Any) -> Solution:
    """The perfect-play value of the game from ``situation`` (for Black) and a principal
    variation, by the ruleset's ``solve`` capability or else the generic search; the request
    is ``request`` or, for short, its fields given by name.  SearchError if the graph is
    larger than ``max_points``, the game is one no solver here applies to (the message names
    the capability the ruleset lacks), or the budget runs out before any answer."""
    request = request if request is not None else request_of(**fields)
    graph = situation.graph
    if request.max_points is not None and graph.order > request.max_points:
        raise SearchError(
            f"{graph.name} has {graph.order} points: the solver takes at most {request.max_points} "
            "(raise the limit with --max-points)"
        )
    capability = None if request.generic else situation.ruleset.capability("solve")
    if capability is not None:
        try:
            return capability(situation, request)
        except Declined:
            pass
    return solve_generic(situation, request)


TUNING = ("core", "search", "territory", "descent", "scheduler")
"""The settings of the Tromp–Taylor engine's solver that a request carries in ``tuning``."""


def request_of(max_nodes: int | None = None, max_seconds: float | None = None, **fields: Any) -> SolveRequest:
    """A request from its fields by name, the budget as ``max_nodes`` and ``max_seconds`` and
    the tuning as its settings by name (``threshold_search`` for ``search``)."""
    if "threshold_search" in fields:
        fields["search"] = fields.pop("threshold_search")
    tuning = {name: fields.pop(name) for name in TUNING if name in fields}
    if max_nodes is not None or max_seconds is not None:
        fields["budget"] = Budget(seconds=max_seconds, nodes=max_nodes)
    return SolveRequest(tuning=tuning, **fields)


def solve_generic(situation: Situation, request: SolveRequest) -> Solution:
    """The interface's own alpha-beta search (see :class:`Minimax`)."""
    ruleset = situation.ruleset
    request.refuse_tuning("the generic alpha-beta search")
    gap = ruleset.capability_gap("solve")
    try:
        require_two_player_finite(ruleset)
    except SearchError as error:
        reason = gap if isinstance(gap, str) else "it declined this situation"
        raise SearchError(f"{error}; and no solve capability applies: {reason}") from None
    search = Minimax(ruleset, situation.graph, request.budget, request.progress)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    started = time.perf_counter()
    try:
        value = search.search(situation.state, -float("inf"), float("inf"))
        line = search.principal_variation(situation.state, value)
    except BudgetSpent as spent:
        raise SearchError(
            f"{situation.graph.name}: {spent} before the value was found (raise --seconds / --nodes)"
        ) from None
    finally:
        sys.setrecursionlimit(limit)
    shown = VALUE_OUTCOME[int(value)] if ruleset.value_kind == "outcome" else value
    return Solution.of(
        situation,
        value=shown,
        principal_variation=line,
        nodes=search.nodes,
        seconds=time.perf_counter() - started,
        method="alpha-beta minimax through the ruleset interface, table keyed by situation and history, "
        "moves ordered by the table and the history heuristic",
        lower=shown,
        upper=shown,
    )


def count_games(situation: Situation, max_nodes: int | None = None) -> int:
    """The number of complete games from ``situation``: lines of legal moves that end the game."""
    ruleset, graph = situation.ruleset, situation.graph
    if not ruleset.finite:
        raise SearchError(f"the {ruleset.name} ruleset is not a finite game: its games cannot be counted")
    memo: dict[Hashable, int] = {}
    visited = 0

    def games(state) -> int:
        nonlocal visited
        visited += 1
        if max_nodes is not None and visited > max_nodes:
            raise BudgetSpent
        if ruleset.is_over(graph, state):
            return 1
        key = (ruleset.key(state), ruleset.history(state))
        if key not in memo:
            memo[key] = sum(games(ruleset.apply(graph, state, m)) for m in ruleset.moves(graph, state))
        return memo[key]

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        return games(situation.state)
    except BudgetSpent:
        raise SearchError(f"{graph.name}: the node budget of {max_nodes} nodes ran out while counting") from None
    finally:
        sys.setrecursionlimit(limit)


def at_least(situation: Situation, threshold: float, max_nodes: int | None = None) -> bool:
    """A yes/no search: whether Black's perfect-play value from ``situation`` is at least
    ``threshold`` (outcomes count as 1 a Black win, 0 a draw, -1 a White win).  Cheaper than
    :func:`solve`: a search with the window just below ``threshold`` proves only the bound."""
    ruleset = situation.ruleset
    require_two_player_finite(ruleset)
    search = Minimax(ruleset, situation.graph, Budget(nodes=max_nodes))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        return search.search(situation.state, threshold - 0.5**20, threshold) >= threshold
    except BudgetSpent as spent:
        raise SearchError(f"{situation.graph.name}: {spent}") from None
    finally:
        sys.setrecursionlimit(limit)
