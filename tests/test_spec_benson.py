"""The spec's Benson (``spec/benson.py``), used by the certificate checker: the same points
kept as the solver's bitset version on every board of small graphs, under every suicide
and scoring rule; and, with the spec's own moves, no opponent move takes a kept point
away.  Mutants: a region vital when only its empty points are liberties (unsound with
suicide), eyes of stones that are not alive."""

from __future__ import annotations

import itertools

import pytest

from gorules.impl.engine import benson as bitset_benson
from gorules.impl.engine.bitset import kernel
from gorules.spec import benson
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import BLACK, EMPTY, WHITE, Options, State, move, opponent

GRAPHS = ["path:5", "cycle:5", "star:4", "grid:2x3", "edges:0-1,1-2,2-3,3-0,0-4,4-5,5-6,6-0"]
RULES = [Options(suicide=s, scoring=c) for s in ("allowed", "forbidden") for c in ("area", "stone")]


def boards(graph):
    """Every board of ``graph`` (tuples of colours) on which every chain has a liberty."""
    for colours in itertools.product((BLACK, WHITE, EMPTY), repeat=graph.order):
        black = sum(1 << v for v, c in enumerate(colours) if c == BLACK)
        white = sum(1 << v for v, c in enumerate(colours) if c == WHITE)
        if kernel(graph).well_formed(black, white):
            yield colours, black, white


def as_points(mask: int) -> frozenset:
    """The points of a bit mask."""
    return frozenset(v for v in range(mask.bit_length()) if mask >> v & 1)


def disagreements(name: str, options: Options, kept=benson.kept) -> list:
    """Boards and colours on which ``kept`` and the bitset version keep different points."""
    graph = parse_graph(name)
    k = kernel(graph)
    suicide, area = options.suicide == "allowed", options.scoring == "area"
    found = []
    for b, black, white in boards(graph):
        for c, mine, theirs in ((BLACK, black, white), (WHITE, white, black)):
            expected = as_points(bitset_benson.owned(k, mine, theirs, suicide, area))
            if kept(graph, options, b, c) != expected:
                found.append(("".join(b), c))
    return found


@pytest.mark.parametrize("options", RULES, ids=lambda o: f"{o.suicide}-{o.scoring}")
@pytest.mark.parametrize("name", GRAPHS)
def test_the_spec_keeps_what_the_solver_keeps(name, options):
    assert disagreements(name, options) == []


def empty_points_only(graph, options, b, c):
    """Mutant: regions vital when their empty points are liberties, even where suicide is allowed."""
    return benson.kept(graph, Options(suicide="forbidden", scoring=options.scoring), b, c)


def test_a_region_with_opponent_stones_away_from_the_chain_is_caught():
    assert disagreements("path:5", Options(), kept=empty_points_only)


def losses(name: str, options: Options, kept=benson.kept, limit: int = 1) -> list:
    """Boards, colours and opponent moves (the spec's ``move``; suicides only where allowed)
    after which a point the colour kept is kept no longer."""
    graph = parse_graph(name)
    found = []
    for b, _, _ in boards(graph):
        for c in (BLACK, WHITE):
            before = kept(graph, options, b, c)
            if not before:
                continue
            for v in graph.points:
                after = move(graph, State(b, opponent(c), 0), v)
                if after is None or (options.suicide == "forbidden" and after.board[v] == EMPTY):
                    continue
                if before - kept(graph, options, after.board, c):
                    found.append(("".join(b), c, v))
                    if len(found) >= limit:
                        return found
    return found


@pytest.mark.parametrize("options", RULES[:2], ids=["area", "stone"])
@pytest.mark.parametrize("name", ["path:5", "grid:2x3"])
def test_no_opponent_move_takes_a_kept_point(name, options):
    assert losses(name, options) == []


def eyes_of_any_stones(graph, options, b, c):
    """Mutant: one-point eyes of every stone of c, alive or not."""
    stones = frozenset(v for v in graph.points if b[v] == c)
    return benson.alive(graph, b, c) | benson.eyes(graph, b, stones)


def test_eyes_of_stones_that_are_not_alive_are_caught():
    assert losses("path:5", Options(), kept=eyes_of_any_stones)


def test_two_eyes_keep_the_board_and_one_eye_does_not():
    graph = parse_graph("grid:3x3")
    two_eyes = tuple("." if v in (0, 8) else "B" for v in range(9))
    one_eye = tuple("." if v in (0, 1) else "B" for v in range(9))
    assert benson.kept(graph, Options(), two_eyes, BLACK) == frozenset(range(9))
    assert benson.kept(graph, Options(scoring="stone"), two_eyes, BLACK) == frozenset(range(1, 8))
    assert benson.kept(graph, Options(), one_eye, BLACK) == frozenset()


def test_nothing_is_kept_on_a_directed_graph():
    graph = parse_graph("digraph:0>1,1>2,2>0")
    board = (BLACK, EMPTY, BLACK)
    assert not benson.undirected(graph)
    assert benson.kept(graph, Options(), board, BLACK) == frozenset()
