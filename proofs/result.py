"""What a proof attempt returns: proved, refuted with a counterexample, or unknown.

A :class:`ProofResult` names the theorem and the graph (or "all graphs on N vertices"),
says which reading of the statement was checked (as written in the source, or
corrected) and under which rules (the spec, or a named mutant), and carries the time
taken.  A refutation carries a counterexample: boards as strings of ``B``, ``W``, ``.``
indexed by point, the moves that lead to them, and for a symbolic graph the arcs of the
graph the solver chose.

``scope`` says honestly what was established: a statement over every board of a fixed
graph, over every graph on N vertices, or over every history up to a bounded length.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

Status = Literal["proved", "refuted", "unknown"]
STATUSES = ("proved", "refuted", "unknown")


@dataclass
class ProofResult:
    """The outcome of proving one statement on one graph (or on every graph of an order)."""

    theorem: str
    graph: str
    status: Status
    seconds: float
    counterexample: dict | None = None
    encoding: str = "ranked"
    as_written: bool = False
    mutant: str | None = None
    scope: str = ""
    parts: list = field(default_factory=list)

    @property
    def proved(self) -> bool:
        """Whether the statement was proved in the stated scope."""
        return self.status == "proved"

    @property
    def refuted(self) -> bool:
        """Whether a counterexample was found."""
        return self.status == "refuted"

    def to_json(self) -> dict:
        """The result as a JSON-ready dict; the first five keys are the documented ones."""
        data = asdict(self)
        data["seconds"] = round(self.seconds, 3)
        return data


def combine(theorem: str, graph: str, parts: list[ProofResult], **fields) -> ProofResult:
    """The conjunction of several proof parts: refuted if any part is refuted (its
    counterexample is kept), proved if all are proved, unknown otherwise."""
    seconds = sum(p.seconds for p in parts)
    refuted = [p for p in parts if p.status == "refuted"]
    status: Status
    if refuted:
        status, counterexample = "refuted", refuted[0].counterexample
    elif all(p.status == "proved" for p in parts):
        status, counterexample = "proved", None
    else:
        status, counterexample = "unknown", None
    summary = [{"part": p.theorem, "status": p.status, "seconds": round(p.seconds, 3), "scope": p.scope} for p in parts]
    return ProofResult(theorem, graph, status, seconds, counterexample, parts=summary, **fields)


def attempt(theorem: str, graph: str, check, **fields) -> ProofResult:
    """Run ``check()`` — which looks for a counterexample and returns (status, counterexample)
    — and time it."""
    import time

    start = time.perf_counter()
    status, counterexample = check()
    return ProofResult(theorem, graph, status, time.perf_counter() - start, counterexample, **fields)
