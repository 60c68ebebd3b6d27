"""The rules of play over every graph (``proofs/unbounded_logic.py``), and their mutants,
both symbolically and on one concrete graph.

A :class:`Rules` names the broken rule of a mutant, or none for the spec.  :func:`placed`
builds the boards of a stone move, b[m ↦ p] and the two clearings, with one ``Reaching``
per board that a clearing consults; :func:`concrete_placed` computes the same on a
concrete graph with the spec's ``reaching`` (or the source's literal one, or the greatest
fixed point), so that every model a solver finds is replayed on ``spec/tromp_taylor.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from gorules.proofs import unbounded_logic as U
from gorules.spec import tromp_taylor as tt
from gorules.spec.errata import reaching_as_written
from gorules.spec.graph import Graph


@dataclass(frozen=True)
class Rules:
    """The spec's rules of play, or a mutant: one rule deliberately broken."""

    name: str = "spec"
    description: str = "the Tromp–Taylor rules as corrected (spec/tromp_taylor.py)"
    own_first: bool = False
    second_clear: bool = True
    written: bool = False
    greatest: bool = False
    simultaneous: bool = False
    colour_biased: bool = False
    overwrite: bool = False
    dame_counted: bool = False
    spare_point: bool = False


SPEC = Rules()
MUTANTS: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("own-first", "the mover's own stones are cleared before the opponent's", own_first=True),
        Rules("reaches-as-written", "reaches steps only through v's own colour (E1)", written=True),
        Rules("no-second-clear", "the mover's own chains without liberties stay", second_clear=False),
        Rules("gfp-reaches", "reaches is the greatest fixed point of its equation", greatest=True),
        Rules("simultaneous", "the mover's chains are judged on b[v ↦ p], before the capture", simultaneous=True),
        Rules(
            "colour-biased",
            "only Black's chains without liberties are removed by the second clearing",
            colour_biased=True,
        ),
        Rules("occupied-overwrite", "a move on an occupied point is defined and overwrites it", overwrite=True),
        Rules(
            "spare-point-0",
            "a stone on one point (the graph's point 0) is never removed by the second clearing",
            spare_point=True,
        ),
        Rules("dame-counted", "an empty point that reaches p counts for p even if it reaches p*", dame_counted=True),
    )
}


SPARED = z3.Const("spared_point", U.Point)  # the point spare-point-0 spares, wherever a model puts it


def rules_named(name: str | None) -> Rules:
    """The spec's rules, or the mutant of that name (a ValueError naming the known ones)."""
    if name is None:
        return SPEC
    if name not in MUTANTS:
        raise ValueError(f"unknown mutant {name!r}; known: {', '.join(MUTANTS)}")
    return MUTANTS[name]


@dataclass
class Placed:
    """The boards of a stone move: b[m ↦ p], after the first clearing, the result; and the
    Reaching predicates the clearings consult."""

    placed: U.Board
    first: U.Board
    result: U.Board
    reachings: list


def placed(b: U.Board, p, m, rules: Rules, tag: str) -> Placed:
    """p plays m on b under the rules: clear(clear(b[m ↦ p], p*), p), or the mutant's version."""
    b1 = U.update(b, m, p)
    R1 = U.Reaching(f"{tag}R1", b1, U.EMPTY, rules.written, rules.greatest)
    first, second = (p, U.opponent(p)) if rules.own_first else (U.opponent(p), p)
    b2 = U.clear(b1, first, R1)
    if not rules.second_clear:
        return Placed(b1, b2, b2, [R1])
    R2 = U.Reaching(f"{tag}R2", b2, U.EMPTY, rules.written, rules.greatest)
    b3 = U.clear(b2, second, R1 if rules.simultaneous else R2)
    cleared = b3
    if rules.colour_biased:
        b3 = lambda x: z3.If(p == U.BLACK, cleared(x), b2(x))  # noqa: E731
    if rules.spare_point:
        b3 = lambda x: z3.If(x == SPARED, b2(x), cleared(x))  # noqa: E731
    return Placed(b1, b2, b3, [R1, R2])


def greatest_reaching(graph: Graph, b: tuple, c: str) -> frozenset:
    """The greatest set R with: v ∈ R iff b(v) = c or some w with v ↔ w, b(w) ∈ {b(v), c} is in R."""
    # The spec's iteration of ``reaches`` (spec/tromp_taylor.py), started from every point
    # instead of none: kept apart so that the spec states only the least fixed point.
    R = frozenset(graph.points)
    while True:
        R_next = frozenset(
            v for v in graph.points if b[v] == c or any(b[w] in (b[v], c) and w in R for w in graph.neighbours[v])
        )
        if R_next == R:
            return R
        R = R_next


def concrete_reaching(graph: Graph, b: tuple, rules: Rules) -> frozenset:
    """The points that reach Empty on b under the rules' reaches."""
    if rules.written:
        return reaching_as_written(graph, b, tt.EMPTY)
    if rules.greatest:
        return greatest_reaching(graph, b, tt.EMPTY)
    return tt.reaching(graph, b, tt.EMPTY)


def concrete_clear(graph: Graph, b: tuple, p: str, judged: frozenset) -> tuple:
    """b with every stone of p outside ``judged`` made Empty."""
    return tuple(tt.EMPTY if b[v] == p and v not in judged else b[v] for v in graph.points)


def concrete_placed(graph: Graph, b: tuple, p: tt.Player, m: int, rules: Rules, spared: int = 0) -> tuple:
    """The board after p plays m on b under the rules, computed on the concrete graph
    (``spared``: the point spare-point-0 spares)."""
    b1 = tt.update(b, m, p)
    first, second = (p, tt.opponent(p)) if rules.own_first else (tt.opponent(p), p)
    b2 = concrete_clear(graph, b1, first, concrete_reaching(graph, b1, rules))
    if not rules.second_clear:
        return b2
    judged = concrete_reaching(graph, b1 if rules.simultaneous else b2, rules)
    b3 = concrete_clear(graph, b2, second, judged)
    if rules.colour_biased and p != tt.BLACK:
        return b2
    if rules.spare_point:
        return tt.update(b3, spared, b2[spared])
    return b3


def swap(c: tt.Color) -> tt.Color:
    """The colour with Black and White exchanged."""
    if c == tt.BLACK:
        return tt.WHITE
    return tt.BLACK if c == tt.WHITE else tt.EMPTY


def concrete_score(graph: Graph, b: tuple, p: tt.Player, rules: Rules) -> int:
    """score(b, p) under the rules: p's stones and the empty points that reach p but not p*
    (under ``dame-counted``, that reach p)."""
    to_p, to_other = tt.reaching(graph, b, p), tt.reaching(graph, b, tt.opponent(p))
    return sum(
        1
        for v in graph.points
        if b[v] == p or (b[v] == tt.EMPTY and v in to_p and (rules.dame_counted or v not in to_other))
    )
