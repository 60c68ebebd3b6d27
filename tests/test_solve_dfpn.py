"""The df-pn threshold tests (``impl/kernels/dfpn.py``) against full-history minimax.

The solver with ``search="dfpn"`` gives the value of the plain reference on every connected
graph of up to 4 points under the four finite rule sets, and the compiled reference's on a
sample of 5-point cases (every one under the slow marker).  Four mutants are refuted: a
table whose decided answers are reused under any history, a df-pn that takes a node as
disproved as soon as one of its moves is refuted, a proof whose queries leave out the
position of its winning move, and a node whose queries leave out its moves that repeat the
history; emptying df-pn's numbers in the middle of its searches keeps every value.  A dense
6-point graph that one table slot per state left open is solved."""

from __future__ import annotations

import json
import os

import pytest

from gorules.impl.kernels import dfpn as _numba_dfpn
from gorules.impl.kernels.dfpn import ONE_REFUTATION, REPETITIONS_UNASKED, WINNING_MOVE_UNASKED
from gorules.impl.solving.solve import SolveError, Solver
from gorules.spec.graph import parse_graph
from tests.reference_compiled import compiled_value
from tests.reference_minimax import reference_value
from tests.test_solve_cli import run_cli
from tests.test_solve_reference import FINITE, LONG_FIVE_POINT_CASES, RULES, connected_graphs, small_cases

SMALL = [case for case in small_cases(4) if case[1] in FINITE]
FIVE_SAMPLE = [
    ("atlas:29", "tromp-taylor"),
    ("atlas:34", "situational"),
    ("atlas:38", "no-suicide"),
    ("atlas:44", "stone"),
]


def dfpn_value(
    graph: str,
    preset: str,
    mutant: bool = False,
    kernel_mutant: int = 0,
    initial: int = 0,
    epsilon: int = 2,
    refresh: int | None = None,
    fold: bool | None = None,
) -> int | None:
    """The solver's raw value with its threshold tests decided by df-pn (with the table
    that forgets the history if ``mutant``, with one of the kernel's mutants if
    ``kernel_mutant``, with the initial disproof numbers and ε of ``Solver.dfpn_initial``
    and ``Solver.dfpn_epsilon``, with its numbers emptied every ``refresh`` nodes if
    given, with its numbers shared by symmetric boards if ``fold``, by default as the solver
    chooses), None if its search finds itself inconsistent."""
    solver = Solver(parse_graph(graph), RULES[preset], search="dfpn")
    if refresh is not None:
        solver.numbers_refresh = refresh
    solver.table_forgets_history = mutant
    solver.dfpn_mutant = kernel_mutant
    solver.dfpn_initial = initial
    solver.dfpn_epsilon = epsilon
    solver.dfpn_fold = fold
    try:
        return solver.solve().raw_value
    except AssertionError:
        return None


@pytest.mark.parametrize("graph, preset", SMALL)
def test_dfpn_equals_full_history_minimax(graph, preset):
    """df-pn gives the full-history minimax value on every connected graph of up to 4
    points under every finite rule set."""
    assert dfpn_value(graph, preset) == reference_value(parse_graph(graph), RULES[preset])


def test_a_dfpn_whose_table_forgets_the_history_is_caught():
    """The comparison can fail: with the history check of the table switched off, df-pn
    disagrees with the reference (or finds itself inconsistent) on atlas:17 under every
    finite rule set."""
    found = [
        (graph, preset)
        for graph, preset in SMALL
        if dfpn_value(graph, preset, mutant=True) != reference_value(parse_graph(graph), RULES[preset])
    ]
    assert {("atlas:17", preset) for preset in FINITE} <= set(found)


def test_a_dfpn_that_takes_one_refuted_move_for_all_is_caught():
    """The comparison can fail: a df-pn that calls a node disproved as soon as one of its
    moves is refuted gives a wrong value on some graph of up to 4 points."""
    found = [
        (graph, preset)
        for graph, preset in SMALL
        if dfpn_value(graph, preset, kernel_mutant=ONE_REFUTATION) != reference_value(parse_graph(graph), RULES[preset])
    ]
    assert found


def test_a_dfpn_whose_nodes_forget_their_repetitions_is_caught():
    """The comparison can fail: a node whose queries leave out the positions of its moves
    that repeat the history (only the legal moves' positions may be left out of a
    disproof) gives a wrong value on atlas:17 under every finite rule set."""
    found = [
        (graph, preset)
        for graph, preset in SMALL
        if dfpn_value(graph, preset, kernel_mutant=REPETITIONS_UNASKED)
        != reference_value(parse_graph(graph), RULES[preset])
    ]
    assert {("atlas:17", preset) for preset in FINITE} <= set(found)


@pytest.mark.parametrize(
    "initial, epsilon, fold", [(1, 2, True), (4, 0, True), (-1, 2, True), (-2, 0, False), (0, 2, True)]
)
def test_dfpn_numbers_change_the_order_only(initial, epsilon, fold):
    """Initial numbers from the empty points or from the area score, numbers kept apart for
    each board or shared by symmetric boards, and another ε of the 1 + ε trick
    order the search differently and leave every value of the graphs of up to 4 points
    (and atlas:17's, where a disproof that forgets its repetitions goes wrong) exact; the
    mutant that forgets them is still caught on atlas:17 under them."""
    for graph, preset in SMALL:
        expected = reference_value(parse_graph(graph), RULES[preset])
        assert dfpn_value(graph, preset, initial=initial, epsilon=epsilon, fold=fold) == expected, (graph, preset)
    for preset in FINITE:
        expected = reference_value(parse_graph("atlas:17"), RULES[preset])
        forgetting = dfpn_value(
            "atlas:17", preset, kernel_mutant=REPETITIONS_UNASKED, initial=initial, epsilon=epsilon, fold=fold
        )
        assert forgetting != expected


def test_emptying_the_numbers_in_mid_search_changes_the_order_only():
    """With df-pn's table of numbers emptied every 16 nodes, in the middle of its searches,
    every graph of up to 4 points keeps its exact value, and the mutant that forgets its
    repetitions is still caught on atlas:17 under every finite rule set."""
    for graph, preset in SMALL:
        expected = reference_value(parse_graph(graph), RULES[preset])
        assert dfpn_value(graph, preset, refresh=16) == expected, (graph, preset)
    for preset in FINITE:
        expected = reference_value(parse_graph("atlas:17"), RULES[preset])
        assert dfpn_value("atlas:17", preset, kernel_mutant=REPETITIONS_UNASKED, refresh=16) != expected


def test_the_numbers_are_emptied_at_their_cadence(monkeypatch):
    """A solve of 1×9 whose numbers are emptied every 1,000 nodes empties them once for each
    1,000 nodes it searched (its slices cut there), and finds the same value as one that
    keeps them; with 0 they are never emptied."""
    emptied = []
    empty = _numba_dfpn.empty_numbers

    def counted(numbers):
        """Empty the numbers and count it."""
        emptied.append(1)
        empty(numbers)

    monkeypatch.setattr(_numba_dfpn, "empty_numbers", counted)
    graph = parse_graph("path:9")
    plain = Solver(graph, "tromp-taylor")
    plain.numbers_refresh = 0
    kept = plain.solve()
    assert not emptied
    solver = Solver(graph, "tromp-taylor")
    solver.numbers_refresh = 1000
    refreshed = solver.solve()
    assert refreshed.value == kept.value == 0
    assert len(emptied) == (solver.nodes - 1) // 1000 > 10


def test_a_dense_six_point_graph_is_solved_with_buckets_of_slots():
    """atlas:201 (6 points, 12 edges) under Tromp–Taylor: +1 for Black within 300,000
    nodes with buckets of table slots (the default), while with one slot per state (an
    answer proved under one history overwriting the answer proved under another) the
    same budget leaves it at the bounds [-6, +1]."""
    graph = parse_graph("atlas:201")
    solution = Solver(graph, "tromp-taylor", max_nodes=300_000).solve(bounds_on_budget=True)
    assert solution.status == "exact" and solution.value == 1
    single = Solver(graph, "tromp-taylor", max_nodes=300_000)
    single.table_ways = 1
    assert single.solve(bounds_on_budget=True).status == "bounds"


@pytest.mark.slow
def test_a_proof_that_forgets_its_winning_moves_position_is_caught():
    """The comparison can fail: a proof whose queries leave out the position of its winning
    move (reused where that move repeats the history) gives a wrong value on atlas:43 (it
    is right on every graph of up to 4 points)."""
    g = parse_graph("atlas:43")
    for preset in ("tromp-taylor", "situational"):
        assert dfpn_value("atlas:43", preset, kernel_mutant=WINNING_MOVE_UNASKED) != compiled_value(g, RULES[preset])[0]
        assert dfpn_value("atlas:43", preset) == compiled_value(g, RULES[preset])[0]


@pytest.mark.parametrize("graph, preset", FIVE_SAMPLE)
def test_dfpn_equals_compiled_full_history_minimax_on_a_five_point_sample(graph, preset):
    """df-pn gives the compiled reference's value on one 5-point graph per finite rule set."""
    assert dfpn_value(graph, preset) == compiled_value(parse_graph(graph), RULES[preset])[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "graph, preset",
    [
        pytest.param(graph, preset, id=f"{graph}-{preset}")
        for graph in connected_graphs(5)
        for preset in FINITE
        if (graph, preset) not in LONG_FIVE_POINT_CASES or os.environ.get("GORULES_EXHAUSTIVE") == "1"
    ],
)
def test_dfpn_equals_compiled_full_history_minimax_on_five_points(graph, preset):
    """df-pn gives the compiled reference's value on every connected 5-point graph."""
    table_bits = 26 if (graph, preset) in LONG_FIVE_POINT_CASES else 20
    assert dfpn_value(graph, preset) == compiled_value(parse_graph(graph), RULES[preset], table_bits=table_bits)[0]


def test_dfpn_needs_the_compiled_core_and_a_known_name():
    """df-pn asked of the Python core, or an unknown search, is refused with a SolveError;
    by default the compiled core runs df-pn and the Python core deepens."""
    with pytest.raises(SolveError, match="compiled core only"):
        Solver(parse_graph("path:3"), "tromp-taylor", core="python", search="dfpn")
    with pytest.raises(SolveError, match="unknown search"):
        Solver(parse_graph("path:3"), "tromp-taylor", search="bfs")
    assert Solver(parse_graph("path:3"), "tromp-taylor").search_kind == "dfpn"
    assert Solver(parse_graph("path:3"), "tromp-taylor", core="python").search_kind == "deepening"


def test_the_command_line_runs_dfpn_and_names_it():
    """``gorules solve --search dfpn`` finds the deepening's value on 2×3 and the JSON says
    which search ran; df-pn under the Python core is refused in one line, exit 2."""
    values = {}
    for search in ("deepening", "dfpn"):
        code, out, _ = run_cli("solve", "grid:2x3", "--search", search, "--json", "--no-progress")
        result = json.loads(out)
        assert code == 0 and result["status"] == "exact" and result["search"] == search
        values[search] = result["value"]
    assert values["dfpn"] == values["deepening"] == 0
    code, out, err = run_cli("solve", "path:3", "--search", "dfpn", "--core", "python", "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "compiled core" in err


def test_dfpn_reports_bounds_when_the_budget_runs_out_inside_a_test():
    """A node budget spent inside a df-pn test ends in status bounds, within the budget."""
    code, out, _ = run_cli("solve", "path:10", "--search", "dfpn", "--nodes", "3000", "--json", "--no-progress")
    result = json.loads(out)
    assert code == 0 and result["status"] == "bounds" and result["search"] == "dfpn"
    assert -10 <= result["lower"] <= result["upper"] <= 10
    assert result["nodes"] <= 3001


def test_a_test_decided_as_its_budget_runs_out_is_answered():
    """1×7's test of +2 from the empty board decided by df-pn in k nodes: given k − 1 nodes
    (its last slice cut at k, one past the budget) it still answers, where dropping a
    decided answer because the budget ran out in the same slice raised BudgetSpent; given
    k − 2, the budget runs out before the answer."""
    from gorules.impl.solving.budget import BudgetSpent

    def tested(max_nodes: int | None) -> tuple:
        solver = Solver(parse_graph("path:7"), "tromp-taylor", search="dfpn", max_nodes=max_nodes)
        solver.compile_kernels()
        solver.nodes, solver.next_tick = 0, 1
        return solver.compiled_dfpn(solver.root(), 2), solver.nodes

    answer, k = tested(None)
    assert answer == 1 and k > 100
    assert tested(k - 1) == (answer, k)
    with pytest.raises(BudgetSpent):
        tested(k - 2)


def sliced_solve(monkeypatch, graph: str, chunk: int, lose_place: bool = False) -> tuple:
    """The raw value and nodes of a df-pn solve of ``graph`` whose kernel runs ``chunk``
    nodes at a time; with ``lose_place``, a mutant that resumes each slice at the root's
    frame instead of where the search stopped."""
    from gorules.impl.kernels import dfpn as kd
    from gorules.impl.solving import compiled_core

    monkeypatch.setattr(compiled_core, "CHUNK_FIRST", chunk)
    monkeypatch.setattr(compiled_core, "CHUNK_LAST", chunk)
    if lose_place:
        resume = kd.resume

        def from_the_root(A, B, limit):
            B[6][kd.R_PLY] = 0
            return resume(A, B, limit)

        monkeypatch.setattr(kd, "resume", from_the_root)
    found = Solver(parse_graph(graph), "tromp-taylor", search="dfpn").solve()
    return found.raw_value, found.nodes


def test_a_search_cut_into_slices_is_the_search_in_one_piece(monkeypatch):
    """Stopping the kernel every 7 nodes and resuming it changes nothing: 1×7 gets the same
    value in the same number of nodes as in slices of 2^30; a resume that loses its place
    (back to the root's frame) does not."""
    whole = sliced_solve(monkeypatch, "path:7", 1 << 30)
    assert sliced_solve(monkeypatch, "path:7", 7) == whole
    assert sliced_solve(monkeypatch, "path:7", 7, lose_place=True) != whole


def test_the_slices_follow_the_time_they_take():
    """A df-pn slice doubles while it is quick and halves when it is slow, within
    [CHUNK_FIRST, CHUNK_LAST], so that a slow node does not stretch a time budget."""
    from gorules.impl.solving.solve import CHUNK_FIRST, CHUNK_LAST, SLICE_SECONDS, next_chunk

    assert next_chunk(1 << 18, SLICE_SECONDS / 10) == 1 << 19
    assert next_chunk(1 << 18, SLICE_SECONDS * 10) == 1 << 17
    assert next_chunk(1 << 18, SLICE_SECONDS * 1.5) == 1 << 18
    assert next_chunk(CHUNK_LAST, 0.0) == CHUNK_LAST
    assert next_chunk(CHUNK_FIRST, 100.0) == CHUNK_FIRST


def test_symmetric_boards_share_their_numbers():
    """With the fold, a stone on any corner of 3×3 keeps its numbers under one board, and a
    stone on an edge under another; without it each board is its own."""
    import numpy as np

    solver = Solver(parse_graph("grid:3x3"), "tromp-taylor")
    arrays = solver.compiled_arrays()
    automorphisms = len(solver.group)
    assert automorphisms == 7  # the identity is left out of the solver's group

    def kept_under(fold: int, points: tuple[int, ...]) -> set:
        numbers = _numba_dfpn.arrays(4, fold=fold)
        return {_numba_dfpn._folded(arrays, numbers, np.uint64(1 << p), np.uint64(0)) for p in points}

    corners, edges = (0, 2, 6, 8), (1, 3, 5, 7)
    assert len(kept_under(automorphisms, corners)) == 1
    assert len(kept_under(automorphisms, edges)) == 1
    assert kept_under(automorphisms, corners) != kept_under(automorphisms, edges)
    assert len(kept_under(0, corners)) == 4


def test_the_numbers_are_shared_by_default_from_seven_points():
    """The default shares the numbers of symmetric boards on graphs of seven points or more
    and keeps them apart on smaller ones; the setting overrides it either way."""
    assert Solver(parse_graph("grid:3x3"), "tromp-taylor").folds()
    assert not Solver(parse_graph("atlas:201"), "tromp-taylor").folds()
    kept_apart = Solver(parse_graph("grid:3x3"), "tromp-taylor")
    kept_apart.dfpn_fold = False
    assert not kept_apart.folds()
