"""The exact solver: published values, plain minimax over the spec's games, the engine's
Game under every ko rule, and the soundness of the history-aware transposition table."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import gorules.spec.tromp_taylor as tt
from gorules.impl.differential.oracle import legal_reason
from gorules.impl.engine.options import Options
from gorules.impl.engine.rules import Game
from gorules.impl.solving.solve import PASS, SolveError, Solver, solve
from gorules.spec.graph import parse_graph

# ---------------------------------------------------------------- references


def spec_minimax(graph):
    """(value, number of games) by plain minimax over every game of the spec's ``game``:
    the tree of all move sequences, each leaf checked to be a game and scored by ``score``."""
    count = 0

    def value(moves, states):
        nonlocal count
        s = states[-1]
        if s.passes == 2:
            assert tt.game(graph, moves) is not None
            count += 1
            return tt.score(graph, s.board, tt.BLACK) - tt.score(graph, s.board, tt.WHITE)
        results = []
        for v in [tt.PASS, *graph.points]:
            nxt, _ = legal_reason(tt, graph, states, v)  # the game's rules 3.1-3.3 on the spec's move
            if nxt is not None:
                results.append(value(moves + [v], states + [nxt]))
        return max(results) if s.player == tt.BLACK else min(results)

    v = value([], [tt.initial_state(graph)])
    return v, count


def game_minimax(graph, options, game=None, seen=None):
    """The value by alpha-beta-free minimax over the engine's Game; a whole state that
    repeats in the line ends it with equal areas (the solver's convention for the
    ko rules under which play can cycle)."""
    game = game or Game(graph, options)
    seen = seen if seen is not None else set()
    if game.over:
        s = game.score()
        return s.black - s.white
    key = (game.bits, game.to_move, game.passes, game._undo[-1][:2] if game._undo else None)
    cycles = game.options.ko in ("simple", "none")
    if cycles:
        if key in seen:
            return 0
        seen.add(key)
    values = []
    for v in game.legal_moves():
        game.play(v)
        values.append(game_minimax(graph, options, game, seen))
        game.undo()
    if cycles:
        seen.discard(key)
    return max(values) if game.to_move == "B" else min(values)


# ---------------------------------------------------------------- published figures


def test_two_by_two_is_a_black_win_by_one():
    """figures.md, Tromp's 2×2 solver: area scoring, positional superko, suicide allowed, no komi."""
    graph = parse_graph("grid:2x2")
    solution = solve(graph)
    assert solution.value == 1
    states = tt.game(graph, solution.principal_variation)
    assert states is not None, "the principal variation is a game of the spec"
    final = states[-1].board
    assert tt.score(graph, final, "B") - tt.score(graph, final, "W") == 1


def test_spec_minimax_counts_the_published_games():
    """The reference minimax walks every game: 1, 9 and 907 games on 1×1, 1×2, 1×3 (figures.md)."""
    counts = [spec_minimax(parse_graph(f"path:{n}"))[1] for n in (1, 2, 3)]
    assert counts == [1, 9, 907]


@pytest.mark.parametrize("name", ["path:1", "path:2", "path:3", "cycle:3", "star:2"])
def test_solver_equals_plain_minimax_over_the_spec(name):
    graph = parse_graph(name)
    value, _ = spec_minimax(graph)
    assert solve(graph).value == value
    assert solve(graph, transpositions=False).value == value


RULESETS = [
    "tromp-taylor",
    "situational",
    "no-suicide",
    "stone",
    Options("simple", "allowed", "area", 0, name="simple-ko"),
    Options("none", "allowed", "area", 0, name="no-ko"),
    Options("simple", "forbidden", "area", 0, name="simple-no-suicide"),
]


CASES = [(name, options) for options in RULESETS[:4] for name in ("path:2", "path:3")] + [
    ("path:2", options)
    for options in RULESETS[4:]  # cycling play: plain minimax is exponential beyond 1×2
]


@pytest.mark.parametrize("name, options", CASES, ids=[f"{n}-{r if isinstance(r, str) else r.name}" for n, r in CASES])
def test_solver_equals_minimax_over_the_engine_game(name, options):
    graph = parse_graph(name)
    expected = game_minimax(graph, options)
    for transpositions in (True, False):
        assert Solver(graph, options, transpositions=transpositions).solve().raw_value == expected


@pytest.mark.parametrize("options", ["tromp-taylor", "situational", "no-suicide", "stone"])
def test_principal_variation_is_a_game_with_the_value(options):
    graph = parse_graph("path:5")
    solution = solve(graph, options)
    game = Game(graph, options)
    for v in solution.principal_variation:
        game.play(v)
    assert game.over
    assert game.score().margin == solution.value


@pytest.mark.parametrize(
    "name", ["path:4", "path:5", "cycle:4", "cycle:5", "star:3", "complete:4", "edges:0-1,2-3", "atlas:30"]
)
def test_transposition_table_never_changes_the_value(name):
    graph = parse_graph(name)
    with_table = Solver(graph).solve()
    without = Solver(graph, transpositions=False).solve()
    assert with_table.value == without.value
    assert with_table.nodes < without.nodes or without.nodes < 100


LINEAR_GO = {  # Black to move on 1×5 from these positions, no earlier history
    "x-o--": 0,
    "o-x--": 5,
    "x--o-": -5,
    "o--x-": 5,
    "o----": 5,
    "-o---": 0,
    "--o--": 0,
}


@pytest.mark.parametrize("position", sorted(LINEAR_GO))
def test_linear_go_exercises(position):
    """Values of Hayward's 1×5 linear Go exercises (webdocs.cs.ualberta.ca/~hayward, "go
    solve"), which agree with Tromp–Taylor rules (suicide allowed)."""
    graph = parse_graph("path:5")
    black = sum(1 << i for i, c in enumerate(position) if c == "x")
    white = sum(1 << i for i, c in enumerate(position) if c == "o")
    assert Solver(graph, start=(black, white, 0)).solve().value == LINEAR_GO[position]


def test_komi_shifts_the_value_and_not_the_line():
    graph = parse_graph("path:3")
    plain = solve(graph)
    with_komi = solve(graph, komi=0.5)
    assert with_komi.value == plain.value - 0.5
    assert with_komi.principal_variation == plain.principal_variation


def test_value_is_bounded_by_the_number_of_points():
    for name in ["path:3", "path:4", "star:4", "cycle:4"]:
        graph = parse_graph(name)
        assert -graph.order <= solve(graph).value <= graph.order


def test_shortest_perfect_game_keeps_the_value():
    graph = parse_graph("grid:2x2")
    line = Solver(graph).shortest_perfect_game()
    assert line is not None and len(line) <= len(solve(graph).principal_variation)
    states = tt.game(graph, line)
    assert states is not None
    b = states[-1].board
    assert tt.score(graph, b, "B") - tt.score(graph, b, "W") == 1


class Unhinted(Solver):
    """The solver finding the line without the tables' hints: at each turn the moves are
    tried in search order, each wrong one refuted by a search of its own."""

    def hinted(self, state, value, moves):
        return moves


def line_cost(solver_class) -> tuple[int, list]:
    """The nodes 1×7's principal variation costs once its value is proved, and the line
    (the Python core, whose tables' hints these figures measure)."""
    solver = solver_class(parse_graph("path:7"), core="python")
    state = solver.root()
    value = solver.mtd(state, solver.guess())
    proved_at = solver.nodes
    line = solver.principal_variation(state, value)
    return solver.nodes - proved_at, line


def test_the_line_follows_the_proof_just_found():
    # 1×7 (+2, proved at 151,976 nodes): the line then costs 958 nodes with the tables'
    # hints and 9,812 without.
    hinted, line = line_cost(Solver)
    unhinted, same = line_cost(Unhinted)
    assert line == same == [1, 5, 3, PASS, PASS]
    assert hinted < 2_000 < 5_000 < unhinted


def solved_with_probe(name: str, probe_nodes: int):
    """The solution of ``name`` with the first guess's probe given ``probe_nodes`` (0: none)."""
    solver = Solver(parse_graph(name))
    solver.probe_nodes = probe_nodes
    return solver.solve()


def test_a_first_guess_too_high_gives_way_to_zero():
    # 1×7 (+2): without a probe the tests walk down from the whole board (+7); when the
    # probe's test is not settled within 8,192 nodes they start again from 0, walk up, and
    # take about half as many nodes (125,751 against 233,248).
    # The same value either way, whatever the probe left in the tables.
    without = solved_with_probe("path:7", 0)
    probed = solved_with_probe("path:7", 8192)
    assert without.value == probed.value == 2
    assert probed.nodes < without.nodes // 2 + 20_000
    for name in ("grid:2x2", "path:5", "grid:2x3", "cycle:5"):
        assert solved_with_probe(name, 64).value == solved_with_probe(name, 0).value, name


def test_a_budget_spent_on_the_line_keeps_the_proved_value():
    # Without the hints a budget of 155,000 nodes runs out while the line is being found
    # (the value is proved at 151,976).
    found = Unhinted(parse_graph("path:7"), max_nodes=155_000, core="python").solve(bounds_on_budget=True)
    assert found.status == "exact" and found.value == 2
    assert found.details["principal_variation"].startswith("cut short")
    assert len(found.principal_variation) < len(
        Solver(parse_graph("path:7"), core="python").solve().principal_variation
    )


def bounds_within(name: str, max_nodes: int, alternate: bool) -> tuple:
    """The bounds a solve of ``name`` proves within ``max_nodes`` nodes, its tests decided by
    iterative deepening and walking up and down in turns or (``alternate`` off) only up."""
    solver = Solver(parse_graph(name), max_nodes=max_nodes, search="deepening")
    solver.alternate = alternate
    found = solver.solve(bounds_on_budget=True)
    return found.lower, found.upper


@pytest.mark.slow
def test_tests_walking_down_in_turns_prove_an_upper_bound():
    # atlas:170 (area value +1): within 300,000 nodes the tests walking up stay on their
    # first failure near the value and prove nothing beyond the static bounds; the turns
    # walking down from +5 prove the upper bound +1.  The bounds hold either way.
    assert bounds_within("atlas:170", 300_000, alternate=False) == (-6, 5)
    assert bounds_within("atlas:170", 300_000, alternate=True) == (-6, 1)


def test_the_descent_tests_the_upper_bound_or_the_middle():
    """Stepping down tests the upper bound; bisecting tests the middle of the bounds, rounded
    up, so that a failure halves them; both lie in [lower + 1, upper]."""
    solver = Solver(parse_graph("path:4"), descent="bisect")
    for (lower, upper), middle in {(0, 16): 9, (-16, 16): 1, (0, 1): 1, (2, 3): 3, (-6, 1): -2}.items():
        solver.lower, solver.upper = lower, upper
        assert solver.descent_test() == middle
        solver.descent = "step"
        assert solver.descent_test() == upper
        solver.descent = "bisect"
    with pytest.raises(SolveError, match="no descent 'halve'"):
        Solver(parse_graph("path:4"), descent="halve")


@pytest.mark.parametrize("name", ["path:2", "path:3", "cycle:3", "star:3", "path:4", "cycle:4", "grid:2x3", "path:8"])
def test_bisecting_finds_the_value_stepping_finds(name):
    """With shares of 64 nodes (so that the walk down has many turns) and no first probe,
    the tests bisecting the bounds reach the value the default solve finds."""
    expected = Solver(parse_graph(name)).solve().value
    solver = Solver(parse_graph(name), descent="bisect")
    solver.first_share, solver.probe_nodes = 64, 0
    found = solver.solve()
    assert found.value == expected and found.details["descent"] == "bisect"


def test_refusals():
    with pytest.raises(SolveError, match="at most 30"):
        Solver(parse_graph("grid:6x6"))
    with pytest.raises(SolveError, match="budget of 50 nodes"):
        solve(parse_graph("path:6"), max_nodes=50)


def run_cli(*args):
    """Run ``gorules`` in a subprocess: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "gorules", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_cli_solve_json():
    code, out, _ = run_cli("solve", "grid:2x2", "--json")
    assert code == 0
    result = json.loads(out)
    assert set(result) >= {
        "graph",
        "ruleset",
        "preset",
        "options",
        "status",
        "value",
        "principal_variation",
        "nodes",
        "seconds",
    }
    assert result["value"] == 1
    assert result["principal_variation"][-2:] == [PASS, PASS]
    assert all(m == PASS or m[0] in "AB" for m in result["principal_variation"])


def test_cli_solve_refuses_large_graphs_in_one_line():
    code, _, err = run_cli("solve", "grid:6x6")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "at most 30" in err


def test_the_horizons_step_up_and_end_at_the_deepest():
    """One turn at a time up to 8, then four at a time; the last is ``max_depth`` (6n)."""
    solver = Solver(parse_graph("path:4"))
    assert list(solver.horizons()) == [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24]
    solver.max_depth = 22
    assert list(solver.horizons())[-3:] == [16, 20, 22]


def test_the_default_core_is_compiled_where_it_applies():
    """The compiled core runs the tests by default under superko on undirected graphs; under
    simple ko (play can cycle) the Python core does, and asking for the compiled one there
    is refused."""
    from gorules.spec.tromp_taylor import Options

    simple = Options("simple", "allowed", "area", 0, name="simple-ko")
    assert Solver(parse_graph("path:3")).core == "compiled"
    assert Solver(parse_graph("path:3"), "situational").core == "compiled"
    assert Solver(parse_graph("path:3"), simple).core == "python"
    assert Solver(parse_graph("path:3"), core="python").core == "python"
    with pytest.raises(SolveError, match="compiled core"):
        Solver(parse_graph("path:3"), simple, core="compiled")
