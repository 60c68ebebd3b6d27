"""Capture locality: after a move, the second clearing removes only the played stone's chain.

Statement: for every well-formed board b, player p and empty point v, let
b₁ = clear(b[v ↦ p], p*) and b₂ = clear(b₁, p) (so b₂ is the board of the move).  Every
point u with b₁(u) ≠ b₂(u) has a path to v through stones of p in b₁ (on an undirected
graph: u is in the chain of the played stone).  So self-capture never removes any chain
but the one the stone joined.

Why well-formed: on any other board, chains that already lacked liberties would go too.
The chain is the least fixed point K(v) ⇐ b₁(v) = p; K(u) ⇐ b₁(u) = p ∧ u ↔ w ∧ K(w); it
occurs only negated in the counterexample search, so a closed set not containing u
witnesses u ∉ K exactly.

Mutant: ``own-first`` (the mover's stones cleared first) makes the second clearing remove
captured opponent stones, which the proof must find.
"""

from __future__ import annotations

from gorules.proofs import extras, sat
from gorules.proofs.theorem import Theorem
from gorules.spec import tromp_taylor as tt

NAME = "capture-locality"


def chain_to(f: sat.Formula, adjacency: sat.Adjacency, board: sat.Board, x, p: sat.Player) -> tuple:
    """Literals K[u] closed under: the played point (if p's) is in K, and a stone of p
    with an arc to a stone of p in K is in K.  Any such K contains the chain."""
    n = adjacency.order
    K = tuple(f.var() for _ in range(n))
    mine = [sat.stones_of(f, board, p, u) for u in range(n)]
    for u in range(n):
        f.implies([x[u], mine[u]], K[u])
        for w, arc in adjacency.arcs[u]:
            f.implies([arc, mine[u], mine[w], K[w]], K[u])
    return K


def query(graph, cube: extras.Cube, options: extras.Options) -> extras.Query:
    """Boards where the second clearing removes a stone outside the played stone's chain."""
    setup = extras.move_setup(graph, cube, options)
    f, adjacency, steps = setup.formula, setup.adjacency, setup.steps
    K = chain_to(f, adjacency, steps.first, setup.x, setup.player)
    outside = [
        f.conj([sat.neg(sat.iff_board_point(f, steps.first, steps.result, u)), sat.neg(K[u])])
        for u in range(adjacency.order)
    ]
    units = [
        extras.played_on_empty(setup),
        sat.well_formed(f, adjacency, setup.board, options.encoding, written=options.as_written),
        f.disj(outside),
    ]
    return extras.Query(
        f,
        units,
        lambda model: extras.move_counterexample(
            setup, graph, model, NAME, "a stone outside the played chain was removed by the second clearing"
        ),
        rank_lemmas(setup, K, options),
    )


def rank_lemmas(setup: extras.MoveSetup, K: tuple, options: extras.Options) -> tuple:
    """The induction on the ranks of the hypothesis (b well-formed): for k = 0, 1, …, a
    stone of p on b that reaches Empty with rank ≤ k still reaches Empty after the first
    clearing, or lies in the played stone's chain.  Each lemma is checked by the solver
    before it is used (``extras._solve``); unary encoding only."""
    f, adjacency, steps, p = setup.formula, setup.adjacency, setup.steps, setup.player
    if options.encoding != "unary" or not options.extra.get("lemmas", True):
        return ()
    before = sat.reaching(f, adjacency, setup.board, sat.EMPTY, options.encoding, written=options.as_written)
    after = sat.reaching(f, adjacency, steps.first, sat.EMPTY, options.encoding, written=options.as_written)
    ranks = f.ranks.get(before)
    if ranks is None:
        return ()
    n = adjacency.order
    return tuple(
        [
            [
                sat.neg(sat.stones_of(f, setup.board, p, u)),
                sat.neg(before[u]),
                *([ranks[u][k]] if k < len(ranks[u]) else []),
                after[u],
                K[u],
            ]
            for u in range(n)
        ]
        for k in range(n)
    )


def chain(graph, b, v: int) -> set:
    """The points with a path to v through points of v's colour (v's chain)."""
    found, frontier = {v}, [v]
    while frontier:
        u = frontier.pop()
        for w in range(graph.order):
            if w not in found and b[w] == b[v] and u in graph.neighbours[w]:
                found.add(w)
                frontier.append(w)
    return found


def statement(graph, b: tt.Board, v: int, p: tt.Player) -> bool:
    """The statement on one concrete well-formed board and move of p on the empty point v, by the spec."""
    first = tt.clear(graph, tt.update(b, v, p), tt.opponent(p))
    second = tt.clear(graph, first, p)
    return all(first[u] == second[u] for u in graph.points if u not in chain(graph, first, v))


THEOREM = Theorem.beyond_the_source(
    NAME,
    (
        "On a well-formed board, the second clearing of a move removes only stones with a path "
        "to the played point through the mover's stones: the played stone's chain."
    ),
    extras.move_proof(query, statement),
    mutants=("own-first",),
    reductions=extras.MOVE_REDUCTIONS,
)
