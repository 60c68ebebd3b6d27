"""Graphs: the descriptions parse_graph reads, point names, and the errors for bad input."""

from __future__ import annotations

import networkx as nx
import pytest

from gorules.spec.graph import (
    Graph,
    GraphError,
    from_networkx,
    gtp_name,
    parse_graph,
    parse_point,
    point_name,
    sgf_name,
)


def degrees(graph: Graph) -> list[int]:
    """The out-degree of every point."""
    return [len(graph.neighbours[v]) for v in graph.points]


def test_a_grid_has_rows_times_columns_points_and_the_usual_edges():
    g = parse_graph("grid:3x4")
    assert g.order == 12
    assert g.shape == (3, 4)
    assert len(g.edges()) == 3 * 3 + 2 * 4
    assert sorted(degrees(g)) == [2] * 4 + [3] * 6 + [4] * 2
    assert g.neighbours[0] == (1, 4)
    assert g.neighbours[5] == (1, 4, 6, 9)


def test_grid_accepts_a_times_sign_and_upper_case():
    assert parse_graph("grid:2×3").neighbours == parse_graph("GRID:2X3").neighbours


@pytest.mark.parametrize(
    "name, order, edges",
    [("path:5", 5, 4), ("cycle:6", 6, 6), ("complete:4", 4, 6), ("star:5", 6, 5), ("petersen", 10, 15)],
)
def test_named_families_have_their_sizes(name, order, edges):
    g = parse_graph(name)
    assert (g.order, len(g.edges())) == (order, edges)
    assert not g.directed
    assert all(v in g.neighbours[w] for v, w in g.edges())


def test_the_petersen_graph_is_cubic_with_girth_five():
    g = parse_graph("petersen")
    assert degrees(g) == [3] * 10
    nxg = nx.Graph(g.edges())
    assert nx.girth(nxg) == 5
    assert nx.is_isomorphic(nxg, nx.petersen_graph())


def test_atlas_graphs_match_networkx():
    for index in (1, 3, 7, 18, 52, 208):
        g = parse_graph(f"atlas:{index}")
        assert nx.is_isomorphic(nx.Graph(g.edges()) if g.edges() else nx.empty_graph(g.order), nx.graph_atlas(index))
        assert g.order == nx.graph_atlas(index).number_of_nodes()


def test_edges_and_digraphs():
    g = parse_graph("edges:0-1,1-2")
    assert g.neighbours == ((1,), (0, 2), (1,))
    d = parse_graph("digraph:0>1,1>2,2>0")
    assert d.directed
    assert d.neighbours == ((1,), (2,), (0,))
    assert d.edges() == [(0, 1), (1, 2), (2, 0)]


def test_networkx_graphs_are_accepted_and_renumbered():
    g = parse_graph(nx.Graph([("b", "c"), ("a", "b")]))
    assert g.neighbours == ((1,), (0, 2), (1,))
    d = from_networkx(nx.DiGraph([(2, 1)]))
    assert d.directed and d.neighbours == ((), (0,))


@pytest.mark.parametrize(
    "text, words",
    [
        ("grid:0x3", "positive"),
        ("grid:3", "grid:RxC"),
        ("grid:30x3", "at most 25"),
        ("cycle:2", "at least 3"),
        ("path:x", "positive integer"),
        ("atlas:5000", "0..1252"),
        ("edges:0-1,1+2", "not an arc"),
        ("digraph:0-1", "not an arc"),
        ("edges:0-0", "loop"),
        ("hexagon:4", "expected"),
    ],
)
def test_malformed_graphs_are_refused_with_a_reason(text, words):
    with pytest.raises(GraphError, match=words):
        parse_graph(text)


def test_grid_points_have_gtp_and_sgf_names():
    g = parse_graph("grid:9x9")
    assert gtp_name(g, 0) == "A9"
    assert gtp_name(g, 8) == "J9"  # no I
    assert gtp_name(g, 80) == "J1"
    assert sgf_name(g, 80) == "ii"
    assert point_name(g, 40) == "E5"
    assert point_name(parse_graph("petersen"), 7) == "7"


def test_parse_point_inverts_the_names():
    g = parse_graph("grid:5x7")
    for v in g.points:
        assert parse_point(g, gtp_name(g, v)) == v
        assert parse_point(g, sgf_name(g, v)) == v
        assert parse_point(g, str(v)) == v
    assert parse_point(g, "c3") == parse_point(g, "C3")


@pytest.mark.parametrize(
    "graph_name, name",
    [("grid:3x3", "D1"), ("grid:3x3", "A4"), ("grid:3x3", "I1"), ("petersen", "10"), ("petersen", "C3")],
)
def test_unknown_points_are_refused(graph_name, name):
    with pytest.raises(GraphError, match="unknown point"):
        parse_point(parse_graph(graph_name), name)


def test_graphs_are_values():
    assert parse_graph("grid:2x2") == parse_graph("grid:2x2")
    assert hash(parse_graph("cycle:5")) == hash(parse_graph("cycle:5"))
    assert parse_graph("grid:2x2") != parse_graph("cycle:4")
