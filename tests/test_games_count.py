"""Games under positional superko and game graphs: the published figures, and the
search's games against the spec's own definition of a game."""

from __future__ import annotations

import functools
import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from gorules.cli import main
from gorules.impl.game_graph import edge_conventions, game_graph
from gorules.impl.games import count_games, longest_game
from gorules.spec import tromp_taylor as spec
from gorules.spec.graph import parse_graph


@functools.lru_cache(maxsize=None)
def spec_games_of(name: str) -> tuple:
    """The spec's games of a named graph, computed once."""
    return tuple(tuple(g) for g in spec_games(parse_graph(name)))


def spec_games(graph) -> list[list]:
    """Every game of a graph by the spec alone: grow move sequences one turn at a time,
    keeping a prefix while the spec's `game` accepts it completed by passes."""
    found = []
    choices = [spec.PASS, *graph.points]

    def is_prefix(moves) -> bool:
        """Whether some game starts with these moves (then at most two passes complete it)."""
        return any(spec.game(graph, moves + [spec.PASS] * k) is not None for k in range(3))

    def grow(moves):
        if spec.game(graph, moves) is not None:
            found.append(moves)
            return
        for v in choices:
            if is_prefix(moves + [v]):
                grow(moves + [v])

    grow([])
    return found


@pytest.mark.slow
def test_game_counts_equal_the_spec_game_definition():
    for name in ("grid:1x1", "grid:1x2", "grid:1x3", "digraph:0>1,1>2"):
        graph = parse_graph(name)
        assert count_games(graph).games == len(spec_games_of(name))
        assert count_games(graph, compiled=False).games == len(spec_games_of(name))


def test_published_game_counts():
    found = {name: count_games(parse_graph(name)).games for name in ("grid:1x1", "grid:1x2", "grid:1x3")}
    assert found == {"grid:1x1": 1, "grid:1x2": 9, "grid:1x3": 907}


def test_symmetric_graphs_give_the_same_count():
    assert count_games(parse_graph("cycle:3")).games == count_games(parse_graph("complete:3")).games


@pytest.mark.parametrize("name", ["grid:1x2", "grid:1x3"])
def test_longest_game_is_a_spec_game_of_the_reported_length(name):
    graph = parse_graph(name)
    moves = longest_game(graph)
    assert spec.game(graph, moves) is not None
    assert len(moves) == max(len(g) for g in spec_games_of(name))


def test_compiled_and_plain_searches_agree():
    for name in ("grid:1x2", "grid:1x3", "cycle:3"):
        graph = parse_graph(name)
        assert count_games(graph, compiled=True).games == count_games(graph, compiled=False).games


@pytest.mark.slow
def test_symmetry_reduction_keeps_the_count():
    graph = parse_graph("star:3")
    reduced = count_games(graph, compiled=True)
    plain = count_games(graph, compiled=True, symmetric=False)
    assert reduced.games == plain.games
    assert reduced.keys < plain.keys


def test_published_game_graphs():
    found = {name: game_graph(parse_graph(name)).summary() for name in ("grid:1x2", "grid:1x3", "grid:2x2")}
    assert found == {
        "grid:1x2": {"nodes": 5, "edges": 12},
        "grid:1x3": {"nodes": 15, "edges": 42},
        "grid:2x2": {"nodes": 57, "edges": 192},
    }


def test_only_the_directed_reading_of_distinct_moves_gives_the_figures():
    counts = edge_conventions(parse_graph("grid:1x3"))
    assert counts["directed"] == 42
    assert counts["with_loops"] != 42
    assert counts["without_multi_stone_suicide"] != 42
    assert edge_conventions(parse_graph("grid:1x2"))["undirected"] != 12


def test_game_graph_edges_are_spec_moves():
    graph = parse_graph("grid:1x3")
    boards = set()
    for b, w in game_graph(graph).nodes:
        boards.add(tuple("B" if b >> v & 1 else "W" if w >> v & 1 else "." for v in graph.points))
    assert len(boards) == 15
    spec_edges = set()
    for board in boards:
        for player in "BW":
            for v in graph.points:
                after = spec.move(graph, spec.State(board, player, 0), v)
                if after is not None and after.board != board:
                    spec_edges.add((board, after.board))
    assert len(spec_edges) == game_graph(graph).summary()["edges"]


def run_cli(*argv) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `gorules`."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_cli_counts_with_json():
    code, out, _ = run_cli("count", "grid:1x3", "--games", "--game-graph", "--longest", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["legal_positions"] == 15
    assert result["games"] == 907
    assert result["game_graph"] == {"nodes": 15, "edges": 42}
    assert result["longest_game"]["turns"] == 21


def test_cli_methods_agree():
    _, by_dp, _ = run_cli("count", "petersen", "--method", "dp", "--json")
    _, by_enumeration, _ = run_cli("count", "petersen", "--method", "enumerate", "--json")
    assert json.loads(by_dp)["legal_positions"] == json.loads(by_enumeration)["legal_positions"] == 46015


def test_cli_refuses_games_it_cannot_finish():
    code, out, err = run_cli("count", "grid:2x3", "--games")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "489" in err


def test_cli_rejects_a_bad_graph_in_one_line():
    code, _, err = run_cli("count", "grid:0x3")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_cli_family_gives_the_recurrence():
    code, out, _ = run_cli("count", "grid:1xn", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["recurrence"] == [3, -1, 1]
    assert result["terms"][:4] == [1, 5, 15, 41]
