"""Pictures: SVG diagrams of grids and graphs, PNG by matplotlib, text diagrams."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET

import pytest

from gorules.errors import UsageError
from gorules.pictures import board_svg, save_picture
from gorules.spec.graph import parse_graph

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    """The SVG document as an element tree (fails the test if it is not well-formed XML)."""
    return ET.fromstring(svg)


def circles_of(root: ET.Element, cls: str) -> list[ET.Element]:
    """The circles of a given class (stone-B, stone-W, empty, mark)."""
    return [c for c in root.iter(f"{SVG}circle") if c.get("class") == cls]


def texts(root: ET.Element) -> list[str]:
    """Every text label of the drawing."""
    return [t.text for t in root.iter(f"{SVG}text")]


def test_a_grid_diagram_has_one_circle_per_stone_and_gtp_coordinates():
    g = parse_graph("grid:9x9")
    b = ["."] * 81
    b[0], b[40], b[80] = "B", "W", "B"
    root = parsed(board_svg(g, b, title="three stones"))
    assert len(circles_of(root, "stone-B")) == 2
    assert len(circles_of(root, "stone-W")) == 1
    labels = texts(root)
    assert "three stones" in labels
    assert "J" in labels and "I" not in labels
    assert labels.count("9") == 2 and labels.count("1") == 2
    assert len(root.findall(f"{SVG}line")) == len(g.edges())


def test_a_grid_stone_sits_at_its_coordinates():
    g = parse_graph("grid:3x3")
    root = parsed(board_svg(g, "B........"))
    (black,) = circles_of(root, "stone-B")
    (white,) = circles_of(parsed(board_svg(g, "........W")), "stone-W")
    # A3 is the top-left point, C1 the bottom-right one.
    assert float(black.get("cx")) < float(white.get("cx"))
    assert float(black.get("cy")) < float(white.get("cy"))


def test_a_graph_drawing_numbers_every_point_and_shows_stones():
    g = parse_graph("petersen")
    root = parsed(board_svg(g, "BW........", marks=[0]))
    assert sorted(int(t) for t in texts(root)) == list(range(10))
    assert len(circles_of(root, "stone-B")) == 1
    assert len(circles_of(root, "stone-W")) == 1
    assert len(circles_of(root, "empty")) == 8
    assert len(circles_of(root, "mark")) == 1


def test_a_digraph_is_drawn_with_arrows():
    g = parse_graph("digraph:0>1,1>2,2>0")
    svg = board_svg(g, "B.W")
    root = parsed(svg)
    assert root.find(f"{SVG}defs/{SVG}marker") is not None
    assert sum(1 for line in root.iter(f"{SVG}line") if line.get("marker-end")) == 3
    undirected = parsed(board_svg(parse_graph("cycle:3"), "B.W"))
    assert not any(line.get("marker-end") for line in undirected.iter(f"{SVG}line"))


def test_drawings_are_deterministic():
    g = parse_graph("atlas:100")
    b = "B.W" + "." * (g.order - 3)
    assert board_svg(g, b) == board_svg(g, b)


def test_save_picture_writes_svg_and_png(tmp_path):
    g = parse_graph("grid:5x5")
    b = "B" + "." * 23 + "W"
    svg = save_picture(g, b, tmp_path / "board.svg", title="5x5")
    assert parsed(svg.read_text()).tag == f"{SVG}svg"
    png = save_picture(g, b, tmp_path / "sub" / "board.png", title="5x5")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 100 and height > 100
    png2 = save_picture(parse_graph("digraph:0>1,1>2"), "B.W", tmp_path / "d.png")
    assert png2.read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["board.png", "board.svg", "d.png", "sub"]


def test_bad_input_raises_and_leaves_no_file(tmp_path):
    g = parse_graph("grid:2x2")
    with pytest.raises(UsageError, match=r"svg or \.png"):
        save_picture(g, "....", tmp_path / "board.gif")
    with pytest.raises(UsageError, match="has 4 points"):
        save_picture(g, "...", tmp_path / "board.svg")
    with pytest.raises(UsageError, match="'X'"):
        save_picture(g, "X...", tmp_path / "board.png")
    assert list(tmp_path.iterdir()) == []


def test_board_diagram_draws_grids_with_coordinates_and_graphs_as_adjacency():
    from gorules.spec.text import board_diagram

    text = board_diagram(parse_graph("grid:2x3"), "B.W..B")
    assert text.splitlines() == ["   A B C", " 2 X . O 2", " 1 . . X 1", "   A B C"]
    lines = board_diagram(parse_graph("digraph:0>1,1>0,1>2"), "BW.").splitlines()
    assert lines[0].split() == ["0", "X", ">", "1"]
    assert lines[1].split() == ["1", "O", ">", "0,2"]
    assert lines[2].split() == ["2", ".", ">", "none"]
