"""Captures and self-capture never happen in the same move (on well-formed boards).

Statement: for every well-formed board b, player p and empty point v, with
b' = b[v ↦ p], b₁ = clear(b', p*) and b₂ = clear(b₁, p): not both some stone of p* is
removed (b'(u) = p*, b₁(u) = Empty) and some stone of p is removed (b₁(u) = p,
b₂(u) = Empty).  A capture always gives the played chain a liberty, and on a
well-formed board every other chain of p already had one.

Mutant: ``simultaneous`` judges the mover's chains on b', before the capture, so a
stone that captures by filling the last liberty also dies; the proof must find it.
"""

from __future__ import annotations

from gorules.proofs import extras, sat
from gorules.proofs.theorem import Theorem
from gorules.spec import tromp_taylor as tt

NAME = "capture-exclusive"


def query(graph, cube: extras.Cube, options: extras.Options) -> extras.Query:
    """Boards and moves that capture and self-capture at once."""
    setup = extras.move_setup(graph, cube, options)
    f, steps, n = setup.formula, setup.steps, setup.adjacency.order
    theirs = sat.opponent(setup.player)
    captured = f.disj(
        [f.conj([sat.stones_of(f, steps.placed, theirs, u), sat.empty(f, steps.first, u)]) for u in range(n)]
    )
    suicided = f.disj(
        [f.conj([sat.stones_of(f, steps.first, setup.player, u), sat.empty(f, steps.result, u)]) for u in range(n)]
    )
    units = [
        extras.played_on_empty(setup),
        sat.well_formed(f, setup.adjacency, setup.board, options.encoding, written=options.as_written),
        captured,
        suicided,
    ]
    return extras.Query(
        f,
        units,
        lambda model: extras.move_counterexample(setup, graph, model, NAME, "both a capture and a self-capture"),
        rank_lemmas(setup, options),
    )


def rank_lemmas(setup: extras.MoveSetup, options: extras.Options) -> tuple:
    """The induction on the ranks of the hypothesis (b well-formed), for k = 0, 1, …: a
    stone of p* on b with rank ≤ k that the first clearing removes leaves the played point
    reaching Empty after it (it was next to v); and a stone of p on b with rank ≤ k reaches
    Empty after the first clearing if the played point does.  The first needs ↔ symmetric:
    on a digraph its check fails and it is left out.  Checked by the solver before use
    (``extras._solve``); unary encoding only."""
    f, adjacency, steps, p = setup.formula, setup.adjacency, setup.steps, setup.player
    if options.encoding != "unary" or not options.extra.get("lemmas", True):
        return ()
    n = adjacency.order
    before = sat.reaching(f, adjacency, setup.board, sat.EMPTY, options.encoding, written=options.as_written)
    placed = sat.reaching(f, adjacency, steps.placed, sat.EMPTY, options.encoding, written=options.as_written)
    after = sat.reaching(f, adjacency, steps.first, sat.EMPTY, options.encoding, written=options.as_written)
    ranks = f.ranks.get(before)
    if ranks is None:
        return ()
    played_lives = f.disj([f.conj([setup.x[u], after[u]]) for u in range(n)])
    mine = [sat.stones_of(f, setup.board, p, u) for u in range(n)]
    theirs = [sat.stones_of(f, setup.board, sat.opponent(p), u) for u in range(n)]
    levels = []
    for k in range(n):
        level = []
        for u in range(n):
            bound = [ranks[u][k]] if k < len(ranks[u]) else []
            level.append([sat.neg(theirs[u]), sat.neg(before[u]), *bound, placed[u], played_lives])
            level.append([sat.neg(mine[u]), sat.neg(before[u]), *bound, sat.neg(played_lives), after[u]])
        levels.append(level)
    return tuple(levels)


def statement(graph, b: tt.Board, v: int, p: tt.Player) -> bool:
    """The statement on one concrete well-formed board and move of p on the empty point v, by the spec."""
    placed = tt.update(b, v, p)
    first = tt.clear(graph, placed, tt.opponent(p))
    second = tt.clear(graph, first, p)
    return not (first != placed and second != first)


THEOREM = Theorem.beyond_the_source(
    NAME,
    (
        "On a well-formed board, no move both captures (removes stones of the opponent) and "
        "self-captures (removes stones of the mover)."
    ),
    extras.move_proof(query, statement),
    mutants=("simultaneous",),
    reductions=extras.MOVE_REDUCTIONS,
    refuted_on=(("digraph:0>1,1>2,2>0,1>3", "directed"),),
)
