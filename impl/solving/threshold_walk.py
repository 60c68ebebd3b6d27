"""How the Tromp–Taylor solver (:mod:`gorules.impl.solving.solve`) closes in on the value: the
walk of thresholds "can the player to move force at least g?" (MTD), in turns up from 0 and
down from the upper bound, each turn within a share of nodes that doubles, and the horizons of
the iterative deepening that decides most tests."""

from __future__ import annotations

from gorules.impl.solving.accounting import SplitDue
from gorules.impl.solving.stops import ProbeSpent, ShareSpent

PROBE_NODES = 1 << 19
"""The nodes the first guess's test may take before the tests start from 0 instead."""
ALTERNATE = True
FIRST_SHARE = 1 << 17
"""The tests walk up from 0 and down from the upper bound in turns, each turn within a
share of nodes that doubles after both directions had one: walking up proves lower
bounds cheaply where the value is low (1×n), walking down upper bounds where a failed
test near the value is dear (the dense 6-point graphs)."""
DESCENTS = ("step", "bisect")
"""How the tests walk down in their turns: ``step`` tests the upper bound itself (one point
down per failure), ``bisect`` the middle of the bounds proved so far (a failure halves the
interval: on 4×4 from [0, +16] to the value +2, fourteen failed tests stepping down, three
bisecting)."""
DEEPENING_FROM = 8
DEEPENING_STEP = 4
"""The deepening's horizons: one turn at a time up to ``DEEPENING_FROM`` turns, then
``DEEPENING_STEP`` turns at a time.  An iteration that leaves the test undecided costs
about twice the one before, and the one that decides it little (its subproofs are
stored); longer steps skip undecided iterations.  These two settings took the fewest
nodes of those compared (docs/solver.md, "How the value is found")."""


class ThresholdWalk:
    """The bounds proved on the root's value and the walk of tests that narrows them."""

    def __init__(self, solver, descent: str, max_depth: int | None):
        """The walk of ``solver``'s root tests, down by ``descent``, the deepening up to
        ``max_depth`` turns (default six per point)."""
        self.solver = solver
        n = solver.n
        self.lower, self.upper = -n, n
        self.iterations = 0
        self.descent = descent
        self.max_depth = max_depth if max_depth is not None else 6 * n
        self.deepening_from = DEEPENING_FROM
        self.deepening_step = DEEPENING_STEP
        self.guess_value = n
        self.probe_nodes = PROBE_NODES
        self.alternate = ALTERNATE
        self.first_share = FIRST_SHARE

    def horizons(self):
        """The horizons of the iterative deepening, 1 up to ``max_depth``: one turn at a
        time up to ``deepening_from``, then ``deepening_step`` turns at a time."""
        depth = 1
        while depth < self.max_depth:
            yield depth
            depth += 1 if depth < self.deepening_from else self.deepening_step
        yield self.max_depth

    def mtd(self, state, guess: int = 0) -> int:
        """The exact negamax value of the root ``state`` by tests "is it at least g?"
        closing in from ``guess``: iterative deepening answers most, a full null-window
        search the rest; the bounds proved so far are kept in ``lower`` and ``upper``.
        A first guess above 0 is tried within ``probe_nodes`` nodes (if its test is not
        settled by then, the tables are emptied); the tests then walk up from 0, or from
        the lower bound proved (successes are cheaper than failures, and walking up needs
        one failure where walking down needs one per step), and, with ``alternate``, down
        from the upper bound in turns (:meth:`walk`), so that a budget that runs out
        leaves an upper bound as well as a lower one (what each way costs:
        docs/solver.md, "How the value is found" and "Not done").  The worker processes
        of split tests end with it."""
        try:
            return self.closing_in(state, guess)
        finally:
            self.solver.splitting.close()

    def closing_in(self, state, guess: int) -> int:
        """The walk of thresholds of :meth:`mtd`, from ``guess``."""
        solver = self.solver
        account = solver.account
        self.lower, self.upper = solver.static.bounds(*state[:3])
        g = min(max(guess, self.lower + 1), self.upper)
        if g > max(0, self.lower + 1) and self.probe_nodes:
            account.probe_until = account.nodes + self.probe_nodes
            try:
                self.settle(state, g)
            except ProbeSpent:
                solver.forget()
            finally:
                account.probe_until = None
            g = min(max(0, self.lower + 1), self.upper)
        if not self.alternate:
            while self.lower < self.upper:
                g = self.settle(state, g)
            return self.lower
        share = self.first_share
        while self.lower < self.upper:
            g = self.walk(state, g, share, up=True)
            self.walk(state, g, share, up=False)
            share *= 2
        return self.lower

    def walk(self, state, g: int, share: int, up: bool) -> int:
        """Settle tests in one direction within ``share`` nodes: walking up from ``g`` (the
        next g is returned), or down (:meth:`descent_test`).  A test cut off by the share is
        left to the next turn; the tables keep what it proved."""
        account = self.solver.account
        account.share_until = account.nodes + share
        try:
            while self.lower < self.upper:
                if up:
                    g = self.settle(state, min(max(g, self.lower + 1), self.upper))
                else:
                    self.settle(state, self.descent_test())
        except ShareSpent:
            pass
        finally:
            account.share_until = None
        return g

    def descent_test(self) -> int:
        """The next test of the walk down: the upper bound (``step``), or the middle of the
        bounds proved so far, rounded up (``bisect``), so that a failure halves the interval
        and a success raises the lower bound past the middle.  Both lie in [lower + 1, upper]."""
        if self.descent == "bisect":
            return (self.lower + self.upper + 2) // 2
        return self.upper

    def settle(self, state, g: int) -> int:
        """Settle the test "at least g?" at the root, narrow ``lower`` or ``upper``; return
        the next g to test."""
        solver = self.solver
        answer = self.decide(state, g)
        if answer > 0:
            self.lower, g = g, g + 1
        elif answer < 0:
            self.upper, g = g - 1, g - 1
        else:
            solver.depth = None
            value = solver.test(state, g - 1, g, solver.group)
            if value >= g:
                self.lower, g = value, value + 1
            else:
                self.upper, g = value, value
        self.iterations += 1
        if solver.progress is not None:
            solver.progress(solver)
        return min(max(g, self.lower + 1), self.upper)

    def decide(self, state, g: int) -> int:
        """The root's test "at least g?" (1, -1, or 0 if the deepening left it undecided):
        split over the worker processes once it has resisted ``split_after`` nodes in this
        process (:meth:`Splitting.splittable`), else searched here, its nodes counted; a test
        that reaches ``split_after`` nodes here is split at once (SplitDue), not at the
        walk's next turn, so that the other workers do not wait out the turn's share.  A
        split test keeps to its turn's share as well."""
        solver = self.solver
        splitting = solver.splitting
        account = solver.account
        if splitting.splittable(g):
            return splitting.run(state, g)
        before = account.nodes
        if splitting.may_split():
            account.split_until = account.nodes + splitting.split_after - splitting.test_nodes.get(g, 0)
        try:
            return solver.deepen(state, g, solver.group)
        except SplitDue:
            pass
        finally:
            account.split_until = None
            splitting.test_nodes[g] = splitting.test_nodes.get(g, 0) + account.nodes - before
        return self.decide(state, g)
