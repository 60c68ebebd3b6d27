"""The Z3 encoding against the executable spec: the same answers on concrete boards, and
the published counts of well-formed boards by model enumeration."""

from __future__ import annotations

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import gorules.spec.tromp_taylor as tt
from gorules.proofs import encoding as E
from gorules.proofs.graphs import SymbolicGraph
from gorules.spec.graph import parse_graph

GRAPHS = ["grid:3x3", "cycle:5", "petersen", "path:4", "digraph:0>1,1>2,2>0,2>3,3>4"]


def pinned(enc, board: str):
    """A symbolic board constrained to equal the concrete one (as the proofs use boards)."""
    b = E.symbolic_board(enc, "b")
    enc.side.extend(x == E.COLOUR[c] for x, c in zip(b, board))
    return b


def only_value(enc, terms, extra=()) -> list:
    """The values of the terms in the unique model; fails if the side constraints allow two."""
    s = E.solver(enc)
    s.add(*extra)
    assert s.check() == z3.sat
    model = s.model()
    values = [model.eval(t, model_completion=True) for t in terms]
    s.add(z3.Or([t != v for t, v in zip(terms, values)]))
    assert s.check() == z3.unsat, "the encoding leaves these terms undetermined"
    return values


# One example checks every function on one board, so fewer examples than the profile's.
EXAMPLES = settings(max_examples=max(10, settings().max_examples // 3))


def pinned_family(graph):
    """The symbolic graph on as many points, with its arcs constrained to be the graph's."""
    family = SymbolicGraph(graph.order, directed=graph.directed)
    return family, [
        family.adjacent[v][w] == (w in graph.neighbours[v]) for v in graph.points for w in graph.points if v != w
    ]


@pytest.mark.parametrize("symbolic", [False, True], ids=["fixed-graph", "symbolic-graph"])
@pytest.mark.parametrize(
    "encoding", [pytest.param(e, marks=pytest.mark.slow) if e == "layered" else e for e in E.SOUND_ENCODINGS]
)
@EXAMPLES
@given(data=st.data())
def test_encoding_matches_spec(encoding, symbolic, data):
    name = data.draw(st.sampled_from(GRAPHS if not symbolic else GRAPHS[1:]))
    graph = parse_graph(name)
    board = tuple(data.draw(st.lists(st.sampled_from("BW."), min_size=graph.order, max_size=graph.order)))
    player = data.draw(st.sampled_from("BW"))
    point = data.draw(st.integers(0, graph.order - 1))
    if symbolic:
        family, arcs = pinned_family(graph)
        enc = E.Encoding(family, encoding)
        enc.side.extend(arcs)
    else:
        enc = E.Encoding(graph, encoding)
    b = pinned(enc, "".join(board))
    p = z3.IntVal(E.COLOUR[player])
    reaching = [x for c in "BW." for x in E.reaching(enc, b, E.COLOUR[c])]
    cleared = E.clear(enc, b, p)
    after, defined = E.move(enc, E.State(b, p, 0), point)
    scores = [E.score(enc, b, E.COLOUR[q]) for q in "BW"]
    values = only_value(enc, reaching + list(cleared) + list(after.board) + [defined] + scores)
    n = graph.order

    def colours(start):
        return "".join(E.NAME[v.as_long()] for v in values[start : start + n])

    expected_reaching = [tt.reaches(graph, board, v, c) for c in "BW." for v in graph.points]
    assert [z3.is_true(x) for x in values[: 3 * n]] == expected_reaching
    assert colours(3 * n) == "".join(tt.clear(graph, board, player))
    expected = tt.move(graph, tt.State(board, player, 0), point)
    assert z3.is_true(values[5 * n]) == (expected is not None)
    if expected is not None:
        assert colours(4 * n) == "".join(expected.board)
    assert [v.as_long() for v in values[5 * n + 1 :]] == [tt.score(graph, board, q) for q in "BW"]


def test_symbolic_point_and_pass_match_spec():
    graph = parse_graph("grid:2x3")
    board = "BW.W.B"
    for move in [tt.PASS, *graph.points]:
        enc = E.Encoding(graph, "ranked")
        b = pinned(enc, board)
        v = E.symbolic_point(enc, "v", allow_pass=True)
        after, defined = E.move(enc, E.State(b, z3.IntVal(E.BLACK), z3.IntVal(1)), v)
        index = E.PASS if move == tt.PASS else move
        values = only_value(enc, list(after.board) + [after.passes, defined], [v == index])
        expected = tt.move(graph, tt.State(tuple(board), "B", 1), move)
        assert z3.is_true(values[-1]) == (expected is not None)
        if expected is not None:
            assert "".join(E.NAME[x.as_long()] for x in values[:6]) == "".join(expected.board)
            assert values[6].as_long() == expected.passes


def count_well_formed(name: str, encoding: str) -> tuple[int, int]:
    """(well-formed, ill-formed) boards of a graph, by model enumeration."""
    graph = parse_graph(name)
    enc = E.Encoding(graph, encoding)
    b = E.symbolic_board(enc, "b")
    good = E.count_boards(enc, b, E.well_formed(enc, b))
    enc = E.Encoding(graph, encoding)
    b = E.symbolic_board(enc, "b")
    bad = E.count_boards(enc, b, z3.Not(E.well_formed(enc, b)))
    return good, bad


@pytest.mark.parametrize("encoding", E.SOUND_ENCODINGS)
def test_counts_2x2(encoding):
    # 57 legal positions of 2×2 (Tromp; figures.md), and the rest of 3⁴ ill-formed.
    assert count_well_formed("grid:2x2", encoding) == (57, 3**4 - 57)


def boards_where(name: str, encoding: str, well: bool) -> int:
    """The number of boards of a graph that are (or are not) well-formed, by model enumeration."""
    graph = parse_graph(name)
    enc = E.Encoding(graph, encoding)
    b = E.symbolic_board(enc, "b")
    claim = E.well_formed(enc, b)
    return E.count_boards(enc, b, claim if well else z3.Not(claim))


# The two 3×3 counts are separate tests so that they run side by side.
@pytest.mark.slow
def test_count_3x3_well_formed():
    # 12,675 legal positions of 3×3 (Tromp, OEIS A094777).
    assert boards_where("grid:3x3", "ranked", True) == 12675


@pytest.mark.slow
def test_count_3x3_ill_formed():
    # Every other board of 3^9 is ill-formed: 7,008 of them.
    assert boards_where("grid:3x3", "ranked", False) == 3**9 - 12675


def test_naive_fixed_point_overcounts():
    # "R(v) ⇔ base ∨ step" lets liberty-less chains hold each other up.
    good, bad = count_well_formed("grid:2x2", "naive")
    assert good > 57
    assert bad == 3**4 - 57


def test_reaches_as_written_never_reaches_empty_from_a_stone():
    graph = parse_graph("grid:2x2")
    enc = E.Encoding(graph, "ranked")
    b = E.symbolic_board(enc, "b")
    stone_reaches = z3.Or([z3.And(b[v] != E.EMPTY, E.reaches(enc, b, v, E.EMPTY, written=True)) for v in graph.points])
    assert E.search(enc, stone_reaches)[0] == "unsat"


def test_symbolic_graph_reads_back_a_graph():
    family = SymbolicGraph(4)
    enc = E.Encoding(family, "ranked")
    b = E.symbolic_board(enc, "b")
    # A black stone with no way to Empty, on some graph with at least one empty point.
    status, model = E.search(enc, b[0] == E.BLACK, b[3] == E.EMPTY, z3.Not(E.reaches(enc, b, 0, E.EMPTY)))
    assert status == "sat"
    graph = family.graph(model)
    board = tuple(E.board_value(model, b))
    assert not tt.reaches(graph, board, 0, tt.EMPTY)
    assert not graph.directed
    assert all(v in graph.neighbours[w] for v in graph.points for w in graph.neighbours[v])


def test_directed_family_is_not_symmetric():
    family = SymbolicGraph(3, directed=True)
    enc = E.Encoding(family, "layered")
    status, model = E.search(enc, family.adjacent[0][1], z3.Not(family.adjacent[1][0]))
    assert status == "sat"
    graph = family.graph(model)
    assert graph.directed and 1 in graph.neighbours[0] and 0 not in graph.neighbours[1]
    undirected = SymbolicGraph(3)
    enc = E.Encoding(undirected, "layered")
    assert E.search(enc, undirected.adjacent[0][1], z3.Not(undirected.adjacent[1][0]))[0] == "unsat"


def test_unknown_encoding_is_refused():
    with pytest.raises(ValueError, match="unknown encoding"):
        E.Encoding(parse_graph("path:2"), "nonsense")
