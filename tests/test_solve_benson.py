"""Benson's unconditional life as the solver uses it (``impl/engine/benson.py``), checked
exhaustively: on every well-formed board of small graphs, no move of the opponent removes
a stone of an alive set or leaves the rest of it short of being alive, so the owner keeps
every alive stone to the end by passing.  A weakened Benson (one vital region enough) is
caught by the same check."""

from __future__ import annotations

import itertools

import pytest

from gorules.impl.engine import benson
from gorules.impl.engine.bitset import kernel
from gorules.impl.solving.solve import Solver
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PRESETS


def boards(graph):
    """Every well-formed board of ``graph`` as (black, white) bitsets."""
    k = kernel(graph)
    for colours in itertools.product((0, 1, 2), repeat=graph.order):
        black = sum(1 << v for v, c in enumerate(colours) if c == 1)
        white = sum(1 << v for v, c in enumerate(colours) if c == 2)
        if k.well_formed(black, white):
            yield black, white


def opponent_replies(graph, keep, suicide: bool):
    """Every board of ``graph`` with a side whose set ``keep(kernel, mine, theirs, suicide)`` is
    not empty, and every opponent move there (suicides only if ``suicide``): yields the board,
    the side, the move, the kept set and the side's stones and the opponent's after the move."""
    k = kernel(graph)
    for black, white in boards(graph):
        for side in (0, 1):
            mine, theirs = (black, white) if side == 0 else (white, black)
            kept = keep(k, mine, theirs, suicide)
            if not kept:
                continue
            empty = k.all & ~(black | white)
            for v in range(graph.order):
                if not empty >> v & 1:
                    continue
                b2, w2 = k.play(black, white, v, 1 - side)
                if not suicide and not (b2 | w2) >> v & 1:
                    continue
                yield (black, white, side, v), kept, (b2, w2) if side == 0 else (w2, b2)


def violations(graph, alive=benson.alive, suicide: bool = True, limit: int = 1):
    """Boards and opponent moves (suicides only if ``suicide``) after which some alive stone
    is gone or the alive set is no longer alive (at most ``limit`` of them)."""
    k = kernel(graph)
    found = []
    for where, living, (mine2, theirs2) in opponent_replies(graph, alive, suicide):
        if living & ~mine2 or living & ~alive(k, mine2, theirs2, suicide):
            found.append(where)
            if len(found) >= limit:
                break
    return found


GRAPHS = ["path:5", "cycle:5", "star:4", "complete:4", "grid:2x3", "grid:3x3", "edges:0-1,1-2,2-3,3-0,0-4,4-5,5-6,6-0"]


@pytest.mark.parametrize("suicide", [True, False], ids=["suicide-allowed", "suicide-forbidden"])
@pytest.mark.parametrize("name", GRAPHS)
def test_alive_stones_survive_every_opponent_move(name, suicide):
    assert violations(parse_graph(name), suicide=suicide) == []


def test_with_suicide_only_the_empty_points_are_not_enough():
    """Benson's usual test (each empty point of a region a liberty) is unsound when suicide
    is allowed: on 1×5, .B.WW loses its black stone after White's suicide at the middle."""
    assert violations(parse_graph("path:5"), alive=lambda k, m, t, s: benson.alive(k, m, t, False))


def one_region_enough(k, mine, theirs, suicide):
    """Mutant: Benson's fixed point asking for one vital region per chain, not two."""
    empty = k.all & ~(mine | theirs)
    alive = 0
    for chain in benson.components(k, mine):
        liberties = benson.neighbours(k, chain) & empty
        for region in benson.components(k, k.all & ~mine):
            if region & empty and not (region & empty) & ~liberties:
                alive |= chain
    return alive


def test_the_check_catches_a_weakened_benson():
    assert violations(parse_graph("grid:2x3"), alive=one_region_enough)


def test_two_eyes_are_alive_and_one_is_not():
    """On 3×3, seven black stones around two one-point eyes in opposite corners are alive;
    around one two-point eye they are not."""
    k = kernel(parse_graph("grid:3x3"))
    two_eyes = 0b011111110
    one_eye = 0b111111100
    assert benson.alive(k, two_eyes, 0) == two_eyes
    assert benson.alive(k, one_eye, 0) == 0
    assert benson.margin_bounds(k, two_eyes, 0, area=False) == (5, 9)
    # Under area scoring the two eyes count for Black too: the whole board.
    assert benson.eyes(k, two_eyes, k.all & ~two_eyes) == k.all & ~two_eyes
    assert benson.margin_bounds(k, two_eyes, 0) == (9, 9)


@pytest.mark.parametrize("name", ["path:6", "grid:2x3", "cycle:5"])
def test_the_bounds_never_change_the_value(name):
    graph = parse_graph(name)
    with_bounds = Solver(graph).solve()
    without = Solver(graph, benson=False, symmetry=False).solve()
    assert with_bounds.value == without.value


def lost_points(graph, owned=benson.owned, suicide: bool = True, limit: int = 1):
    """Boards and opponent moves (suicides only if ``suicide``) after which some point its
    owner keeps by passing (alive stone, or one-point eye under area scoring) is no longer
    kept (at most ``limit`` of them): the induction the eyes' bound rests on."""
    k = kernel(graph)
    found = []
    for where, kept, (mine2, theirs2) in opponent_replies(graph, owned, suicide):
        if kept & ~owned(k, mine2, theirs2, suicide):
            found.append(where)
            if len(found) >= limit:
                break
    return found


@pytest.mark.parametrize("suicide", [True, False], ids=["suicide-allowed", "suicide-forbidden"])
@pytest.mark.parametrize("name", GRAPHS)
def test_kept_points_survive_every_opponent_move(name, suicide):
    assert lost_points(parse_graph(name), suicide=suicide) == []


def eyes_of_any_stones(k, mine, theirs, suicide=True, area=True):
    """Mutant: one-point eyes of all the owner's stones, alive or not."""
    return benson.alive(k, mine, theirs, suicide) | benson.eyes(k, mine, k.all & ~(mine | theirs))


def test_the_check_catches_eyes_of_stones_that_are_not_alive():
    assert lost_points(parse_graph("path:5"), owned=eyes_of_any_stones)


def bound_misses(name: str, preset: str, bounds=benson.margin_bounds) -> list:
    """Positions (black, white, side to move) of ``name`` without earlier history whose
    value, solved without static bounds, lies outside ``bounds`` under the preset named ``preset``."""
    graph, options = parse_graph(name), PRESETS[preset]
    k = kernel(graph)
    suicide, area = options.suicide == "allowed", options.scoring == "area"
    found = []
    for black, white in boards(graph):
        low, high = bounds(k, black, white, suicide, area)
        if low == -graph.order and high == graph.order:
            continue
        for side in (0, 1):
            value = Solver(graph, options, start=(black, white, side), benson=False).solve().raw_value
            if not low <= value <= high:
                found.append((black, white, side))
    return found


@pytest.mark.parametrize("preset", ["tromp-taylor", "no-suicide", "situational", "stone"])
@pytest.mark.parametrize("name", ["path:5", "cycle:4", "star:4"])
def test_every_value_lies_within_the_static_bounds(name, preset):
    assert bound_misses(name, preset) == []


def test_eyes_counted_under_stone_scoring_are_caught():
    """Under stone scoring an eye is not a point of its owner: bounds that count it anyway
    exclude the true value of some position."""

    def eyes_always(k, black, white, suicide=True, area=True):
        return benson.margin_bounds(k, black, white, suicide, True)

    assert bound_misses("path:5", "stone", bounds=eyes_always)
