"""The df-pn threshold tests (``impl/_numba_dfpn.py``) against full-history minimax.

The solver with ``search="dfpn"`` gives the value of the plain reference on every connected
graph of up to 4 points under the four finite rule sets, and the compiled reference's on a
sample of 5-point cases (every one under the slow marker).  Two mutants are refuted: a
table whose decided answers are reused under any history, and a df-pn that takes a node as
disproved as soon as its first child is proved (one refuted move taken for all)."""

from __future__ import annotations

import os

import pytest

from gorules.impl.solve import SolveError, Solver
from gorules.spec.graph import parse_graph
from tests.reference_compiled import compiled_value
from tests.reference_minimax import reference_value
from tests.test_solve_reference import FINITE, LONG_FIVE_POINT_CASES, RULES, connected_graphs, small_cases

SMALL = [case for case in small_cases(4) if case[1] in FINITE]
FIVE_SAMPLE = [
    ("atlas:29", "tromp-taylor"),
    ("atlas:34", "situational"),
    ("atlas:38", "no-suicide"),
    ("atlas:44", "stone"),
]


def dfpn_value(graph: str, rules: str, mutant: bool = False) -> int | None:
    """The solver's raw value with its threshold tests decided by df-pn (with the table
    that forgets the history if ``mutant``), None if its search finds itself inconsistent."""
    solver = Solver(parse_graph(graph), RULES[rules], search="dfpn")
    solver.table_forgets_history = mutant
    try:
        return solver.solve().raw_value
    except AssertionError:
        return None


@pytest.mark.parametrize("graph, rules", SMALL)
def test_dfpn_equals_full_history_minimax(graph, rules):
    """df-pn gives the full-history minimax value on every connected graph of up to 4
    points under every finite rule set."""
    assert dfpn_value(graph, rules) == reference_value(parse_graph(graph), RULES[rules])


def test_a_dfpn_whose_table_forgets_the_history_is_caught():
    """The comparison can fail: with the history check of the table switched off, df-pn
    disagrees with the reference (or finds itself inconsistent) on atlas:17 under every
    finite rule set."""
    found = [
        (graph, rules)
        for graph, rules in SMALL
        if dfpn_value(graph, rules, mutant=True) != reference_value(parse_graph(graph), RULES[rules])
    ]
    assert {("atlas:17", rules) for rules in FINITE} <= set(found)


@pytest.mark.parametrize("graph, rules", FIVE_SAMPLE)
def test_dfpn_equals_compiled_full_history_minimax_on_a_five_point_sample(graph, rules):
    """df-pn gives the compiled reference's value on one 5-point graph per finite rule set."""
    assert dfpn_value(graph, rules) == compiled_value(parse_graph(graph), RULES[rules])[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "graph, rules",
    [
        pytest.param(graph, rules, id=f"{graph}-{rules}")
        for graph in connected_graphs(5)
        for rules in FINITE
        if (graph, rules) not in LONG_FIVE_POINT_CASES or os.environ.get("GORULES_EXHAUSTIVE") == "1"
    ],
)
def test_dfpn_equals_compiled_full_history_minimax_on_five_points(graph, rules):
    """df-pn gives the compiled reference's value on every connected 5-point graph."""
    table_bits = 26 if (graph, rules) in LONG_FIVE_POINT_CASES else 20
    assert dfpn_value(graph, rules) == compiled_value(parse_graph(graph), RULES[rules], table_bits=table_bits)[0]


def test_dfpn_needs_the_compiled_core_and_a_known_name():
    """df-pn asked of the Python core, or an unknown search, is refused with a SolveError."""
    with pytest.raises(SolveError, match="compiled core only"):
        Solver(parse_graph("path:3"), "tromp-taylor", core="python", search="dfpn")
    with pytest.raises(SolveError, match="unknown search"):
        Solver(parse_graph("path:3"), "tromp-taylor", search="bfs")
    assert Solver(parse_graph("path:3"), "tromp-taylor").search_kind == "deepening"
