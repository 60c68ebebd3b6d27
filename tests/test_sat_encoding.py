"""The CNF encoding (proofs/sat.py) against the executable spec, on concrete boards.

Each test builds the symbolic formula, pins the board with unit clauses, and checks that
the solver is forced to the spec's answer: reaches, clear, move, score and
well-formedness, for every encoding of the least fixed point, on undirected and
directed graphs, and for the source's literal reading of reaches.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gorules.proofs import sat
from gorules.spec import errata
from gorules.spec import tromp_taylor as tt
from gorules.spec.graph import make_graph, parse_graph
from tests.strategies import boards, directed_graphs, undirected_graphs

GRAPHS = ["grid:2x3", "cycle:5", "petersen", "star:3", "digraph:0>1,1>2,2>0,2>3,3>4"]


def pinned(f: sat.Formula, board: sat.Board, b) -> list:
    """Unit literals fixing a symbolic board to the concrete board b."""
    units = []
    for v, c in enumerate(b):
        units.append(board.black[v] if c == "B" else -board.black[v])
        units.append(board.white[v] if c == "W" else -board.white[v])
    return units


def forced(f: sat.Formula, units: list, literals) -> list:
    """The values the formula forces on the literals: a model's values, checked unique by
    asking for a model that differs from them."""
    model = sat.solve(f, units)
    assert model is not None, "the pinned formula has no model"
    values = [sat.value(model, l) for l in literals]
    differ = f.disj([sat.neg(l) if v else l for l, v in zip(literals, values)])
    assert sat.solve(f, units + [differ]) is None, "the encoding leaves these values open"
    return values


@pytest.mark.parametrize("encoding", sat.ENCODINGS)
@pytest.mark.parametrize("name", GRAPHS)
@settings(max_examples=25)
@given(data=st.data())
def test_reaching_is_the_least_fixed_point(name, encoding, data):
    graph = parse_graph(name)
    b = data.draw(boards(graph))
    colour = data.draw(st.sampled_from(("B", "W", ".")))
    f = sat.Formula()
    board = sat.symbolic_board(f, graph.order)
    R = sat.reaching(f, sat.fixed_adjacency(graph), board, colour, encoding)
    values = forced(f, pinned(f, board, b), R)
    assert values == [tt.reaches(graph, b, v, colour) for v in graph.points]


@pytest.mark.parametrize("encoding", sat.ENCODINGS)
@given(data=st.data())
def test_move_equals_the_spec(encoding, data):
    graph = data.draw(st.one_of(undirected_graphs(max_order=7), directed_graphs(max_order=6)))
    b = data.draw(boards(graph))
    empties = [v for v in graph.points if b[v] == "."]
    if not empties:
        b = b[:-1] + (".",)
        empties = [graph.order - 1]
    v = data.draw(st.sampled_from(empties))
    p = data.draw(st.sampled_from(("B", "W")))
    f = sat.Formula()
    board = sat.symbolic_board(f, graph.order)
    x = sat.played_point(f, graph.order)
    player = sat.Player(f.var())
    steps = sat.move(f, sat.fixed_adjacency(graph), board, x, player, encoding)
    units = pinned(f, board, b) + [x[v], player.black if p == "B" else -player.black]
    values = forced(f, units, steps.result.black + steps.result.white)
    n = graph.order
    got = tuple("B" if values[u] else "W" if values[n + u] else "." for u in range(n))
    assert got == tt.move(graph, tt.State(b, p, 0), v).board


@pytest.mark.parametrize("encoding", sat.ENCODINGS)
@pytest.mark.parametrize("name", ["grid:2x3", "cycle:6", "digraph:0>1,1>2,2>0,2>3"])
@settings(max_examples=20)
@given(data=st.data())
def test_score_and_well_formedness_equal_the_spec(name, encoding, data):
    graph = parse_graph(name)
    b = data.draw(boards(graph))
    f = sat.Formula()
    board = sat.symbolic_board(f, graph.order)
    adjacency = sat.fixed_adjacency(graph)
    black = sat.counted(f, adjacency, board, "B", encoding)
    white = sat.counted(f, adjacency, board, "W", encoding)
    formed = sat.well_formed(f, adjacency, board, encoding)
    values = forced(f, pinned(f, board, b), black + white + (formed,))
    n = graph.order
    assert sum(values[:n]) == tt.score(graph, b, "B")
    assert sum(values[n : 2 * n]) == tt.score(graph, b, "W")
    assert values[-1] == all(tt.reaches(graph, b, v, ".") for v in graph.points)


@given(data=st.data())
def test_literal_reading_equals_the_errata(data):
    graph = data.draw(undirected_graphs(min_order=2, max_order=6))
    b = data.draw(boards(graph))
    f = sat.Formula()
    board = sat.symbolic_board(f, graph.order)
    R = sat.reaching(f, sat.fixed_adjacency(graph), board, ".", "unary", written=True)
    values = forced(f, pinned(f, board, b), R)
    assert values == [errata.reaches_as_written(graph, b, v, ".") for v in graph.points]


def test_symbolic_adjacency_equals_the_chosen_graph():
    graph = make_graph(5, [(0, 1), (1, 2), (3, 4)], "three-two")
    b = ("B", "B", ".", "W", "W")
    f = sat.Formula()
    adjacency, arcs = sat.symbolic_adjacency(f, 5)
    board = sat.symbolic_board(f, 5)
    R = sat.reaching(f, adjacency, board, ".", "unary")
    chosen = {frozenset(e) for e in graph.edges()}
    units = pinned(f, board, b) + [l if frozenset(pair) in chosen else -l for pair, l in arcs.items()]
    assert forced(f, units, R) == [tt.reaches(graph, b, v, ".") for v in graph.points]


def test_each_half_alone_is_not_exact_but_admits_the_truth():
    """The closed half alone lets R grow (a chain with no liberty may be in R); the supported
    half alone lets it shrink; both admit the spec's R, which is why they are relaxations."""
    graph = parse_graph("path:3")
    b = ("B", "W", "W")  # Black's stone has no liberty, nor does White's chain
    truth = [tt.reaches(graph, b, v, ".") for v in graph.points]
    assert truth == [False, False, False]
    for side, _extreme in (("closed", True), ("supported", False)):
        f = sat.Formula()
        board = sat.symbolic_board(f, 3)
        R = sat.reaching(f, sat.fixed_adjacency(graph), board, ".", "unary", side=side)
        units = pinned(f, board, b)
        assert sat.solve(f, units + [l if t else -l for l, t in zip(R, truth)]) is not None
        if side == "closed":
            assert sat.solve(f, units + list(R)) is not None
    b = ("B", ".", "W")  # both stones have a liberty
    f = sat.Formula()
    board = sat.symbolic_board(f, 3)
    R = sat.reaching(f, sat.fixed_adjacency(graph), board, ".", "unary", side="supported")
    assert sat.solve(f, pinned(f, board, b) + [-R[0]]) is not None


@pytest.mark.parametrize("mutant", list(sat.MUTANTS))
def test_every_mutant_changes_some_move(mutant):
    """Each mutant's move differs from the spec's on some board of a 2x3 grid (found by SAT,
    confirmed on the spec)."""
    graph = parse_graph("grid:2x3")
    f = sat.Formula()
    adjacency = sat.fixed_adjacency(graph)
    board = sat.symbolic_board(f, graph.order)
    x = sat.played_point(f, graph.order)
    player = sat.Player(f.var())
    real = sat.move(f, adjacency, board, x, player, "unary")
    broken = sat.move(f, adjacency, board, x, player, "unary", mutant=mutant)
    empty_there = f.disj([f.conj([x[u], sat.empty(f, board, u)]) for u in graph.points])
    model = sat.solve(f, [empty_there, sat.boards_differ(f, real.result, broken.result)])
    assert model is not None
    b = sat.board_value(model, board)
    v = next(u for u in graph.points if sat.value(model, x[u]))
    p = "B" if sat.value(model, player.black) else "W"
    assert tt.move(graph, tt.State(b, p, 0), v).board == sat.board_value(model, real.result)
    assert sat.board_value(model, broken.result) != sat.board_value(model, real.result)
