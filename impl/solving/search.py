"""Perfect play and game counts for any ruleset, through the common ruleset interface.

``solve(situation)`` finds the perfect-play value of a two-player game from a situation of
any ruleset whose games end (``ruleset.finite``) and whose value is a margin (Black's score
minus White's) or an outcome ("B", "W", "draw"): minimax with alpha-beta pruning and a
transposition table.  The table is keyed by the situation's key *and* the history its
rules consult, so a stored value is reused only where the same moves are legal for ever
after: sound under any superko, at the price of fewer transpositions.  A ruleset with a
specialised search core (the Tromp–Taylor engine's, :mod:`gorules.impl.solving.solve`) is solved by
that core when the situation is one it can start from; the answer has the same form.

``count_games(situation)`` counts the complete games from a situation (every line of play
to a finished game), memoised on the same keys.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from gorules.spec.api import Ruleset, Situation

OUTCOME_VALUE = {"B": 1, "draw": 0, "W": -1}
VALUE_OUTCOME = {1: "B", 0: "draw", -1: "W"}


class SearchError(ValueError):
    """A search that cannot be done: the game is infinite or not two-player, or the budget ran out."""


class Budget(Exception):
    """Raised inside a search when its node or time budget is spent."""


CHECK_EVERY = 4096
"""The generic search looks at the clock and feeds the progress bar once per this many nodes."""


@dataclass
class Solution:
    """A perfect-play value and how it was found.

    ``value`` is of the ruleset's value kind, for Black: a margin (Black's score minus
    White's, komi taken off) or an outcome.  ``lower`` and ``upper`` bound it (equal when
    ``status`` is ``exact``); ``principal_variation`` is a line of moves that keeps it.
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


class Minimax:
    """Alpha-beta minimax over a ruleset's states, every value for Black (Black maximises,
    White minimises); the player to move is asked of each state, never assumed to alternate."""

    def __init__(
        self, ruleset: Ruleset, graph, max_nodes: int | None = None, max_seconds: float | None = None, progress=None
    ):
        """Prepare to search games of ``ruleset`` on ``graph`` within ``max_nodes`` nodes and
        ``max_seconds`` seconds, calling ``progress(self)`` now and then."""
        self.ruleset = ruleset
        self.graph = graph
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        self.progress = progress
        self.nodes = 0
        self.table: dict[Hashable, tuple[float, float]] = {}

    def count(self) -> None:
        """One more node; Budget when the nodes or the time are spent."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Budget(f"the node budget of {self.max_nodes:,} nodes ran out")
        if self.nodes % CHECK_EVERY == 0:
            if self.progress is not None:
                self.progress(self)
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise Budget(f"the time budget ran out after {self.nodes:,} nodes")

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
        if entry is not None:
            lower, upper = entry
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        window = (alpha, beta)
        maximising = ruleset.player(state) == "B"
        best = -float("inf") if maximising else float("inf")
        for move in ruleset.moves(graph, state):
            value = self.search(ruleset.apply(graph, state, move), alpha, beta)
            if maximising:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        self.store(key, best, window, entry)
        return best

    def store(self, key: Hashable, best: float, window: tuple[float, float], entry) -> None:
        """Remember what a fail-soft search within ``window`` proved: a bound or the value."""
        if best <= window[0]:
            lower, upper = -float("inf"), best
        elif best >= window[1]:
            lower, upper = best, float("inf")
        else:
            lower = upper = best
        if entry is not None:
            lower, upper = max(lower, entry[0]), min(upper, entry[1])
        self.table[key] = (lower, upper)

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


def fast_core(situation: Situation):
    """The specialised search core that can solve this situation, or None."""
    from gorules.impl.rulesets.tromp_taylor import TrompTaylor

    ruleset = situation.ruleset
    if isinstance(ruleset, TrompTaylor) and situation.state == ruleset.start(situation.graph):
        return "tromp-taylor"
    return None


def solve_tromp_taylor(
    situation: Situation,
    max_nodes: int | None,
    max_points: int | None,
    max_seconds: float | None = None,
    progress=None,
    bounds_on_budget: bool = False,
    certify: bool = False,
    core: str | None = None,
    territory: bool = False,
    threshold_search: str | None = None,
    certificate_positions: int | None = None,
    jobs: int | None = 1,
    descent: str = "step",
) -> Solution:
    """The Tromp–Taylor engine's search (Benson bounds, iterative deepening, MTD, history-aware
    tables) from the empty board; with ``certify`` the certificate of its value as well;
    ``core`` chooses the core of its threshold tests (python or compiled); ``territory``
    counts the secure regions of alive stones in the static bounds; ``threshold_search``
    (deepening or dfpn) is how the compiled core decides each threshold test;
    ``certificate_positions`` bounds the certificate's positions (default ``MAX_POSITIONS``
    of :mod:`gorules.impl.solving.certificate`); ``jobs`` worker processes may share a test that resists
    (:mod:`gorules.impl.solving.split`; None: the cores, as many as fit in memory); ``descent`` (step
    or bisect) is how its tests walk down from the upper bound."""
    from gorules.impl.solving.solve import MAX_POINTS, Budget, SolveError, Solver

    options = situation.ruleset.options
    try:
        solver = Solver(
            situation.graph,
            options,
            max_nodes,
            max_points=max_points or MAX_POINTS,
            max_seconds=max_seconds,
            progress=progress,
            core=core,
            territory=territory,
            search=threshold_search,
            jobs=jobs,
            descent=descent,
        )
        found = solver.solve(bounds_on_budget=bounds_on_budget)
    except SolveError as error:
        raise SearchError(str(error)) from None
    # CERTIFY_WAYS: a certificate is written from the solver's own table, with df-pn's eight
    # ways per state.  Those were once refused (one way was forced when certifying): the
    # writer tried first the move of the first proof the state's bucket held, which could be
    # a proof made under another history; that move often keeps the bound here too, but leads
    # into lines no proof of this history covers, each then proved afresh (path:8: 1,831,687
    # solver nodes in 120 s and 1.9 GB, still growing, where one way needed 924).  The writer now takes
    # the move of a proof whose queries hold under its history (``Solver.held_move``): path:8
    # writes in 718 solver nodes with eight ways, 1×10 in 69,397 against 150,698 with one.
    proof = None
    effort: dict = {}
    if certify and found.status == "exact":
        from gorules.impl.solving.certificate import MAX_POSITIONS, CertificateRefused, PositionsSpent, certificate

        try:
            proof = certificate(solver, found.raw_value, certificate_positions or MAX_POSITIONS, effort)
        except CertificateRefused as error:
            raise SearchError(str(error)) from None
        except PositionsSpent as spent:
            raise SearchError(
                f"{situation.graph.name}: {spent} while it was written (raise --certificate-positions)"
            ) from None
        except Budget as spent:
            raise SearchError(
                f"{situation.graph.name}: {spent} while the certificate was written (raise --seconds / --nodes)"
            ) from None
    return Solution(
        graph=situation.graph.name,
        ruleset=situation.ruleset.name,
        options=options.as_dict(),
        value=found.value,
        principal_variation=found.principal_variation,
        nodes=solver.nodes,
        seconds=found.seconds,
        method=(
            (
                "MTD(f) tests by iterative-deepening proofs, then null-window alpha-beta, on the engine's bitsets; "
                if solver.core == "python"
                else "MTD(f) tests by iterative-deepening proofs in the compiled core (numba, bit masks); "
                if solver.search_kind == "deepening"
                else "MTD(f) tests by depth-first proof-number search (weak rule) in the compiled core "
                "(numba, bit masks); "
            )
            + "Benson bounds, automorphism folding, history heuristic, history-aware transposition tables"
        ),
        status=found.status,
        lower=found.lower,
        upper=found.upper,
        note=found.cycle_rule or emptied_note(effort.get("tables_emptied", 0), effort.get("disagreement")),
        details=found.details,
        certificate=proof,
    )


def emptied_note(times: int, where: str | None = None) -> str | None:
    """What a solve says when its certificate writer had to empty the solver's tables
    (``certificate``'s ``tables_emptied``, first at ``where``), or None."""
    if not times:
        return None
    return (
        f"while the certificate was written the solver's answers disagreed {times} time(s) (first at {where}), "
        "and its tables were emptied and the moves searched afresh; check the file with gorules check-certificate"
    )


def solve(
    situation: Situation,
    max_nodes: int | None = None,
    max_points: int | None = None,
    generic: bool = False,
    max_seconds: float | None = None,
    progress=None,
    bounds_on_budget: bool = False,
    certify: bool = False,
    core: str | None = None,
    territory: bool = False,
    threshold_search: str | None = None,
    certificate_positions: int | None = None,
    jobs: int | None = 1,
    descent: str | None = None,
) -> Solution:
    """The perfect-play value of the game from ``situation`` (for Black) and a principal
    variation; SearchError if minimax does not apply or the budget runs out (with
    ``bounds_on_budget``, the Tromp–Taylor core returns status ``bounds`` instead).
    ``generic`` forces the interface's own search even where a faster core exists;
    ``certify`` asks the Tromp–Taylor core for a certificate (SearchError elsewhere);
    ``core`` (python or compiled) is the Tromp–Taylor solver's core (SearchError elsewhere);
    ``territory`` counts the secure regions of alive stones in its static bounds, and
    ``threshold_search`` (deepening or dfpn) is how its compiled core decides a threshold test
    (each SearchError elsewhere); ``certificate_positions`` bounds the certificate's positions;
    ``jobs`` is how many worker processes the Tromp–Taylor core may split a resisting test over
    (None: the cores, as many as fit in memory);
    ``descent`` (step or bisect) is how its tests walk down (SearchError elsewhere)."""
    ruleset = situation.ruleset
    if max_points is not None and situation.graph.order > max_points:
        raise SearchError(
            f"{situation.graph.name} has {situation.graph.order} points: the solver takes at most {max_points} "
            "(raise the limit with --max-points)"
        )
    if not generic and fast_core(situation) == "tromp-taylor":
        return solve_tromp_taylor(
            situation,
            max_nodes,
            max_points,
            max_seconds,
            progress,
            bounds_on_budget,
            certify,
            core,
            territory,
            threshold_search,
            certificate_positions,
            jobs,
            descent or "step",
        )
    if territory:
        raise SearchError(f"--territory applies to tromp-taylor games from the empty board, not {ruleset.name}")
    if threshold_search is not None:
        raise SearchError(f"--search applies to tromp-taylor games from the empty board, not {ruleset.name}")
    if descent is not None:
        raise SearchError(f"--descent applies to tromp-taylor games from the empty board, not {ruleset.name}")
    if core is not None:
        raise SearchError(f"--core applies to tromp-taylor games from the empty board, not {ruleset.name}")
    if certify:
        raise SearchError(
            f"certificates are written only for tromp-taylor games from the empty board, not {ruleset.name}"
        )
    require_two_player_finite(ruleset)
    search = Minimax(ruleset, situation.graph, max_nodes, max_seconds, progress)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    started = time.perf_counter()
    try:
        value = search.search(situation.state, -float("inf"), float("inf"))
        line = search.principal_variation(situation.state, value)
    except Budget as spent:
        raise SearchError(
            f"{situation.graph.name}: {spent} before the value was found (raise --seconds / --nodes)"
        ) from None
    finally:
        sys.setrecursionlimit(limit)
    shown = VALUE_OUTCOME[int(value)] if ruleset.value_kind == "outcome" else value
    return Solution(
        graph=situation.graph.name,
        ruleset=ruleset.name,
        options=ruleset.options.as_dict(),
        value=shown,
        principal_variation=line,
        nodes=search.nodes,
        seconds=time.perf_counter() - started,
        method="alpha-beta minimax through the ruleset interface, table keyed by situation and history",
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
            raise Budget
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
    except Budget:
        raise SearchError(f"{graph.name}: the node budget of {max_nodes} nodes ran out while counting") from None
    finally:
        sys.setrecursionlimit(limit)


def at_least(situation: Situation, threshold: float, max_nodes: int | None = None) -> bool:
    """A yes/no search: whether Black's perfect-play value from ``situation`` is at least
    ``threshold`` (outcomes count as 1 a Black win, 0 a draw, -1 a White win).  Cheaper than
    :func:`solve`: a search with the window just below ``threshold`` proves only the bound."""
    ruleset = situation.ruleset
    require_two_player_finite(ruleset)
    search = Minimax(ruleset, situation.graph, max_nodes)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 100_000))
    try:
        return search.search(situation.state, threshold - 0.5**20, threshold) >= threshold
    except Budget as spent:
        raise SearchError(f"{situation.graph.name}: {spent}") from None
    finally:
        sys.setrecursionlimit(limit)
