"""T1's step through CNF with the induction as a least lost stone: the restriction that
selects a least member never removes a model, the lemmas it enables are all checked and
added, and under it every verdict (proved, each mutant refuted, as written) is the one the
rank lemmas give, with the cubes or with the whole statement in one query."""

from __future__ import annotations

import itertools

import pytest

from gorules.proofs import extras, registry, sat
from gorules.proofs.graphs import SymbolicGraph
from gorules.spec.graph import parse_graph

STEP_CNF = registry.theorem("well-formedness-step-cnf")


def pinned_least(members: tuple, ranks: tuple) -> tuple[set | None, tuple]:
    """A model of sat.least_member over members and unary ranks pinned to constants."""
    f = sat.Formula()
    bits = max(ranks) + 1
    member_literals = [f.var() for _ in members]
    rank_literals = [[f.var() for _ in range(bits)] for _ in ranks]
    units = [l if m else -l for l, m in zip(member_literals, members, strict=True)]
    units += [
        bit if i < r else -bit for bits_of, r in zip(rank_literals, ranks, strict=True) for i, bit in enumerate(bits_of)
    ]
    selectors = sat.least_member(f, member_literals, rank_literals)
    return sat.solve(f, units), selectors


@pytest.mark.parametrize("members", list(itertools.product([False, True], repeat=3)))
@pytest.mark.parametrize("ranks", [(0, 1, 2), (2, 1, 2), (3, 3, 0), (1, 1, 1)])
def test_least_member_keeps_every_model_and_selects_only_a_least_member(members, ranks):
    model, selectors = pinned_least(members, ranks)
    assert model is not None  # the restriction never removes a model
    chosen = [w for w, y in enumerate(selectors) if sat.value(model, y)]
    if not any(members):
        assert chosen == []
        return
    least = min(r for r, m in zip(ranks, members, strict=True) if m)
    assert chosen and all(members[w] and ranks[w] == least for w in chosen)


def test_least_member_forbids_selecting_a_member_above_the_least():
    f = sat.Formula()
    members = [f.var(), f.var()]
    ranks = [[f.var(), f.var()], [f.var(), f.var()]]
    selectors = sat.least_member(f, members, ranks)
    # both members; ranks 2 and 0; selecting the first (rank 2) is impossible
    units = [members[0], members[1], ranks[0][0], ranks[0][1], -ranks[1][0], -ranks[1][1], selectors[0]]
    assert sat.solve(f, units) is None
    assert sat.solve(f, units[:-1] + [selectors[1]]) is not None


@pytest.mark.parametrize("name", ["grid:3x3", "petersen", "cycle:5", "digraph:0>1,1>2,2>0,1>3"])
@pytest.mark.parametrize("mutant", [None, *sat.MUTANTS])
def test_verdicts_agree_with_the_rank_lemmas(name, mutant):
    ranks = STEP_CNF.prove(name, mutant=mutant, induction="ranks", split=True)
    least = STEP_CNF.prove(name, mutant=mutant, split=True)
    whole = STEP_CNF.prove(name, mutant=mutant)
    assert ranks.status == least.status == whole.status
    assert least.status == ("refuted" if mutant in ("no-second-clear", "colour-biased", "spare-point-0") else "proved")


@pytest.mark.parametrize("split", [True, False])
def test_the_step_mutant_is_refuted_on_a_well_formed_board(split):
    graph = parse_graph("grid:3x4")
    result = STEP_CNF.prove(graph, mutant="no-second-clear", split=split)
    assert result.status == "refuted"
    b, v, _ = extras.the_move(result.counterexample)
    assert extras.well_formed_and_empty_at(graph, b, v)
    assert STEP_CNF.method.holds(graph, result.counterexample)  # the spec's rules keep the statement


@pytest.mark.parametrize("split", [True, False])
def test_as_written_keeps_its_verdict(split):
    assert STEP_CNF.prove("grid:2x3", as_written=True, split=split).status == "proved"


@pytest.mark.parametrize("graph", ["grid:4x4", SymbolicGraph(5), SymbolicGraph(5, directed=True)], ids=str)
def test_every_lemma_is_checked_and_added(graph):
    result = STEP_CNF.prove(graph)
    assert result.status == "proved"
    for part in result.parts:
        added, total = part["note"].split()[0].split("/")
        assert int(total) > 0 and added == total


def test_the_whole_statement_in_one_query_uses_no_reduction():
    result = STEP_CNF.prove("grid:4x4", colours=True)
    assert result.status == "proved"
    assert [p["cube"] for p in result.parts] == ["all boards"]
    assert "one query" in result.scope
    assert "orbit" not in result.scope and "Black to move" not in result.scope
    assert len(STEP_CNF.prove("grid:4x4", split=True).parts) == 2 * 3


def test_an_unknown_induction_is_refused():
    with pytest.raises(ValueError, match="unknown induction"):
        STEP_CNF.prove("grid:2x2", induction="nope")
