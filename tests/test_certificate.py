"""Certificates: written by the solver, re-verified with the spec alone, and rejected when
one move, one reply or one bound is altered."""

from __future__ import annotations

import ast
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gorules.impl import certificate_check
from gorules.impl.certificate import CertificateRefused, certificate
from gorules.impl.certificate_check import CertificateError, check
from gorules.impl.solve import Solver
from gorules.spec.graph import parse_graph
from gorules.spec.tromp_taylor import PRESETS


def certified(name: str, preset: str = "tromp-taylor") -> dict:
    """The certificate of ``name``'s value under ``preset``."""
    solver = Solver(parse_graph(name), PRESETS[preset])
    solution = solver.solve()
    return certificate(solver, solution.raw_value)


@pytest.fixture(scope="module")
def two_by_two() -> dict:
    return certified("grid:2x2")


def test_the_checker_reads_only_the_spec():
    """certificate_check imports nothing of the engine or the solver."""
    tree = ast.parse(Path(certificate_check.__file__).read_text(encoding="utf-8"))
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert all(m == "__future__" or m == "typing" or m.startswith("gorules.spec") for m in modules), modules


@pytest.mark.parametrize(
    "name, preset",
    [
        ("grid:2x2", "tromp-taylor"),
        ("path:4", "tromp-taylor"),
        ("grid:2x3", "tromp-taylor"),
        ("path:4", "situational"),
        ("cycle:4", "no-suicide"),
        ("path:4", "stone"),
        ("star:3", "tromp-taylor"),
    ],
)
def test_certificates_check_with_the_spec(name, preset):
    data = certified(name, preset)
    assert check(data) is None
    assert data["lower"] == data["upper"] == data["value"]


def test_the_two_by_two_certificate_proves_plus_one(two_by_two):
    assert two_by_two["value"] == 1
    assert check(two_by_two) is None


def first_node(data: dict, predicate) -> dict:
    """The first node of the certificate for which ``predicate`` holds."""
    return next(node for node in data["nodes"] if predicate(node))


def test_an_altered_move_is_rejected(two_by_two):
    """Black's one move at some node replaced by another empty point (or a pass): it is
    illegal, or the board it gives is not the board of the node it points to."""
    data = copy.deepcopy(two_by_two)
    node = first_node(data, lambda n: n.get("to_move") == "B" and n["moves"][0][0] != "pass")
    played = node["moves"][0][0]
    others = [v for v, colour in enumerate(node["board"]) if colour == "." and v != played]
    node["moves"][0][0] = others[0] if others else "pass"
    problem = check(data)
    assert problem is not None and "node" in problem


def test_a_missing_reply_is_rejected(two_by_two):
    data = copy.deepcopy(two_by_two)
    node = first_node(data, lambda n: n.get("to_move") == "W" and len(n.get("moves", [])) > 1)
    node["moves"].pop()
    problem = check(data)
    assert problem is not None and "not the legal moves" in problem


def test_a_raised_bound_is_rejected(two_by_two):
    """Claiming +2 on 2×2 with the same strategy fails at a final board worth +1."""
    data = copy.deepcopy(two_by_two)
    data["value"] = data["lower"] = data["strategies"]["lower"]["bound"] = 2
    problem = check(data)
    assert problem is not None and "outside the bound" in problem


def test_a_static_leaf_proves_only_the_trivial_bound(two_by_two):
    data = copy.deepcopy(two_by_two)
    root = data["strategies"]["upper"]["root"]
    data["nodes"][root] = {"id": root, "board": data["nodes"][root]["board"], "static": True}
    problem = check(data)
    assert problem is not None and "static" in problem


def test_cycling_rules_are_refused():
    solver = Solver(parse_graph("path:2"), PRESETS["gnugo-chinese"])
    solution = solver.solve()
    with pytest.raises(CertificateRefused, match="superko"):
        certificate(solver, solution.raw_value)
    with pytest.raises(CertificateError):
        check({"format": "something else"})


def run_cli(*args):
    """Run ``gorules`` in a subprocess: (exit code, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-m", "gorules", *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_cli_writes_and_checks_a_certificate(tmp_path, two_by_two):
    path = tmp_path / "proof.json"
    code, out, _ = run_cli("solve", "grid:2x2", "--certificate", str(path), "--no-progress")
    assert code == 0 and "certificate" in out
    assert run_cli("check-certificate", str(path))[0] == 0
    data = json.loads(path.read_text())
    data["strategies"]["lower"]["bound"] = data["lower"] = data["value"] = 3
    path.write_text(json.dumps(data))
    code, out, _ = run_cli("check-certificate", str(path))
    assert code == 1 and out.startswith("invalid") and "node" in out
    path.write_text("{not json")
    code, _, err = run_cli("check-certificate", str(path))
    assert code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_three_by_three_certificate(tmp_path):
    """The 3×3 value +9 and its certificate, checked by the CLI with the spec."""
    path = tmp_path / "3x3.json"
    code, out, _ = run_cli("solve", "grid:3x3", "--certificate", str(path), "--json", "--no-progress")
    assert code == 0
    assert json.loads(out)["value"] == 9
    code, out, _ = run_cli("check-certificate", str(path), "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["valid"] and verdict["lower"] == verdict["upper"] == 9
