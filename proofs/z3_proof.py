"""The Z3 method: a theorem proved with the Z3 encoding of the spec (``proofs/encoding.py``).

A Z3 theorem gives one function, ``run(request) -> ProofResult``, that searches its parts
for a counterexample with :meth:`proofs.theorem.Request.part` (or the whole statement with
:meth:`~proofs.theorem.Request.whole`) and combines them.  The method hands it a request
whose graph is a Graph or a SymbolicGraph (a graph string is parsed), after checking that
the rules asked for exist.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

import z3

from gorules.proofs import encoding as E
from gorules.proofs.graphs import as_graph
from gorules.proofs.result import ProofResult
from gorules.proofs.theorem import Request, Theorem


@dataclass(frozen=True)
class Z3Proof:
    """A theorem's parts searched with Z3: the encodings of reaches and the mutants of
    ``proofs/encoding.py``, ``ranked`` by default."""

    run: Callable[[Request], ProofResult]
    encodings: tuple[str, ...] = tuple(E.ENCODINGS)
    mutants_available: tuple[str, ...] = tuple(E.MUTANTS)
    default_encoding: str = "ranked"

    def __call__(self, theorem: Theorem, request: Request) -> ProofResult:
        """Answer the request on every board of its graph (or every graph of its order)."""
        request = replace(request, graph=as_graph(request.graph))
        E.rules_named(request.mutant)  # an unknown mutant is a ValueError before any search
        return self.run(request)


class SymbolicMove(NamedTuple):
    """A symbolic board b, player p and played point on the request's graph, and the move:
    its next state and whether it is defined (false on an occupied point)."""

    enc: E.Encoding
    board: tuple
    player: z3.ExprRef
    point: z3.ExprRef
    after: E.State
    defined: z3.BoolRef


def symbolic_move(request: Request, rules: E.Rules, point: str = "v") -> SymbolicMove:
    """Any board, any player and any point of the request's graph, and the move there under
    the rules, from a state with no passes."""
    enc = E.Encoding(request.graph, request.encoding)
    b = E.symbolic_board(enc, "b")
    p = E.symbolic_player(enc, "p")
    v = E.symbolic_point(enc, point)
    after, defined = E.move(enc, E.State(b, p, 0), v, rules)
    return SymbolicMove(enc, b, p, v, after, defined)
