"""What a Tromp–Taylor solve (:class:`gorules.impl.solving.solve.Solver`) reports: the value
and a principal variation, or the bounds proved when the budget ran out, with its effort."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Result:
    """What the solver found: the perfect-play value (Black minus White, komi subtracted), or
    the bounds proved when the budget ran out, and how it was found."""

    graph: str
    options: str  # the preset's name, or the options described
    value: float | None
    principal_variation: list
    nodes: int
    seconds: float
    raw_value: int = 0
    cycle_rule: str | None = None
    details: dict = field(default_factory=dict)
    status: str = "exact"
    lower: float | None = None
    upper: float | None = None

    @property
    def nodes_per_second(self) -> float:
        """Search nodes visited per second of wall-clock time."""
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def details(solver, compiling: float, stopped: str | None = None) -> dict:
    """How ``solver`` searched (options, table, core, search, jobs, splits...), with why it
    ``stopped`` short of the value if it did, and the seconds ``compiling`` its kernels took."""
    found = {"options": solver.options.describe(), "table_entries": len(solver.python.table)}
    if stopped is not None:
        found["stopped"] = stopped
    found |= {
        "core": solver.core,
        "search": solver.search_kind if solver.core == "compiled" else None,
        "territory": solver.territory,
        "compile_seconds": compiling,
        "jobs": solver.jobs,
        "scheduler": solver.scheduler,
        "descent": solver.descent,
        "splits": solver.splitting.splits,
    }
    return found


def exact(solver, raw: int, line: list, seconds: float, compiling: float) -> Result:
    """The value ``raw`` (Black minus White, no komi) that ``solver`` proved, with the
    principal variation ``line`` (cut short where the solver says so)."""
    komi = solver.options.komi
    cut = {"principal_variation": f"cut short: {solver.line_cut}"} if solver.line_cut else {}
    return Result(
        graph=solver.graph.name,
        options=solver.options.name or solver.options.describe(),
        value=raw - komi,
        principal_variation=line,
        nodes=solver.nodes,
        seconds=seconds,
        raw_value=raw,
        cycle_rule=solver.cycle_note(),
        details=details(solver, compiling) | cut,
        lower=raw - komi,
        upper=raw - komi,
    )


def bounds(solver, stopped: str, seconds: float, compiling: float) -> Result:
    """The bounds ``solver`` proved before its budget ran out (``stopped`` says which)."""
    komi = solver.options.komi
    lower, upper = solver.black_bounds()
    return Result(
        graph=solver.graph.name,
        options=solver.options.name or solver.options.describe(),
        value=None,
        principal_variation=[],
        nodes=solver.nodes,
        seconds=seconds,
        cycle_rule=solver.cycle_note(),
        details=details(solver, compiling, stopped),
        status="bounds",
        lower=lower - komi,
        upper=upper - komi,
    )
