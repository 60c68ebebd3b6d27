"""Estimating the number of games of a board by Knuth's estimator, with a population.

The games are the root-to-leaf paths of the game tree: a node is a point of a game, its
children the legal turns (every legal stone move and the pass), a leaf the end of a game
(the second consecutive pass).  Knuth's estimator ("Estimating the efficiency of
backtrack programs", 1975) follows one random path from the root, each child uniformly,
and multiplies the branching factors along it: the product's expectation is exactly the
number of leaves.  Its variance is enormous on these trees (most random games are short,
most games are long), so the estimate here follows a *population*: at each level every
turn of every member is listed, the games they end are counted with the level's weight,
and a uniform sample of at most ``population`` of the other children becomes the next
level, the weight multiplied by (children / members).  This is the stochastic enumeration
of Vaisman & Kroese ("Stochastic enumeration method for counting trees", 2017), unbiased
for any population, and Knuth's estimator (counting the games a pass ends without
sampling them) for a population of 1.  One run gives one estimate; the figure is the mean
of ``samples`` independent runs.

The interval is the normal approximation on that mean with the sample variance of the
runs, mean ± 1.96·s/√n.  The runs' estimates are heavy-tailed (a rare run that finds the
long games is larger by orders of magnitude), so on too few runs s underestimates the
spread and the interval is too narrow; beside it the estimate reports the effective number
of runs, (ΣX)²/ΣX², and the share of ΣX that the largest run carries: when a few runs carry
the sum, the interval is not to be trusted, however narrow.  A larger population makes
the runs' estimates less dispersed at a cost in time proportional to it.

Two ways to play, chosen by the ruleset's capabilities:

* with the ``engine`` capability, on the move table of :mod:`gorules.impl.counting.tables`
  (the position after each (position, player, point), played once by the engine's
  kernel), with the history of positions (``ko=positional``) or of situations, the states
  after passes included (``ko=situational``), kept for each member; compiled with numba
  when available;
* otherwise through the ruleset interface (``Situation.legal_moves`` and ``play``), whose
  states carry their own history: any finite ruleset, slowly.

Estimates are kept as natural logarithms (a product of a few hundred branching factors
overflows a float), and their sums are taken relative to the largest.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gorules.impl.counting.tables import NO_MOVE, move_table, numba_available
from gorules.spec.api import Ruleset
from gorules.spec.graph import Graph

Z95 = 1.959963984540054
"""The two-sided 95-percent quantile of the standard normal distribution."""

METHOD = "Knuth's random-path estimator with a population (stochastic enumeration)"
INTERVAL = "95 %, normal approximation on the mean of the runs with their sample variance"
PILOT = 200
"""Members' worth of runs played first, to measure their cost before the rest are played."""


@dataclass
class GameEstimate:
    """An estimate of the number of games: natural logarithms of the estimate and of the
    95-percent interval's ends (``log_low`` is -inf when the interval reaches 0), the runs and
    their population, the effective runs (ΣX)²/ΣX², the largest run's share of ΣX, the
    mean deepest level reached (turns), and how the games were played."""

    log_estimate: float
    log_low: float
    log_high: float
    samples: int
    population: int
    effective_samples: float
    largest_share: float
    mean_depth: float
    playout: str

    def covers(self, games: int) -> bool:
        """Whether the 95-percent interval contains ``games`` (up to rounding: a population as
        wide as the game tree gives the count itself, with an interval of width 0)."""
        slack = 1e-9 * max(1.0, abs(self.log_estimate))
        return self.log_low - slack <= math.log(games) <= self.log_high + slack


def summarise(log_estimates: np.ndarray, depths: np.ndarray, population: int, playout: str) -> GameEstimate:
    """The estimate and its interval from the logarithms of the runs' estimates."""
    n = len(log_estimates)
    top = float(np.max(log_estimates))
    scaled = np.exp(log_estimates - top)  # the runs' estimates divided by the largest, in (0, 1]
    total = float(np.sum(scaled))
    mean = total / n
    half = Z95 * float(np.std(scaled, ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    low = mean - half
    return GameEstimate(
        log_estimate=top + math.log(mean),
        log_low=top + math.log(low) if low > 0 else -math.inf,
        log_high=top + math.log(mean + half) if math.isfinite(half) else math.inf,
        samples=n,
        population=population,
        effective_samples=total * total / float(np.sum(scaled * scaled)),
        largest_share=1.0 / total,
        mean_depth=float(np.mean(depths)),
        playout=playout,
    )


# --------------------------------------------------------------------------- on the move table


def _enumeration_kernel(after, start, situational, population, seed, log_estimates, depths):
    """One estimate of the games per entry of ``log_estimates`` (its logarithm), on the
    move table ``after`` (position, player, point -> position or -1): a population of at
    most ``population`` points of games is followed level by level; at each level every
    turn of every member is listed (the pass, and the stone moves whose result
    (positional) or (result, next player) (situational) is not in the member's history),
    the games ended by a second pass are counted with the level's weight, and a uniform
    sample of the other children becomes the next level, the weight multiplied by
    (children / members).  Writes each run's deepest level to ``depths``."""
    np.random.seed(seed)
    positions = after.shape[0]
    points = after.shape[2]
    words = (2 * positions + 63) // 64
    history = np.zeros((population, words), dtype=np.uint64)
    history_next = np.zeros((population, words), dtype=np.uint64)
    where = np.zeros(population, dtype=np.int64)
    where_next = np.zeros(population, dtype=np.int64)
    mover = np.zeros(population, dtype=np.int64)
    mover_next = np.zeros(population, dtype=np.int64)
    passed = np.zeros(population, dtype=np.bool_)
    passed_next = np.zeros(population, dtype=np.bool_)
    capacity = population * (points + 1)
    parent = np.empty(capacity, dtype=np.int64)
    target = np.empty(capacity, dtype=np.int64)
    is_pass = np.empty(capacity, dtype=np.bool_)
    order = np.empty(capacity, dtype=np.int64)
    one = np.uint64(1)
    for run in range(log_estimates.shape[0]):
        size = 1
        where[0] = start
        mover[0] = 0
        passed[0] = False
        history[0, :] = 0
        first = 2 * start if situational else start
        history[0, first >> 6] |= one << np.uint64(first & 63)
        log_weight = 0.0
        total = -math.inf
        depth = 0
        while size > 0:
            depth += 1
            children = 0
            ended = 0
            for i in range(size):
                p = where[i]
                m = mover[i]
                for v in range(points):
                    r = after[p, m, v]
                    if r >= 0:
                        key = 2 * r + 1 - m if situational else r
                        if not (history[i, key >> 6] >> np.uint64(key & 63)) & one:
                            parent[children] = i
                            target[children] = r
                            is_pass[children] = False
                            children += 1
                if passed[i]:
                    ended += 1
                else:
                    parent[children] = i
                    target[children] = p
                    is_pass[children] = True
                    children += 1
            if ended > 0:
                found = log_weight + math.log(ended) - math.log(size)
                if total == -math.inf:
                    total = found
                else:
                    top = max(total, found)
                    total = top + math.log(math.exp(total - top) + math.exp(found - top))
            if children == 0:
                break
            kept = min(population, children)
            for j in range(children):
                order[j] = j
            for j in range(kept):
                k = j + int(np.random.random() * (children - j))
                if k >= children:
                    k = children - 1
                order[j], order[k] = order[k], order[j]
            log_weight += math.log(children) - math.log(size)
            for j in range(kept):
                c = order[j]
                i = parent[c]
                history_next[j, :] = history[i, :]
                m = 1 - mover[i]
                where_next[j] = target[c]
                mover_next[j] = m
                passed_next[j] = is_pass[c]
                if situational or not is_pass[c]:
                    key = 2 * target[c] + m if situational else target[c]
                    history_next[j, key >> 6] |= one << np.uint64(key & 63)
            history, history_next = history_next, history
            where, where_next = where_next, where
            mover, mover_next = mover_next, mover
            passed, passed_next = passed_next, passed
            size = kept
        log_estimates[run] = total
        depths[run] = depth


_enumeration_jit: Callable | None = None


def _compile() -> None:
    """Compile the kernel (once, cached on disk: it calls nothing of other modules; numba is
    imported only here)."""
    global _enumeration_jit
    if _enumeration_jit is None:
        from numba import njit

        _enumeration_jit = njit(cache=True)(_enumeration_kernel)


def move_table_array(graph: Graph, suicide: str) -> tuple[np.ndarray, int]:
    """The move table as an int64 array (position, player, point) with -1 for no move,
    and the index of the empty board."""
    table = move_table(graph, suicide)
    after = np.array(table.after, dtype=np.int64)
    after[after == NO_MOVE] = -1
    return after, table.empty


class TableRuns:
    """Runs of the population estimator on the engine's move table under positional or
    situational superko."""

    def __init__(self, graph: Graph, ko: str, suicide: str, population: int = 1, compiled: bool | None = None):
        if ko not in ("positional", "situational"):
            raise ValueError(f"the estimate takes ko=positional or ko=situational, not ko={ko}")
        self.after, self.start = move_table_array(graph, suicide)
        self.situational = ko == "situational"
        self.population = population
        self.compiled = numba_available() if compiled is None else compiled
        self.name = f"the engine's move table, ko={ko} suicide={suicide}" + (", compiled" if self.compiled else "")
        if self.compiled:
            _compile()
            self(0, 0)  # compiled (or loaded from the cache) now, not inside the timed pilot

    def __call__(self, runs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """(log estimates, deepest levels) of ``runs`` independent runs from seed ``seed``."""
        log_estimates = np.zeros(runs, dtype=np.float64)
        depths = np.zeros(runs, dtype=np.int64)
        kernel = _enumeration_jit if self.compiled else _enumeration_kernel
        assert kernel is not None, "_compile() ran"
        kernel(self.after, self.start, self.situational, self.population, seed, log_estimates, depths)
        return log_estimates, depths


# --------------------------------------------------------------------------- through the interface


class InterfaceRuns:
    """Runs of the population estimator through the ruleset interface (any finite
    ruleset): the same levels as the kernel's, on situations."""

    def __init__(self, graph: Graph, ruleset: Ruleset, population: int = 1):
        if not ruleset.finite:
            raise ValueError(
                f"the estimate through the interface needs a finite game, which {ruleset.describe()} is not"
            )
        self.start = ruleset.initial(graph)
        self.population = population
        self.name = f"the ruleset interface, {ruleset.describe()}"

    def __call__(self, runs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """(log estimates, deepest levels) of ``runs`` independent runs from seed ``seed``."""
        rng = random.Random(seed)
        log_estimates = np.zeros(runs, dtype=np.float64)
        depths = np.zeros(runs, dtype=np.int64)
        for run in range(runs):
            log_estimates[run], depths[run] = self.run(rng)
        return log_estimates, depths

    def run(self, rng: random.Random) -> tuple[float, int]:
        """One run: (log estimate, deepest level)."""
        members = [self.start]
        log_weight, log_total, depth = 0.0, -math.inf, 0
        while members:
            depth += 1
            children = [member.play(move) for member in members for move in member.legal_moves()]
            ongoing = [child for child in children if not child.over]
            ended = len(children) - len(ongoing)
            if ended:
                log_total = log_sum(log_total, log_weight + math.log(ended) - math.log(len(members)))
            if ongoing:
                log_weight += math.log(len(ongoing)) - math.log(len(members))
            members = rng.sample(ongoing, min(self.population, len(ongoing)))
        return log_total, depth


def log_sum(a: float, b: float) -> float:
    """log(e^a + e^b) without overflow (a may be -inf, the logarithm of an empty sum)."""
    top = max(a, b)
    return top + math.log(math.exp(a - top) + math.exp(b - top))


def runs_for(graph: Graph, ruleset: Ruleset, population: int = 1, compiled: bool | None = None):
    """How a ruleset is estimated: on the engine's move table when the ruleset has the
    ``engine`` capability, through the interface otherwise."""
    engine = ruleset.capability("engine")
    if engine is None:
        return InterfaceRuns(graph, ruleset, population)
    options = engine(ruleset)
    return TableRuns(graph, options.ko, options.suicide, population, compiled)


def estimate_games(
    graph: Graph,
    ruleset: Ruleset,
    samples: int,
    population: int = 1,
    seed: int = 0,
    seconds: float = math.inf,
    compiled: bool | None = None,
) -> GameEstimate:
    """The estimate of the games of ``ruleset`` on ``graph`` from ``samples`` independent
    runs with populations of ``population`` (1: Knuth's random games); a pilot of the first
    runs is timed and the rest refused (:class:`TooCostly`) when they would take longer
    than ``seconds``."""
    runner = runs_for(graph, ruleset, population, compiled)
    first, rest = (int(s) for s in np.random.SeedSequence(seed).generate_state(2) >> 1)
    pilot = max(1, min(samples, PILOT // population))
    began = time.perf_counter()
    log_estimates, depths = runner(pilot, first)
    projected = (time.perf_counter() - began) * samples / pilot
    if projected > seconds:
        raise TooCostly(projected)
    if samples > pilot:
        more_estimates, more_depths = runner(samples - pilot, rest)
        log_estimates = np.concatenate([log_estimates, more_estimates])
        depths = np.concatenate([depths, more_depths])
    return summarise(log_estimates, depths, population, runner.name)


class TooCostly(Exception):
    """The runs asked for would take longer than the time budget (projected seconds)."""

    def __init__(self, seconds: float):
        super().__init__(f"{seconds:.3g} s")
        self.seconds = seconds
