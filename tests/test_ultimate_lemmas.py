"""The two lemmas of a start that swapping the colours leaves alone (``Engine.symmetric_start``):
they give the searched answers, they save questions, and applied elsewhere they are refuted."""

from __future__ import annotations

import pytest

from gorules.commands.ultimate_table import connected_graphs
from gorules.impl.rulesets.ultimate.search import Engine, deep
from gorules.spec import ultimate
from gorules.spec.graph import parse_graph


def score_and_result(name: str, lemmas: bool, compiled: bool = True) -> tuple[float, int, int]:
    """Section IV's score from the empty board, the Ultimate result given it (as the
    commands ask it) and the nodes both took, with or without the lemmas."""
    graph = parse_graph(name)
    engine = Engine(graph, compiled=compiled, lemmas=lemmas)
    score = deep(engine.score, engine.from_situation(ultimate.initial_situation(graph, True)))
    start = engine.from_situation(ultimate.initial_situation(graph))
    return score, deep(engine.result_given_score, start, score), engine.nodes


@pytest.mark.slow
def test_every_graph_of_five_points_gets_the_same_answers_with_the_lemmas():
    """Score and Ultimate result from the empty board with the lemmas equal those searched
    without them on every connected graph of at most 5 points (31 graphs)."""
    for graph in connected_graphs(5):
        assert score_and_result(graph.name, True)[:2] == score_and_result(graph.name, False)[:2], graph.name


@pytest.mark.parametrize("name", ["path:2", "grid:2x3", "atlas:52"])
def test_a_score_of_minus_a_half_is_found_with_fewer_nodes(name):
    """Where White wins Fundamental Go with no komi (score −½, an Ultimate draw), the
    lemmas answer Black's second question and the Ultimate one without search."""
    with_lemmas, without = score_and_result(name, True, False), score_and_result(name, False, False)
    assert with_lemmas[:2] == without[:2] == (-0.5, 0)
    assert with_lemmas[2] < without[2]


def situations(name: str, fundamental: bool) -> list:
    """The situations after every line of up to two moves from the empty board, with a komi
    of one for either player or none."""
    graph = parse_graph(name)
    engine = Engine(graph, lemmas=False)
    start = engine.from_situation(ultimate.initial_situation(graph, fundamental))
    found = [start, engine.with_komi(start, 0, 1), engine.with_komi(start, 1, 1)]
    for p in list(found):
        for _, child, _ in engine.children(p)[0]:
            found.append(child)
            found.extend(after for _, after, _ in engine.children(child)[0])
    return [engine.to_situation(p) for p in found]


def test_only_the_symmetric_start_is_taken_for_one():
    """The empty start of either game is one; a stone, unequal bowls, White to move, a
    delay played (the history the same, the bowls unequal) or an ultimate delay are not."""
    graph = parse_graph("path:3")
    engine = Engine(graph)
    for fundamental in (True, False):
        start = engine.from_situation(ultimate.initial_situation(graph, fundamental))
        assert engine.symmetric_start(start)
        assert not engine.symmetric_start(engine.with_komi(start, 0, 1))
        for move, child, _ in engine.children(start)[0]:
            assert not engine.symmetric_start(child), move
            assert not any(engine.symmetric_start(after) for _, after, _ in engine.children(child)[0])


@pytest.mark.parametrize("name", ["path:4", "grid:2x2"])
def test_the_lemmas_applied_at_every_position_are_refuted(monkeypatch, name):
    """Taken for a symmetric start everywhere, the lemmas give a wrong score or Ultimate
    result at some position within two moves of the start (so the conditions matter)."""
    graph = parse_graph(name)
    wrong = 0
    for fundamental in (True, False):
        for s in situations(name, fundamental):
            honest = Engine(graph, lemmas=True)
            careless = Engine(graph, lemmas=True)
            monkeypatch.setattr(careless, "symmetric_start", lambda p: True)
            q, r = honest.from_situation(s), careless.from_situation(s)
            score = deep(honest.score, q)
            careless_score = deep(careless.score, r)
            wrong += score != careless_score
            if not fundamental and score == -0.5 == careless_score and honest.untouched(q):
                wrong += deep(honest.result_given_score, q, score) != deep(careless.result_given_score, r, score)
    assert wrong
