"""The extra theorems proved through CNF: each is proved on small graphs and on every graph
of a small order, each mutant is refuted, every counterexample is replayed on the spec,
and each statement is checked by brute force on tiny graphs, independently of SAT."""

from __future__ import annotations

import itertools

import pytest

from gorules.proofs import (
    automorphism,
    capture_exclusive,
    capture_locality,
    colour_symmetry,
    extras,
    registry,
    score_bound,
    symmetry,
    well_formedness_cnf,
)
from gorules.proofs.graphs import SymbolicGraph
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph

MODULES = [capture_locality, capture_exclusive, colour_symmetry, automorphism, score_bound, well_formedness_cnf]


def every_case(module, graph):
    """Every board, and for statements about a move every empty point and player (and
    generator σ), as the counterexample records that ``holds`` reads."""
    sigmas = [c.sigma for c in automorphism.cubes(graph)[0]] if module is automorphism else [None]
    sigmas = list(dict.fromkeys(sigmas))
    for b in itertools.product("BW.", repeat=graph.order):
        text = "".join(b)
        if not module.PLAYED_POINT:
            yield {"boards": [{"board": text}]}
            continue
        for v in graph.points:
            if b[v] != ".":
                continue
            for p in "BW":
                for sigma in sigmas:
                    yield {"boards": [{"board": text}], "point": v, "player": p, "sigma": sigma}


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_registered_by_name(module):
    assert registry.theorem(module.NAME) is module
    assert module.MUTANTS and set(module.MUTANTS) <= set(module.MUTANTS_AVAILABLE)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
@pytest.mark.parametrize("name", ["path:4", "cycle:4"])
def test_statement_holds_on_every_case_by_brute_force(module, name):
    graph = parse_graph(name)
    assert all(module.holds(graph, case) for case in every_case(module, graph))


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
@pytest.mark.parametrize("name", ["grid:3x3", "petersen", "star:4"])
def test_proved_on_undirected_graphs(module, name):
    if module is automorphism and name == "petersen":
        name = "cycle:6"  # Petersen's 120 automorphisms make many cubes; C6 has 12
    result = module.prove(name)
    assert result.status == "proved", result.counterexample
    assert result.graph == name and result.seconds >= 0 and result.scope


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
def test_mutant_refuted_with_a_board_the_spec_accepts(module):
    """Each theorem's mutant is refuted, and its counterexample is one where the spec's
    rules satisfy the statement: the mutant, not the statement, is at fault."""
    graph = parse_graph("grid:3x3")
    result = module.prove(graph, mutant=module.MUTANTS[0])
    assert result.status == "refuted"
    assert module.holds(graph, result.counterexample)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.NAME)
@pytest.mark.parametrize("directed", [False, True])
def test_every_graph_of_order_four(module, directed):
    result = module.prove(SymbolicGraph(4, directed))
    if module is capture_exclusive and directed:
        # On directed graphs a capture need not free the capturer: both can happen.
        assert result.status == "refuted"
        graph = extras.rebuild_graph(result.counterexample["graph"])
        assert graph.directed and not module.holds(graph, result.counterexample)
    else:
        assert result.status == "proved", result.counterexample
    assert result.graph == f"all-{'digraphs' if directed else 'graphs'}:4"


def test_capture_and_self_capture_together_on_a_directed_triangle():
    """The directed counterexample, by hand: 0 → 1 → 2 → 0 with a tail 1 → 3."""
    graph = parse_graph("digraph:0>1,1>2,2>0,1>3")
    result = capture_exclusive.prove(graph)
    assert result.status == "refuted"
    case = result.counterexample
    b, v, p = tuple(case["boards"][0]["board"]), case["point"], case["player"]
    placed = tt.update(b, v, p)
    first = tt.clear(graph, placed, tt.opponent(p))
    assert first != placed and tt.clear(graph, first, p) != first


def test_cubes_in_two_processes_agree_with_one():
    one = well_formedness_cnf.prove("grid:3x4", processes=1)
    two = well_formedness_cnf.prove("grid:3x4", processes=2)
    assert one.status == two.status == "proved"
    assert sorted(r["cube"] for r in one.parts) == sorted(r["cube"] for r in two.parts)


def test_without_symmetry_every_point_is_a_cube():
    reduced = well_formedness_cnf.prove("grid:3x3")
    full = well_formedness_cnf.prove("grid:3x3", symmetry=False)
    assert reduced.status == full.status == "proved"
    assert len(reduced.parts) == 2 * 3 and len(full.parts) == 2 * 9
    assert "orbit" in reduced.scope and "orbit" not in full.scope


def test_a_tiny_timeout_gives_unknown_not_proved():
    result = well_formedness_cnf.prove("grid:5x5", timeout=0.05)
    assert result.status == "unknown"


@pytest.mark.parametrize("encoding", ["layers", "unary", "binary", "ranked", "layered"])
def test_encodings_agree(encoding):
    assert capture_locality.prove("cycle:5", encoding=encoding).status == "proved"
    assert capture_locality.prove("cycle:5", encoding=encoding, mutant="own-first").status == "refuted"


def test_as_written_reading_is_checked_too():
    """With the source's reaches a stone never reaches Empty, so a move empties the board:
    the score bound still holds; colour symmetry still holds."""
    assert score_bound.prove("grid:2x3", as_written=True).status == "proved"
    assert colour_symmetry.prove("grid:2x3", as_written=True).status == "proved"


@pytest.mark.parametrize("name, orbits", [("grid:3x3", 3), ("grid:4x5", 6), ("petersen", 1), ("path:5", 3)])
def test_orbits_of_the_played_point(name, orbits):
    graph = parse_graph(name)
    found = symmetry.orbits(graph)
    assert len(found) == orbits
    assert sorted(v for orbit in found for v in orbit) == list(graph.points)


@pytest.mark.parametrize("name, order", [("grid:4x4", 8), ("grid:3x5", 4), ("petersen", 120), ("cycle:7", 14)])
def test_generators_generate_the_automorphism_group(name, order):
    graph = parse_graph(name)
    chosen, found_order, complete = symmetry.generators(graph)
    assert complete and found_order == order
    assert all(symmetry.is_automorphism(graph, sigma) for sigma in chosen)
    assert not symmetry.is_automorphism(
        graph, tuple(reversed(range(graph.order))) if name == "petersen" else (1, 0) + tuple(range(2, graph.order))
    )
