"""The solver against a deliberately simple full-history minimax (``tests/reference_minimax.py``):
the same value on every connected graph of up to 4 points under every Tromp–Taylor preset
(and the cycle rules' convention), and on every connected graph of 5 points under the slow
marker."""

from __future__ import annotations

import os

import networkx as nx
import pytest

from gorules.impl.solve import Solver
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PRESETS, Options
from tests.reference_minimax import reference_value

CYCLING = {
    "simple-ko": Options("simple", "allowed", "area", 0, name="simple-ko"),
    "no-ko": Options("none", "allowed", "area", 0, name="no-ko"),
}
RULES = {**PRESETS, **CYCLING}


def connected_graphs(points: int) -> list[str]:
    """The connected graphs of networkx's atlas with exactly ``points`` points."""
    return [
        f"atlas:{i}" for i, g in enumerate(nx.graph_atlas_g()) if g.number_of_nodes() == points and nx.is_connected(g)
    ]


def small_cases(limit: int) -> list[tuple[str, str]]:
    """(graph, rules) for every connected graph of up to ``limit`` points and every rule set;
    the cycling rules (whose reference explores every line) up to 3 points."""
    cases = []
    for points in range(1, limit + 1):
        for graph in connected_graphs(points):
            for name, options in RULES.items():
                if options.ko in ("simple", "none") and points > 3:
                    continue
                cases.append((graph, name))
    return cases


def test_the_atlas_has_the_connected_graphs():
    """1, 1, 2, 6 and 21 connected graphs on 1..5 points (OEIS A001349)."""
    assert [len(connected_graphs(n)) for n in range(1, 6)] == [1, 1, 2, 6, 21]


@pytest.mark.parametrize("graph, rules", small_cases(4))
def test_solver_equals_full_history_minimax(graph, rules):
    g = parse_graph(graph)
    options = RULES[rules]
    assert Solver(g, options).solve().raw_value == reference_value(g, options)


FINITE = sorted({o: n for n, o in sorted(RULES.items()) if o.ko not in ("simple", "none")}.values())


EXHAUSTIVE = os.environ.get("GORULES_EXHAUSTIVE") == "1"


@pytest.mark.slow
@pytest.mark.skipif(
    not EXHAUSTIVE, reason="hours of the plain reference (104 s on 1x5 alone): a campaign run, GORULES_EXHAUSTIVE=1"
)
@pytest.mark.parametrize("rules", FINITE)
@pytest.mark.parametrize("graph", connected_graphs(5))
def test_solver_equals_full_history_minimax_on_five_points(graph, rules):
    g = parse_graph(graph)
    options = RULES[rules]
    assert Solver(g, options).solve().raw_value == reference_value(g, options)


class PositionOnly(Solver):
    """Mutant: a table keyed on the position alone (every entry reused, whatever the history)."""

    def reusable(self, entry) -> bool:
        return True

    def hits_of(self, d_keys) -> int:
        return sum(1 << self.index[key] for key in d_keys if key in self.index)


class ForgetsAbsences(Solver):
    """Mutant: an entry reused whenever the positions its proof found in the history are
    there, forgetting those it found absent (which may since have been played)."""

    def reusable(self, entry) -> bool:
        return all(key in self.index for key in entry[3])


def disagreements(mutant: type[Solver]) -> list[tuple[str, str]]:
    """The (graph, rules) of up to 4 points where the mutant's value differs from the
    reference's, or where its own search finds itself inconsistent."""
    found = []
    for graph, rules in small_cases(4):
        options = RULES[rules]
        if options.ko in ("simple", "none"):
            continue
        g = parse_graph(graph)
        try:
            value = mutant(g, options).solve().raw_value
        except AssertionError:
            value = None
        if value != reference_value(g, options):
            found.append((graph, rules))
    return found


@pytest.mark.parametrize("mutant", [PositionOnly, ForgetsAbsences])
def test_a_table_that_ignores_the_history_is_caught(mutant):
    """The comparison can fail: each mutant of the history-aware table disagrees with the
    reference on some graph of up to 4 points."""
    assert disagreements(mutant)
