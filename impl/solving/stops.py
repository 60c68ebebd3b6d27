"""Why the Tromp–Taylor solver (:mod:`gorules.impl.solving.solve`) stops short of a value:
the errors it reports and the signals its search raises inside itself, which the split
test's workers (:mod:`gorules.impl.solving.split`) raise and catch as well.  A spent node
or time budget is :class:`gorules.impl.solving.budget.BudgetSpent`, as everywhere."""


class SolveError(ValueError):
    """A solve that cannot be done: the graph is too large, or the node budget ran out."""


class ProbeSpent(Exception):
    """Raised inside the search when the first guess's probe has used its nodes."""


class ShareSpent(Exception):
    """Raised inside the search when the tests of one direction (up or down) have used their turn's share of nodes."""
