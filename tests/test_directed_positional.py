"""The exhaustive search for a lazy strategy positional on the situations less the scores
(source 000's score-maximising conjecture), on one point with bids of whole points: it
agrees with the refutation of every lazy play, and its mutant that lets a strategy read the
scores finds a lazy one, checked."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest

from gorules.impl.rulesets.directed import full_arena as fa
from gorules.impl.rulesets.directed import full_conjectures as fc
from gorules.impl.rulesets.directed import positional
from gorules.impl.rulesets.directed.arena import check_plan
from gorules.impl.rulesets.directed.graphs import parse


@pytest.fixture(scope="module")
def one_point():
    """The solution of one point with bids of whole points, and a cache of its guarantees."""
    return fc.Context(parse("digraph:1:"), fa.Reading("units"), 10**6).solution(), {}


def test_no_strategy_positional_on_the_situations_less_the_scores_is_lazy_on_one_point(one_point):
    """Every lazy play of Black is refuted there, and the exhaustive search finds none."""
    s, cache = one_point
    question = fc.lazy_question(s, 0, Fraction(0), cache)
    answer = positional.search(question)
    assert answer.found is None
    assert answer.classes > 0 and answer.choices > answer.classes


def test_a_strategy_that_reads_the_scores_is_found_lazy_on_one_point(one_point):
    """The mutant whose classes are the nodes themselves (scores included) finds a strategy of
    Black that is reasonable, win-or-draw and lazy: after White's error leaves Black a point
    ahead on the empty board, it settles for 0."""
    s, cache = one_point
    question = fc.lazy_question(s, 0, Fraction(0), cache, positional.node_itself)
    found = positional.search(question).found
    assert found is not None
    assert check_plan(s.arena, found.strategy, 0, question.start, question.good) is None
    assert found.floor == 0 and found.reached in question.better(Fraction(0))
    key = s.arena.positions[found.reached]
    assert key[0] == "offer" and key[1] == (".",) and key[4] == 1
    walk = [*found.way, *found.cycle, found.cycle[0]]
    assert walk[0] == question.start and found.reached in walk
    for v, w in pairwise(walk):
        assert w in s.arena.successors[v]
        if positional.own(s.arena, v, 0):
            assert found.strategy.step(v, None)[1] == w
    assert all(positional.sustainable(s.arena, v) for v in found.cycle)


def test_the_exhaustive_verdict_on_one_point_holds_with_its_sizes(one_point):
    """Run on every lazy play of one point (all refuted there), the search's verdict holds and
    names its method and sizes."""
    s, cache = one_point
    context = fc.Context(parse("digraph:1:"), fa.Reading("units"), 10**6)
    lazies = list(fc.lazy_plays(s, cache, every=True))
    verdict = fc.exhaustive(context, s, cache, lazies, None)
    assert verdict.status == "holds"
    assert "exhaustive SAT search" in verdict.detail and "B at komi 0: 13 classes" in verdict.detail
