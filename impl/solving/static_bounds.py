"""The scores and static bounds of the Tromp–Taylor solver (:mod:`gorules.impl.solving.solve`).

Every final margin lies in [-n, n] (n points); tighter, Benson's unconditionally alive stones
of each colour stay to the end (their owner may pass), so the margin lies in
[2·alive(Black) − n, n − 2·alive(White)], under area scoring with their one-point eyes (with
``territory``, their secure regions) counted as alive (:mod:`gorules.impl.engine.benson`).
"""

from __future__ import annotations

from gorules.impl.engine.benson import margin_bounds
from gorules.impl.engine.rules import popcount


class StaticBounds:
    """Final scores and the bounds on a position's value known without search."""

    def __init__(self, kernel, suicide_allowed: bool, stone_scoring: bool, benson: bool, territory: bool):
        """Bounds on the engine's ``kernel`` under these rules; ``benson`` where the Benson
        bounds are sound, ``territory`` to count the alive stones' secure regions."""
        self.kernel = kernel
        self.n = kernel.n
        self.suicide_allowed = suicide_allowed
        self.stone_scoring = stone_scoring
        self.benson = benson
        self.territory = territory
        self.cache: dict = {}

    def difference(self, black: int, white: int) -> int:
        """Black's score minus White's on this board, without komi."""
        if self.stone_scoring:
            return popcount(black) - popcount(white)
        sb, sw = self.kernel.area(black, white)
        return sb - sw

    def bounds(self, black: int, white: int, side: int) -> tuple[int, int]:
        """Static bounds on the value for the player to move: the Benson bounds on the
        margin where they are sound, else [-n, n]."""
        found = self.cache.get((black, white))
        if found is None:
            if self.benson:
                found = margin_bounds(
                    self.kernel, black, white, self.suicide_allowed, not self.stone_scoring, self.territory
                )
            else:
                found = (-self.n, self.n)
            self.cache[(black, white)] = found
        return (-found[1], -found[0]) if side else found
