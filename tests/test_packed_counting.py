"""The packed, compiled frontier count of legal positions on grids: against the exact frontier
program on every small rectangle, against the published square-board values (OEIS A094777),
and as ``gorules count`` chooses, reports and refuses it."""

from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout

import pytest

from gorules.cli import main
from gorules.impl.counting.packed import (
    chinese_remainder,
    count_legal_grid,
    fits,
    packed_cost,
    primes_for,
    word_primes,
)
from gorules.impl.counting.positions import count_legal
from gorules.spec.graph import parse_graph

# OEIS A094777, number of legal positions in Go on an n×n grid, a(1)..a(14)
# (https://oeis.org/A094777; a(10)-a(13) from John Tromp, June 2005).
A094777 = [
    1,
    57,
    12675,
    24318165,
    414295148741,
    62567386502084877,
    83677847847984287628595,
    990966953618170260281935463385,
    103919148791293834318983090438798793469,
    96498428501909654589630887978835098088148177857,
    793474866816582266820936671790189132321673383112185151899,
    57774258489513238998237970307483999327287210756991189655942651331169,
    37249792307686396442294904767024517674249157948208717533254799550970595875237705,
    212667732900366224249789357650440598098805861083269127196623872213228196352455447575029701325,
]

RECTANGLES = [(m, n) for m in range(1, 6) for n in range(1, 7)]


def packed(name: str) -> int:
    """L of a grid by the packed count."""
    return count_legal_grid(parse_graph(name))[0]


@pytest.mark.parametrize(("rows", "columns"), RECTANGLES)
def test_packed_count_agrees_with_the_exact_frontier_program(rows, columns):
    graph = parse_graph(f"grid:{rows}x{columns}")
    assert count_legal_grid(graph)[0] == count_legal(graph)


@pytest.mark.parametrize("n", range(1, 9))
def test_packed_count_gives_the_published_square_boards(n):
    assert packed(f"grid:{n}x{n}") == A094777[n - 1]


@pytest.mark.slow
def test_packed_count_gives_the_published_nine_by_nine():
    assert packed("grid:9x9") == A094777[8]


def test_exact_python_path_still_gives_the_published_small_squares():
    assert [count_legal(parse_graph(f"grid:{n}x{n}")) for n in range(1, 6)] == A094777[:5]


def test_one_prime_too_few_gives_a_residue_not_the_count():
    """With a single prime the count is only known modulo it: 7×7 exceeds one word."""
    graph = parse_graph("grid:7x7")
    prime = word_primes(1)
    assert A094777[6] > prime[0]
    assert count_legal_grid(graph, primes=prime)[0] == A094777[6] % prime[0]


def test_enough_primes_for_the_bound_three_to_the_points():
    for points in (1, 81, 169):
        assert math.prod(primes_for(points)) > 3**points


def test_chinese_remainder_recovers_a_number_from_its_residues():
    primes = word_primes(3)
    number = A094777[7]
    assert number < math.prod(primes)
    assert chinese_remainder([number % p for p in primes], primes) == number


def test_the_packed_count_takes_grids_up_to_thirteen_columns_only():
    assert fits(parse_graph("grid:13x25"))
    assert not fits(parse_graph("grid:14x14"))
    assert not fits(parse_graph("petersen"))
    with pytest.raises(ValueError):
        count_legal_grid(parse_graph("petersen"))


def run_cli(*argv) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `gorules`."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_count_chooses_the_packed_path_on_a_wide_grid_and_reports_its_estimate():
    code, out, _ = run_cli("count", "grid:6x7", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["method"] == "packed"
    assert result["legal_positions"] == count_legal(parse_graph("grid:6x7"))
    assert result["states"] > 0 and result["estimate"]["states"] > 0
    assert result["estimate"]["bytes"] > 0 and result["peak_bytes"] > 0


def test_count_shows_the_method_in_its_text():
    code, out, _ = run_cli("count", "grid:6x6")
    assert code == 0
    assert "by packed" in out and "estimate" in out and "measured" in out


@pytest.mark.parametrize(("name", "method"), [("petersen", "dp"), ("grid:3x3", "dp"), ("cycle:9", "dp")])
def test_count_leaves_other_graphs_to_the_exact_program(name, method):
    code, out, _ = run_cli("count", name, "--json")
    assert code == 0
    assert json.loads(out)["method"] == method


def test_packed_method_on_a_graph_that_is_not_a_grid_is_one_line_exit_2():
    code, _, err = run_cli("count", "petersen", "--method", "packed")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "--method dp" in err


def test_a_count_beyond_the_time_budget_is_refused_naming_the_flag():
    code, out, err = run_cli("count", "grid:12x12", "--seconds", "1")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "--seconds" in err


@pytest.mark.parametrize("n", [7, 8])
def test_the_estimate_of_border_states_is_within_a_factor_two_of_the_count(n):
    graph = parse_graph(f"grid:{n}x{n}")
    _, largest = count_legal_grid(graph)
    assert 0.5 < packed_cost(graph).states / largest < 2
