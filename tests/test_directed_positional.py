"""The exhaustive search for a lazy strategy positional on the situations less the scores
(source 000's score-maximising conjecture), on one point with bids of whole points: it
agrees with the refutation of every lazy play, its mutant that lets a strategy read the
scores finds a lazy one, checked, every strategy its generalised clauses exclude loses, and
a generalisation that is not checked loses the lazy strategy.  On 0>1 with bids of halves
(slow) it finds a lazy strategy whose line the spec scores as a draw."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest

from gorules.impl.rulesets.directed import full_arena as fa
from gorules.impl.rulesets.directed import full_conjectures as fc
from gorules.impl.rulesets.directed import positional
from gorules.impl.rulesets.directed.arena import check_plan
from gorules.impl.rulesets.directed.graphs import parse
from gorules.spec import directed


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


def test_each_clause_excludes_only_strategies_that_lose(one_point, monkeypatch):
    """The strategies excluded by a generalised clause all lose, checked apart from Zielonka's
    algorithm: every strategy that keeps the refuted one's choices on the clause's classes and
    changes one other class's choice, or all of them, has a losing play against some reply."""
    s, cache = one_point
    question = fc.lazy_question(s, 0, Fraction(0), cache, positional.node_itself)
    clauses = []
    generalise = positional.generalise

    def recorded(*arguments):
        kept = generalise(*arguments)
        clauses.append((arguments[3], kept))
        return kept

    monkeypatch.setattr(positional, "generalise", recorded)
    assert positional.search(question).found is not None
    labels = positional.Encoding(question).labels
    assert clauses and all(len(kept) < len(labels) for _, kept in clauses)
    for choice, kept in clauses:
        variants = [{**choice, p: label} for p in labels if p not in kept for label in labels[p]]
        variants.append({**choice, **{p: labels[p][-1] for p in labels if p not in kept}})
        for variant in variants:
            strategy = positional.Uniform(s.arena, 0, variant, question.key)
            assert check_plan(s.arena, strategy, 0, question.start, question.good) is not None


def test_an_unchecked_generalisation_loses_the_lazy_strategy(one_point, monkeypatch):
    """The mutant that keeps the first class of each losing play without solving the game
    excludes strategies that do not lose, among them every lazy one of the strategies that
    read the scores: the search then finds none, where the checked clauses find one."""
    s, cache = one_point
    question = fc.lazy_question(s, 0, Fraction(0), cache, positional.node_itself)
    monkeypatch.setattr(positional, "generalise", lambda question, condition, base, choice, classes: classes[:1])
    answer = positional.search(question)
    assert answer.finished and answer.found is None


def test_the_sure_guarantee_is_inside_the_generous_one_and_equal_below_the_grain(one_point):
    """Counting the side's sink as not kept only shrinks the guarantee region, and below the
    grain (the least step of e past the window) both count it as kept."""
    s, cache = one_point
    grain = fc.grain(s.arena)
    assert grain == Fraction(1, 2)  # the komis of the gaps, on whole points
    smaller = 0
    for side in (0, 1):
        for floor in (Fraction(0), grain, Fraction(1), Fraction(2)):
            sure, generous = fc.sure_region(s, side, floor, cache), fc.guarantee_region(s, side, floor, cache)
            assert sure <= generous
            assert sure == generous or floor >= grain
            smaller += sure < generous
    assert smaller


@pytest.mark.slow
def test_score_maximising_fails_on_one_arc_with_bids_of_halves():
    """Under the default reading the exhaustive search finds, on 0>1 at komi 0, a positional
    strategy of Black that is reasonable, win-or-draw and lazy.  Its printed line, scored by
    the spec's own outcome, ends exactly at the floor it settles for: a draw once White gets
    that floor as komi on top, a Black win at komi 0 when the floor is above 0."""
    graph = parse("digraph:2:0>1")
    verdict = fc.check("score-maximising", graph, fa.Reading(), 10**6)
    assert verdict.status == "fails"
    example = verdict.counterexample
    assert example["komi"] == "0" and example["side"] == "B"
    floor = Fraction(example["settles_for"])
    ruleset = directed.Directed()

    def turns(words):
        read = [ruleset.parse_move(graph, word) for word in words]
        return [t if isinstance(t, directed.Turn) else directed.Turn(t) for t in read]

    prefix, cycle = turns(example["line"]["prefix"]), turns(example["line"]["cycle"])
    assert directed.outcome(graph, directed.starting_situation(graph, floor), prefix, cycle) == "draw"
    at_komi = directed.outcome(graph, directed.starting_situation(graph, Fraction(0)), prefix, cycle)
    assert at_komi == ("B" if floor > 0 else "draw")
