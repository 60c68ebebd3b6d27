"""``gorules solve`` as a user meets it: budgets, the status ``bounds``, the progress bar,
the JSON keys, refusals."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

KEYS = {"graph", "ruleset", "options", "status", "value", "lower", "upper", "principal_variation", "nodes", "seconds"}


def run_cli(*args):
    """Run ``gorules`` in a subprocess: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "gorules", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_a_spent_budget_reports_bounds():
    code, out, _ = run_cli("solve", "path:8", "--nodes", "5000", "--json", "--no-progress")
    assert code == 0
    result = json.loads(out)
    assert set(result) >= KEYS
    assert result["status"] == "bounds" and result["value"] is None
    assert -8 <= result["lower"] <= result["upper"] <= 8
    assert result["nodes"] <= 5001


def test_an_exact_value_has_equal_bounds_and_a_progress_bar():
    code, out, err = run_cli("solve", "path:5", "--json")
    result = json.loads(out)
    assert code == 0 and result["status"] == "exact"
    assert result["value"] == result["lower"] == result["upper"] == 0
    assert "nodes" in err


def test_the_text_output_names_the_flags_when_the_budget_runs_out():
    code, out, _ = run_cli("solve", "path:11", "--seconds", "0.5", "--no-progress")
    assert code == 0
    assert "status bounds" in out and "--seconds" in out


def test_refusals_are_one_line_and_exit_two():
    for args in (("solve", "grid:6x6"), ("solve", "path:3", "--seconds", "0"), ("solve", "grid:0x0")):
        code, out, err = run_cli(*args)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, args
    code, _, err = run_cli("solve", "grid:6x6")
    assert "--max-points" in err and "at most 30" in err


def test_four_by_four_runs_within_the_default_limit_and_reports_proven_bounds():
    """grid:4x4 is taken by default; a budget too short for its value gives status bounds,
    bounds that contain the published value +2, and names the flags to raise."""
    code, out, _ = run_cli("solve", "grid:4x4", "--seconds", "2", "--json", "--no-progress")
    result = json.loads(out)
    assert code == 0 and result["status"] == "bounds" and result["value"] is None
    assert -16 <= result["lower"] <= 2 <= result["upper"] <= 16


def test_the_compiled_core_gives_the_value_and_says_so():
    """``--core compiled`` finds the same value as the Python core, and the JSON names the core."""
    values = {}
    for core in ("python", "compiled"):
        code, out, _ = run_cli("solve", "grid:2x3", "--core", core, "--json", "--no-progress")
        result = json.loads(out)
        assert code == 0 and result["core"] == core and result["status"] == "exact"
        values[core] = result["value"]
    assert values["python"] == values["compiled"] == 0


def test_the_compiled_core_refuses_cycling_rules_in_one_line():
    """Under ko=simple (play can cycle) the compiled core is refused: one line, exit 2."""
    code, out, err = run_cli("solve", "path:3", "--core", "compiled", "--option", "ko=simple", "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "compiled core" in err


def test_the_compiled_core_reports_bounds_when_the_budget_runs_out():
    """A node budget spent inside the compiled core still ends in status bounds, within it."""
    code, out, _ = run_cli("solve", "path:8", "--core", "compiled", "--nodes", "5000", "--json", "--no-progress")
    result = json.loads(out)
    assert code == 0 and result["status"] == "bounds" and result["core"] == "compiled"
    assert -8 <= result["lower"] <= result["upper"] <= 8
    assert result["nodes"] <= 5001


def test_territory_keeps_the_value_with_fewer_nodes():
    """``--territory`` counts the secure regions too: the same value on 2×3, fewer nodes."""
    nodes = {}
    for flags in ((), ("--territory",)):
        code, out, _ = run_cli("solve", "grid:2x3", *flags, "--json", "--no-progress")
        result = json.loads(out)
        assert code == 0 and result["value"] == 0
        assert result["territory"] is bool(flags)
        nodes[flags] = result["nodes"]
    assert nodes[("--territory",)] < nodes[()]


@pytest.mark.parametrize("ruleset", ["ultimate", "topological"])
@pytest.mark.parametrize("flag", [("--territory",), ("--descent", "bisect")])
def test_tromp_taylor_flags_are_refused_outside_tromp_taylor_in_one_line(ruleset, flag):
    code, out, err = run_cli("solve", "path:3", "--ruleset", ruleset, *flag, "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert flag[0] in err


def test_the_descent_is_named_in_the_json():
    for descent in ("step", "bisect"):
        code, out, _ = run_cli("solve", "grid:2x3", "--descent", descent, "--json", "--no-progress")
        result = json.loads(out)
        assert code == 0 and result["value"] == 0 and result["descent"] == descent


def test_the_kernels_are_readied_before_the_clock_starts():
    """The compiled core's kernels are called (compiled, or loaded from numba's cache) before
    the search's clock: the progress callback sees the phase ``compiling`` first, then the
    search; the seconds of that phase are reported apart, once a process, and the Python core
    has none."""
    from gorules.impl.solving.solve import READIED, Solver
    from gorules.spec.graph import parse_graph

    READIED.clear()  # as in a new process
    phases: list = []
    solution = Solver(parse_graph("grid:2x2"), progress=lambda solver: phases.append(solver.phase)).solve()
    assert phases[0] == "compiling" and phases[1] == "searching"
    assert solution.details["compile_seconds"] > 0 and solution.value == 1
    again = Solver(parse_graph("grid:2x2"), progress=lambda solver: phases.append(solver.phase)).solve()
    assert again.details["compile_seconds"] == 0.0 and "compiling" not in phases[2:]  # once a process
    python = Solver(parse_graph("grid:2x2"), core="python").solve()
    assert python.details["compile_seconds"] == 0.0
