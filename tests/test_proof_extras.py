"""The extra theorems proved through CNF: each is proved on small graphs and on every graph
of a small order, each mutant is refuted, every counterexample is replayed on the spec,
and each statement is checked by brute force on tiny graphs, independently of SAT."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys

import pytest

from gorules.proofs import automorphism, extras, registry, symmetry
from gorules.proofs.graphs import SymbolicGraph
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import parse_graph
from tests.hostile_inputs import still_running

THEOREMS = registry.cnf_theorems()
AUTOMORPHISM = registry.theorem("automorphism")
CAPTURE_EXCLUSIVE = registry.theorem("capture-exclusive")
CAPTURE_LOCALITY = registry.theorem("capture-locality")
STEP_CNF = registry.theorem("well-formedness-step-cnf")


def every_case(theorem, graph):
    """Every board, and for statements about a move every empty point and player (and
    generator σ), as the counterexample records that ``holds`` reads."""
    sigmas = [c.sigma for c in automorphism.cubes(graph)[0]] if theorem is AUTOMORPHISM else [None]
    sigmas = list(dict.fromkeys(sigmas))
    for b in itertools.product("BW.", repeat=graph.order):
        text = "".join(b)
        if not theorem.reductions.played_point:
            yield {"boards": [{"board": text}]}
            continue
        for v in graph.points:
            if b[v] != ".":
                continue
            for p in "BW":
                for sigma in sigmas:
                    yield {"boards": [{"board": text}], "point": v, "player": p, "sigma": sigma}


def test_the_cnf_theorems_are_the_ones_beyond_the_source():
    assert [t.name for t in THEOREMS] == [
        "well-formedness-step-cnf",
        "capture-locality",
        "capture-exclusive",
        "colour-symmetry",
        "automorphism",
        "score-bound",
    ]
    assert all(not t.from_source for t in THEOREMS)


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.name)
@pytest.mark.parametrize("name", ["path:4", "cycle:4"])
def test_statement_holds_on_every_case_by_brute_force(theorem, name):
    graph = parse_graph(name)
    assert all(theorem.method.holds(graph, case) for case in every_case(theorem, graph))


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.name)
@pytest.mark.parametrize("name", ["grid:3x3", "petersen", "star:4"])
def test_proved_on_undirected_graphs(theorem, name):
    if theorem is AUTOMORPHISM and name == "petersen":
        name = "cycle:6"  # Petersen's 120 automorphisms make many cubes; C6 has 12
    result = theorem.prove(name)
    assert result.status == "proved", result.counterexample
    assert result.graph == name and result.seconds >= 0 and result.scope


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.name)
def test_mutant_refuted_with_a_board_the_spec_accepts(theorem):
    """Each theorem's mutant is refuted, and its counterexample is one where the spec's
    rules satisfy the statement: the mutant, not the statement, is at fault."""
    graph = parse_graph("grid:3x3")
    result = theorem.prove(graph, mutant=theorem.mutants[0])
    assert result.status == "refuted"
    assert theorem.method.holds(graph, result.counterexample)


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.name)
@pytest.mark.parametrize("directed", [False, True])
def test_every_graph_of_order_four(theorem, directed):
    result = theorem.prove(SymbolicGraph(4, directed))
    if theorem is CAPTURE_EXCLUSIVE and directed:
        # On directed graphs a capture need not free the capturer: both can happen.
        assert result.status == "refuted"
        graph = extras.rebuild_graph(result.counterexample["graph"])
        assert graph.directed and not theorem.method.holds(graph, result.counterexample)
    else:
        assert result.status == "proved", result.counterexample
    assert result.graph == f"all-{'digraphs' if directed else 'graphs'}:4"


def test_capture_and_self_capture_together_on_a_directed_triangle():
    """The directed counterexample, by hand: 0 → 1 → 2 → 0 with a tail 1 → 3."""
    graph = parse_graph("digraph:0>1,1>2,2>0,1>3")
    result = CAPTURE_EXCLUSIVE.prove(graph)
    assert result.status == "refuted"
    case = result.counterexample
    b, v, p = tuple(case["boards"][0]["board"]), case["point"], case["player"]
    placed = tt.update(b, v, p)
    first = tt.clear(graph, placed, tt.opponent(p))
    assert first != placed and tt.clear(graph, first, p) != first


def test_cubes_in_two_processes_agree_with_one():
    one = STEP_CNF.prove("grid:3x4", processes=1, split=True)
    two = STEP_CNF.prove("grid:3x4", processes=2, split=True)
    assert one.status == two.status == "proved"
    assert sorted(r["cube"] for r in one.parts) == sorted(r["cube"] for r in two.parts)


def test_without_symmetry_every_point_is_a_cube():
    reduced = STEP_CNF.prove("grid:3x3", split=True)
    full = STEP_CNF.prove("grid:3x3", symmetry=False, split=True)
    assert reduced.status == full.status == "proved"
    assert len(reduced.parts) == 2 * 3 and len(full.parts) == 2 * 9
    assert "orbit" in reduced.scope and "orbit" not in full.scope


def test_a_tiny_timeout_gives_unknown_not_proved():
    result = STEP_CNF.prove("grid:9x9", timeout=0.05)
    assert result.status == "unknown"


@pytest.mark.parametrize("encoding", ["layers", "unary", "binary", "ranked", "layered"])
def test_encodings_agree(encoding):
    assert CAPTURE_LOCALITY.prove("cycle:5", encoding=encoding).status == "proved"
    assert CAPTURE_LOCALITY.prove("cycle:5", encoding=encoding, mutant="own-first").status == "refuted"


def test_as_written_reading_is_checked_too():
    """With the source's reaches a stone never reaches Empty, so a move empties the board:
    the score bound still holds; colour symmetry still holds."""
    assert registry.theorem("score-bound").prove("grid:2x3", as_written=True).status == "proved"
    assert registry.theorem("colour-symmetry").prove("grid:2x3", as_written=True).status == "proved"


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


POOL_SCRIPT = """
import os, sys, time
from gorules.proofs.extras import Cube, run_cubes

def slow_query(graph, cube, options):
    os.write(1, f"{os.getpid()}\\n".encode())  # one write: the two workers' lines never interleave
    time.sleep(120)

run_cubes(slow_query, None, [Cube(None, None, str(i)) for i in range(2)], None, 300, 2)
"""


def test_cube_workers_die_when_the_prover_is_killed():
    """A prover killed with SIGKILL runs no clean-up: its pool workers, busy in a query,
    notice their parent is gone and stop within seconds (without the pool initializer
    they would sleep on for two minutes)."""
    process = subprocess.Popen(
        [sys.executable, "-c", POOL_SCRIPT], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        workers = {int(process.stdout.readline()) for _ in range(2)}
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        left = still_running(workers)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert left == [], f"cube workers still running after the prover was killed: {left}"
