"""Source 000's fragment solved twice: the toolkit's Zielonka solver and conjecture table,
against a second solver written apart (tests/directed_brute.py) on the small digraphs;
a mutant of each executed conjecture check, refuted; the CLI's refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from gorules.cli import main
from gorules.commands.conjectures import grids_within, run_conjectures
from gorules.impl.rulesets.directed import arena as da
from gorules.impl.rulesets.directed import conjectures as dc
from gorules.impl.rulesets.directed.graphs import classes, digraphs, graph_of
from tests import directed_brute as brute

READINGS = dc.default_readings()
EXECUTED = ["perfect-play", "going-first-is-good", "perfect-komi", "score-maximising", "stability"]


def all_boards(n: int) -> list[str]:
    """Every board on n points as text."""
    return ["".join(b) for b in da.boards(n)]


def brute_counts(n_max: int) -> dict:
    """The verdict counts of the executed conjectures, from the second solver alone."""
    counts: dict = {name: Counter() for name in EXECUTED}
    for n in range(1, n_max + 1):
        for arcs in brute.digraph_classes(n):
            boards = all_boards(n)
            counts["perfect-play"]["holds"] += 1  # every start has a value: both sides draw at komi = value
            empty_value = brute.value(n, arcs, brute.start_of("." * n))
            counts["going-first-is-good"]["holds" if empty_value >= 0 else "fails"] += 1
            unique = all(len(brute.komis(n, arcs, b)) == 1 for b in boards)
            counts["perfect-komi"]["holds" if unique else "fails"] += 1
            lazy = any(brute.lazy_after_error(n, arcs, b) for b in boards)
            counts["score-maximising"]["fails" if lazy else "holds"] += 1
            kinds = {brute.stability_class(n, arcs, b) for b in boards}
            stable = len(kinds) == 1 and kinds <= {"stable", "unstable"}
            counts["stability"]["holds" if stable else "fails"] += 1
    return counts


def table_counts(n_max: int, names=EXECUTED) -> dict:
    """The counts the toolkit's table reports."""
    results = run_conjectures([dc.find(name) for name in names], n_max, READINGS, progress=False)
    return {r["conjecture"]: Counter({k: v for k, v in r["counts"].items() if v}) for r in results}


def test_digraph_classes_agree_with_the_second_enumeration():
    assert [len(classes(n)) for n in (1, 2, 3, 4)] == [1, 3, 16, 218]
    for n in (1, 2, 3):
        theirs = {brute_form(n, arcs) for arcs in brute.digraph_classes(n)}
        ours = {brute_form(n, graph_arcs(g)) for g in digraphs(n, n)}
        assert ours == theirs


def graph_arcs(graph) -> tuple:
    """The arcs of a graph."""
    return tuple((v, w) for v in graph.points for w in graph.neighbours[v])


def brute_form(n: int, arcs) -> tuple:
    """The least sorted arc tuple over all relabellings (computed as the second enumeration does)."""
    from itertools import permutations

    return min(tuple(sorted((p[a], p[b]) for a, b in arcs)) for p in permutations(range(n)))


@pytest.mark.parametrize("n", [1, 2])
def test_values_agree_with_the_second_solver(n):
    for arcs in brute.digraph_classes(n):
        graph = graph_of(n, arcs)
        arena = da.arena_of(graph)
        values = da.values_of(graph)
        for board in all_boards(n):
            for player in "BW":
                for last in ("stone", "pass"):
                    ours = values.of(arena.index_of(da.Position(tuple(board), player, last == "pass")))
                    assert ours == brute.value(n, arcs, (board, player, last)), (arcs, board, player, last)


@pytest.mark.slow
def test_values_agree_with_the_second_solver_on_three_points():
    n = 3
    for arcs in brute.digraph_classes(n):
        graph = graph_of(n, arcs)
        arena = da.arena_of(graph)
        for board in all_boards(n):
            ours = da.values_of(graph).of(arena.start(board))
            assert ours == brute.value(n, arcs, brute.start_of(board)), (arcs, board)


def test_two_point_table_is_reproduced_by_the_second_solver():
    assert table_counts(2) == brute_counts(2)


@pytest.mark.slow
def test_three_point_table_is_reproduced_by_the_second_solver():
    assert table_counts(3) == brute_counts(3)


def test_grids_stability_agrees_with_the_second_solver():
    results = run_conjectures([dc.find("normal-board-is-stable")], 3, READINGS, progress=False)
    verdicts = {v["graph"]: v["status"] for v in results[0]["verdicts"]}
    for graph in grids_within(3):
        arcs = graph_arcs(graph)
        kinds = {brute.stability_class(graph.order, arcs, b) for b in all_boards(graph.order)}
        assert verdicts[graph.name] == ("holds" if kinds == {"stable"} else "fails")


def test_isolated_pairs_are_worth_nothing():
    for spec in ("edges:0-1", "edges:0-1,2-3"):
        from gorules.spec.graph import parse_graph

        graph = parse_graph(spec)
        assert da.values_of(graph).of(da.arena_of(graph).start()) == 0


def test_value_plans_replay_to_the_value():
    for graph in digraphs(3):
        arena = da.arena_of(graph)
        start = arena.start()
        line = dc.optimal_lasso(arena, start)
        assert line["margin"] == da.values_of(graph).of(start), graph.name


# ---------------------------------------------------------------- mutants, each refuted


def test_mutant_plan_is_caught_by_the_plan_check():
    """Black's plan for margin ≥ v claimed to reach v + 1: the product check finds a losing play."""
    from gorules.spec.graph import parse_graph

    graph = parse_graph("path:3")
    arena = da.arena_of(graph)
    start = arena.start()
    v = da.values_of(graph).of(start)
    plan = da.values_of(graph).by_threshold[v].plans[0]
    assert da.check_plan(arena, plan, 0, start, da.objective(3, v)) is None
    assert da.check_plan(arena, plan, 0, start, da.objective(3, v + 1)) is not None


def test_mutant_going_first_strict_is_refuted():
    """'value > 0' in place of 'value >= 0' no longer matches the second solver."""
    real = dc.going_first_is_good

    def strict(graph, readings):
        v = da.values_of(graph).of(da.arena_of(graph).start())
        return dc.Verdict("holds" if v > 0 else "fails", "mutant") if v >= 0 else real(graph, readings)

    mutant = dc.Conjecture("going-first-is-good", "", "", (), strict)
    counts = Counter(mutant.check(g, READINGS).status for g in digraphs(2))
    assert counts != brute_counts(2)["going-first-is-good"]


def test_mutant_perfect_komi_one_side_is_refuted():
    """Counting the komi at which only Black draws: not unique, so the mutant reports failures."""

    def one_sided(graph, readings):
        arena = da.arena_of(graph)
        vals = da.values_of(graph)
        start = arena.start()
        ks = [k for k in range(-graph.order, graph.order + 1) if dc._black_keeps_at_least(vals, start, k, graph.order)]
        return dc.Verdict("holds" if len(ks) == 1 else "fails", "mutant")

    counts = Counter(one_sided(g, READINGS).status for g in digraphs(2))
    assert counts != brute_counts(2)["perfect-komi"]


def test_mutant_stability_one_side_is_refuted():
    """Deciding each start board's class by Black's side alone disagrees with the second solver
    (on path:3 the empty board is mixed: only Black can settle); the real classes agree."""
    from gorules.spec.graph import parse_graph

    graph = parse_graph("path:3")
    arena = da.arena_of(graph)
    arcs = graph_arcs(graph)
    real = dc.stability_classes(graph, READINGS)
    mutant = {}
    for board in da.boards(3):
        start = arena.start(board)
        black, _ = dc.stability_games(graph, da.values_of(graph).of(start), READINGS)
        mutant[board] = "stable" if start in da.solve(arena, black).regions[0] else "unstable"
    theirs = {tuple(b): brute.stability_class(3, arcs, b) for b in all_boards(3)}
    assert {b: k.split(" ")[0] for b, k in real.items()} == theirs
    assert mutant != theirs


def test_mutant_score_maximising_own_errors_is_refuted():
    """Taking a side's own mistakes for the opponent's errors (values below v for Black) finds no
    lazy play on digraph:3:0>1,0>2, where the second solver finds one (slow test above: the
    five failing 3-point graphs)."""
    from gorules.impl.rulesets.directed.graphs import parse

    graph = parse("digraph:3:0>1,0>2")
    arcs = graph_arcs(graph)
    assert brute.lazy_after_error(3, arcs, "...")
    real = dc.error_values
    ours = dc.score_maximising(graph, READINGS).status
    dc.error_values = lambda side, v, n: real(1 - side, v, n)
    try:
        mutant = dc.score_maximising(graph, READINGS).status
    finally:
        dc.error_values = real
    assert (ours, mutant) == ("fails", "holds")


# ---------------------------------------------------------------- CLI


@pytest.mark.parametrize(
    "argv, words",
    [
        (["conjectures", "000", "--reading", "passes=sometimes"], "unknown value"),
        (["conjectures", "000", "--reading", "colour=blue"], "unknown reading"),
        (["conjectures", "000", "--graph", "path:3", "--board", "B."], "not a board of path:3"),
        (["conjectures", "000", "--graph", "path:3", "--board", "BXW"], "not a board of path:3"),
        (["conjectures", "000", "--graph", "path:3", "--komi", "one"], "rational"),
        (["conjectures", "000", "--max-points", "4", "--max-positions", "1000"], "--max-positions"),
        (["conjectures", "001"], "no conjectures"),
        (["conjectures", "000", "--only", "nonsense"], "unknown conjecture"),
        (["conjectures", "000", "--graph", "digraph:2:0>5"], "leaves the points"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err


def test_one_graph_report(capsys, tmp_path):
    out = tmp_path / "one.json"
    assert main(["conjectures", "000", "--graph", "path:3", "--komi", "1/2", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "value +1" in text and "at komi 1/2: B" in text
    import json

    data = json.loads(out.read_text())
    assert data["value"] == 1 and data["perfect_komi"] == ["1"]
    assert data["stability"].startswith("mixed")


def test_table_and_json(tmp_path, capsys):
    out = tmp_path / "t.json"
    pictures = tmp_path / "pictures"
    argv = ["conjectures", "000", "--max-points", "2", "--json", str(out), "--pictures", str(pictures)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "stability" in text and "smallest counterexample" in text
    import json

    data = json.loads(out.read_text())
    stability = next(r for r in data["conjectures"] if r["conjecture"] == "stability")
    assert stability["counts"] == {"holds": 2, "fails": 2, "unknown": 0}
    assert (pictures / "stability.svg").read_text().startswith("<svg") or "<svg" in (
        pictures / "stability.svg"
    ).read_text()


def test_going_first_is_good_in_the_sources_own_game():
    """The sweep conjecture computes its figure in the directed ruleset's arena; a graph where
    Black's first move is worth a stone (path:3) shows a positive value."""
    from gorules.conjectures import FIGURES, built_in
    from gorules.spec.graph import parse_graph

    c = built_in("going-first-is-good-000")
    ruleset = c.make_ruleset()
    assert ruleset.name == "directed"
    figures = {"directed_value": FIGURES["directed_value"](parse_graph("path:3"), ruleset)}
    assert figures["directed_value"]["value"] == 1 and c.holds(parse_graph("path:3"), figures)
    assert not c.holds(parse_graph("path:3"), {"directed_value": {"value": -1}})


def test_directed_value_refuses_another_ruleset():
    from gorules.conjectures import FIGURES, built_in
    from gorules.errors import UsageError
    from gorules.spec.graph import parse_graph

    with pytest.raises(UsageError, match="directed ruleset"):
        FIGURES["directed_value"](parse_graph("path:3"), built_in("going-first-is-good").make_ruleset())


def test_plan_table_and_replay(capsys):
    """White's value plan on path:3 answers Black's two stones in a row by capturing them."""
    assert main(["conjectures", "000", "--graph", "path:3", "--plan", "W", "--against", "1,pass,0"]) == 0
    text = capsys.readouterr().out
    assert "W's plan" in text and "B 0 -> BB." in text and "W 2 -> ..W" in text
    from gorules.spec.graph import parse_graph

    graph = parse_graph("path:3")
    arena = da.arena_of(graph)
    start = arena.start()
    _, _, _, (white, _) = dc.value_plans(graph, start)
    table = da.plan_table(arena, white, 1, start)
    assert all(row["to_move"] == "W" for row in table)
    assert any(row["board"] == "BB." and row["move"] == 2 for row in table)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["conjectures", "000", "--graph", "path:3", "--plan", "B", "--against", "7"], "not a point"),
        (["conjectures", "000", "--graph", "path:3", "--plan", "W", "--against", "1,1"], "not a legal move"),
        (["conjectures", "000", "--graph", "path:3", "--against", "1"], "--against goes with --plan"),
    ],
)
def test_bad_replay_is_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err


def test_settled_boards_komi_and_its_mutant():
    """On every sum of a digraph and a stable digraph (at most 4 points) the value shifts by the
    settled board's stones; a mutant that forgets the stones is refuted by the sum whose settled
    board holds a Black stone."""
    sums = dc.settled_sums(4, READINGS)
    assert all(dc.settled_komi(g, READINGS).status == "holds" for g in sums)
    with_stones = [(g, h, b) for g in sums for h, _, b in dc.SUMS[g.name] if any(c != "." for c in b)]
    assert with_stones
    g, h, board = with_stones[0]
    value = da.values_of(g).of(da.arena_of(g).start(tuple("." for _ in h.points) + board))
    forgetful = da.values_of(h).of(da.arena_of(h).start())
    assert value != forgetful


def test_one_pair_forced_length_and_bounds():
    """One isolated pair under positional superko: 3 turns when Black prolongs (B a, W pass,
    B pass: a stone on the other point would bring back the empty board), 4 when White does;
    the bounds meet the exact length."""
    from gorules.impl.rulesets.directed.pairs import (
        forced_length,
        forced_length_plain,
        greedy_prolonger_length,
        pairs,
        passing_shortener_length,
    )

    graph = pairs(1)
    for prolonger, turns in (("B", 3), ("W", 4)):
        assert forced_length(graph, prolonger) == forced_length_plain(graph, prolonger) == turns
        assert greedy_prolonger_length(graph, prolonger) == turns == passing_shortener_length(graph, prolonger)


def test_two_pairs_forced_length():
    """Two pairs: alpha-beta finds 10 turns when Black prolongs and 9 when White does."""
    from gorules.impl.rulesets.directed.pairs import forced_length, pairs

    graph = pairs(2)
    assert forced_length(graph, "B") == 10 and forced_length(graph, "W") == 9


@pytest.mark.slow
def test_two_pairs_forced_length_lies_within_its_bounds():
    """The bounds of a fixed prolonger strategy (from below) and of the shortener passing
    throughout (from above), computed apart from the alpha-beta search, enclose its lengths."""
    from gorules.impl.rulesets.directed.pairs import (
        forced_length,
        greedy_prolonger_length,
        pairs,
        passing_shortener_length,
    )

    graph = pairs(2)
    for prolonger in "BW":
        exact = forced_length(graph, prolonger)
        assert greedy_prolonger_length(graph, prolonger) <= exact <= passing_shortener_length(graph, prolonger)


def test_pairs_report(capsys):
    assert main(["conjectures", "000", "--pairs", "1"]) == 0
    text = capsys.readouterr().out
    assert "    1     +0          B    2  3" in text and "    1     +0          W    2  4" in text
    assert main(["conjectures", "000", "--pairs", "4"]) == 2


def lasso_turns(arena, positions: list, then: int) -> list:
    """The spec's turns between consecutive arena positions (and into `then`)."""
    from gorules.spec.directed import Turn

    following = positions[1:] + [then]
    return [Turn(arena.move_between(v, w)) for v, w in zip(positions, following)]


def test_value_plans_play_scores_the_value_under_the_specs_outcome():
    """The play of the two value plans, replayed as turns through spec/directed.py's `outcome`
    of a lasso: with komi just below the value Black wins, at the value it is a draw, just
    above White wins (every digraph on 1..3 points, every start board)."""
    from fractions import Fraction

    from gorules.spec.directed import outcome, starting_situation

    for graph in digraphs(3):
        arena = da.arena_of(graph)
        vals = da.values_of(graph)
        for board in da.boards(graph.order):
            start = arena.start(board)
            v = vals.of(start)
            _, _, (black, _), (white, _) = dc.value_plans(graph, start)
            everywhere = frozenset(range(len(arena.positions)))
            black = black or da.Anywhere(everywhere, arena.successors, 0, arena.owner)
            white = white or da.Anywhere(everywhere, arena.successors, 1, arena.owner)
            lasso = da.play_plans(arena, black, white, start)
            prefix = lasso_turns(arena, lasso.prefix, lasso.cycle[0]) if lasso.prefix else []
            cycle = lasso_turns(arena, lasso.cycle, lasso.cycle[0])
            for komi, expected in ((Fraction(2 * v - 1, 2), "B"), (Fraction(v), "draw"), (Fraction(2 * v + 1, 2), "W")):
                s = starting_situation(graph, komi, board)
                assert outcome(graph, s, prefix, cycle) == expected, (graph.name, board, komi)


def test_smallest_graph_where_a_reading_matters(capsys, tmp_path):
    """The pass reading first matters on the isolated pair as a grid: capturing back and forth
    passes now and then, so under 'infinitely-often' both sides settle."""
    out = tmp_path / "differ.json"
    argv = ["conjectures", "000", "--differ", "passes", "--max-points", "2", "--only", "normal-board-is-stable"]
    assert main([*argv, "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "smallest graph where passes matters: grid:1x2" in text
    import json

    data = json.loads(out.read_text())
    assert data["smallest"]["normal-board-is-stable"]["graph"] == "grid:1x2"
    assert main(["conjectures", "000", "--differ", "colour"]) == 2
