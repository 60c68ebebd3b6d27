"""The compiled core's proof-number search (``impl/kernels/ultimate_dfpn.py``) answers as the
depth-first kernel and the Python search do; its unsound variants are refuted."""

from __future__ import annotations

import pytest
from test_ultimate_compiled import compiled_engine, fresh_results, score_and_result, shared_results

from gorules.cli import main
from gorules.impl.kernels import ultimate as kernel
from gorules.impl.kernels import ultimate_dfpn as dfpn_kernel
from gorules.impl.rulesets.ultimate import compiled as ultimate_compiled
from gorules.impl.rulesets.ultimate.compiled import DFPN
from gorules.impl.rulesets.ultimate.search import Engine, deep
from gorules.spec import ultimate
from gorules.spec.graph import parse_graph


def dfpn_score_and_result(name: str) -> tuple[float, int]:
    """Section IV's score and the Ultimate result from the empty board, every question asked
    of the proof-number search."""
    graph = parse_graph(name)
    engine = Engine(graph, compiled=True, search="dfpn")
    score = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    assert engine.core.orders == (DFPN,)
    return score, deep(engine.result, engine.from_situation(ultimate.initial_situation(graph)))


@pytest.mark.parametrize("name", ["path:3", "grid:2x2", "path:6", "atlas:43", "atlas:52"])
def test_the_proof_number_search_gets_the_python_answers(name):
    """Score and Ultimate result from the empty board as the Python search gives them
    (scores ±½, 1½, a draw, a win; atlas:43 the 5-point graph with the most race nodes)."""
    assert dfpn_score_and_result(name) == score_and_result(name, False)


@pytest.mark.parametrize("name", ["path:3", "path:4", "grid:2x2"])
def test_one_shared_proof_number_core_agrees_at_reachable_situations(name):
    """One core asked at 400 reachable situations in turn (its proofs and numbers shared
    across histories) by proof-number search alone gives the results of fresh Python
    searches."""
    assert shared_results(name, orders=(DFPN,)) == fresh_results(name)


@pytest.mark.parametrize(
    "flag, name",
    [
        (kernel.F_HISTORY_TEST, "path:3"),
        (kernel.F_BARRED, "path:3"),
        (kernel.F_AFTER_HINT, "grid:2x2"),
        (kernel.F_EVERY_CHILD, "grid:2x2"),
    ],
)
def test_a_proof_number_search_without_a_safeguard_is_refuted(flag, name):
    """Without the history condition, without the barred placements a loss keeps, with only
    the first move of each node searched, or failing a node as soon as one child reaches its
    goal (instead of every child), the proof-number search gives a wrong result somewhere."""
    assert shared_results(name, (flag,), orders=(DFPN,)) != fresh_results(name)


def test_the_command_line_takes_the_proof_number_search(capsys):
    """``--search dfpn`` gives the score and result of the default search."""
    assert main(["fundamental-score", "grid:2x3", "--ultimate", "--search", "dfpn", "--json"]) == 0
    dfpn = capsys.readouterr().out
    assert main(["fundamental-score", "grid:2x3", "--ultimate", "--json"]) == 0
    race = capsys.readouterr().out
    for field in ('"score": -0.5', '"ultimate_go_result": "draw"'):
        assert field in dfpn and field in race


def test_the_proof_number_search_takes_its_own_path():
    """The proof-number search is not the depth-first one under another name: the first
    question of grid:2x3 takes it another number of nodes."""
    counts = []
    for orders in ((0,), (DFPN,)):
        graph = parse_graph("grid:2x3")
        engine = compiled_engine(graph, orders=orders)
        p = engine.fundamental(engine.from_situation(ultimate.initial_situation(graph, True)))
        counts.append((deep(engine.can_win, p), engine.nodes))
    assert counts[0][0] == counts[1][0] and counts[0][1] != counts[1][1]


def raced_results(name: str, monkeypatch, identity=None) -> tuple[list[int], int, int]:
    """``shared_results`` of the race of the three searches, each first given a single node
    (df-pn eight, its share pinned), so that df-pn is cut off and taken up again at nearly
    every question;
    with the df-pn searches put on a root and those begun from it.  ``identity`` replaces
    the test of a paused search's root (a mutant)."""
    from gorules.impl.kernels import ultimate_dfpn as dfpn
    from gorules.impl.rulesets.ultimate import compiled as ultimate_compiled

    monkeypatch.setattr(ultimate_compiled, "RACE", 1)
    monkeypatch.setattr(ultimate_compiled, "DFPN_SHARE", 8)
    if identity is not None:
        monkeypatch.setattr(ultimate_compiled, "root_identity", identity)
    counts = {"put": 0, "begun": 0}
    begin, put = dfpn.begin, ultimate_compiled.CompiledQuestions.dfpn_search

    def counted_begin(*args):
        counts["begun"] += 1
        return begin(*args)

    def counted_put(self, root):
        counts["put"] += 1
        return put(self, root)

    monkeypatch.setattr(dfpn, "begin", counted_begin)
    monkeypatch.setattr(ultimate_compiled.CompiledQuestions, "dfpn_search", counted_put)
    results = shared_results(name, orders=(0, 1, DFPN))
    return results, counts["put"], counts["begun"]


@pytest.mark.parametrize("name", ["path:4", "grid:2x2"])
def test_a_raced_proof_number_search_goes_on_where_it_stopped(name, monkeypatch):
    """In the race, df-pn cut off is taken up again from where it stopped (its stack kept
    while the depth-first orders search), and the answers stay those of fresh Python
    searches."""
    results, put, begun = raced_results(name, monkeypatch)
    assert begun < put
    assert results == fresh_results(name)


def test_a_paused_proof_number_search_taken_up_at_another_root_is_refuted(monkeypatch):
    """Taking a paused df-pn search up whatever the root asked (any question the same)
    answers another question somewhere: the root's test is what keeps the pause sound."""
    results, _, _ = raced_results("grid:2x2", monkeypatch, identity=lambda root: ())
    assert results != fresh_results("grid:2x2")


def test_in_the_race_proof_number_search_keeps_a_table_of_its_own(monkeypatch):
    """Racing the depth-first orders, df-pn stores its proofs in a table of its own (set
    aside while they search), so their stores cannot overwrite its proofs; both hold some."""
    from gorules.impl.rulesets.ultimate import compiled as ultimate_compiled

    monkeypatch.setattr(ultimate_compiled, "RACE", 1)
    graph = parse_graph("grid:2x2")
    engine = compiled_engine(graph, orders=(0, 1, DFPN))
    deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    core = engine.core
    assert core.aside is not None
    assert core.aside[0][0] is not core.tables[0]
    assert (core.aside[0][0] >= 0).any() and (core.tables[0] >= 0).any()


@pytest.mark.parametrize("name", ["path:3", "grid:2x2", "path:6", "atlas:43"])
def test_emptying_the_numbers_in_mid_search_keeps_the_answers(name, monkeypatch):
    """With the proof-number search's numbers emptied every 3 of its nodes (in the middle of
    its searches), the score and Ultimate result are the Python search's."""
    emptied = []
    empty = dfpn_kernel.empty_numbers

    def counted(numbers):
        """Empty the numbers and count it."""
        emptied.append(int(numbers[0].any()))
        empty(numbers)

    monkeypatch.setattr(ultimate_compiled, "NUMBERS_REFRESH", 3)
    monkeypatch.setattr(dfpn_kernel, "empty_numbers", counted)
    assert dfpn_score_and_result(name) == score_and_result(name, False)
    assert sum(emptied) > 0


def test_emptying_the_numbers_leaves_a_missing_safeguard_refuted(monkeypatch):
    """The comparison keeps its teeth with the numbers emptied every 3 nodes: one core
    without the history condition still gives a wrong result on path:3, the sound one the
    fresh searches' results."""
    monkeypatch.setattr(ultimate_compiled, "NUMBERS_REFRESH", 3)
    assert shared_results("path:3", orders=(DFPN,)) == fresh_results("path:3")
    assert shared_results("path:3", (kernel.F_HISTORY_TEST,), orders=(DFPN,)) != fresh_results("path:3")
