"""The estimate of the number of games (``count --games --estimate N``): its 95 % interval
covers the exact counts where they are known, on the engine's move table and through the
ruleset interface, the compiled and plain kernels agree, mutants of the kernel are caught
by the same check, and the command says "estimate" and refuses in one line."""

from __future__ import annotations

import inspect
import io
import json
import math
import textwrap
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

from gorules import rulesets
from gorules.cli import main
from gorules.impl.counting import estimate
from gorules.impl.counting.estimate import TableRuns, estimate_games
from gorules.impl.counting.games import count_games
from gorules.spec.graph import parse_graph

RULES = [(ko, suicide) for ko in ("positional", "situational") for suicide in ("allowed", "forbidden")]
ONE_BY_FOUR = {
    ("positional", "allowed"): 2_098_407_841,
    ("positional", "forbidden"): 719_178_893,
    ("situational", "forbidden"): 1_359_471_437,
}


def ruleset(ko: str, suicide: str, implementation: str | None = None):
    """Tromp–Taylor's ruleset with these ko and suicide options."""
    return rulesets.make("tromp-taylor", None, {"ko": ko, "suicide": suicide}, implementation)


def exact(name: str, ko: str, suicide: str) -> int:
    """The exact number of games by the counting searches."""
    return count_games(parse_graph(name), options=ruleset(ko, suicide).options).games


SEEDS = range(10)
VALIDATED = 8
"""Of the 10 seeds, the intervals that must cover the exact count: each covers with
probability about 95 % (measured: docs/games.md), so 8 or more happens with probability
0.99 for a correct estimator, and a biased one covers on no seed."""


def covering(name: str, ruleset, games: int, samples: int, population: int, compiled=None) -> int:
    """On how many of the seeds the estimate's 95 % interval contains ``games`` and is
    narrow (within a factor e^0.5 ≈ 1.65 from end to end: a wide interval covers anything)."""
    graph = parse_graph(name)
    found = [estimate_games(graph, ruleset, samples, population, seed, compiled=compiled) for seed in SEEDS]
    return sum(f.covers(games) and f.log_high - f.log_low < 0.5 for f in found)


@pytest.mark.parametrize("ko, suicide", RULES)
@pytest.mark.parametrize("name", ["grid:1x2", "grid:2x1", "grid:1x3", "cycle:3"])
def test_interval_covers_the_exact_count_on_tiny_boards(name, ko, suicide):
    assert covering(name, ruleset(ko, suicide), exact(name, ko, suicide), 40, 40) >= VALIDATED


@pytest.mark.parametrize("ko, suicide", sorted(ONE_BY_FOUR))
def test_interval_covers_the_exact_count_on_one_by_four(ko, suicide):
    assert covering("grid:1x4", ruleset(ko, suicide), ONE_BY_FOUR[ko, suicide], 40, 200) >= VALIDATED


def test_knuths_single_random_game_is_too_dispersed_on_one_by_four():
    """With a population of 1 (Knuth's estimator) the same number of games played leaves
    the runs' estimates dominated by a few: the reason a population is used."""
    found = estimate_games(parse_graph("grid:1x4"), ruleset("positional", "forbidden"), samples=18_000, seed=5)
    assert found.effective_samples < 0.05 * found.samples


@pytest.mark.parametrize("ko, suicide", RULES)
def test_estimate_through_the_interface_covers_the_exact_count(ko, suicide):
    found = estimate_games(parse_graph("grid:1x3"), ruleset(ko, suicide, "spec"), samples=25, population=15, seed=2)
    assert found.playout.startswith("the ruleset interface")
    assert found.covers(exact("grid:1x3", ko, suicide))


def test_compiled_and_plain_kernels_agree():
    graph = parse_graph("grid:1x3")
    for ko, suicide in RULES:
        compiled = TableRuns(graph, ko, suicide, population=8, compiled=True)(20, 3)
        plain = TableRuns(graph, ko, suicide, population=8, compiled=False)(20, 3)
        assert np.array_equal(compiled[0], plain[0]) and np.array_equal(compiled[1], plain[1])


def mutant_kernel(old: str, new: str):
    """The plain kernel with one line of its source changed."""
    source = textwrap.dedent(inspect.getsource(estimate._enumeration_kernel))
    assert source.count(old) == 1
    namespace = {"np": np, "math": math}
    exec(source.replace(old, new), namespace)
    return namespace["_enumeration_kernel"]


MUTANTS = {
    "weights without the branching factor": ("log_weight += math.log(children) - math.log(size)", "pass"),
    "the situations after passes left out of the history": (
        "if situational or not is_pass[c]:",
        "if not is_pass[c]:",
    ),
    "a position's history where situations are asked": (
        "key = 2 * r + 1 - m if situational else r",
        "key = 2 * r if situational else 2 * r",
    ),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_coverage_check_catches_mutants_of_the_kernel(monkeypatch, mutant):
    monkeypatch.setattr(estimate, "_enumeration_kernel", mutant_kernel(*MUTANTS[mutant]))
    assert covering("grid:1x3", ruleset("situational", "allowed"), 19_207, 20, 20, compiled=False) < VALIDATED


def test_the_unmutated_plain_kernel_passes_the_same_check():
    assert covering("grid:1x3", ruleset("situational", "allowed"), 19_207, 20, 20, compiled=False) >= VALIDATED


def run_cli(*argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `gorules`."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_cli_says_estimate_and_never_exact():
    argv = ("count", "grid:1x3", "--games", "--estimate", "20", "--population", "20", "--seed", "4")
    code, out, _ = run_cli(*argv, "--json")
    assert code == 0
    result = json.loads(out)
    assert "games" not in result
    found = result["games_estimate"]
    assert found["samples"] == 20 and found["population"] == 20 and found["seed"] == 4
    assert float(found["low"]) <= 907 <= float(found["high"])
    code, out, _ = run_cli(*argv)
    assert code == 0 and "games estimate" in out and "not exact" in out and "20 runs of population 20" in out


def test_cli_same_seed_same_estimate():
    argv = ("count", "grid:1x3", "--games", "--estimate", "10", "--population", "10", "--json")
    first = json.loads(run_cli(*argv, "--seed", "1")[1])["games_estimate"]
    again = json.loads(run_cli(*argv, "--seed", "1")[1])["games_estimate"]
    other = json.loads(run_cli(*argv, "--seed", "2")[1])["games_estimate"]
    assert first == again and first != other


def test_cli_single_run_has_an_unbounded_interval():
    code, out, _ = run_cli("count", "grid:1x3", "--games", "--estimate", "1", "--population", "5", "--json")
    found = json.loads(out)["games_estimate"]
    assert code == 0 and found["low"] == "0" and found["high"] == "inf"


@pytest.mark.parametrize(
    "argv, said",
    [
        (("grid:1x3", "--games", "--estimate", "0"), "at least 1"),
        (("grid:1x3", "--games", "--estimate", "5", "--option", "ko=simple"), "ko=simple"),
        (("grid:5x5", "--games", "--estimate", "5"), "move table"),
        (("grid:1x4", "--games", "--estimate", "100000", "--seconds", "0.01"), "--seconds"),
    ],
)
def test_cli_refuses_in_one_line(argv, said):
    code, out, err = run_cli("count", *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and said in err
