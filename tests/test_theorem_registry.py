"""The theorems as objects in one registry, and the shape of ``gorules.proofs``: every
module imports on its own, and no two modules import each other, even through others."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from gorules.proofs import registry
from gorules.proofs.encoding import MUTANTS as Z3_MUTANTS
from gorules.proofs.extras import CnfProof
from gorules.proofs.theorem import BEYOND_THE_SOURCE, SOURCE, Theorem
from gorules.proofs.z3_proof import Z3Proof

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
PACKAGE = "gorules.proofs"
MODULES = sorted(p.stem for p in PROOFS.glob("*.py") if p.stem != "__init__")


def imported_proofs_modules(path: Path) -> set[str]:
    """The modules of gorules.proofs that a file imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {name.split(".")[2] for name in names if name.startswith(PACKAGE + ".")}
    return found & set(MODULES)


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of the package it imports."""
    return {name: imported_proofs_modules(PROOFS / f"{name}.py") - {name} for name in MODULES}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a list of modules (first = last), or None: a depth-first
    search that reports the first edge back into the path it is on."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = "open"
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == "open":
                return path[path.index(w) :] + [w]
            if w not in state and (found := visit(w)):
                return found
        state[v] = "done"
        path.pop()
        return None

    for v in sorted(graph):
        if v not in state and (found := visit(v)):
            return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_import_graph_of_the_proofs_is_acyclic():
    graph = import_graph()
    assert graph["registry"] >= {"well_formedness", "extras", "theorem"}  # the walk sees imports
    assert cycle(graph) is None


@pytest.mark.parametrize("name", MODULES)
def test_each_module_imports_alone_in_a_fresh_interpreter(name):
    done = subprocess.run(
        [sys.executable, "-c", f"import {PACKAGE}.{name}"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_names_are_unique_and_found_by_name():
    names = registry.names()
    assert len(names) == len(set(names)) == len(registry.THEOREMS)
    assert all(isinstance(t, Theorem) and registry.theorem(t.name) is t for t in registry.THEOREMS)
    with pytest.raises(KeyError, match="unknown theorem 'nonsense'"):
        registry.theorem("nonsense")


def test_the_seed_theorems_are_the_source_s_and_come_first():
    seeds = registry.seed_theorems()
    assert registry.SEED_THEOREMS == tuple(t.name for t in seeds)
    assert registry.SEED_THEOREMS == ("well-formedness", "move-definedness", "clear-characterization")
    assert registry.names()[: len(seeds)] == list(registry.SEED_THEOREMS)
    assert all(t.source == SOURCE for t in seeds)
    assert all(t.source == BEYOND_THE_SOURCE for t in registry.THEOREMS if t not in seeds)


@pytest.mark.parametrize("theorem", registry.THEOREMS, ids=lambda t: t.name)
def test_each_theorem_states_its_facts(theorem):
    assert theorem.statement and theorem.statement_as_written != theorem.statement
    assert theorem.mutants and set(theorem.mutants) <= set(theorem.mutants_available)
    assert theorem.default_encoding in theorem.encodings
    assert {theorem.expected, theorem.expected_as_written} <= {"proved", "refuted"}
    assert isinstance(theorem.method, Z3Proof if theorem.from_source else CnfProof)


def test_the_z3_theorems_know_the_z3_mutants_and_the_cnf_ones_the_cnf_encodings():
    for theorem in registry.seed_theorems():
        assert theorem.mutants_available == tuple(Z3_MUTANTS)
        assert theorem.encodings == ("ranked", "layered", "naive")
    for theorem in registry.cnf_theorems():
        assert {"ranked", "layered", "unary", "binary", "layers"} == set(theorem.encodings)


def test_expected_verdicts_as_written():
    expected = {t.name: t.expected_as_written for t in registry.THEOREMS}
    assert expected.pop("move-definedness") == expected.pop("clear-characterization") == "refuted"
    assert set(expected.values()) == {"proved"}


@pytest.mark.parametrize("theorem", registry.THEOREMS, ids=lambda t: t.name)
def test_each_theorem_gives_its_expected_verdicts_on_a_path(theorem):
    assert theorem.prove("path:3").status == theorem.expected
    assert theorem.prove("path:3", as_written=True).status == theorem.expected_as_written


def test_a_theorem_refuted_on_a_graph_says_why():
    refuted = {t.name: t.refuted_on for t in registry.THEOREMS if t.refuted_on}
    assert refuted == {"capture-exclusive": (("digraph:0>1,1>2,2>0,1>3", "directed"),)}
    ((graph, _why),) = refuted["capture-exclusive"]
    assert registry.theorem("capture-exclusive").prove(graph).refuted


def test_the_reductions_are_typed_facts():
    reductions = {t.name: t.reductions for t in registry.cnf_theorems()}
    assert not reductions["score-bound"].played_point
    assert not reductions["automorphism"].automorphism_invariant  # it proves what the reduction assumes
    assert reductions["well-formedness-step-cnf"].colour_invariant
    assert not reductions["colour-symmetry"].colour_invariant  # it proves what the reduction assumes
