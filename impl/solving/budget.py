"""Budgets for expensive work: time and nodes, checked cheaply from inside a search.

Every expensive computation takes a :class:`Budget`.  It estimates its cost first and
refuses what cannot finish (raising :class:`TooExpensive`, whose message names the flag
that raises the limit); while it runs it calls :meth:`Meter.tick` once per node, which
raises :class:`BudgetSpent` when the time or the node allowance is used up, so that the
caller can report what it proved so far instead of a value.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass


class TooExpensive(ValueError):
    """A computation refused before it starts: its estimated cost exceeds the budget."""


class BudgetSpent(Exception):
    """The time or node allowance of a budget ran out during the work."""


@dataclass(frozen=True)
class Budget:
    """How much a computation may spend: wall-clock seconds and search nodes (None: no limit)."""

    seconds: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        """Limits are positive and finite."""
        for name, value in (("seconds", self.seconds), ("nodes", self.nodes)):
            if value is not None and (isinstance(value, bool) or not math.isfinite(value) or value <= 0):
                raise ValueError(f"a budget's {name} must be a positive finite number, got {value!r}")

    def meter(self) -> Meter:
        """A meter that starts counting now."""
        return Meter(self)

    def describe(self) -> str:
        """The limits in words, e.g. ``60 s, 10,000,000 nodes``."""
        parts = []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        if self.nodes is not None:
            parts.append(f"{self.nodes:,} nodes")
        return ", ".join(parts) or "no limit"


UNLIMITED = Budget()


class Meter:
    """The spending of one budget: nodes counted, time read every ``CLOCK_EVERY`` nodes."""

    CLOCK_EVERY = 4096

    def __init__(self, budget: Budget):
        """Start counting."""
        self.budget = budget
        self.started = time.perf_counter()
        self.nodes = 0
        self._deadline = None if budget.seconds is None else self.started + budget.seconds

    def tick(self, nodes: int = 1) -> None:
        """Count nodes; BudgetSpent once the node or time allowance is used up."""
        self.nodes += nodes
        limit = self.budget.nodes
        if limit is not None and self.nodes > limit:
            raise BudgetSpent(f"the node budget of {limit:,} nodes ran out")
        if (
            self._deadline is not None
            and self.nodes % self.CLOCK_EVERY < nodes
            and time.perf_counter() > self._deadline
        ):
            raise BudgetSpent(f"the time budget of {self.budget.seconds:g} s ran out")

    def check_time(self) -> None:
        """BudgetSpent once the time allowance is used up, counting no node: for work done
        beside the search's nodes (a table filled before a node is searched)."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise BudgetSpent(f"the time budget of {self.budget.seconds:g} s ran out")

    @property
    def seconds(self) -> float:
        """Seconds since the meter started."""
        return time.perf_counter() - self.started

    @property
    def rate(self) -> float:
        """Nodes per second so far."""
        elapsed = self.seconds
        return self.nodes / elapsed if elapsed > 0 else 0.0
