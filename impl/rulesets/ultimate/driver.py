"""The hand-over of the yes/no questions to the compiled core (``Engine``'s part ``driver``):
the core (``CompiledQuestions``, loaded when first needed) answers a question in slices of
nodes, and each slice's nodes are counted on the engine (its budget, its probe cap, its
progress)."""

from __future__ import annotations

from typing import Any

from gorules.impl.rulesets.ultimate.boards import Position
from gorules.impl.rulesets.ultimate.proving import Abandoned

MAX_COMPILED = 7
"""The largest graphs whose questions the compiled core answers (every board numbered)."""


class CompiledDriver:
    """The compiled core of one engine and the way its questions are asked of it; ``search``
    names the core's orders: "all", "race" or "dfpn" (``Engine``)."""

    def __init__(self, engine: Any, search: str):
        """No core loaded yet."""
        self.engine = engine
        self.search = search
        self.core: Any = None  # the compiled core (``ultimate_compiled``), when first needed

    def decide_compiled(self, goal: int, p: Position) -> bool | None:
        """``prove(goal, p)``'s answer from the compiled core, its nodes counted on the engine
        (the meter ticked, progress told every thousand, Abandoned past a probe's cap); None
        if a line outgrew the core's stack."""
        from gorules.impl.rulesets.ultimate.compiled import DFPN, SLICE, CompiledQuestions, Overflowed

        engine = self.engine
        if self.core is None:
            orders = {"race": (0, 1), "dfpn": (DFPN,), "all": (0, 1, DFPN)}[self.search]
            self.core = CompiledQuestions(engine, orders=orders)

        def room() -> int:
            """The nodes of the next slice: up to just past a probe's cap or the node budget."""
            ends = [SLICE]
            if engine.cap is not None:
                ends.append(engine.cap + 1 - engine.nodes)
            if engine.meter is not None and engine.meter.budget.nodes is not None:
                ends.append(engine.meter.budget.nodes + 1 - engine.meter.nodes)
            return max(1, min(ends))

        def on_nodes(k: int) -> None:
            """Count k nodes of the core as the engine's."""
            before = engine.nodes
            engine.nodes += k
            if engine.progress is not None:
                for thousand in range(before // 1000 + 1, engine.nodes // 1000 + 1):
                    engine.progress(thousand * 1000)
            if engine.meter is not None and k:
                engine.meter.tick(k)
            if engine.cap is not None and engine.nodes > engine.cap:
                raise Abandoned

        try:
            return self.core.decide(goal, p, on_nodes, room)
        except Overflowed:
            return None
