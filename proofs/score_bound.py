"""The two area scores never add up to more than the number of points.

Statement: for every board b, score(b, Black) + score(b, White) ≤ |Point|.  A point
counts for p if it is p's stone, or empty and reaching p but not p*; no point counts for
both.  The sum is stated as written, with a cardinality constraint (a totalizer): the
search looks for a board where at least |Point| + 1 of the 2·|Point| "counts for"
literals hold.

Mutant: ``dame-counted`` forgets "but not p*", so a neutral empty point counts for both.
"""

from __future__ import annotations

from gorules.proofs import extras, sat
from gorules.proofs.theorem import Reductions, Theorem
from gorules.spec import tromp_taylor as tt

NAME = "score-bound"


def query(graph, cube: extras.Cube, options: extras.Options) -> extras.Query:
    """Boards whose two scores add up to more than the number of points."""
    from pysat.card import CardEnc, EncType

    f = sat.Formula()
    adjacency, arcs = extras.adjacency_of(f, graph)
    n = adjacency.order
    b = sat.symbolic_board(f, n)
    counts: list = []
    for p in (tt.BLACK, tt.WHITE):
        counts.extend(sat.counted(f, adjacency, b, p, options.encoding, options.mutant, options.as_written))
    literals = [l for l in counts if not isinstance(l, bool)]
    constants = sum(1 for l in counts if l is True)
    needed = n + 1 - constants
    units: list = []
    if needed > len(literals):
        units.append(False)
    elif needed > 0:
        card = CardEnc.atleast(literals, bound=needed, top_id=f.top, encoding=EncType.totalizer)
        f.top = max(f.top, card.nv)
        f.clauses.extend(card.clauses)

    def decode(model: set) -> dict:
        board = extras.board_text(model, b)
        return {
            "part": NAME,
            "graph": extras.graph_of_model(graph, arcs, model),
            "boards": [{"label": "the two scores exceed the number of points", "board": board}],
        }

    return extras.Query(f, units, decode)


def holds(graph, counterexample: dict) -> bool:
    """The statement on one concrete board, by the spec."""
    b = tuple(counterexample["boards"][0]["board"])
    return tt.score(graph, b, tt.BLACK) + tt.score(graph, b, tt.WHITE) <= graph.order


THEOREM = Theorem.beyond_the_source(
    NAME,
    "score(b, Black) + score(b, White) ≤ |Point| for every board b.",
    extras.CnfProof(query, holds, covers="every board", mutants_available=("dame-counted",)),
    mutants=("dame-counted",),
    reductions=Reductions(automorphism_invariant=True),
)
