"""Games under every preset and game graphs: the published figures, the searches' games
against the spec's own definition of a game and the generic enumeration through the
ruleset interface, the refusals of simple ko and no ko, and the longest game in both
conventions."""

from __future__ import annotations

import functools
import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.impl.counting.game_graph import edge_conventions, game_graph
from gorules.impl.counting.games import count_games, longest_game
from gorules.impl.counting.longest import CONVENTIONS, longest
from gorules.impl.counting.repeating import InfiniteGames
from gorules.impl.counting.situational import SituationalSearch, count_situational, count_situational_compiled
from gorules.impl.solving.search import count_games as generic_count_games
from gorules.spec import tromp_taylor as spec
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PASS


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


# --------------------------------------------------------------------------- every preset

POSITIONAL_AND_SITUATIONAL = [
    ("tromp-taylor", {}),
    ("no-suicide", {}),
    ("situational", {}),
    ("situational", {"suicide": "forbidden"}),
]
SMALL_GRAPHS = ["grid:1x1", "grid:1x2", "grid:1x3", "cycle:3", "edges:0-1,2-3"]


def tt_options(preset: str, changes: dict | None = None):
    """The Tromp–Taylor options of a preset with some options changed."""
    return rulesets.make("tromp-taylor", preset, changes or {}).options


@pytest.mark.parametrize(
    "preset,changes,name",
    [
        (preset, changes, name)
        for preset, changes in POSITIONAL_AND_SITUATIONAL
        for name in SMALL_GRAPHS
        # two pairs with suicide allowed have 2·10^8 games: too many for the plain enumeration
        if name != "edges:0-1,2-3" or tt_options(preset, changes).suicide == "forbidden"
    ],
)
def test_counts_equal_the_generic_enumeration_through_the_interface(preset, changes, name):
    """The game searches against `search.count_games`, which walks the ruleset interface."""
    ruleset = rulesets.make("tromp-taylor", preset, changes)
    graph = parse_graph(name)
    expected = generic_count_games(ruleset.initial(graph))
    assert count_games(graph, compiled=False, options=ruleset.options).games == expected
    if ruleset.options.ko == "positional":
        assert count_games(graph, compiled=True, options=ruleset.options).games == expected


def test_suicide_option_changes_the_count_where_a_multi_stone_suicide_is_new():
    """On two disjoint pairs a multi-stone suicide can lead to a board not seen before: the
    counts part (and the search that ignored the option would be refuted by the test above)."""
    graph = parse_graph("edges:0-1,2-3")
    allowed = count_games(graph, options=tt_options("tromp-taylor")).games
    forbidden = count_games(graph, options=tt_options("no-suicide")).games
    assert (allowed, forbidden) == (222_444_529, 465)


@pytest.mark.slow
def test_published_one_by_four_without_suicide():
    """Tromp & Farnebäck's 1×4 figure with suicide forbidden (positional superko)."""
    found = count_games(parse_graph("grid:1x4"), options=tt_options("no-suicide"))
    assert found.games == 719_178_893


def test_situational_mutant_without_move_multiplicity_is_refuted():
    """Single-stone suicides at different points lead to the same situation but are
    different games: a search that merges them undercounts, and the interface says so."""
    graph = parse_graph("grid:1x3")
    ruleset = rulesets.make("tromp-taylor", "situational")
    search = SituationalSearch(graph, "allowed", symmetric=True)
    search.moves = [[(target, 1) for target, _ in moves] for moves in search.moves]
    assert search.run().games != generic_count_games(ruleset.initial(graph)) == 19207


def test_situational_symmetry_reduction_keeps_the_count():
    graph = parse_graph("cycle:3")
    reduced = count_situational(graph, "allowed", symmetric=True)
    plain = count_situational(graph, "allowed", symmetric=False)
    assert reduced.games == plain.games == 13519
    assert reduced.keys < plain.keys


def plain_games(ruleset, graph, depth: int = 60) -> int:
    """Games by a plain recursion through the interface, no memo; fails if a line of
    play is longer than ``depth`` (only for rulesets whose games are all short)."""

    def games(state, left: int) -> int:
        assert left > 0, "a line of play longer than the depth"
        if ruleset.is_over(graph, state):
            return 1
        return sum(games(ruleset.apply(graph, state, m), left - 1) for m in ruleset.moves(graph, state))

    return games(ruleset.start(graph), depth)


REPEATING = [("simple", "allowed"), ("simple", "forbidden"), ("none", "allowed"), ("none", "forbidden")]


@pytest.mark.parametrize("ko,suicide", REPEATING)
@pytest.mark.parametrize("name", ["grid:1x1", "grid:1x2", "grid:1x3", "grid:2x2"])
def test_simple_ko_and_no_ko_count_or_show_a_repeating_line(ko, suicide, name):
    """Either the games are counted (then a plain recursion through the interface agrees),
    or the refusal's line of play, replayed by the ruleset, comes back to the state where
    its loop began (board, player, passes, and under simple ko the board before)."""
    ruleset = rulesets.make("tromp-taylor", None, {"ko": ko, "suicide": suicide})
    graph = parse_graph(name)
    try:
        found = count_games(graph, options=ruleset.options)
    except InfiniteGames as infinite:
        assert "infinitely many" in str(infinite) and "\n" not in str(infinite)
        state = ruleset.start(graph)
        for move in infinite.prefix:
            state = ruleset.apply(graph, state, PASS if move == "pass" else move)
        before = ruleset.key(state)
        for move in infinite.loop:
            state = ruleset.apply(graph, state, PASS if move == "pass" else move)
        assert infinite.loop and ruleset.key(state) == before and not ruleset.is_over(graph, state)
        return
    assert found.games == plain_games(ruleset, graph)


def test_which_small_boards_have_finitely_many_games_under_simple_ko():
    """Finite: one point (both suicide options) and 1×2 with suicide forbidden; a repeating
    line everywhere else among these."""
    finite = {}
    for name in ("grid:1x1", "grid:1x2", "grid:1x3"):
        for suicide in ("allowed", "forbidden"):
            try:
                finite[name, suicide] = count_games(
                    parse_graph(name), options=tt_options("tromp-taylor", {"ko": "simple", "suicide": suicide})
                ).games
            except InfiniteGames:
                pass
    assert finite == {("grid:1x1", "allowed"): 2, ("grid:1x1", "forbidden"): 1, ("grid:1x2", "forbidden"): 9}


# --------------------------------------------------------------------------- longest game conventions


@pytest.mark.parametrize("name", ["grid:1x2", "grid:1x3"])
def test_gogamegraphs_length_is_the_most_stone_moves_of_a_spec_game(name):
    """GoGameGraphs' longest path counts stone moves: the most non-pass moves of any game
    of the spec, and the game found is a spec game with that many."""
    graph = parse_graph(name)
    found = longest(graph, "gogamegraphs")
    assert spec.game(graph, found.moves) is not None
    assert found.length == found.stone_moves == max(sum(1 for m in g if m != spec.PASS) for g in spec_games_of(name))


def test_gogamegraphs_published_longest_paths():
    """Farnebäck's GoGameGraphs README: longest simple path from the empty position, in
    edges: path of 2 nodes 2, path of 3 nodes 14, triangle 18."""
    found = {n: longest(parse_graph(n), "gogamegraphs").length for n in ("grid:1x2", "grid:1x3", "cycle:3")}
    assert found == {"grid:1x2": 2, "grid:1x3": 14, "cycle:3": 18}


@pytest.mark.slow
def test_gogamegraphs_published_longest_paths_on_four_points():
    """GoGameGraphs: star of 3 edges 32, path of 4 nodes 40; and 61 turns on 1×4."""
    assert longest(parse_graph("star:3"), "gogamegraphs").length == 32
    assert longest(parse_graph("grid:1x4"), "gogamegraphs").length == 40
    assert longest(parse_graph("grid:1x4"), "turns").length == 61


@pytest.mark.parametrize("convention", CONVENTIONS)
@pytest.mark.parametrize("name", ["grid:1x2", "grid:1x3", "cycle:3"])
def test_longest_compiled_plain_and_unreduced_agree(convention, name):
    graph = parse_graph(name)
    lengths = {
        longest(graph, convention, compiled=True).length,
        longest(graph, convention, compiled=False).length,
        longest(graph, convention, compiled=False, symmetric=False).length,
    }
    assert len(lengths) == 1


def test_longest_without_suicide_is_a_game_without_suicide():
    graph = parse_graph("cycle:3")
    found = longest(graph, "turns", suicide="forbidden")
    ruleset = rulesets.make("tromp-taylor", "no-suicide")
    state = ruleset.start(graph)
    for move in found.moves:
        state = ruleset.apply(graph, state, PASS if move == "pass" else move)
    assert ruleset.is_over(graph, state) and found.length == len(found.moves)


def test_cli_games_under_presets_and_refusals():
    code, out, _ = run_cli("count", "grid:1x3", "--games", "--preset", "situational", "--json")
    assert code == 0 and json.loads(out)["games"] == 19207
    code, out, err = run_cli("count", "grid:1x3", "--games", "--option", "ko=simple")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "infinitely many" in err
    code, out, err = run_cli("count", "grid:2x2", "--games")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--max-positions 57" in err
    code, out, err = run_cli("count", "grid:2x2", "--games", "--max-positions", "100")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "57" in err


def test_cli_longest_in_the_gogamegraphs_convention():
    code, out, _ = run_cli("count", "grid:1x3", "--longest", "--convention", "gogamegraphs", "--json")
    found = json.loads(out)["longest_game"]
    assert code == 0 and found["length"] == found["stone_moves"] == 14 and found["convention"] == "gogamegraphs"


@pytest.mark.slow
def test_cli_longest_runs_on_one_by_four():
    code, out, _ = run_cli("count", "grid:1x4", "--longest", "--json")
    assert code == 0 and json.loads(out)["longest_game"]["turns"] == 61


@pytest.mark.slow
def test_compiled_situational_search_agrees_with_the_plain_one():
    """Both searches, both suicide options, with and without the symmetry reduction; and
    the 1×4 count with suicide forbidden that both gave when first run (plain: 183 s)."""
    for name in ("grid:1x2", "grid:1x3", "cycle:3"):
        for suicide in ("allowed", "forbidden"):
            for symmetric in (True, False):
                graph = parse_graph(name)
                compiled = count_situational_compiled(graph, suicide, symmetric)
                assert compiled.games == count_situational(graph, suicide, symmetric).games
    assert count_situational_compiled(parse_graph("grid:1x4"), "forbidden").games == 1_359_471_437
