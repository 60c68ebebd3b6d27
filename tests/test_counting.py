"""Legal positions: enumeration against the spec's own `reaches`, the frontier dynamic
program against enumeration, and both against the published figures."""

from __future__ import annotations

import itertools
import random

import pytest

from gorules.impl.counting.positions import (
    count_legal,
    enumerate_legal,
    frontier_sizes,
    good_ordering,
    legal_boards,
)
from gorules.spec import tromp_taylor as spec
from gorules.spec.graph import parse_graph

TINY_GRAPHS = [
    "path:1",
    "path:3",
    "cycle:4",
    "star:3",
    "complete:4",
    "grid:2x2",
    "grid:2x3",
    "edges:0-1,1-2,2-0,2-3",
    "digraph:0>1,1>2,2>0",
    "digraph:0>1,1>0,1>2",
]


def spec_well_formed_count(graph) -> int:
    """The number of boards on which every point reaches Empty, by the spec's `reaches`."""
    return sum(
        1
        for board in itertools.product(".BW", repeat=graph.order)
        if all(spec.reaches(graph, board, v, spec.EMPTY) for v in graph.points)
    )


@pytest.mark.parametrize("name", TINY_GRAPHS)
def test_enumeration_agrees_with_the_spec(name):
    graph = parse_graph(name)
    assert enumerate_legal(graph) == spec_well_formed_count(graph)


def test_every_enumerated_board_is_well_formed_by_the_spec():
    graph = parse_graph("grid:2x3")
    boards = list(legal_boards(graph))
    assert len(set(boards)) == len(boards)
    assert all(all(spec.reaches(graph, b, v, spec.EMPTY) for v in graph.points) for b in boards)


@pytest.mark.parametrize(
    "name", ["path:7", "cycle:7", "star:6", "complete:5", "petersen", "grid:3x3", "grid:2x5", "atlas:200", "atlas:1000"]
)
def test_frontier_program_agrees_with_enumeration(name):
    graph = parse_graph(name)
    assert count_legal(graph) == enumerate_legal(graph)


@pytest.mark.parametrize("seed", range(4))
def test_the_count_does_not_depend_on_the_ordering(seed):
    graph = parse_graph("petersen")
    order = list(graph.points)
    random.Random(seed).shuffle(order)
    assert count_legal(graph, order) == count_legal(graph, good_ordering(graph))


def test_published_square_boards():
    found = {n: count_legal(parse_graph(f"grid:{n}x{n}")) for n in range(1, 5)}
    assert found == {1: 1, 2: 57, 3: 12675, 4: 24318165}


def test_published_one_row_boards_and_recurrence():
    found = [count_legal(parse_graph(f"grid:1x{n}")) for n in range(1, 12)]
    assert found[:8] == [1, 5, 15, 41, 113, 313, 867, 2401]
    assert all(found[k + 3] == 3 * found[k + 2] - found[k + 1] + found[k] for k in range(len(found) - 3))


def test_published_two_row_boards_in_both_orientations():
    assert [count_legal(parse_graph(f"grid:2x{n}")) for n in range(1, 5)] == [5, 57, 489, 4125]
    assert [count_legal(parse_graph(f"grid:{n}x2")) for n in range(1, 5)] == [5, 57, 489, 4125]


@pytest.mark.slow
def test_seven_by_seven():
    assert count_legal(parse_graph("grid:7x7")) == 83677847847984287628595


def test_grid_ordering_has_the_width_of_the_shorter_side():
    graph = parse_graph("grid:3x8")
    assert max(frontier_sizes(graph, good_ordering(graph))) == 3


def test_good_ordering_of_a_cycle_keeps_two_points():
    graph = parse_graph("cycle:12")
    assert max(frontier_sizes(graph, good_ordering(graph))) == 2


def test_directed_graphs_are_left_to_enumeration():
    with pytest.raises(ValueError):
        count_legal(parse_graph("digraph:0>1,1>2,2>0"))
