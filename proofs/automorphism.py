"""``move`` commutes with the automorphisms of the graph (and with relabelling, on every graph).

Statement on a graph G: for every automorphism σ of G, board b, player p and empty point
v, move((σb, p, 0), σv).board = σ(move((b, p, 0), v).board), where (σb)(σu) = b(u).  It
is checked for a generating set of Aut(G) (networkx finds the automorphisms, sympy picks
generators): if it holds for σ and τ it holds for στ, since
move(στb, στv) = σ move(τb, τv) = στ move(b, v), so it holds for the whole group.

On every graph of order N at once the statement is about relabelling: for every graph G,
every permutation σ of the points, move_{σG}(σb, σv) = σ move_G(b, v), where σG has the
arc σu → σw for each arc u → w.  It is checked for the transposition (0 1) and the cycle
(0 1 … N−1), which generate all permutations.  This is the fact that the reduction to
one played point per orbit (``proofs/symmetry.py``) rests on; this proof does not use it.

Mutant: ``spare-point-0`` never removes a stone on point 0 in the second clearing, which
breaks the symmetry wherever an automorphism moves point 0.
"""

from __future__ import annotations

from gorules.proofs import extras, sat
from gorules.proofs.symmetry import generators, symmetric_group_generators
from gorules.proofs.theorem import Reductions, Theorem
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import Graph

NAME = "automorphism"


def cubes(graph, symmetry: bool = True) -> tuple[list, str]:
    """One cube per generator σ, played point v and player p (no reduction of v: the
    reduction would assume what is proved here)."""
    if isinstance(graph, Graph):
        sigmas, order, complete = generators(graph)
        note = f"{len(sigmas)} generators of Aut({graph.name}), a group of order {order}" + (
            "" if complete else " (the automorphisms enumerated; Aut may be larger)"
        )
    else:
        sigmas = symmetric_group_generators(graph.order)
        note = "the relabellings (0 1) and (0 1 … n−1), which generate all permutations"
    found = [
        extras.Cube(v, p, f"σ={i},v={v},p={p}", sigma)
        for i, sigma in enumerate(sigmas)
        for v in range(graph.order)
        for p in ("B", "W")
    ]
    return found, note


def permuted_adjacency(adjacency: sat.Adjacency, sigma) -> sat.Adjacency:
    """σG: the arc σu → σw (with u → w's literal) for every possible arc u → w."""
    n = adjacency.order
    arcs: list = [[] for _ in range(n)]
    for u in range(n):
        for w, literal in adjacency.arcs[u]:
            arcs[sigma[u]].append((sigma[w], literal))
    return sat.Adjacency(tuple(tuple(sorted(a, key=lambda pair: pair[0])) for a in arcs), adjacency.directed)


def query(graph, cube: extras.Cube, options: extras.Options) -> extras.Query:
    """Boards where moving then renaming differs from renaming then moving."""
    setup = extras.move_setup(graph, cube, options)
    f, sigma = setup.formula, cube.sigma
    if sigma is None:
        raise ValueError(f"cube {cube.label} carries no relabelling σ")
    image = sat.move(
        f,
        permuted_adjacency(setup.adjacency, sigma),
        sat.permuted(setup.board, sigma),
        tuple(setup.x[sigma.index(u)] for u in range(len(sigma))),
        setup.player,
        options.encoding,
        options.mutant,
        written=options.as_written,
    )
    units = [extras.played_on_empty(setup), sat.boards_differ(f, sat.permuted(setup.steps.result, sigma), image.result)]

    def decode(model: set) -> dict:
        found = extras.move_counterexample(setup, graph, model, NAME, "renamed by σ, this differs from")
        found["sigma"] = list(sigma)
        found["boards"].append(
            {
                "label": "the move σv on σb",
                "board": extras.board_text(model, image.result),
                "marks": [sigma[found["point"]]],
            }
        )
        return found

    lemmas = extras.stage_lemmas(setup, image, options, sigma)
    return extras.Query(f, units, decode, lemmas)


def holds(graph, counterexample: dict) -> bool:
    """The statement on one concrete board, move and σ, by the spec."""
    (b, v, p), sigma = extras.the_move(counterexample), counterexample["sigma"]
    renamed = permuted_graph(graph, sigma)
    if b[v] != tt.EMPTY:
        return True
    after = extras.board_after(graph, b, p, v)
    image = extras.board_after(renamed, rename(b, sigma), p, sigma[v])
    return rename(after, sigma) == image


def rename(b, sigma) -> tuple:
    """σb: the board with (σb)(σu) = b(u)."""
    out = [tt.EMPTY] * len(b)
    for u, c in enumerate(b):
        out[sigma[u]] = c
    return tuple(out)


def permuted_graph(graph: Graph, sigma) -> Graph:
    """σG: the graph with an arc σu → σw for each arc u → w."""
    from gorules.spec.graph import make_graph

    return make_graph(graph.order, [(sigma[u], sigma[w]) for u, w in graph.edges()], graph.name, graph.directed)


THEOREM = Theorem.beyond_the_source(
    NAME,
    (
        "move commutes with every automorphism σ of the graph: move(σb, σv) = σ move(b, v); on every "
        "graph of an order, move commutes with relabelling the points."
    ),
    extras.CnfProof(query, holds, covers="every board, move, player and generator σ", cubes=cubes),
    mutants=("spare-point-0",),
    reductions=Reductions(played_point=True),
)
