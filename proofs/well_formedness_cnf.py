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

from gorules.proofs import extras, sat
from gorules.proofs.theorem import Theorem
from gorules.spec import tromp_taylor as tt
from gorules.spec.tromp_taylor import EMPTY

NAME = "well-formedness-step-cnf"


def query(graph, cube: extras.Cube, options: extras.Options) -> extras.Query:
    """Well-formed boards and moves whose result is not well-formed."""
    side = options.extra.get("clear_side", "exact")
    setup = extras.move_setup(graph, cube, options, side)
    f, adjacency, b, steps = setup.formula, setup.adjacency, setup.board, setup.steps
    units = [
        extras.played_on_empty(setup),
        sat.well_formed(f, adjacency, b, options.encoding, written=options.as_written)
        if options.extra.get("hypothesis", True)
        else True,
        sat.neg(
            sat.well_formed(f, adjacency, steps.result, options.encoding, side="closed", written=options.as_written)
        ),
    ]
    lemmas = rank_lemmas(setup, options, side) if options.extra.get("lemmas", True) else ()
    return extras.Query(
        f, units, lambda model: extras.move_counterexample(setup, graph, model, NAME, "not well-formed"), lemmas
    )


def rank_lemmas(setup: extras.MoveSetup, options: extras.Options, side: str) -> tuple:
    """The induction on ranks, as levels of clauses for the solver to check in order: for
    k = 0, 1, …,
    a stone of p* that reaches Empty on b[v ↦ p] with rank ≤ k, and a stone of p that
    reaches Empty on the first clearing's board with rank ≤ k, are in the closed set that
    says which points of the result reach Empty.  (Only with unary ranks; each lemma is
    checked by the solver before it is used, see ``extras._solve``.)"""
    f, adjacency, steps, p = setup.formula, setup.adjacency, setup.steps, setup.player
    if options.encoding != "unary":
        return ()
    n = adjacency.order
    closed = sat.reaching(f, adjacency, steps.result, EMPTY, options.encoding, "closed", options.as_written)
    layers = []
    for board, colour in ((steps.placed, sat.opponent(p)), (steps.first, p)):
        R = sat.reaching(f, adjacency, board, EMPTY, options.encoding, side, options.as_written)
        ranks = f.ranks.get(R)
        if ranks is None:
            return ()
        layers.append([(sat.stones_of(f, board, colour, w), R[w], ranks[w], closed[w]) for w in range(n)])
    levels = []
    for k in range(n):
        level = []
        for layer in layers:
            for stone, reached, rank, in_closed in layer:
                bound = [rank[k]] if k < len(rank) else []
                level.append([sat.neg(stone), sat.neg(reached), *bound, in_closed])
        levels.append(level)
    return tuple(levels)


def statement(graph, b: tt.Board, v: int, p: tt.Player) -> bool:
    """The statement on one concrete well-formed board and move of p on the empty point v, by the spec."""
    after = extras.board_after(graph, b, p, v)
    return all(tt.reaches(graph, after, u, tt.EMPTY) for u in graph.points)


THEOREM = Theorem.beyond_the_source(
    NAME,
    "Every move keeps a well-formed board well-formed (T1's step), proved through CNF.",
    extras.move_proof(query, statement),
    mutants=("no-second-clear",),
    reductions=extras.MOVE_REDUCTIONS,
)
