"""Misère Tromp–Taylor: the player with the smaller score wins.

A subclass of the fast Tromp–Taylor ruleset that changes one rule (the value of a finished
game).  It declares no capability of its own, so every command reaches it through the
generic paths: ``gorules solve path:3 --ruleset-file docs/examples/misere.py --ruleset misere``.
"""

from gorules.impl.rulesets.tromp_taylor import TrompTaylor


class Misere(TrompTaylor):
    """Tromp–Taylor where Black's margin counts for White."""

    name = "misere"

    def value(self, graph, state):
        """Black's margin, negated."""
        return -super().value(graph, state)
