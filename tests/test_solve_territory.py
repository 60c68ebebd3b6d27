"""The secure regions of Benson-alive stones as a static bound (``impl/engine/benson.py``'s
``enclosed``, the solver's ``territory``), checked two ways:

1. along every line of play the full-history reference searches (``tests/reference_compiled.py``'s
   ``static_misses``): no state, with the real history of its line, has a value its search
   proves below Black's claimed low bound or above the claimed high bound, on every
   connected graph of up to 5 points where the secure regions claim more than the one-point
   eyes, under every finite area rule set;
2. on every board of small graphs whose regions have at most two points, without history:
   every stone the opponent puts into a secure region is answered by one move of the owner
   after which she keeps every point she kept before.

Mutants refuted: regions that hold an opponent stone (the owner's capture can repeat an
earlier board), regions of stones that are not alive, the regions counted under stone
scoring.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from gorules.impl.engine import benson
from gorules.impl.engine.bitset import kernel
from gorules.impl.solving.solve import Solver
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PRESETS
from tests.reference_compiled import static_misses
from tests.test_solve_benson import boards


def claims(graph, preset: str, owned=benson.owned) -> np.ndarray:
    """Black's claimed [low, high] margin on every board of ``graph`` (row: the board in
    base 3, point v of weight 3^v, Black 1, White 2) from the points each side keeps by
    ``owned`` (with secure regions) under the preset named ``preset``."""
    options = PRESETS[preset]
    suicide, area = options.suicide == "allowed", options.scoring == "area"
    k, n = kernel(graph), graph.order
    rows = np.zeros((3**n, 2), np.int64)
    for number, reversed_colours in enumerate(itertools.product((0, 1, 2), repeat=n)):
        colours = reversed_colours[::-1]
        black = sum(1 << v for v, c in enumerate(colours) if c == 1)
        white = sum(1 << v for v, c in enumerate(colours) if c == 2)
        low = 2 * benson.popcount(owned(k, black, white, suicide, area, True)) - n
        high = n - 2 * benson.popcount(owned(k, white, black, suicide, area, True))
        rows[number] = (low, high)
    return rows


def eyes_only(graph, preset: str) -> np.ndarray:
    """The claims of the one-point eyes alone (the bound without secure regions)."""
    return claims(graph, preset, owned=lambda k, m, t, s, a, _: benson.owned(k, m, t, s, a, False))


def connected_graphs(points: int) -> list[str]:
    """The connected graphs of networkx's atlas with exactly ``points`` points."""
    return [
        f"atlas:{i}" for i, g in enumerate(nx.graph_atlas_g()) if g.number_of_nodes() == points and nx.is_connected(g)
    ]


AREA_RULES = ["tromp-taylor", "no-suicide", "situational"]
WITH_REGIONS = [f"atlas:{i}" for i in (15, 34, 36, 37, 40, 41, 42, 43, 45, 47, 48, 49)]
"""The connected graphs of up to 5 points where the secure regions claim more than the
one-point eyes (under each area rule set): one of 4 points, eleven of 5."""
LONG = {("atlas:36", "situational")} | {("atlas:49", preset) for preset in AREA_RULES}
"""Cases left out: the reference did not finish them within 30 minutes (atlas:36
situational and atlas:49 are ``test_solve_reference.py``'s long cases too)."""


def test_the_regions_claim_more_than_the_eyes_on_these_graphs():
    """Up to 5 points the secure regions claim more than the one-point eyes exactly on
    ``WITH_REGIONS``, the graphs the reference checks below."""
    differing = set()
    for points in (1, 2, 3, 4, 5):
        for name in connected_graphs(points):
            graph = parse_graph(name)
            for preset in AREA_RULES:
                if (claims(graph, preset) != eyes_only(graph, preset)).any():
                    differing.add(name)
    assert differing == set(WITH_REGIONS)


def cases() -> list:
    """The graphs with secure regions under every finite area rule set, but ``LONG``."""
    return [
        pytest.param(name, preset, id=f"{name}-{preset}")
        for name in WITH_REGIONS
        for preset in AREA_RULES
        if (name, preset) not in LONG
    ]


@pytest.mark.parametrize(("name", "preset"), cases())
def test_no_line_of_play_reaches_a_state_below_its_claim(name, preset):
    graph = parse_graph(name)
    assert static_misses(graph, PRESETS[preset], claims(graph, preset)) == (0, [])


def with_opponent_stones(k, mine, theirs, suicide=True, area=True, territory=True):
    """Mutant: secure regions that may hold opponent stones."""
    living = benson.alive(k, mine, theirs, suicide)
    if not (area and living):
        return living
    touching = k.dilate_in(living)
    for region in benson.components(k, k.all & ~living):
        if not region & ~touching:
            living |= region
    return living


@pytest.mark.parametrize("preset", AREA_RULES)
def test_regions_holding_opponent_stones_are_caught(preset):
    """On atlas:34 (a point with two leaves and a triangle) a White stone in Black's
    two-point region: Black's capture would repeat an earlier board, and the value is below
    the claim."""
    graph = parse_graph("atlas:34")
    count, first = static_misses(graph, PRESETS[preset], claims(graph, preset, owned=with_opponent_stones))
    assert count > 0
    assert first == [16, 4, 1]  # Black on 4, White on 2, White to move


def regions_of_any_stones(k, mine, theirs, suicide=True, area=True, territory=True):
    """Mutant: the regions of all the owner's stones, alive or not."""
    living = benson.alive(k, mine, theirs, suicide)
    if not (area and mine):
        return living
    return living | benson.enclosed(k, mine, theirs)


def test_regions_of_stones_that_are_not_alive_are_caught():
    """On 1×5 the empty points next to Black's stones that are not alive are no territory."""
    graph = parse_graph("path:5")
    count, _ = static_misses(graph, PRESETS["tromp-taylor"], claims(graph, "tromp-taylor", regions_of_any_stones))
    assert count > 0
    assert unanswered(graph, owned=regions_of_any_stones)


def test_regions_counted_under_stone_scoring_are_caught():
    """Under stone scoring an empty point counts for nobody: the claim of the regions
    (computed as under area scoring) exceeds the value of some state."""

    def as_if_area(k, mine, theirs, suicide=True, area=True, territory=True):
        return benson.owned(k, mine, theirs, suicide, True, True)

    graph = parse_graph("atlas:34")
    assert static_misses(graph, PRESETS["stone"], claims(graph, "stone", owned=as_if_area))[0] > 0


def unanswered(graph, owned=benson.owned, suicide: bool = True) -> list:
    """Boards, sides and opponent moves (suicides only if ``suicide``) after which the side
    keeps fewer points by ``owned`` (with secure regions) and no move of hers restores them
    all: the answers the bound's argument needs, with the history left out."""
    k = kernel(graph)
    found = []
    for black, white in boards(graph):
        for side in (0, 1):
            mine, theirs = (black, white) if side == 0 else (white, black)
            kept = owned(k, mine, theirs, suicide, True, True)
            for v in range(graph.order):
                if (black | white) >> v & 1:
                    continue
                b1, w1 = k.play(black, white, v, 1 - side)
                if not suicide and not (b1 | w1) >> v & 1:
                    continue
                mine1, theirs1 = (b1, w1) if side == 0 else (w1, b1)
                if not kept & ~owned(k, mine1, theirs1, suicide, True, True):
                    continue
                if not any(answers(k, b1, w1, side, kept, owned, suicide)):
                    found.append((black, white, side, v))
    return found


def answers(k, black, white, side, kept, owned, suicide):
    """For each empty point, whether the side's stone there (no suicide) keeps ``kept``."""
    for a in range(k.n):
        if (black | white) >> a & 1:
            continue
        b2, w2 = k.play(black, white, a, side)
        if not (b2 | w2) >> a & 1:
            continue
        mine2, theirs2 = (b2, w2) if side == 0 else (w2, b2)
        yield not kept & ~owned(k, mine2, theirs2, suicide, True, True)


ANSWER_GRAPHS = ["atlas:15", "atlas:34", "atlas:36", "atlas:42", "path:5", "grid:2x3"]
"""Graphs whose secure regions have at most two points, where one answer restores them
(a region of three points, as the path 3-4-5 of edges:0-1,0-2,0-3,3-4,4-0,4-5,5-0, needs
two: after White's stone in its middle, Black's first answer leaves it one liberty)."""


@pytest.mark.parametrize("suicide", [True, False], ids=["suicide-allowed", "suicide-forbidden"])
@pytest.mark.parametrize("name", ANSWER_GRAPHS)
def test_every_invasion_of_a_region_is_answered(name, suicide):
    assert unanswered(parse_graph(name), suicide=suicide) == []


@pytest.mark.parametrize("core", ["python", "compiled"])
@pytest.mark.parametrize("name", ["atlas:34", "grid:2x3"])
def test_the_regions_never_change_the_value_and_save_nodes(name, core):
    graph = parse_graph(name)
    with_regions = Solver(graph, core=core, territory=True).solve()
    eyes = Solver(graph, core=core, territory=False).solve()
    assert with_regions.value == eyes.value
    assert with_regions.nodes < eyes.nodes
