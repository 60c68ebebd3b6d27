"""Graphs read from files: each format, a point without edges kept, direction as the format
says, and a file given wherever a command takes a graph."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from gorules.cli import main
from gorules.impl.formats.graph_files import is_graph_file, read_graph_file
from gorules.spec.graph import GraphError


def arcs(graph) -> set[tuple[int, int]]:
    """The graph's arcs as (point, neighbour) pairs."""
    return {(v, w) for v, around in enumerate(graph.neighbours) for w in around}


def test_edge_list_with_a_lone_point(tmp_path):
    path = tmp_path / "g.edgelist"
    path.write_text("0 1\n1 2  # a comment\n\n3\n")
    graph = read_graph_file(str(path))
    assert graph.order == 4 and not graph.directed
    assert arcs(graph) == {(0, 1), (1, 0), (1, 2), (2, 1)}
    assert graph.neighbours[3] == ()


def test_edge_list_marked_directed(tmp_path):
    path = tmp_path / "g.edges"
    path.write_text("# directed\n0 1\n1 2\n2 0\n")
    graph = read_graph_file(str(path))
    assert graph.directed
    assert arcs(graph) == {(0, 1), (1, 2), (2, 0)}


def test_adjacency_list_numbers_in_numeric_order(tmp_path):
    path = tmp_path / "g.adjlist"
    path.write_text("2 10\n10\n7\n")
    graph = read_graph_file(str(path))
    assert graph.order == 3  # 2, 7, 10 in that order: 10 comes after 2
    assert arcs(graph) == {(0, 2), (2, 0)}
    assert graph.neighbours[1] == ()


def test_adjacency_list_directed(tmp_path):
    path = tmp_path / "g.adj"
    path.write_text("# directed\n0 1 2\n1\n2 0\n")
    graph = read_graph_file(str(path))
    assert graph.directed and arcs(graph) == {(0, 1), (0, 2), (2, 0)}


def test_graphml_directed_with_a_lone_point(tmp_path):
    g = nx.DiGraph([(0, 1), (1, 2)])
    g.add_node(3)
    path = tmp_path / "g.graphml"
    nx.write_graphml(g, path)
    graph = read_graph_file(str(path))
    assert graph.directed and graph.order == 4
    assert arcs(graph) == {(0, 1), (1, 2)}


def test_gml_undirected(tmp_path):
    g = nx.cycle_graph(4)
    g.add_node(4)
    path = tmp_path / "g.gml"
    nx.write_gml(nx.relabel_nodes(g, str), path)
    graph = read_graph_file(str(path))
    assert not graph.directed and graph.order == 5
    assert arcs(graph) == arcs(read_graph_file_of_cycle(tmp_path))
    assert graph.neighbours[4] == ()


def read_graph_file_of_cycle(tmp_path):
    """The 4-cycle with a lone fifth point, as an edge list."""
    path = tmp_path / "c.edgelist"
    path.write_text("0 1\n1 2\n2 3\n3 0\n4\n")
    return read_graph_file(str(path))


@pytest.mark.parametrize("key", ["links", "edges"])
def test_json_node_link_directed(tmp_path, key):
    data = {
        "directed": True,
        "multigraph": False,
        "graph": {},
        "nodes": [{"id": 0}, {"id": 1}, {"id": 2}],
        key: [{"source": 0, "target": 1}],
    }
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    graph = read_graph_file(str(path))
    assert graph.directed and graph.order == 3 and arcs(graph) == {(0, 1)}


def test_unreadable_files_are_graph_errors(tmp_path):
    bad = tmp_path / "bad.graphml"
    bad.write_text("<graphml><oops")
    with pytest.raises(GraphError, match="not a readable GraphML file"):
        read_graph_file(str(bad))
    empty = tmp_path / "empty.edgelist"
    empty.write_text("# nothing\n")
    with pytest.raises(GraphError, match="no point"):
        read_graph_file(str(empty))
    notes = tmp_path / "notes.json"
    notes.write_text("[1, 2]")
    with pytest.raises(GraphError, match="JSON node-link"):
        read_graph_file(str(notes))


def test_only_existing_files_of_known_suffix_are_graph_files(tmp_path):
    path = tmp_path / "g.edgelist"
    assert not is_graph_file(str(path))
    path.write_text("0 1\n")
    assert is_graph_file(str(path))
    other = tmp_path / "g.csv"
    other.write_text("0 1\n")
    assert not is_graph_file(str(other))
    assert not is_graph_file("grid:2x2")


def test_commands_take_a_file(tmp_path, capsys):
    path = tmp_path / "square.edgelist"
    path.write_text("0 1\n1 2\n2 3\n3 0\n")
    assert main(["count", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["legal_positions"] == 57  # the 2x2 grid's count
    assert main(["replay", str(path), "--moves", "B 0, W 2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"] == "B.W."


def test_a_bad_file_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.gml"
    path.write_text("graph [ node [ id 0 ")
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a readable GML file" in err


def test_play_takes_a_file_in_either_form(tmp_path, capsys):
    path = tmp_path / "pair.edgelist"
    path.write_text("0 1\n2\n")
    for words in (["play", "tromp-taylor", str(path)], ["play", "--ruleset", "tromp-taylor", str(path)]):
        assert main([*words, "--moves", "0", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["board"] == ["B", ".", "."]


def test_names_with_numbers_in_them_keep_their_order(tmp_path):
    g = nx.path_graph([f"n{i}" for i in range(12)])
    path = tmp_path / "g.graphml"
    nx.write_graphml(g, path)
    graph = read_graph_file(str(path))
    assert arcs(graph) == {(i, i + 1) for i in range(11)} | {(i + 1, i) for i in range(11)}
