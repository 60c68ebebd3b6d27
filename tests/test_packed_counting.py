"""The packed, compiled frontier count of legal positions on grids: against the exact frontier
program on every small rectangle, against the published square-board values (OEIS A094777),
with one key for each pair of states exchanged by the colours and without (the same counts,
about half the states; wrong variants of the exchange give wrong counts), and as ``gorules
count`` chooses, reports and refuses it."""

from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from gorules.cli import main
from gorules.impl.counting import packed as packed_module
from gorules.impl.counting.packed import (
    PackedCounter,
    chinese_remainder,
    count_legal_grid,
    fits,
    packed_cost,
    primes_for,
    word_primes,
)
from gorules.impl.counting.positions import count_legal
from gorules.impl.kernels import frontier
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


def packed(name: str, colour_symmetry: bool = True) -> int:
    """L of a grid by the packed count."""
    return count_legal_grid(parse_graph(name), colour_symmetry=colour_symmetry)[0]


@pytest.mark.parametrize(("rows", "columns"), RECTANGLES)
def test_packed_count_agrees_with_the_exact_frontier_program(rows, columns):
    name = f"grid:{rows}x{columns}"
    assert packed(name) == packed(name, colour_symmetry=False) == count_legal(parse_graph(name))


@pytest.mark.parametrize("n", range(1, 9))
def test_packed_count_gives_the_published_square_boards(n):
    name = f"grid:{n}x{n}"
    assert packed(name) == packed(name, colour_symmetry=False) == A094777[n - 1]


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


@pytest.mark.parametrize("colour_symmetry", [True, False])
@pytest.mark.parametrize("n", [7, 8])
def test_the_estimate_of_border_states_is_within_a_factor_two_of_the_count(n, colour_symmetry):
    graph = parse_graph(f"grid:{n}x{n}")
    _, largest = count_legal_grid(graph, colour_symmetry=colour_symmetry)
    assert 0.5 < packed_cost(graph, colour_symmetry=colour_symmetry).states / largest < 2


def step_tables(width: int, rows: int, colour_symmetry: bool):
    """The table after each step of the packed count of a grid ``width`` wide, ``rows`` long."""
    counter = PackedCounter(width, word_primes(1), colour_symmetry)
    table = counter.start()
    for row in range(rows):
        for column in range(width):
            table, _ = frontier.advance(table, width, column, row > 0, column > 0, counter.primes, 16, colour_symmetry)
            yield table


def self_symmetric(table, width: int) -> int:
    """The keys of a table whose state is its own colour exchange."""
    codes = np.zeros(width, np.int64)
    found = 0
    for key in table[table[:, 0] != frontier.NO_STATE, 0]:
        frontier.decode(key, width, codes)
        found += int(frontier.swapped_key(codes, width) == key)
    return found


def test_the_colour_exchange_merges_the_states_in_pairs_but_the_self_symmetric():
    """Each step holds (states + self-symmetric states) / 2 keys with the exchange, where the
    states are those held without it: between half as many and as many."""
    width, rows = 5, 6
    pairs = zip(step_tables(width, rows, True), step_tables(width, rows, False), strict=True)
    for merged, every in pairs:
        with_exchange = int((merged[:, 0] != frontier.NO_STATE).sum())
        without = int((every[:, 0] != frontier.NO_STATE).sum())
        assert without / 2 <= with_exchange <= without
        assert with_exchange == (without + self_symmetric(every, width)) / 2


def test_the_counter_records_about_half_the_states_at_every_step():
    width = 6
    merged, every = PackedCounter(width, word_primes(1)), PackedCounter(width, word_primes(1), False)
    assert merged.run(width) == every.run(width)
    assert len(merged.sizes) == len(every.sizes) == width * width
    assert all(b / 2 <= a <= b for a, b in zip(merged.sizes, every.sizes, strict=True))
    assert merged.largest < every.largest


def plain_python_kernel(monkeypatch, **replaced) -> None:
    """Run the packed count's step as plain Python (the source of each compiled function on
    the path from a table to its successors' keys), with ``replaced`` functions of the
    kernel swapped for others: a way to run a deliberately wrong variant."""
    for name in ("advance", "successors", "successor", "canonical_key", "edited_key", "swapped_key", "decode"):
        monkeypatch.setattr(frontier, name, getattr(frontier, name).py_func)
    for name, function in replaced.items():
        monkeypatch.setattr(frontier, name, function)
    monkeypatch.setattr(packed_module, "advance", frontier.advance)


def python_count(name: str) -> int:
    """L of a grid by the packed count, its hashing in plain Python (overflow is intended)."""
    with np.errstate(over="ignore"):
        return packed(name)


def test_the_plain_python_kernel_itself_gives_the_right_count(monkeypatch):
    plain_python_kernel(monkeypatch)
    assert python_count("grid:3x4") == count_legal(parse_graph("grid:3x4"))


def test_an_exchange_that_keeps_the_colour_of_libertyless_stones_gives_a_wrong_count(monkeypatch):
    """Merging states that are not each other's exchange is caught on a small grid."""
    real = frontier.swapped_code

    def half_swapped(code):
        return code if code >= frontier.FIRST_CAPTIVE else real(code)

    plain_python_kernel(monkeypatch, swapped_code=half_swapped)
    assert python_count("grid:3x4") != count_legal(parse_graph("grid:3x4"))


def test_doubling_the_self_symmetric_states_gives_a_wrong_count(monkeypatch):
    """A pair's total is added once whatever the pair: counting a self-symmetric state twice,
    as if it stood for two states, is caught on a small grid."""
    real = frontier.add_row
    codes = np.zeros(3, np.int64)

    def doubled(table, key, source, row, primes):
        new = real(table, key, source, row, primes)
        frontier.decode(key, 3, codes)
        if frontier.swapped_key(codes, 3) == key:
            real(table, key, source, row, primes)
        return new

    plain_python_kernel(monkeypatch, add_row=doubled)
    assert python_count("grid:3x4") != count_legal(parse_graph("grid:3x4"))


def test_a_fast_path_left_uncanonical_keeps_the_count_but_not_the_halving(monkeypatch):
    """Any member of a pair may stand for it, so a successor left as it comes (the fast path
    not taking the smaller key) still counts right; only the merging is lost."""

    def uncanonical(key, mirror, old, new, column, symmetric):
        power = frontier.POWERS[column]
        return key - np.uint64(old) * power + np.uint64(new) * power

    graph = parse_graph("grid:3x4")
    _, merged = count_legal_grid(graph)
    plain_python_kernel(monkeypatch, edited_key=uncanonical)
    with np.errstate(over="ignore"):
        count, largest = count_legal_grid(graph)
    assert count == count_legal(graph)
    assert largest > merged


class Terminal(io.StringIO):
    """A captured stderr that says it is a terminal, so that a command draws its progress bar."""

    def isatty(self) -> bool:
        return True


def run_on_terminal(*argv) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `gorules`, stderr taken for a terminal."""
    out, err = io.StringIO(), Terminal()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def without_timings(text: str) -> dict:
    """A count's JSON without what varies from run to run (seconds, peak memory)."""
    result = json.loads(text)
    return {k: v for k, v in result.items() if k not in ("seconds", "peak_bytes")}


def test_no_progress_is_accepted_and_leaves_the_output_as_it_was():
    code, out, _ = run_cli("count", "grid:6x6", "--json")
    quiet_code, quiet_out, quiet_err = run_on_terminal("count", "grid:6x6", "--json", "--no-progress")
    assert code == quiet_code == 0
    assert without_timings(quiet_out) == without_timings(out)
    assert quiet_err == ""


def test_the_packed_count_draws_its_bar_over_the_points_placed_on_a_terminal():
    code, out, err = run_on_terminal("count", "grid:6x6")
    assert code == 0 and "by packed" in out
    assert "36/36" in err and "point" in err and "estimate" in err
    _, quiet_out, quiet_err = run_on_terminal("count", "grid:6x6", "--no-progress")
    assert quiet_err == ""
    assert steady_lines(quiet_out) == steady_lines(out)


def steady_lines(text: str) -> list[str]:
    """A count's text without the lines that vary from run to run (peak memory, time)."""
    return [line for line in text.splitlines() if not line.startswith(("measured", "time"))]
