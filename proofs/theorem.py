"""A theorem as one object: what it states, where the statement comes from, what a run of
it should find, which reductions it admits, and how it is proved.

Every theorem of ``gorules prove`` and ``gorules verify`` is a :class:`Theorem`, built once
in its module and listed in ``proofs/registry.py``.  Its proof is a *method*: the Z3 one
(:class:`proofs.z3_proof.Z3Proof`, a theorem split into named parts) or the CNF one
(:class:`proofs.extras.CnfProof`, a statement split into cubes solved by a SAT solver).
:meth:`Theorem.prove` turns the caller's arguments into a :class:`Request` and hands it
to the method; the method returns a :class:`proofs.result.ProofResult` whose ``scope``
says what was established.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from gorules.proofs.result import ProofResult, attempt, combine

SOURCE = "002_8835c2492dce8849.txt"
BEYOND_THE_SOURCE = "beyond the source"
MAX_POINTS = 16
"""The most points of a graph a theorem is tried on unless the user allows more: beyond it
most encodings outgrow the default budget (a theorem whose encoding reaches further says so)."""


@dataclass(frozen=True)
class Reductions:
    """What a statement about one move lets the CNF driver (``proofs/extras.py``) do.

    ``played_point``: the statement is about a move at a played point, so it splits into one
    cube per played point and player (otherwise it is one query over every board);
    ``colour_invariant``: it does not change when Black and White are exchanged, so Black to
    move is enough; ``automorphism_invariant``: it does not change when the points are
    renamed by an automorphism of the graph, so one played point per orbit is enough.  (The
    Z3 proofs use none of them.)"""

    played_point: bool = False
    colour_invariant: bool = False
    automorphism_invariant: bool = False


@dataclass(frozen=True)
class Request:
    """One proof asked for: the theorem's name, the graph (as the caller gave it until the
    method normalises it), the reading, the encoding of reaches, the rules (a mutant or the
    spec's), the time limit per solver call, and the method's own options."""

    theorem: str
    graph: Any
    as_written: bool = False
    encoding: str = "ranked"
    mutant: str | None = None
    timeout: float | None = None
    options: Mapping = field(default_factory=dict)

    @property
    def labels(self) -> dict:
        """The fields that every result of this request carries."""
        return {"encoding": self.encoding, "as_written": self.as_written, "mutant": self.mutant}

    def whole(self, search: Callable[[Request], tuple], scope: str) -> ProofResult:
        """The theorem checked in one search (which returns (status, counterexample)), timed."""
        return attempt(self.theorem, self.graph.name, lambda: search(self), scope=scope, **self.labels)

    def part(self, name: str, search: Callable[[Request], tuple], scope: str) -> ProofResult:
        """One part of the theorem, named ``THEOREM/NAME``, checked in one search, timed."""
        return attempt(f"{self.theorem}/{name}", self.graph.name, lambda: search(self), scope=scope, **self.labels)

    def combine(self, parts: list[ProofResult], **fields) -> ProofResult:
        """The conjunction of the parts (see :func:`proofs.result.combine`)."""
        return combine(self.theorem, self.graph.name, parts, **fields, **self.labels)


class Method(Protocol):
    """How a theorem is proved: the encodings and mutants it knows, its default encoding,
    and the call that answers a request."""

    @property
    def encodings(self) -> tuple[str, ...]:
        """The encodings this method can prove with."""

    @property
    def mutants_available(self) -> tuple[str, ...]:
        """The broken rules this method can substitute for the correct ones."""

    @property
    def default_encoding(self) -> str:
        """The encoding used when a request names none."""

    def __call__(self, theorem: Theorem, request: Request) -> ProofResult: ...


@dataclass(frozen=True)
class Theorem:
    """A theorem: its name, its statement as corrected and as the source writes it, the
    source it comes from, how it is proved, the mutants (broken rules) it must refute, the
    verdicts a run should give as corrected and as written (on the graphs it is meant for),
    the reductions its proof may use, graphs on which even the corrected statement is
    refuted, each with what makes it fail there (``("digraph:0>1,1>2,2>0,1>3", "directed")``),
    and the most points of a graph it is tried on unless the user allows more."""

    name: str
    statement: str
    statement_as_written: str
    source: str
    method: Method
    mutants: tuple[str, ...]
    expected: str = "proved"
    expected_as_written: str = "proved"
    reductions: Reductions = Reductions()
    refuted_on: tuple[tuple[str, str], ...] = ()
    max_points: int = MAX_POINTS

    @classmethod
    def beyond_the_source(cls, name: str, statement: str, method: Method, mutants: tuple, **facts) -> Theorem:
        """A theorem the source does not state, about its definitions: as written, it reads
        them with the source's own ``reaches``."""
        as_written = statement + " With reaches as the source writes it."
        return cls(name, statement, as_written, BEYOND_THE_SOURCE, method, mutants, **facts)

    @property
    def encodings(self) -> tuple[str, ...]:
        """The encodings of reaches the theorem accepts."""
        return self.method.encodings

    @property
    def default_encoding(self) -> str:
        """The encoding used when none is asked for."""
        return self.method.default_encoding

    @property
    def mutants_available(self) -> tuple[str, ...]:
        """Every mutant the theorem can be checked against (its own ``mutants`` among them)."""
        return self.method.mutants_available

    @property
    def from_source(self) -> bool:
        """Whether the source states this theorem (otherwise it goes beyond the source)."""
        return self.source == SOURCE

    def prove(
        self,
        graph,
        as_written: bool = False,
        encoding: str | None = None,
        mutant: str | None = None,
        timeout: float | None = None,
        **options,
    ) -> ProofResult:
        """Prove the theorem on every board of ``graph`` (a Graph or a graph string), or on
        every graph of an order (a :class:`proofs.graphs.SymbolicGraph`): proved, refuted
        with a counterexample, or unknown, with the scope of what was established."""
        encoding = self.default_encoding if encoding is None else encoding
        return self.method(self, Request(self.name, graph, as_written, encoding, mutant, timeout, options))
