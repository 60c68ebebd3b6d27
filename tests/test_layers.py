"""The import direction the README draws: spec imports nothing of the project but itself;
impl and proofs import spec (and themselves) only; the application imports anything.
One leaf module, ``gorules.processes`` (pool workers that die with their parent), imports
nothing of the project and every layer may use it.
Every import is read from the source, those inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"spec": ROOT / "spec", "impl": ROOT / "impl", "proofs": ROOT / "proofs", "gorules": ROOT / "gorules"}
LEAVES = {"gorules.processes": ROOT / "gorules" / "processes.py"}
ALLOWED = {
    "spec": {"spec", "leaf"},
    "impl": {"spec", "impl", "leaf"},
    "proofs": {"spec", "proofs", "leaf"},
}


def layer_of(module: str) -> str | None:
    """The layer a module of the project belongs to (``gorules.spec.graph`` → spec), or None."""
    parts = module.split(".")
    if ".".join(parts[:2]) in LEAVES:
        return "leaf"
    if parts[0] != "gorules":
        return None
    if len(parts) > 1 and parts[1] in ("spec", "impl", "proofs"):
        return parts[1]
    return "gorules"


def imported_modules(path: Path) -> list[str]:
    """The absolute module names a file imports (``from . import`` is not used in the project)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def violations(layer: str) -> list[str]:
    """The imports of a layer's files that reach a layer it may not import."""
    found = []
    for path in sorted(FOLDERS[layer].rglob("*.py")):
        for module in imported_modules(path):
            target = layer_of(module)
            if target is not None and target not in ALLOWED[layer]:
                found.append(f"{layer}/{path.relative_to(FOLDERS[layer])} imports {module}")
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_go_one_way(layer):
    assert violations(layer) == []


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_leaves_import_nothing_of_the_project(leaf):
    assert [m for m in imported_modules(LEAVES[leaf]) if layer_of(m) is not None] == []


def test_the_check_sees_a_wrong_import(tmp_path, monkeypatch):
    """The check can fail: a spec module that imports the engine is reported."""
    (tmp_path / "bad.py").write_text("from gorules.impl.engine.rules import move\n")
    monkeypatch.setitem(FOLDERS, "spec", tmp_path)
    assert violations("spec") == [
        "spec/bad.py imports gorules.impl.engine.rules",
        "spec/bad.py imports gorules.impl.engine.rules.move",
    ]
