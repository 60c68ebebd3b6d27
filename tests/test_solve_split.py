"""A threshold test split over worker processes (``impl/solving/split.py``) against the plain solve.

The workers are real forked processes.  With the split forced on every test (``split_after``
0, no first probe) and tiny budgets (leaves of 2 nodes expanded after 4, so that on the
4-point graphs the explicit trees reach 5 to 21 plies, with passes, captures and moves
refused by superko inside it; 16 and 64 on 1×8), the value is the plain solve's on every connected graph of up to 4 points under the
four finite rule sets and on 1×8; the combination turned round (a node proved only when
every move fails) is refuted; one job is the plain search node for node; a split test
keeps to its turn's share and goes on with its tree at its next turn; a spent budget
reports bounds and leaves no worker behind."""

from __future__ import annotations

import json
import multiprocessing
import os

import pytest

from gorules.impl.solving import split
from gorules.impl.solving.solve import Solver
from gorules.impl.solving.split import OR_FOR_AND, Node, fork_available, most_proving, needed, renumber
from gorules.spec.graph import parse_graph
from tests.test_solve_cli import run_cli
from tests.test_solve_reference import FINITE, RULES, small_cases

pytestmark = pytest.mark.skipif(not fork_available(), reason="the split forks its workers")

SMALL = [case for case in small_cases(4) if case[1] in FINITE]


def split_solver(
    graph: str, preset: str, jobs: int = 2, mutant: int = 0, max_nodes: int | None = None, leaf: int = 16
) -> Solver:
    """A df-pn solver of ``graph`` that splits every test at once over ``jobs`` workers,
    without the first guess's probe, leaves of ``leaf`` nodes at first, expanded after
    four times that."""
    solver = Solver(parse_graph(graph), RULES[preset], search="dfpn", jobs=jobs, max_nodes=max_nodes)
    solver.split_after, solver.split_first, solver.split_expand = 0, leaf, 4 * leaf
    solver.probe_nodes = 0
    solver.split_mutant = mutant
    return solver


def split_value(graph: str, preset: str, mutant: int = 0, leaf: int = 2) -> int | None:
    """The raw value of the split solve, None if the search finds itself inconsistent."""
    try:
        return split_solver(graph, preset, mutant=mutant, leaf=leaf).solve().raw_value
    except AssertionError:
        return None


def plain_value(graph: str, preset: str) -> int:
    """The raw value of the df-pn solve in one process."""
    return Solver(parse_graph(graph), RULES[preset], search="dfpn").solve().raw_value


@pytest.mark.parametrize("graph, preset", SMALL)
def test_the_split_solve_equals_the_plain_one(monkeypatch, graph, preset):
    """Split over two workers, every test: the plain solve's value on every connected graph
    of up to 4 points under every finite rule set, the leaves taken by their proof numbers
    or by fewest nodes (``LEAF_ORDER``), a worker's leaf started again or gone on with
    (``RESUME``)."""
    plain = plain_value(graph, preset)
    monkeypatch.setattr(split, "LEAF_ORDER", "numbers")
    assert split_value(graph, preset) == plain
    monkeypatch.setattr(split, "LEAF_ORDER", "fewest")
    assert split_value(graph, preset) == plain
    monkeypatch.setattr(split, "RESUME", True)
    assert split_value(graph, preset) == plain


def test_the_most_proving_leaf_follows_the_least_disproof_numbers():
    """From the root down, the open child of least dn that has a leaf not being searched:
    past a running leaf to the next, past decided children; the weak rule's numbers of an
    open node from its open children."""
    root = Node((), (), (), 0)
    a, b, c = (Node((m,), (), (), 1, root) for m in range(3))
    a.pn, a.dn, b.pn, b.dn, c.pn, c.dn = 40, 7, 3, 5, 9, 2
    c.answer = 1
    root.children = [a, b, c]
    b1, b2 = (Node((1, m), (), (), 0, b) for m in range(2))
    b1.pn, b1.dn, b2.pn, b2.dn = 6, 2, 3, 8
    b.children = [b1, b2]
    renumber(b1)
    assert (b.pn, b.dn) == (2, 6 + 1) and (root.pn, root.dn) == (7, 40 + 1)
    assert most_proving(root) is a
    a.dn = 1
    renumber(a)
    assert most_proving(root) is a
    a.running = True
    assert most_proving(root) is b1
    b1.running = True
    assert most_proving(root) is b2
    b2.answer = -1
    assert most_proving(root) is None


def test_the_small_graphs_split_deep():
    """The tiny budgets make deep trees: on atlas:17 (the 4-point path) every test is split
    and the trees reach 5 plies or more (how deep depends on which worker takes which leaf:
    7 to 12 plies in the runs seen)."""
    solver = split_solver("atlas:17", "tromp-taylor", leaf=2)
    assert solver.solve().raw_value == 1
    assert len(solver.splits) == 4 and max(split["depth"] for split in solver.splits) >= 5


@pytest.mark.parametrize(
    "going_on, fresh, order, shared",
    [
        (False, False, "fewest", True),
        (True, False, "fewest", False),
        (False, True, "fewest", True),
        (False, True, "numbers", True),
        (False, True, "fewest", False),
    ],
)
def test_the_split_solve_of_path_8_is_exact_and_splits_deep(monkeypatch, going_on, fresh, order, shared):
    """1×8 (+3) split over two workers, the explicit tree three plies deep or more, a
    worker's leaf started again or gone on with (``RESUME``), the worker's numbers kept or
    emptied before each new leaf (``FRESH_NUMBERS``), the leaves taken by fewest nodes or
    by the tree's proof numbers (``LEAF_ORDER``), the table of answers shared or copied by
    each worker (``SHARE_TABLE``; ``RESUME`` with copies only: with the numbering of keys
    frozen its leaves of 16 nodes do not settle, ``split.RESUME``)."""
    monkeypatch.setattr(split, "RESUME", going_on)
    monkeypatch.setattr(split, "FRESH_NUMBERS", fresh)
    monkeypatch.setattr(split, "LEAF_ORDER", order)
    monkeypatch.setattr(split, "SHARE_TABLE", shared)
    solver = split_solver("path:8", "tromp-taylor", leaf=16)
    solution = solver.solve()
    assert solution.raw_value == 3 == plain_value("path:8", "tromp-taylor")
    assert solver.splits and max(split["depth"] for split in solver.splits) >= 3


def test_the_combination_turned_round_is_refuted():
    """The mutant that proves a node only when all its moves fail is wrong somewhere among
    the small graphs under positional superko, and on 1×8."""
    wrong = [
        g
        for g, preset in SMALL
        if preset == "tromp-taylor" and split_value(g, preset, OR_FOR_AND) != plain_value(g, preset)
    ]
    assert wrong
    assert split_value("path:8", "tromp-taylor", OR_FOR_AND, leaf=16) != 3


def test_one_job_is_the_plain_search_node_for_node():
    """With one job nothing is split, whatever ``split_after`` says: the nodes are the plain
    solve's."""
    one = split_solver("path:8", "tromp-taylor", jobs=1)
    one.probe_nodes = Solver(parse_graph("path:1"), "tromp-taylor").probe_nodes
    solution = one.solve()
    plain = Solver(parse_graph("path:8"), "tromp-taylor").solve()
    assert (solution.raw_value, solution.nodes) == (plain.raw_value, plain.nodes)
    assert one.splits == []


def test_a_test_is_split_as_soon_as_it_has_taken_its_nodes():
    """1×10 with shares of 2^30 nodes (a turn never ends by its share) and tests split after
    5,000 nodes: each split test took exactly 5,001 nodes in the solving process, the
    slice that crossed the mark cut there, not the turn's share; the value is the plain
    solve's."""
    solver = Solver(parse_graph("path:10"), "tromp-taylor", search="dfpn", jobs=2)
    solver.first_share, solver.split_after = 1 << 30, 5_000
    assert solver.solve().raw_value == plain_value("path:10", "tromp-taylor")
    assert solver.splits
    assert all(solver.test_nodes[split["t"]] == 5_001 for split in solver.splits)


def test_a_split_test_keeps_to_its_turns_share():
    """1×10 with shares of 2^14 nodes, tests split after 5,000 and leaves of 512: a split
    test gives the workers back when its turn's share is spent and goes on with the same
    tree at its next turn (some split ran in more than one turn, its leaves' nodes summed
    over them); the value is the plain solve's, and no worker is left."""
    solver = Solver(parse_graph("path:10"), "tromp-taylor", search="dfpn", jobs=2)
    solver.first_share, solver.split_after, solver.split_first, solver.split_expand = 1 << 14, 5_000, 512, 4096
    assert solver.solve().raw_value == plain_value("path:10", "tromp-taylor")
    assert any(split["turns"] > 1 and split["answer"] for split in solver.splits)
    assert all(split["turns"] >= 1 and 0 < split["needed"] <= split["nodes"] for split in solver.splits)
    assert multiprocessing.active_children() == []


def test_a_turn_counts_only_if_a_leaf_was_searched_in_it():
    """1×10's test of +2 split by hand: a turn whose share is spent before any leaf could be
    handed out gives the workers back (ShareSpent) without counting a turn; the next, whose
    leaves run until the node budget is spent, counts one."""
    from gorules.impl.solving.budget import BudgetSpent
    from gorules.impl.solving.stops import ShareSpent

    solver = Solver(parse_graph("path:10"), "tromp-taylor", search="dfpn", jobs=2)
    tree = split.Split(solver, solver.root(), 2, solver.group)
    pool = split.Pool(solver, 2)
    try:
        solver.share_until = solver.nodes - 1
        with pytest.raises(ShareSpent):
            tree.run(pool)
        assert tree.turns == 0 and tree.nodes == 0
        solver.share_until = None
        solver.max_nodes = solver.nodes + 3_000
        with pytest.raises(BudgetSpent):
            tree.run(pool)
        assert tree.turns == 1 and tree.nodes > 0
    finally:
        pool.close()
    assert multiprocessing.active_children() == []


def test_a_proved_node_needs_only_its_cheapest_refutation():
    """The nodes a split's answer rests on: a proved node counts its own searches and its
    cheapest disproved child, not its other children; a disproved or open node all of them."""
    root = Node((), (), (), 1, answer=1, spent=5)
    kids = [
        Node((0,), (), (), 0, root, answer=-1, spent=30),
        Node((1,), (), (), 0, root, answer=1, spent=100),
        Node((2,), (), (), 0, root, answer=-1, spent=20),
    ]
    root.children = kids
    assert needed(root) == 5 + 20
    root.answer = 0
    assert needed(root) == 5 + 150
    kids[2].children = [Node((2, 0), (), (), 1, kids[2], answer=-1, spent=7)]
    for kid in kids:
        kid.answer = 1
    root.answer = -1
    assert needed(root) == 5 + 30 + 100 + 27


def test_a_spent_budget_reports_bounds_and_ends_the_workers():
    """A split solve of 1×10 within 20,000 nodes: status bounds, the nodes within the budget
    and a leaf's overshoot, and no worker left."""
    solution = split_solver("path:10", "tromp-taylor", max_nodes=20_000).solve(bounds_on_budget=True)
    assert solution.status == "bounds"
    assert -10 <= solution.lower <= solution.upper <= 10
    assert solution.nodes <= 20_000 + 2 * 4096
    assert multiprocessing.active_children() == []


def test_the_cli_takes_jobs():
    """``--jobs 2`` solves 2×3 and says so in the JSON; ``--jobs 0`` and ``--jobs 99999``
    (as many forks of the solver) are usage errors, refused before any work."""
    code, out, _ = run_cli("solve", "grid:2x3", "--jobs", "2", "--json", "--no-progress")
    result = json.loads(out)
    assert code == 0 and result["jobs"] == 2 and result["status"] == "exact"
    for jobs in ("0", "99999"):
        code, _, err = run_cli("solve", "grid:2x3", "--jobs", jobs, "--no-progress")
        assert code == 2 and "--jobs" in err and len(err.strip().splitlines()) == 1


def test_the_tables_measured_are_the_kernels_large_arrays():
    """``table_bytes`` (the shared table of answers) and ``private_bytes`` (the bounds' cache
    and the numbering of keys) are what the kernel's arrays take, up to its per-ply buffers
    (under 8 MB, whatever the table), and the table grows exactly as the arrays do."""
    from gorules.impl.kernels import solve as _numba_solve

    graph = parse_graph("path:5")
    masks = [sum(1 << w for w in graph.neighbours[v]) for v in graph.points]
    sizes = {}
    for bits in (10, 16):
        arrays = _numba_solve.arrays(masks, False, True, False, 1, True, [], bits)
        sizes[bits] = sum(a.nbytes for a in arrays if hasattr(a, "nbytes"))
        large = _numba_solve.table_bytes(bits) + _numba_solve.private_bytes(5)
        assert 0 <= sizes[bits] - large < 8 << 20
    assert sizes[16] - sizes[10] == _numba_solve.table_bytes(16) - _numba_solve.table_bytes(10)


def test_jobs_are_refused_where_their_copies_do_not_fit():
    """A split takes the shared table once and up to ``jobs + 1`` copies of the private
    arrays (the solving process's and each worker's): a number that fits is kept, one that
    does not is refused with a message naming ``--jobs`` and how many fit; the default takes
    the cores, as many as fit, at least one."""
    gb = 10**9
    assert split.jobs_within(3, gb, 0, 4 * gb) == 3
    with pytest.raises(ValueError, match=r"--jobs 4: .* at most --jobs 3 fits"):
        split.jobs_within(4, gb, 0, 4 * gb)
    with pytest.raises(ValueError, match=r"use --jobs 1"):
        split.jobs_within(2, gb, 0, 2 * gb)
    assert split.jobs_within(1, 10 * gb, 0, gb) == 1
    assert split.jobs_within(8, gb, 0, None) == 8
    assert split.jobs_within(None, gb, 0, 3 * gb) == min(2, split.default_jobs())
    assert split.jobs_within(None, gb, 0, gb // 2) == 1
    # the shared table counts once: 2 GB shared and 3 copies of 1 GB fit in 5 GB
    assert split.jobs_within(2, gb, 2 * gb, 5 * gb) == 2
    with pytest.raises(ValueError, match=r"--jobs 3: .* at most --jobs 2 fits"):
        split.jobs_within(3, gb, 2 * gb, 5 * gb)


def test_a_solver_asked_for_more_jobs_than_fit_is_refused(monkeypatch):
    """The solver checks its jobs against the memory it finds before any work: with 1.3 GB
    free, 1×12's shared table (0.98 GB) and 3 copies of its private arrays (0.09 GB each)
    fit, and 4 do not."""
    from gorules.impl.solving import accounting
    from gorules.impl.solving import solve as solve_module

    monkeypatch.setattr(accounting, "memory_available", lambda: 13 * 10**8)
    graph = parse_graph("path:12")
    assert Solver(graph, "tromp-taylor", jobs=2).jobs == 2
    with pytest.raises(solve_module.SolveError, match="--jobs 3"):
        Solver(graph, "tromp-taylor", jobs=3)
    assert Solver(graph, "tromp-taylor", jobs=None).jobs == min(2, split.default_jobs())


def test_the_cli_refuses_jobs_that_do_not_fit_in_one_line():
    """``gorules solve path:12 --jobs 64``: capped by the cores, then 1×12's table and a
    copy of its private arrays for the solving process and each worker.  Where they do not
    fit the command exits 2 with one line naming ``--jobs`` and no progress bar; where they
    fit, it runs with as many workers as cores."""
    cores = min(64, os.cpu_count() or 1)
    solver = Solver(parse_graph("path:12"), "tromp-taylor")
    needed = split.memory_needed(cores, solver.private_bytes(), solver.table_bytes())
    available = split.memory_available()
    code, out, err = run_cli("solve", "path:12", "--jobs", "64", "--seconds", "0.5", "--json")
    if cores > 1 and available is not None and needed > available:
        assert code == 2 and f"--jobs {cores}" in err and "fits" in err
        assert len(err.strip().splitlines()) == 1 and "nodes/s" not in err
    else:
        assert code == 0 and json.loads(out)["jobs"] == cores


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="a split needs two cores: --jobs is capped by them")
def test_the_cli_refusal_of_jobs_is_one_line_before_any_work(monkeypatch, capsys):
    """With 1.2 GB free, ``gorules solve path:12 --jobs 2`` (1×12's table, 0.98 GB, and
    three copies of its private arrays, 0.09 GB each) exits 2 with one line naming
    ``--jobs 2`` and what fits, and no progress bar (refused before it appears)."""
    from gorules.cli import main
    from gorules.impl.solving import accounting

    monkeypatch.setattr(accounting, "memory_available", lambda: 12 * 10**8)
    assert main(["solve", "path:12", "--jobs", "2"]) == 2
    err = capsys.readouterr().err
    assert "--jobs 2" in err and "use --jobs 1" in err
    assert len(err.strip().splitlines()) == 1 and "nodes/s" not in err


@pytest.mark.parametrize("jobs", ["3", "64"])
def test_jobs_above_the_cores_are_capped_by_them(jobs):
    """``solve --jobs N`` above the machine's cores forked N copies of the solver to share
    them: the workers are capped by the cores, as sweep's and replay-sgf's are, and the
    JSON says how many ran."""
    code, out, err = run_cli("solve", "grid:2x3", "--jobs", jobs, "--json", "--no-progress")
    assert code == 0, err
    assert json.loads(out)["jobs"] == min(int(jobs), os.cpu_count() or 1)


@pytest.mark.parametrize("jobs", [str(10**6), "9" * 5000, "-1", "two"])
def test_absurd_jobs_are_refused_in_one_line(jobs):
    """A million workers, a number of 5,000 digits, a negative or a word: one line naming
    ``--jobs``, exit 2, before any work."""
    code, _, err = run_cli("solve", "grid:2x3", "--jobs", jobs, "--no-progress")
    assert code == 2 and "--jobs" in err and len(err.strip().splitlines()) == 1
