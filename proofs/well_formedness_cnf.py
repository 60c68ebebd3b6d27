"""The step of T1 through CNF: a move keeps a well-formed board well-formed.

The same statement as the ``step`` part of ``proofs/well_formedness.py`` (for every
well-formed board b, player p and empty point v, the board of move((b, p, n), v) is
well-formed), encoded for a CDCL SAT solver (``proofs/sat.py``) instead of Z3, asked
in one query (the played point and the player left to the solver, no reduction) or, with
``split=True``, split into one cube per played point and player, the points reduced to one
per automorphism orbit (``proofs/symmetry.py``), and the cubes solved on a pool of
processes.

Well-formedness of the result occurs only negated in the counterexample search, so its
``reaches`` is encoded by closure alone (a closed set missing a point witnesses that the
point does not reach Empty, exactly).  The hypothesis and both clearings use an exact
encoding.  With ``clear_side="supported"`` the clearings keep only the support half: a
relaxation (every true move is still a model), so "proved" stays a proof, and a
counterexample is replayed on the spec before it is believed.

The induction behind the step ("a stone that reached Empty still does, along the same
path") is handed to the solver in one of two ways (option ``induction``): ``least``
(default) asks only for a *least* lost stone and checks, by lemmas, that it has no
support; ``ranks`` checks the induction rank by rank.  Both are described, with why they
cannot change the answer, in proofs/README.md ("Rank lemmas", "Least lost stone").

Mutant: ``no-second-clear`` leaves the mover's own chains without liberties on the board.
"""

from __future__ import annotations

from gorules.proofs import extras, sat
from gorules.proofs.theorem import Theorem
from gorules.spec import tromp_taylor as tt
from gorules.spec.tromp_taylor import EMPTY

NAME = "well-formedness-step-cnf"
LARGEST_GRID = 15 * 15
"""The most points tried without ``--max-points``: the least-lost-stone induction keeps the
formula's growth polynomial, and 15×15 is the largest square grid it proves within the
benchmark's minute (benchmarks/README.md, "`bench_proofs.py`")."""


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
    lemmas = induction(setup, options, side) if options.extra.get("lemmas", True) else ()
    return extras.Query(
        f, units, lambda model: extras.move_counterexample(setup, graph, model, NAME, "not well-formed"), lemmas
    )


def induction(setup: extras.MoveSetup, options: extras.Options, side: str) -> tuple:
    """The lemmas of the induction the options choose (``least`` by default, or ``ranks``)."""
    chosen = options.extra.get("induction", "least")
    if chosen not in INDUCTIONS:
        raise ValueError(f"unknown induction {chosen!r}: expected one of {', '.join(INDUCTIONS)}")
    return INDUCTIONS[chosen](setup, options, side)


def ranked_boards(setup: extras.MoveSetup, options: extras.Options, side: str):
    """What both inductions start from: the formula, the order n, the closed set saying which
    points of the result reach Empty, and the two kinds of stone whose loss they rule out,
    each as (board, colour, its ranked ``reaches`` Empty): p*'s on b[v ↦ p] and p's on the
    first clearing's board.  None where there are no ranks to induct on (an encoding other
    than unary, or a ``reaches`` without ranks)."""
    f, adjacency, steps, p = setup.formula, setup.adjacency, setup.steps, setup.player
    if options.encoding != "unary":
        return None
    closed = sat.reaching(f, adjacency, steps.result, EMPTY, options.encoding, "closed", options.as_written)
    kinds = []
    for board, colour in ((steps.placed, sat.opponent(p)), (steps.first, p)):
        R = sat.reaching(f, adjacency, board, EMPTY, options.encoding, side, options.as_written)
        if R not in f.ranks:
            return None
        kinds.append((board, colour, R))
    return f, adjacency.order, closed, kinds


def least_lost_stone(setup: extras.MoveSetup, options: extras.Options, side: str) -> tuple:
    """The induction as a least counterexample.

    A *lost* stone is a stone of p* that reaches Empty on b[v ↦ p], or a stone of p that
    reaches Empty on the first clearing's board, and that is missing from the closed set
    saying which points of the result reach Empty.  For each of the two kinds,
    ``sat.least_member`` adds selectors of a lost stone of least rank (a restriction that
    every model extends to).  The lemmas, one level per kind, say of each selected stone
    u and each support s of u through a neighbour w: w is not Empty, w is not a stone of
    u's colour, so s does not hold; so u has no support and is not selected.  With no
    stone selected no stone is lost, and the result is well-formed.  (Only with unary
    ranks; each lemma is checked by the solver before it is used, see ``extras._solve``.)"""
    found = ranked_boards(setup, options, side)
    if found is None:
        return ()
    f, n, closed, kinds = found
    levels = []
    for board, colour, R in kinds:
        stones = [sat.stones_of(f, board, colour, w) for w in range(n)]
        lost = [f.conj([stones[w], R[w], sat.neg(closed[w])]) for w in range(n)]
        least = sat.least_member(f, lost, f.ranks[R])
        supports = f.supports[R]
        levels.append([lemma for u in range(n) for lemma in unsupported(f, board, stones, least[u], supports[u])])
    return tuple(levels)


def unsupported(f: sat.Formula, board: sat.Board, stones: list, selected: sat.Literal, supports) -> list:
    """The lemmas that a selected least lost stone has no support: for each support s
    through a neighbour w, "selected ∧ s ⇒ w is not Empty", "… ⇒ w is not a stone of the
    colour", "selected ⇒ ¬s"; then "¬selected"."""
    lemmas = []
    for w, s in supports:
        not_both = [sat.neg(selected), sat.neg(s)]
        lemmas += [[*not_both, sat.neg(sat.empty(f, board, w))], [*not_both, sat.neg(stones[w])], not_both]
    lemmas.append([sat.neg(selected)])
    return lemmas


def rank_lemmas(setup: extras.MoveSetup, options: extras.Options, side: str) -> tuple:
    """The induction on ranks, as levels of clauses for the solver to check in order: for
    k = 0, 1, …,
    a stone of p* that reaches Empty on b[v ↦ p] with rank ≤ k, and a stone of p that
    reaches Empty on the first clearing's board with rank ≤ k, are in the closed set that
    says which points of the result reach Empty.  (Only with unary ranks; each lemma is
    checked by the solver before it is used, see ``extras._solve``.)"""
    found = ranked_boards(setup, options, side)
    if found is None:
        return ()
    f, n, closed, kinds = found
    layers = [
        [(sat.stones_of(f, board, colour, w), R[w], f.ranks[R][w], closed[w]) for w in range(n)]
        for board, colour, R in kinds
    ]
    levels = []
    for k in range(n):
        level = []
        for layer in layers:
            for stone, reached, rank, in_closed in layer:
                bound = [rank[k]] if k < len(rank) else []
                level.append([sat.neg(stone), sat.neg(reached), *bound, in_closed])
        levels.append(level)
    return tuple(levels)


INDUCTIONS = {"least": least_lost_stone, "ranks": rank_lemmas}


def statement(graph, b: tt.Board, v: int, p: tt.Player) -> bool:
    """The statement on one concrete well-formed board and move of p on the empty point v, by the spec."""
    after = extras.board_after(graph, b, p, v)
    return all(tt.reaches(graph, after, u, tt.EMPTY) for u in graph.points)


THEOREM = Theorem.beyond_the_source(
    NAME,
    "Every move keeps a well-formed board well-formed (T1's step), proved through CNF.",
    extras.move_proof(query, statement, split=False),
    mutants=("no-second-clear",),
    reductions=extras.MOVE_REDUCTIONS,
    max_points=LARGEST_GRID,
)
