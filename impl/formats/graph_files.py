"""Graphs read from files: edge list, adjacency list, GraphML, GML and JSON node-link.

The format is told by the file's suffix (``FORMATS``).  GraphML, GML and JSON node-link say
themselves whether a graph is directed (``edgedefault="directed"``, ``directed 1``,
``"directed": true``); an edge list or adjacency list is undirected unless its first line is
the comment ``# directed``.  A point with no edge is kept: a node of GraphML, GML or JSON, a
line of one name in an edge list or an adjacency list.  Points are numbered 0, 1, ... in the
natural order of their names, the runs of digits read as numbers: ``10`` comes after ``2``,
``n10`` after ``n2``.

A file that cannot be read, or that names more points or arcs than any graph may have, is a
GraphError naming the file and the problem.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx

from gorules.spec.graph import MAX_ARCS, MAX_POINTS, Graph, GraphError, from_networkx, parse_graph

FORMATS = {
    ".edgelist": "edge list",
    ".edges": "edge list",
    ".txt": "edge list",
    ".adjlist": "adjacency list",
    ".adj": "adjacency list",
    ".graphml": "GraphML",
    ".gml": "GML",
    ".json": "JSON node-link",
}
"""The graph file formats, by suffix."""
MAX_BYTES = 50_000_000
"""The largest graph file read: more than the largest graph allowed needs."""
DIRECTED_MARK = "# directed"


def is_graph_file(text: str) -> bool:
    """Whether a graph argument names a file to read: an existing file whose suffix is known."""
    path = Path(text)
    return path.suffix.lower() in FORMATS and path.is_file()


def graph_argument(value) -> Graph:
    """The graph an argument names: the graph of a graph file, else what ``parse_graph``
    reads (a name, a Graph, a networkx graph)."""
    if isinstance(value, str) and is_graph_file(value):
        return read_graph_file(value)
    return parse_graph(value)


def read_graph_file(text: str) -> Graph:
    """The graph in the file ``text`` names, named by that text."""
    path = Path(text)
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise GraphError(f"{text}: unknown graph file suffix; expected one of {', '.join(FORMATS)}")
    if path.stat().st_size > MAX_BYTES:
        raise GraphError(f"{text}: a graph file of more than {MAX_BYTES:,} bytes is refused")
    try:
        graph = _readers[kind](path)
    except (nx.NetworkXError, ValueError, KeyError, TypeError, SyntaxError) as error:
        raise GraphError(f"{text}: not a readable {kind} file: {error}") from None
    return _checked(graph, text)


def _checked(graph: nx.Graph, text: str) -> Graph:
    """The project's Graph of a networkx graph read from ``text``, within the size limits."""
    if graph.number_of_nodes() > MAX_POINTS or graph.number_of_edges() > MAX_ARCS:
        raise GraphError(
            f"{text}: {graph.number_of_nodes():,} points and {graph.number_of_edges():,} arcs; "
            f"graphs have at most {MAX_POINTS:,} points and {MAX_ARCS:,} arcs"
        )
    if graph.number_of_nodes() == 0:
        raise GraphError(f"{text}: the file holds no point")
    return from_networkx(_numbered(graph), name=text)


def _numbered(graph: nx.Graph) -> nx.Graph:
    """The graph with its points numbered 0, 1, ... in the natural order of their names:
    whole numbers by value, and the runs of digits inside names by value too (``n2``
    before ``n10``)."""
    order = sorted(graph.nodes, key=lambda name: _natural_key(str(name)))
    return nx.relabel_nodes(graph, {name: i for i, name in enumerate(order)})


def _natural_key(name: str) -> list:
    """A sort key reading each run of digits of a name as a number."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name.strip())]


def _lines(path: Path) -> tuple[list[str], bool]:
    """The lines of a text format without comments and blanks, and whether it is directed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    directed = bool(lines) and lines[0].strip().lower() == DIRECTED_MARK
    kept = [line.split("#", 1)[0].strip() for line in lines]
    return [line for line in kept if line], directed


def _edge_list(path: Path) -> nx.Graph:
    """An edge list: ``a b`` per line (more fields are ignored), ``a`` alone for a lone point."""
    lines, directed = _lines(path)
    graph: nx.Graph = nx.DiGraph() if directed else nx.Graph()
    for line in lines:
        fields = line.split()
        if len(fields) == 1:
            graph.add_node(fields[0])
        else:
            graph.add_edge(fields[0], fields[1])
    return graph


def _adjacency_list(path: Path) -> nx.Graph:
    """An adjacency list: a point, then the points it is joined to (its out-neighbours)."""
    lines, directed = _lines(path)
    graph: nx.Graph = nx.DiGraph() if directed else nx.Graph()
    for line in lines:
        point, *neighbours = line.split()
        graph.add_node(point)
        graph.add_edges_from((point, other) for other in neighbours)
    return graph


def _graphml(path: Path) -> nx.Graph:
    """A GraphML file, directed as its ``edgedefault`` says."""
    return nx.read_graphml(path)


def _gml(path: Path) -> nx.Graph:
    """A GML file, directed as its ``directed`` key says; nodes named by their labels."""
    return nx.read_gml(path)


def _node_link(path: Path) -> nx.Graph:
    """A JSON node-link document (networkx's ``node_link_data``), directed as it says."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "nodes" not in data:
        raise ValueError("expected a JSON object with 'nodes' and 'links' (or 'edges')")
    edges = "links" if "links" in data else "edges"
    try:
        return nx.node_link_graph(data, edges=edges)
    except TypeError:  # networkx before 3.4 calls the key ``link``
        return nx.node_link_graph(data, link=edges)


_readers = {
    "edge list": _edge_list,
    "adjacency list": _adjacency_list,
    "GraphML": _graphml,
    "GML": _gml,
    "JSON node-link": _node_link,
}
