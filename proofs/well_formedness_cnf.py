"""The step of T1 through CNF: a move keeps a well-formed board well-formed.

The same statement as the ``step`` part of ``proofs/well_formedness.py`` (for every
well-formed board b, player p and empty point v, the board of move((b, p, n), v) is
well-formed), encoded for a CDCL SAT solver (``proofs/sat.py``) instead of Z3, split
into one cube per played point and player, the points reduced to one per automorphism
orbit (``proofs/symmetry.py``), and the cubes solved on a pool of processes.

Well-formedness of the result occurs only negated in the counterexample search, so its
``reaches`` is encoded by closure alone (a closed set missing a point witnesses that the
point does not reach Empty, exactly).  The hypothesis and both clearings use an exact
encoding.  With ``clear_side="supported"`` the clearings keep only the support half: a
relaxation (every true move is still a model), so "proved" stays a proof, and a
counterexample is replayed on the spec before it is believed.

Mutant: ``no-second-clear`` leaves the mover's own chains without liberties on the board.
"""

from __future__ import annotations

import sys
from typing import Optional

from proofs import extras, sat
from spec import tromp_taylor as tt

NAME = "well-formedness-step-cnf"
STATEMENT = "Every move keeps a well-formed board well-formed (T1's step), proved through CNF."
STATEMENT_AS_WRITTEN = STATEMENT + " With reaches as the source writes it."
MUTANTS = ("no-second-clear",)
MUTANTS_AVAILABLE = tuple(sat.MUTANTS)
PLAYED_POINT = True
INVARIANT = True


def query(graph, cube: extras.Cube, options: extras.Options) -> extras.Query:
    """Well-formed boards and moves whose result is not well-formed."""
    f = sat.Formula()
    adjacency, arcs = extras.adjacency_of(f, graph)
    n = adjacency.order
    b = sat.symbolic_board(f, n)
    x = sat.played_point(f, n, cube.point)
    p = extras.player_literal(cube, f)
    side = options.extra.get("clear_side", "exact")
    steps = sat.move(f, adjacency, b, x, p, options.encoding, options.mutant, side=side, written=options.as_written)
    setup = extras.MoveSetup(f, adjacency, arcs, b, x, p, steps)
    units = [
        extras.played_on_empty(setup),
        sat.well_formed(f, adjacency, b, options.encoding, written=options.as_written),
        sat.neg(sat.well_formed(f, adjacency, steps.result, options.encoding, side="closed",
                                written=options.as_written)),
    ]
    return extras.Query(f, units, lambda model: extras.move_counterexample(
        setup, graph, model, NAME, "not well-formed"))


def holds(graph, counterexample: dict) -> bool:
    """The statement on one concrete board and move, by the spec."""
    b = tuple(counterexample["boards"][0]["board"])
    v, p = counterexample["point"], counterexample["player"]
    if b[v] != tt.EMPTY or not all(tt.reaches(graph, b, u, tt.EMPTY) for u in graph.points):
        return True
    after = tt.move(graph, tt.State(b, p, 0), v).board
    return all(tt.reaches(graph, after, u, tt.EMPTY) for u in graph.points)


def scope(graph) -> str:
    """What a proof covers."""
    return extras.scope_text(graph, "every well-formed board, move and player")


def prove(graph, as_written: bool = False, encoding: str = "unary", mutant: Optional[str] = None,
          timeout: Optional[float] = None, **options):
    """Prove the statement on a graph (or every graph of a SymbolicGraph's order)."""
    return extras.prove(sys.modules[__name__], graph, as_written, encoding, mutant, timeout, **options)
